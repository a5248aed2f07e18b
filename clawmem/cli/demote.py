"""``clawmem demote``: one MEMORY.md line back to the episodic tier (the owner's decision)."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt
from clawmem.cli.promote import YesOpt
from clawmem.storage.anchors import cite


def demote(
    anchor: Annotated[str, typer.Argument(help="The MEMORY.md line: MEMORY.md#L12 or MEMORY.md:12, as audit and search cite it.", show_default=False)],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the line that would leave MEMORY.md; change nothing.")] = False,
    yes: YesOpt = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Take one line out of MEMORY.md, back to the episodic tier: the owner's undo of a promotion.

    The evidence it cites stays in the daily notes and transcripts (searchable, never
    injected), and the next dream does not promote it again; `clawmem promote SOURCE` brings
    it back. The line leaves through the safe rewrite (a pre-image is kept) under the sweep
    lock, and DREAMS.md records it. A hand-written line cites no evidence: use forget for
    it. Refused when not run at a terminal unless you add --yes, as promote is.

    Examples:

    \b
        clawmem demote MEMORY.md#L6 --dry-run
        clawmem demote MEMORY.md#L6
    """
    import sys

    from clawmem.commands.demote import demote as demote_core
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.trust.authority import Caller
    from clawmem.trust.framing import inert

    result = demote_core(Workspace.open(workspace), anchor, caller=Caller(from_terminal=sys.stdin.isatty(), confirmed=yes), dry_run=dry_run)
    if json_output:
        emit_json(result)
        return
    verb = "Would demote" if result.dry_run else "Demoted"
    print(f"{verb} {cite('MEMORY.md', result.line)}: {inert(result.text)}")
    print(f"Its evidence stays in the episodic tier: {inert(', '.join(result.sources))}")
    if result.preimage:
        print(f"The old MEMORY.md is kept in {result.preimage}; `clawmem promote {inert(result.sources[0])}` brings the line back.")
