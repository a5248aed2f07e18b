"""``clawmem import claude-memory``: bring another memory's notes in, with their source recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt

app = typer.Typer(help="Import notes kept by other memories.", no_args_is_help=True)


@app.command("claude-memory")
def claude_memory(
    sources: Annotated[Optional[list[Path]], typer.Argument(help="Topic files or memory/ directories (default: all of ~/.claude/projects/).", metavar="[PATH]...")] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Import Claude Code's auto-memory topic files as owner notes.

    Each list item or paragraph of a topic file (front matter, headings and the MEMORY.md index
    left out) becomes a note in today's daily file, with the file it came from recorded as its
    `source`. Units imported before are skipped, so running it again adds only what is new.

    Examples:

    \b
        clawmem import claude-memory
        clawmem import claude-memory ~/.claude/projects/-home-ada-src-app/memory
    """
    from clawmem.hosts.automemory import import_notes
    from clawmem.storage.workspace import Workspace

    report = import_notes(Workspace.open(workspace), sources or [], home=Path.home())
    if json_output:
        from clawmem.rules.output import emit_json

        emit_json(report)
        return
    import sys

    sys.stdout.write(f"imported {report.imported} notes from {len(report.files)} files ({report.skipped} skipped)\n")
    for note in report.notes:
        sys.stdout.write(f"  {note['path']}:{note['line']}  {note['text'][:70]}\n")
