"""``clawmem init``."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def init(
    git: Annotated[bool, typer.Option("--git", help="Also make the workspace a git repository with clawmem's merge rules (docs/team-memory.md).")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Create a workspace: MEMORY.md, USER.md, DREAMS.md, memory/, transcripts/ and the index.

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
        clawmem init
        clawmem init -w ~/agents/ada/memory
        clawmem init --git -w ~/team-memory
    """
    from clawmem.output import emit_json
    from clawmem.workspace_init import initialise

    result = initialise(workspace, git=git)
    if json_output:
        emit_json(result)
    elif result.created:
        extra = f" ({', '.join(c for c in result.changed if c != 'workspace')})" if len(result.changed) > 1 else ""
        print(f"Created a clawmem workspace at {result.workspace}{extra}")
    elif result.changed:
        print(f"Workspace at {result.workspace} already exists; added: {', '.join(result.changed)}")
    else:
        print(f"Workspace at {result.workspace} already exists; nothing changed.")
