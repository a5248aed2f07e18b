"""Tab completion works with the committed scripts, and a Tab starts no Python.

The scripts are static tables generated from the command tree (``scripts/completion_scripts.py``),
so these tests run real bash, zsh and fish against them with a PATH that holds only stubs named
``clawmem``, ``python`` and ``python3`` which record every call: candidates must come back
right and the record must stay empty. One more test checks every command path of the real
command tree against what bash offers.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # real shells

ROOT = Path(__file__).resolve().parent.parent
COMPLETIONS = ROOT / "completions"
RECORDED = ("clawmem", "python", "python3")


@pytest.fixture
def stubs(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """(environment whose PATH holds only recording stubs, the record file)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "calls.log"
    for name in RECORDED:
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{record}"\n')
        stub.chmod(0o755)
    zsh = shutil.which("zsh")
    if zsh:  # zpty starts `zsh` by name
        (bin_dir / "zsh").symlink_to(zsh)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path), "LC_ALL": "C.UTF-8"}, record


def run_shell(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, cwd=env["HOME"])


BASH = shutil.which("bash") or "/bin/bash"


def bash_complete_many(env: dict[str, str], lines: list[list[str]]) -> list[list[str]]:
    """Candidates bash offers for the last word of each line, through the committed script's function, in one bash."""
    script = [f"source '{COMPLETIONS / 'clawmem.bash'}'"]
    for words in lines:
        quoted = " ".join(f"'{w}'" for w in words)
        script += [f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}", "_clawmem_completion clawmem",
                   'printf "%s\\n" "${COMPREPLY[@]}"; echo "<end>"']
    proc = run_shell([BASH, "--norc", "--noprofile", "-c", "\n".join(script)], env)
    assert proc.returncode == 0, proc.stderr
    return [[w for w in chunk.split("\n") if w] for chunk in proc.stdout.split("<end>\n")[:-1]]


def bash_complete(env: dict[str, str], *words: str) -> list[str]:
    return bash_complete_many(env, [list(words)])[0]


def test_bash_registers_the_completion_function(stubs):
    env, _ = stubs
    proc = run_shell([BASH, "--norc", "--noprofile", "-c", f"source '{COMPLETIONS / 'clawmem.bash'}' && complete -p clawmem"], env)
    assert proc.returncode == 0
    assert proc.stdout.strip() == "complete -o default -F _clawmem_completion clawmem"


def test_bash_completes_commands_subcommands_options_and_choices_without_python(stubs):
    from clawmem.foundation.config import reference

    env, record = stubs
    assert "note" in bash_complete(env, "clawmem", "no")
    assert {"search", "status"} <= set(bash_complete(env, "clawmem", "s"))
    assert bash_complete(env, "clawmem", "note", "") == ["add", "flush"]
    assert bash_complete(env, "clawmem", "note", "add", "text", "--orig") == ["--origin"]
    assert bash_complete(env, "clawmem", "note", "add", "text", "--origin", "") == ["owner", "agent", "untrusted", "system"]
    assert bash_complete(env, "clawmem", "search", "q", "--tier", "") == ["curated", "episodic", "all"]
    assert bash_complete(env, "clawmem", "recall", "--se") == ["--session", "--sender"]
    keys = bash_complete(env, "clawmem", "config", "set", "recall.")
    assert keys == [row["key"] for row in reference() if row["key"].startswith("recall.")]
    assert not record.exists(), record.read_text()


def test_bash_walks_past_global_options_and_option_values(stubs):
    env, _ = stubs
    assert bash_complete(env, "clawmem", "-w", "/tmp/ws", "--json", "note", "") == ["add", "flush"]
    assert bash_complete(env, "clawmem", "hook", "--host", "codex", "") == ["session-start", "prompt", "pre-compact", "stop", "session-end"]
    assert bash_complete(env, "clawmem", "hook", "prompt", "--host", "c") == ["claude-code", "codex"]
    # a value that happens to name a subcommand is still a value, and after the argument no subcommand is offered
    assert bash_complete(env, "clawmem", "note", "add", "--session", "flush", "") == []
    assert bash_complete(env, "clawmem", "config", "set", "recall.budget_ms", "") == []
    # after `--` a dash starts an argument, not an option
    assert bash_complete(env, "clawmem", "search", "--", "--li") == []


