"""README blocks, man pages, completions and docs/json.md stay true to the command tree.

``scripts/gen_docs.py`` regenerates all of them; these tests regenerate into a temp dir and
compare bytes with the committed files (like ``cog --check``), then check what a reader relies
on: every command has help and examples, every long option is on its man page, every setting
is in the config table, and ``man`` renders the pages.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "scripts" / "gen_docs.py"
REGENERATE = "run `python scripts/gen_docs.py` and commit the result"


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", GEN)
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_docs"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


gen_docs = _gen_docs()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    proc = subprocess.run([sys.executable, str(GEN), "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def tree():
    return gen_docs.command_tree()


def test_committed_files_match_a_fresh_generation(generated):
    produced = sorted(p.relative_to(generated).as_posix() for p in generated.rglob("*") if p.is_file())
    assert any(p.startswith("man/") for p in produced) and any(p.startswith("completions/") for p in produced)
    stale = [rel for rel in produced if not (ROOT / rel).exists() or (ROOT / rel).read_bytes() != (generated / rel).read_bytes()]
    orphans = [f"man/{p.name}" for p in (ROOT / "man").glob("*.1") if not (generated / "man" / p.name).exists()]
    assert not stale, f"stale generated files {stale}: {REGENERATE}"
    assert not orphans, f"man pages for commands that no longer exist {orphans}: {REGENERATE}"


def test_readme_blocks_are_generated_when_the_readme_exists(generated):
    if not (ROOT / "README.md").exists():
        pytest.skip("README.md is not written yet")
    assert (generated / "README.md").exists()  # markers present (gen_docs exits otherwise) and the blocks regenerated


def test_every_command_has_help_and_examples(tree):
    for node in tree.walk():
        info = gen_docs.help_of(node)
        assert info.summary, f"`{node.name}` has no help text: give it a docstring"
        if node.is_group:
            continue  # a group's subcommands carry the examples
        assert info.examples, f"`{node.name}`'s docstring needs an 'Examples:' block"
        assert any(node.name in example for example in info.examples), f"`{node.name}`'s examples never run `{node.name}`"


def test_every_long_option_appears_in_its_man_page(tree):
    for node in tree.walk():
        page = (ROOT / "man" / f"{node.page}.1").read_text().replace("\\-", "-")
        for param in node.command.get_params(node.ctx):
            if getattr(param, "hidden", False):
                continue
            for opt in [*param.opts, *getattr(param, "secondary_opts", [])]:
                if opt.startswith("--"):
                    assert re.search(rf"\\fB{re.escape(opt)}\\fR", page), f"{opt} missing from man/{node.page}.1: {REGENERATE}"


def test_every_subcommand_is_listed_on_its_parents_page(tree):
    for node in tree.walk():
        page = (ROOT / "man" / f"{node.page}.1").read_text()
        for child in node.children:
            assert f"\\fB{gen_docs.roff_escape(child.page)}\\fR(1)" in page, f"{child.name} missing from man/{node.page}.1"


def test_the_fast_lanes_options_are_generated_from_the_typer_commands(tree):
    """The launcher parses its fast-laned commands with parsers built from ``clawmem/fastlane/options.json``:
    every argument and switch of their Typer definitions is in it, and nothing else changed since it was generated."""
    import json

    from clawmem.fastlane import OPTIONS_FILE

    committed = json.loads(OPTIONS_FILE.read_text(encoding="utf-8"))
    for name in gen_docs.fastlane_options.fast_lane_commands():
        recorded = {param["dest"]: param for param in committed.get(name, [])}
        for param in tree.command.get_command(tree.ctx, name).params:
            switches = [*param.opts, *param.secondary_opts] if param.param_type_name == "option" else []
            entry = recorded.get(param.name)
            assert entry is not None and entry.get("flags", []) + entry.get("off_flags", []) == switches, (
                f"`clawmem {name}` {param.name} {switches} is not in clawmem/fastlane/options.json as declared: {REGENERATE}"
            )
    assert OPTIONS_FILE.read_text(encoding="utf-8") == gen_docs.fastlane_options.options_json(tree), f"clawmem/fastlane/options.json is stale: {REGENERATE}"


def test_every_config_setting_is_documented():
    from clawmem.foundation.config import reference

    rows = reference()
    assert all(row["doc"].strip() for row in rows), "every setting() needs a doc string"
    table = gen_docs.readme_config()
    for row in rows:
        assert f"| `{row['key']}` |" in table
    readme = ROOT / "README.md"
    if readme.exists():
        for row in rows:
            assert f"| `{row['key']}` |" in readme.read_text(), f"{row['key']} missing from the README's config table: {REGENERATE}"


def test_every_json_schema_is_documented():
    text = (ROOT / "docs" / "json.md").read_text()
    for path in (ROOT / "docs" / "schemas").glob("*.json"):
        assert f"(schemas/{path.name})" in text, f"{path.name} missing from docs/json.md: {REGENERATE}"


@pytest.mark.needs_tool("man")
def test_man_renders_the_pages():
    env = {**os.environ, "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "MAN_KEEP_FORMATTING": "0"}
    proc = subprocess.run(["man", str(ROOT / "man" / "clawmem.1")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    plain = re.sub(r".\x08", "", proc.stdout)
    for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"):
        assert re.search(rf"^{heading}$", plain, re.MULTILINE), f"clawmem(1) has no {heading} section"
    assert "clawmem - trustworthy long-term memory" in plain
    relative = subprocess.run(["man", "./man/clawmem-note-add.1"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert relative.returncode == 0 and "--origin" in re.sub(r".\x08", "", relative.stdout)


@pytest.mark.needs_tool("groff")
def test_pages_have_no_roff_warnings():
    for page in sorted((ROOT / "man").glob("*.1")):
        proc = subprocess.run(["groff", "-man", "-ww", "-z", "-Tutf8", str(page)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and not proc.stderr.strip(), f"{page.name}: {proc.stderr}"


def test_replace_block_touches_only_the_text_between_markers():
    text = "intro\n<!-- BEGIN GENERATED: commands -->\nold\n<!-- END GENERATED: commands -->\noutro\n"
    new = gen_docs.replace_block(text, "commands", "NEW", where="README.md")
    assert new.startswith("intro\n<!-- BEGIN GENERATED: commands -->\n") and new.endswith("\n<!-- END GENERATED: commands -->\noutro\n")
    assert "NEW" in new and "old" not in new
    assert gen_docs.replace_block(new, "commands", "NEW", where="README.md") == new
    with pytest.raises(SystemExit):
        gen_docs.replace_block("no markers here", "commands", "NEW", where="README.md")


def test_readme_command_block_lists_every_command_with_examples(tree):
    block = gen_docs.readme_commands(tree)
    for node in tree.walk():
        if node.path:
            assert f"### `{node.name}`" in block
            for example in gen_docs.help_of(node).examples:
                assert example in block


def test_generation_does_not_depend_on_the_callers_environment(tmp_path):
    """Same bytes whoever runs it: a wide terminal, colour forced and another HOME change nothing."""
    env = {**os.environ, "COLUMNS": "200", "FORCE_COLOR": "1", "HOME": str(tmp_path), "CLAWMEM_WORKSPACE": str(tmp_path / "elsewhere")}
    env.pop("NO_COLOR", None)
    proc = subprocess.run([sys.executable, str(GEN), "--check"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
