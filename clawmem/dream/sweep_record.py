"""The dream diary: a readable summary of each sweep appended to ``DREAMS.md``.

It says what was promoted, merged, superseded and rejected, each with its sources, and the
reinforced themes that gained evidence, so what entered long-term memory and from where can
be read after the fact. Text of untrusted or system content is never copied here; only its
anchor. A sweep that found nothing new and changed nothing writes no section.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from clawmem.dream.store import Theme
from clawmem.dream.text import excerpt
from clawmem.intents import aspirations
from clawmem.storage import diary
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace

if TYPE_CHECKING:
    from clawmem.dream.results import DreamReport

MAX_LISTED = 20


def lines(report: DreamReport, themes: list[Theme]) -> list[str]:
    out: list[str] = []
    groups = (("Promoted", report.promoted), ("Merged", report.merged), ("Superseded", report.superseded), ("Displaced", report.displaced))
    for title, changes in groups:
        if changes:
            out.append(diary.group(title, len(changes)))
            out += [f"- {excerpt(c.text, 160)}{' — ' + c.detail if c.detail else ''}{diary.sources(c.sources)}" for c in changes]
            if title == "Displaced":
                out.append("  (back in the episodic tier; `clawmem promote SOURCE` on one of its sources brings a line back)")
    if report.rejected:
        out.append(diary.group("Rejected", len(report.rejected)))
        for r in report.rejected[:MAX_LISTED]:
            what = excerpt(r.text, 100) if r.text is not None else "[untrusted or system content withheld]"
            out.append(f"- {what} — {'; '.join(r.reasons)}{diary.sources(r.sources[:3])}")
        if len(report.rejected) > MAX_LISTED:
            out.append(f"- … and {len(report.rejected) - MAX_LISTED} more (run `clawmem dream --explain --dry-run`)")
    if themes:
        out.append(diary.group("Themes", len(themes)))
        out += [f"- {t.reflection}" for t in sorted(themes, key=lambda t: (-t.contexts, t.label))[:MAX_LISTED]]
    if report.fallback_used:
        out.append(f"Rewrite not used ({report.fallback_reason}); appended {len(report.promoted)} entry(ies) instead.")
    elif report.memory_changed:
        out.append(f"MEMORY.md rewritten by the {report.consolidator} consolidator; pre-image {report.preimage}.")
    if report.recovered_lock:
        out.append(f"Recovered from an interrupted sweep (pid {report.recovered_lock.get('pid')}, started {report.recovered_lock.get('started')}).")
    return out


def aspiration_lines(ws: Workspace, today: dt.date) -> list[str]:
    """Aspirations (intents that could not be compiled) whose review date has come."""
    due = aspirations.overdue(ws, today)
    if not due:
        return []
    return [diary.group("Aspirations past review", len(due)), *[
        f"- {excerpt(a.text, 160)} — review was {a.review.isoformat()} ({cite(a.path, a.line)})" for a in due[:MAX_LISTED]
    ]]


def append(ws: Workspace, report: DreamReport, themes: list[Theme], *, today: dt.date) -> None:
    """Append the sweep's section, when there is something to tell."""
    due = aspiration_lines(ws, today)
    if not (report.promoted or report.merged or report.superseded or report.displaced or report.fallback_used or report.staged or report.recovered_lock or due):
        return
    body = lines(report, themes) or [f"Staged {report.staged} new unit(s) of evidence; nothing passed the gate."]
    diary.append(ws, "dream sweep", body + due)


def summary(report: DreamReport) -> dict[str, Any]:
    """The short record kept in ``dream_sweeps``."""
    return {
        "staged": report.staged,
        "promoted": len(report.promoted),
        "merged": len(report.merged),
        "superseded": len(report.superseded),
        "displaced": len(report.displaced),
        "rejected": len(report.rejected),
        "fallback": report.fallback_reason,
    }
