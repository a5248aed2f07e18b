"""``clawmem init``."""

from __future__ import annotations

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def init(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Create a workspace: MEMORY.md, USER.md, DREAMS.md, memory/, transcripts/ and the index.

    Examples:

    \b
        clawmem init
        clawmem init -w ~/agents/ada/memory
    """
    from clawmem.index.db import Index
    from clawmem.output import emit_json
    from clawmem.workspace import Workspace

    ws = Workspace.init(workspace)
    Index.open(ws).close()
    if json_output:
        emit_json({"workspace": str(ws.root), "created": True})
    else:
        print(f"Created a clawmem workspace at {ws.root}")
