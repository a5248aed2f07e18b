"""``clawmem man`` and ``clawmem completion``: the installed manual pages and completion scripts."""

from __future__ import annotations

import enum
from typing import Annotated

import typer


class Shell(str, enum.Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def man(
    command: Annotated[list[str] | None, typer.Argument(help="A command, e.g. `note add` [default: clawmem itself].", show_default=False)] = None,
    path: Annotated[bool, typer.Option("--path", help="Print the page's file instead.")] = False,
    manpath: Annotated[bool, typer.Option("--manpath", help="Print the folder to put on MANPATH (it holds man1/), so `man clawmem` works.")] = False,
) -> None:
    """Show the manual page of clawmem or of one command, whichever way clawmem was installed.

    On a terminal the page opens in man(1); in a pipe it is printed as plain text. The pages
    ship inside the installed package, so this works where `man clawmem-init` finds nothing
    (man(1) searches only the folders on its MANPATH).

    Exit status: 0 on success; 1 when there is no such page or the pages are not installed;
    2 on bad usage.

    Examples:

    \b
        clawmem man
        clawmem man note add
        clawmem man init | less
        export MANPATH="$(clawmem man --manpath):$MANPATH" && man clawmem-note-add
    """
    import os
    import shutil
    import subprocess
    import sys

    from clawmem.commands.manuals import page

    if manpath:
        from clawmem.commands.manuals import manpath_dir

        print(manpath_dir())
        return
    found = page(command or [])
    if path:
        print(found)
        return
    viewer = shutil.which("man")
    if viewer is None:
        sys.stdout.write(found.read_text(encoding="utf-8"))
        return
    if sys.stdout.isatty():
        raise typer.Exit(subprocess.run([viewer, str(found)], check=False).returncode)
    env = {**os.environ, "MANPAGER": "cat", "PAGER": "cat", "MAN_KEEP_FORMATTING": "0", "MANWIDTH": os.environ.get("MANWIDTH", "80")}
    proc = subprocess.run([viewer, str(found)], capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        sys.stdout.write(found.read_text(encoding="utf-8"))
        return
    import re

    sys.stdout.write(re.sub(r".\x08", "", proc.stdout))


def completion(shell: Annotated[Shell, typer.Argument(help="The shell: bash, zsh or fish.")]) -> None:
    """Print the shell completion script for bash, zsh or fish.

    The scripts are static (generated from the command tree with each release): a Tab runs no
    Python, and completes subcommands, options and fixed values such as choices and setting
    names; other values complete file names.

    Exit status: 0 on success; 1 when the scripts are not installed; 2 on bad usage.

    Examples:

    \b
        mkdir -p ~/.local/share/bash-completion/completions && clawmem completion bash > ~/.local/share/bash-completion/completions/clawmem
        mkdir -p ~/.zfunc && clawmem completion zsh > ~/.zfunc/_clawmem
        mkdir -p ~/.config/fish/completions && clawmem completion fish > ~/.config/fish/completions/clawmem.fish
    """
    import sys

    from clawmem.commands.manuals import completion as script

    sys.stdout.write(script(shell.value))
