"""``clawmem dream``: the consolidation sweep (run it from cron)."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt
from clawmem.storage.anchors import cite


class Phase(str, enum.Enum):
    light = "light"
    rem = "rem"
    deep = "deep"


def dream(
    phase: Annotated[list[Phase] | None, typer.Option("--phase", help="Run only this phase (repeatable) [default: all three].", show_default=False)] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Compute everything, write nothing (no file, no staging, no diary).")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show every candidate's signals and the gate it failed, and each unit light excluded and why.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing unless something changed MEMORY.md (for cron mail).")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
    json_lines: Annotated[bool, typer.Option("--json-lines", help="Print the report as one compact JSON line with its time in \"at\" (for appending to a log).")] = False,
) -> None:
    """Consolidate memory: stage, reflect, and promote what passes every gate into MEMORY.md.

    Light stages eligible evidence from notes and transcripts changed since the last sweep,
    REM groups it into themes, deep ranks candidates by recall and recurrence and promotes
    those that pass every threshold. Untrusted, system and non-interactive content is never
    a candidate. A rewrite of MEMORY.md is validated and applied only if nobody changed the
    file meanwhile; otherwise the entries are appended. Every change is logged to DREAMS.md.

    Exit status: 0 when the sweep ran, and also when another sweep was running (nothing done);
    1 on an error (no workspace, unusable index or config); 2 on bad usage.

    Examples:

    \b
        clawmem dream
        clawmem dream --dry-run --explain
        clawmem dream --phase light --phase rem --json
        clawmem dream --json-lines >> .clawmem/dream.jsonl
    """
    from clawmem.dream import PHASES, run_sweep
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    phases = [p.value for p in phase] if phase else list(PHASES)
    report = run_sweep(ws, phases=phases, dry_run=dry_run, explain=explain)
    if json_output:
        emit_json(report)
        return
    if json_lines:
        from clawmem.rules.output import emit_json_line

        emit_json_line(report)
        return
    if quiet and not (report.promoted or report.merged or report.superseded or report.recovered_lock):
        return
    _print(report)
    _print_notices(report)
    if report.ran and not report.dry_run:
        from clawmem.cli.advice import next_step

        next_step("clawmem cron prints the crontab line that dreams nightly; clawmem report shows what is remembered and why")


def _print(report) -> None:
    from clawmem.dream.text import excerpt
    from clawmem.rules.output import console, plural

    out = console()
    if not report.ran:
        out.print(f"Skipped: {report.skipped}.", markup=False)
        return
    prefix = "Dry run (nothing written): " if report.dry_run else ""
    out.print(
        f"{prefix}{', '.join(report.phases)} in {report.seconds:.2f}s: staged {plural(report.staged, 'new unit')}, "
        f"{plural(report.candidates, 'candidate')} waiting, {plural(report.themes, 'theme')}.",
        markup=False,
    )
    if report.recovered_lock:
        out.print(f"Recovered from an interrupted sweep (pid {report.recovered_lock.get('pid')}).")
    for title, changes in (("promoted", report.promoted), ("merged", report.merged), ("superseded", report.superseded), ("displaced", report.displaced)):
        label = f"Would be {title}" if report.dry_run else title.capitalize()
        for c in changes:
            out.print(f"{label}: {excerpt(c.text)}" + (f"  [{', '.join(c.sources)}]" if c.sources else ""), markup=False)
    if report.fallback_used:
        out.print(f"Rewrite not used: {report.fallback_reason}. {'Would append' if report.dry_run else 'Appended'} instead.", markup=False)
    elif report.memory_changed:
        kept = f" (the old file is kept in {report.preimage})" if report.preimage else ""
        out.print(("MEMORY.md would be updated." if report.dry_run else f"MEMORY.md updated{kept}."), markup=False)
    if report.rejected:
        _print_rejected(out, report)
    if report.explain:
        _print_explain(out, report)


MAX_REJECTED_SHOWN = 10


def _print_rejected(out, report) -> None:
    """Each rejection in words (what it still needs); the numbers behind them are ``--explain``'s."""
    from clawmem.dream.text import excerpt

    out.print(f"Not promoted ({len(report.rejected)}):", markup=False)
    for r in report.rejected[:MAX_REJECTED_SHOWN]:
        what = excerpt(r.text, 80) if r.text is not None else "[untrusted or system content withheld]"
        where = f"  [{', '.join(r.sources[:2])}]" if r.sources else ""
        out.print(f"- {what}{where}\n  {'; '.join(r.in_words)}", markup=False)
    if len(report.rejected) > MAX_REJECTED_SHOWN:
        out.print(f"- … and {len(report.rejected) - MAX_REJECTED_SHOWN} more (DREAMS.md lists them)", markup=False)
    if not report.explain:
        out.print("The numbers behind each verdict: clawmem dream --explain --dry-run", markup=False)


