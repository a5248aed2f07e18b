"""``clawmem status`` without Typer: the run and the output both paths print (``clawmem.fastlane`` parses).

``status`` is what a person or a host checks first; Typer's import alone cost more than the
report, so the launcher runs plain invocations here; ``clawmem/cli/status.py`` declares the
options, for help and usage errors and for the fast lane's parser (``fastlane/options.json``). A
running worker answers piped invocations with this same function (``clawmem.worker.commands``).
"""

from __future__ import annotations

from clawmem.storage.anchors import cite


def run_command(*, workspace: str | None = None, json_output: bool = False) -> int:
    """Report and print; clawmem errors propagate to the caller's handler."""
    from clawmem.commands.status import workspace_status
    from clawmem.index import resident
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    index = resident.opened(ws)  # in the worker, its kept connection; elsewhere opened, and closed by ``done``
    try:
        report = workspace_status(ws, index)
    finally:
        resident.done(index)
    if json_output:
        emit_json(report)
    else:
        _print(report)
    return 0


def _rows(report) -> list[tuple[str, str]]:
    """The report as (label, value) pairs, the same on a terminal and in a pipe."""
    from clawmem.storage.workspace import RULES

    rows = [("workspace", f"{report.workspace} ({RULES[report.workspace_rule]})"), ("entries", str(report.entries))]
    for label, counts in (("by tier", report.by_tier), ("by kind", report.by_kind), ("by origin", report.by_origin), ("by session kind", report.by_session_kind)):
        rows.append((label, ", ".join(f"{k} {v}" for k, v in counts.items()) or "-"))
    rows += [
        ("files indexed / pending", f"{report.files_indexed} / {len(report.files_pending)}"),
        ("schema version", str(report.schema_version)),
        ("last sync", report.last_sync or "never"),
        ("last dream", report.last_dream or "never"),
        ("embeddings", _embeddings(report)),
        ("provenance ledger", "intact" if report.ledger_intact else "LOST: unrecorded lines are untrusted"),
    ]
    return rows


def _embeddings(report) -> str:
    """The backend, whether it runs, and how many entries still lack a vector."""
    e = report.embeddings
    if not e.get("available"):
        return f"{e.get('backend')} (unavailable)"
    missing = e.get("unembedded", 0)
    return f"{e.get('backend')} (available; " + (f"{missing} of {report.entries} entries not embedded)" if missing else "every entry embedded)")


def _print(report) -> None:
    """A table on a terminal; in a pipe one ``label: value`` line each (no box drawing, stable to grep)."""
    import sys

    from clawmem.rules.output import console, is_terminal

    rows = _rows(report)
    tail = [f"warning: {w}" for w in report.warnings] + [f"hooks: {h}" for h in report.host_hooks] + notice_lines(report.notices, report.aspirations)
    if not is_terminal(sys.stdout):
        print("\n".join([f"{label}: {value}" for label, value in rows] + tail))
        return
    from rich.table import Table

    table = Table(title="clawmem workspace", show_header=False)
    for label, value in rows:
        table.add_row(label, value)
    out = console()
    out.print(table, markup=False)
    for line in tail:
        out.print(line, markup=False, highlight=False)


def notice_lines(notices, due) -> list[str]:
    """One line per cause of memory kept out of MEMORY.md, and one for due aspirations (status and dream)."""
    lines = [f"notice: {n.message}" for n in notices]
    if due:
        escalated = [d for d in due if d.state == "escalated"]
        oldest = due[0]
        lines.append(
            f"notice: {len(due)} aspiration(s) past their review date"
            + (f", {len(escalated)} escalated" if escalated else "")
            + f"; oldest {cite(oldest.path, oldest.line)} (review was {oldest.review.isoformat()}; `clawmem intent due` lists them)"
        )
    return lines
