"""The entry-level checks: ``provenance`` of each curated entry and its sources, ``annotation``
and ``grounding``."""

from __future__ import annotations

import re

from clawmem.audit.ledger_view import Ledger
from clawmem.audit.results import AuditEntry, Finding
from clawmem.audit.sources import anchored_units, parse_anchor
from clawmem.dream import grounding
from clawmem.entries import grammar
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

MARKER = re.compile(r"<\s*/?\s*(?:clawmem-recall|untrusted-content)\b", re.IGNORECASE)


def _entry_findings(e: AuditEntry, led: Ledger, rel: str) -> tuple[list[Finding], list[Finding]]:
    violations, warnings = [], []
    where = (rel, e.line_start)
    if provenance.untrusted_class(e.origin):
        violations.append(Finding("provenance", *where, f"entry traces to {e.origin} content"))
    if e.session_kind is not None and e.session_kind != "interactive":
        violations.append(Finding("provenance", *where, f"entry comes from a {e.session_kind} session"))
    for s in e.sources:
        if s.state in ("stale", "missing"):
            warnings.append(Finding("stale-source", *where, f"source {s.anchor} no longer holds this text ({s.state}: edited, moved away or forgotten)"))
            continue
        if s.state == "invalid":
            continue  # an annotation violation
        reasons = []
        if s.kind == "quarantine":
            reasons.append("is in quarantine")
        if provenance.untrusted_class(s.origin):
            reasons.append(f"is {s.origin} content")
        if s.session_kind != "interactive":
            reasons.append(f"comes from a {s.session_kind} session")
        tainted = led.tainted_before(s.path, e.entered_at) if s.path is not None else None
        if tainted:
            reasons.append(f"sits in a file tainted by {tainted} content")
        if reasons:
            moved = f" (now at {cite(s.path, s.line_start)})" if s.state == "moved" else ""
            violations.append(Finding("provenance", *where, f"source {s.anchor}{moved} {' and '.join(reasons)}"))
    for problem in e.problems:
        violations.append(Finding("annotation", *where, problem))
    return violations, warnings


def _problems(ws: Workspace, entry: grammar.Entry) -> list[str]:
    found = list(entry.problems())
    values = {v.strip() for v in entry.values("importance")}
    if len(values) > 1:
        found.append(f"importance given {len(entry.values('importance'))} times with different values ({', '.join(sorted(values))})")
    for source in entry.sources:
        if parse_anchor(ws, source) is None:
            found.append(f"source {source!r} is not a workspace anchor like memory/2026-11-29.md#L12")
    if MARKER.search(entry.body):
        found.append("entry text carries a recall or untrusted-content marker (injected context pasted back)")
    return found


def _grounding(ws: Workspace, index, e: AuditEntry, rel: str) -> list[Finding]:
    """An entry clawmem wrote must say what the evidence at its ``source`` anchors says (the rule
    dream validation applies, ``grounding.ungrounded``). Hand-written entries are inside the
    operator trust boundary and not judged, even after a merge gave them anchors to evidence
    that says less; nor are anchors with nothing there any more (forgotten: a stale-source warning)."""
    if e.hand_written is not False:
        return []
    anchors = [s.anchor for s in e.sources] + [cite(s.path, s.line_start, s.line_end) for s in e.sources if s.state == "moved"]
    evidence = [u for a in anchors for u in anchored_units(ws, index, a)]
    if not evidence:
        return []
    why = grounding.ungrounded(e.text, evidence, ws.config.dream.grounding_similarity)
    if why is None:
        return []
    cited = ", ".join(s.anchor for s in e.sources)
    return [Finding("grounding", rel, e.line_start, f"text does not match its sources ({cited}): {why}")]