EXPLAIN_COLUMNS = ("id", "status", "score", "rec", "occ", "qry", "days", "age", "text", "gates failed")
RECORD_LABELS = ("candidate", "status", "score", "recalls", "occurrences", "queries", "days", "age", "text", "gates failed")


def _explain_rows(report, text_chars: int) -> list[tuple[str, ...]]:
    """One tuple of cells per explained candidate (the same values in a table and in records)."""
    from clawmem.dream.text import excerpt

    rows: list[tuple[str, ...]] = []
    for e in report.explain:
        s = e.signals
        rows.append((
            str(e.candidate_id or "-"), e.status, f"{e.score:.2f}" if e.score is not None else "-",
            str(s.get("recalls", "-")), str(s.get("occurrences", "-")), str(s.get("queries", "-")), str(s.get("days", "-")),
            f"{s['age_days']:.0f}d" if "age_days" in s else "-",
            excerpt(e.text, text_chars) if e.text is not None else "[withheld: untrusted]", "; ".join(e.failed) or "-",
        ))
    return rows


def _print_explain(out, report) -> None:
    """A table when it fits the terminal unwrapped; otherwise (a pipe, a narrow terminal) one field per line."""
    import sys

    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    from clawmem.rules.output import is_terminal, plural

    table = Table(show_lines=False)
    for column in EXPLAIN_COLUMNS:
        table.add_column(column, overflow="fold")
    for row in _explain_rows(report, 60):
        table.add_row(*(Text(cell) for cell in row))
    if report.explain and is_terminal(sys.stdout) and Measurement.get(out, out.options.update_width(10**6), table).maximum <= out.width:
        out.print(table)
    elif report.explain:
        rows = _explain_rows(report, 200)  # one field per line has room for the text
        records = ["\n".join(f"{label}: {cell}" for label, cell in zip(RECORD_LABELS, row, strict=True)) for row in rows]
        out.print("\n" + "\n\n".join(records) + "\n", markup=False, highlight=False)
    if report.excluded:
        counts = "; ".join(f"{n} × {why}" for why, n in sorted(report.excluded.items(), key=lambda kv: (-kv[1], kv[0])))
        out.print(f"Light excluded {plural(sum(report.excluded.values()), 'unit')}: {counts}.", markup=False)


def _print_notices(report) -> None:
    """Nothing lost silently: one line per cause that kept memory out, and what dreaming did with aspirations (on stderr)."""
    import sys

    from clawmem.fastlane.status import notice_lines

    if not report.ran:
        return
    review = report.aspirations
    lines = notice_lines(report.notices, [])
    if review is not None:
        lines += [f"notice: aspiration escalated (review was {d.review.isoformat()}): {cite(d.path, d.line)}" for d in review.escalated]
        lines += [f"notice: aspiration expired, marked superseded: {cite(d.path, d.line)}" for d in review.expired]
    for line in lines:
        print(line, file=sys.stderr)  # notices: apart from the report on stdout
