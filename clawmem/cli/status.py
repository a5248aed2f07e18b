"""``clawmem status``: workspace health."""

from __future__ import annotations

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def status(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Show counts by tier, origin and session kind, index freshness, embeddings, and warnings.

    Also one line for each thing that keeps trusted memory out of MEMORY.md (lines in a
    tainted file, a full budget, candidates waiting on a threshold), with the fix, and one for
    aspirations past their review date.

    Examples:

    \b
        clawmem status
        clawmem status --json | jq .by_origin
    """
    from clawmem.index.db import Index
    from clawmem.output import console, emit_json
    from clawmem.status import workspace_status
    from clawmem.workspace import Workspace

    ws = Workspace.open(workspace)
    with Index.open(ws) as index:
        report = workspace_status(ws, index)
    if json_output:
        emit_json(report)
        return
    from rich.table import Table

    out = console()
    table = Table(title=f"clawmem workspace {report.workspace}", show_header=False)
    table.add_row("entries", str(report.entries))
    for label, counts in (("by tier", report.by_tier), ("by kind", report.by_kind), ("by origin", report.by_origin), ("by session kind", report.by_session_kind)):
        table.add_row(label, ", ".join(f"{k} {v}" for k, v in counts.items()) or "-")
    table.add_row("files indexed / pending", f"{report.files_indexed} / {len(report.files_pending)}")
    table.add_row("schema version", str(report.schema_version))
    table.add_row("last sync", report.last_sync or "never")
    table.add_row("last dream", report.last_dream or "never")
    table.add_row("embeddings", f"{report.embeddings.get('backend')} ({'available' if report.embeddings.get('available') else 'unavailable'})")
    table.add_row("provenance ledger", "intact" if report.ledger_intact else "LOST: unrecorded lines are untrusted")
    out.print(table)
    for warning in report.warnings:
        out.print(f"warning: {warning}")
    for line in notice_lines(report.notices, report.aspirations):
        out.print(line, markup=False)


def notice_lines(notices, due) -> list[str]:
    """One line per cause of memory kept out of MEMORY.md, and one for due aspirations (status and dream)."""
    lines = [f"notice: {n.message}" for n in notices]
    if due:
        escalated = [d for d in due if d.state == "escalated"]
        oldest = due[0]
        lines.append(
            f"notice: {len(due)} aspiration(s) past their review date"
            + (f", {len(escalated)} escalated" if escalated else "")
            + f"; oldest {oldest.path}#L{oldest.line} (review was {oldest.review.isoformat()}; `clawmem intent due` lists them)"
        )
    return lines
