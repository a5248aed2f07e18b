"""Tab completion works with the committed scripts and the installed ``clawmem``.

Each script is a shim that asks ``clawmem`` (with ``_CLAWMEM_COMPLETE`` set) for candidates, so
these tests run real shells against the real installed command: bash always, fish and zsh
when they are installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPLETIONS = ROOT / "completions"
CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))


def shell_env(tmp_path: Path) -> dict[str, str]:
    """The installed clawmem first on PATH, no user rc files."""
    return {**os.environ, "PATH": f"{Path(CLAWMEM).parent}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path)}


def bash_complete(tmp_path: Path, *words: str) -> list[str]:
    """Candidates bash would offer for the last word, through the committed script's function."""
    quoted = " ".join(f"'{w}'" for w in words)
    script = (
        f"source '{COMPLETIONS / 'clawmem.bash'}'\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        "_clawmem_completion clawmem\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True, env=shell_env(tmp_path), timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if line]


def test_bash_registers_the_completion_function(tmp_path):
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", f"source '{COMPLETIONS / 'clawmem.bash'}' && complete -p clawmem"],
        capture_output=True, text=True, env=shell_env(tmp_path), timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout.strip() == "complete -o default -F _clawmem_completion clawmem"


def test_bash_completes_commands_subcommands_options_and_choices(tmp_path):
    from clawmem.config import reference

    assert "note" in bash_complete(tmp_path, "clawmem", "no")
    assert {"search", "status"} <= set(bash_complete(tmp_path, "clawmem", "s"))
    assert bash_complete(tmp_path, "clawmem", "note", "") == ["add", "flush"]
    assert bash_complete(tmp_path, "clawmem", "note", "add", "text", "--orig") == ["--origin"]
    assert bash_complete(tmp_path, "clawmem", "note", "add", "text", "--origin", "") == ["owner", "agent", "untrusted", "system"]
    assert bash_complete(tmp_path, "clawmem", "search", "q", "--tier", "") == ["curated", "episodic", "all"]
    keys = bash_complete(tmp_path, "clawmem", "config", "set", "recall.")
    assert keys == [row["key"] for row in reference() if row["key"].startswith("recall.")]


def test_completion_of_recall_goes_through_typer_not_the_fast_lane(tmp_path):
    """The launcher's argparse lane only takes real `recall` runs; Tab still completes its options."""
    assert bash_complete(tmp_path, "clawmem", "recall", "--se") == ["--session", "--sender"]


def test_every_top_level_command_completes(tmp_path):
    import typer

    from clawmem.cli import app

    root = typer.main.get_command(app)
    ctx = root.make_context("clawmem", [], resilient_parsing=True)
    visible = [n for n in root.list_commands(ctx) if not root.get_command(ctx, n).hidden]
    assert sorted(bash_complete(tmp_path, "clawmem", "")) == sorted(visible)


@pytest.mark.needs_tool("fish")
def test_fish_completes(tmp_path):
    script = f"source '{COMPLETIONS / 'clawmem.fish'}'; complete -C 'clawmem no'; complete -C 'clawmem note add x --origin '"
    proc = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True, env=shell_env(tmp_path), timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("note\t")
    assert sorted(lines[1:]) == ["agent", "owner", "system", "untrusted"]


ZSH_DRIVER = r"""
zmodload zsh/zpty
zpty -b z zsh -f -i
zpty -w z "PS1='> '; fpath=({fn} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "print READY"
zpty -r z line '*READY*'
zpty -n -w z $'clawmem note \t'
zpty -r z line '*flush*'
print -r -- FOUND
zpty -d z
"""


@pytest.mark.needs_tool("zsh")
def test_zsh_completes_on_the_first_tab_when_autoloaded_from_fpath(tmp_path):
    """Installed the standard way (as _clawmem in $fpath), the very first Tab lists candidates."""
    fn = tmp_path / "zfunc"
    fn.mkdir()
    shutil.copy(COMPLETIONS / "clawmem.zsh", fn / "_clawmem")
    driver = tmp_path / "drive.zsh"
    driver.write_text(ZSH_DRIVER.replace("{fn}", str(fn)))
    proc = subprocess.run(["zsh", "-f", str(driver)], capture_output=True, text=True, env=shell_env(tmp_path), timeout=60)
    assert "FOUND" in proc.stdout, proc.stdout[-2000:] + proc.stderr


@pytest.mark.needs_tool("zsh")
def test_zsh_script_is_valid_when_sourced(tmp_path):
    script = f"autoload -Uz compinit && compinit -u -D && source '{COMPLETIONS / 'clawmem.zsh'}' && print ${{_comps[clawmem]}}"
    proc = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True, env=shell_env(tmp_path), timeout=60)
    assert proc.stdout.strip() == "_clawmem_completion", proc.stderr