def tree_paths() -> dict[tuple[str, ...], tuple[list[str], list[str]]]:
    """Each command path of the Typer app: (visible subcommands, every switch of its visible options)."""
    import typer

    from clawmem.cli import app

    found = {}

    def visit(path: tuple[str, ...], command, ctx) -> None:
        names = [n for n in command.list_commands(ctx) if not command.get_command(ctx, n).hidden] if hasattr(command, "list_commands") else []
        switches = [s for p in command.get_params(ctx) if p.param_type_name == "option" and not p.hidden for s in (*p.opts, *p.secondary_opts)]
        found[path] = (names, switches)
        for name in names:
            sub = command.get_command(ctx, name)
            visit((*path, name), sub, sub.make_context(name, [], parent=ctx, resilient_parsing=True))

    root = typer.main.get_command(app)
    visit((), root, root.make_context("clawmem", [], resilient_parsing=True))
    return found


def test_every_command_path_completes_its_subcommands_and_options(stubs):
    """What bash offers is the command tree itself: each group's visible subcommands, each command's options."""
    env, _ = stubs
    paths = tree_paths()
    assert len(paths) > 40
    lines = [["clawmem", *path, ""] for path, (subs, _) in paths.items() if subs]
    lines += [["clawmem", *path, "-"] for path in paths]
    got = bash_complete_many(env, lines)
    expected = [sorted(subs) for subs, _ in paths.values() if subs] + [sorted(options) for _, options in paths.values()]
    assert [sorted(words) for words in got] == expected


@pytest.mark.needs_tool("fish")
def test_fish_completes_with_descriptions_without_python(stubs):
    env, record = stubs
    script = (f"source '{COMPLETIONS / 'clawmem.fish'}'; complete -C 'clawmem no'; echo '<end>'; "
              "complete -C 'clawmem note add x --origin '; echo '<end>'; complete -C 'clawmem -w /tmp note '; echo '<end>'; "
              "complete -C 'clawmem config set recall.budget'")
    proc = run_shell([shutil.which("fish") or "fish", "--no-config", "-c", script], env)
    assert proc.returncode == 0, proc.stderr
    note, origin, sub, key = (chunk.strip().splitlines() for chunk in proc.stdout.split("<end>"))
    assert note == ["note\tAppend to the daily note: one entry, or a pre-compaction flush"]
    assert sorted(origin) == ["agent", "owner", "system", "untrusted"]
    assert [line.split("\t")[0] for line in sub] == ["add", "flush"]
    assert key == ["recall.budget_ms"]
    assert not record.exists(), record.read_text()


@pytest.mark.needs_tool("fish")
def test_fish_completes_file_names_where_a_value_has_no_choices(stubs):
    env, _ = stubs
    (Path(env["HOME"]) / "session.jsonl").write_text("{}\n")
    script = f"source '{COMPLETIONS / 'clawmem.fish'}'; complete -C 'clawmem ingest sess'; echo '<end>'; complete -C 'clawmem note add x --origin sess'"
    proc = run_shell([shutil.which("fish") or "fish", "--no-config", "-c", script], env)
    files, choices = proc.stdout.split("<end>")
    assert files.split() == ["session.jsonl"]
    assert choices.split() == []


ZSH_DRIVER = r"""
zmodload zsh/zpty
zpty -b z zsh -f -i
zpty -w z "PS1='> '; fpath=({fn} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "print READY"
zpty -r z line '*READY*'
zpty -n -w z $'{line}\t'
zpty -r z line '*{expect}*'
print -r -- FOUND
zpty -d z
"""


@pytest.mark.needs_tool("zsh")
@pytest.mark.parametrize(("line", "expect"), [("clawmem note ", "flush"), ("clawmem note add x --origin ", "untrusted"), ("clawmem search q --lex", "--lexical")])
def test_zsh_completes_on_the_first_tab_when_autoloaded_from_fpath_without_python(stubs, tmp_path, line, expect):
    """Installed the standard way (as _clawmem in $fpath), the very first Tab lists candidates."""
    env, record = stubs
    fn = tmp_path / "zfunc"
    fn.mkdir()
    shutil.copy(COMPLETIONS / "clawmem.zsh", fn / "_clawmem")
    driver = tmp_path / "drive.zsh"
    driver.write_text(ZSH_DRIVER.replace("{fn}", str(fn)).replace("{line}", line).replace("{expect}", expect))
    proc = run_shell([shutil.which("zsh") or "zsh", "-f", str(driver)], env)
    assert "FOUND" in proc.stdout, proc.stdout[-2000:] + proc.stderr
    assert not record.exists(), record.read_text()


@pytest.mark.needs_tool("zsh")
def test_zsh_script_is_valid_when_sourced(stubs):
    env, _ = stubs
    script = f"autoload -Uz compinit && compinit -u -D && source '{COMPLETIONS / 'clawmem.zsh'}' && print ${{_comps[clawmem]}}"
    proc = run_shell([shutil.which("zsh") or "zsh", "-f", "-c", script], env)
    assert proc.stdout.strip() == "_clawmem_completion", proc.stderr
