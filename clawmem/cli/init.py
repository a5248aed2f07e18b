"""``clawmem init``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt, usage_error


def init(
    ctx: typer.Context,
    directory: Annotated[
        Optional[Path],
        typer.Argument(
            metavar="[DIR]", show_default=False,
            help="Where to create it (the same as -w DIR) [default: $CLAWMEM_WORKSPACE, else the enclosing workspace, else here].",
        ),
    ] = None,
    git: Annotated[bool, typer.Option("--git", help="Also make the workspace a git repository with clawmem's merge rules (docs/team-memory.md).")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Create a workspace: MEMORY.md, USER.md, DREAMS.md, memory/, transcripts/ and the index.

    Like `git init DIR`: the workspace is DIR (or -w DIR); with neither, $CLAWMEM_WORKSPACE,
    else the workspace you are in (brought up to date), else the current directory. Other
    commands then find it from that folder and below, as git finds .git.

    Also writes a .gitignore for the derived files (index, locks, caches, the dream log)
    and the audit baseline. On an existing workspace it creates only what is missing,
    overwrites nothing and exits 0 saying what changed (or that nothing did). --git makes
    the workspace a git repository (unless it already is inside one) with a .gitattributes
    whose merge rules keep every line of the append-only files (daily notes, transcripts,
    DREAMS.md, the provenance ledger) and merge MEMORY.md and USER.md as ordinary text; run
    it again on every fresh clone to set up that machine.

    Init also trusts the workspace on this machine: commands run inside it without -w find it
    by walking up, while a workspace that arrived with a clone or an archive is refused until
    you run init on it.

    Exit status: 0 on success (also when nothing changed); 1 on an error (the path is a
    file, git missing); 2 on bad usage.

    Examples:

    \b
        clawmem init my-memory
        clawmem init
        clawmem init -w ~/agents/ada/memory
        clawmem init --git -w ~/team-memory
    """
    from clawmem.commands.workspace_init import initialise
    from clawmem.rules.output import emit_json

    if directory is not None and workspace is not None and directory.absolute() != workspace.absolute():
        usage_error(ctx, f"two workspaces given: {directory} and -w {workspace}; pass one")
    result = initialise(directory or workspace, git=git, here=True)
    if json_output:
        emit_json(result)
        return
    if result.created:
        extra = f" ({', '.join(c for c in result.changed if c != 'workspace')})" if len(result.changed) > 1 else ""
        print(f"Created a clawmem workspace at {result.workspace}{extra}")
    elif result.changed:
        print(f"Workspace at {result.workspace} already exists; added: {', '.join(result.changed)}")
    else:
        print(f"Workspace at {result.workspace} already exists; nothing changed.")
    _next(Path(result.workspace))


def _next(root: Path) -> None:
    """What to run next, for a person at a terminal: from elsewhere, the workspace needs naming."""
    import os

    from clawmem.cli.advice import next_step
    from clawmem.storage.workspace import ENV_WORKSPACE

    found = Path.cwd().absolute().is_relative_to(root) or os.environ.get(ENV_WORKSPACE) == str(root)
    shown = os.path.relpath(root) if root.is_relative_to(Path.cwd().absolute()) else str(root)
    where = "" if found else f"cd {_quoted(Path(shown))}, then "
    next_step(f'{where}clawmem note add "something to remember", or attach an agent: clawmem install claude-code')


def _quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))
