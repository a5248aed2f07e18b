"""``clawmem accept``: the owner takes what a pull brought from another copy as written."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt
from clawmem.storage.anchors import cite

YesOpt = Annotated[bool, typer.Option("--yes", help="Confirm you are the operator when not at a terminal (agents must not pass it).")]


def accept(
    from_copy: Annotated[
        str | None,
        typer.Option(
            "--from", metavar="COPY",
            help="Accept what one copy wrote: its writer id (or a prefix), `hand` for lines that came without a record, `unsealed` for unsealed records.",
        ),
    ] = None,
    everything: Annotated[bool, typer.Option("--all", help="Accept everything held back, from every copy.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be accepted; record nothing.")] = False,
    yes: YesOpt = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """List what came from another copy of the workspace, and accept it as written, on the record.

    In a workspace shared through git, what a pull brings is someone else's until you accept
    it: ledger records another copy wrote count as untrusted here, and so do lines that arrived
    in a commit with no record (a hand edit of MEMORY.md, USER.md or a daily note elsewhere).
    Without --all or --from this only lists them, grouped by the copy that wrote them. With
    one of them it appends one `accept` record to the provenance ledger, sealed by this copy,
    and the index counts those records and lines as they were written. Owner-only: refused
    when not run at a terminal unless you add --yes; the MCP server has no accept tool.

    Examples:

    \b
        clawmem accept
        clawmem accept --from 3f9c2a --dry-run
        clawmem accept --all
    """
    import sys

    from clawmem.commands.accept import accept as accept_core
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.trust.authority import Caller

    ws = Workspace.open(workspace)
    caller = Caller(from_terminal=sys.stdin.isatty(), confirmed=yes)
    result = accept_core(ws, caller=caller, from_copy=from_copy, everything=everything, dry_run=dry_run)
    if json_output:
        emit_json(result)
        return
    _print(result, listing=not (everything or from_copy))


def _print(result: Any, *, listing: bool) -> None:
    from clawmem.rules.output import plural, print_table, say

    shown = result.remaining if listing else result.selected
    if not shown and not result.selected:
        say("Nothing came from another copy: nothing to accept.")
        return
    if listing:
        say(f"Held back until you accept them ({plural(len(shown), 'item')}; this copy is {result.this_copy or 'without an id'}):")
    elif result.dry_run:
        say(f"Dry run (nothing recorded): would accept {plural(len(shown), 'item')}:")
    else:
        say(f"Accepted {plural(len(shown), 'item')} (recorded in the provenance ledger):")
    print_table(
        ["COPY", "WHAT", "WHERE", "CLAIMS", "HERE", "TEXT"],
        [[p.writer, p.kind, cite(p.path, p.line) if p.line else p.path, p.claimed, p.claimed if result.recorded else p.held_as, (p.text or "(not indexed)")[:80]] for p in shown],
    )
    if listing:
        say("Accept them with `clawmem accept --all`, or one copy's with `clawmem accept --from COPY`.")
    elif result.remaining:
        say(f"Still held back: {plural(len(result.remaining), 'item')} from other copies (`clawmem accept` lists them).")
