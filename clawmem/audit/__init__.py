"""``clawmem audit``: what entered long-term memory, from where, and whether the rules held.

For every entry of ``MEMORY.md`` and ``USER.md`` the audit reads back, from the index, the
provenance ledger and ``DREAMS.md``: the entry's origin and session kind, when clawmem
recorded it, its source anchors with the origin and session kind of the evidence each one
points at, and the dream sweep (or user-model change) that put it there.

With ``--ci`` five checks decide the exit status (3 when any fails; with ``--strict`` any
warning fails too), one line per violation (``formats.py``: also GitHub annotations, SARIF):

    <path>:<n>: error: <check>: <what>

(``<path>: error: …`` for the whole file). In a git checkout a missing baseline is itself a
violation (``baseline``): a fresh clone without a committed one must not pass quietly. The
checks, precisely:

provenance
    A curated entry whose own provenance (the index, replayed from the ledger) is untrusted
    or system, or comes from a non-interactive session; a curated file with an untrusted or
    system taint record; a source anchor whose evidence (the indexed unit at the anchor that
    still says the same thing, or the one it moved to) is untrusted or system, sits in
    quarantine, comes from a non-interactive session, or sits in a file tainted by untrusted
    or system content no later than the curated line was recorded.
preimage
    Nothing a rewrite drops may be lost. ``.clawmem/audit/baseline.json`` keeps each curated
    file as it was at the last audit that found it in order. Every entry that was in the file
    then and is gone now (removed or changed) must be recoverable: its text in a stored
    pre-image (``.clawmem/preimages/``: dreaming, ``user`` and ``forget`` write one before
    every rewrite) or tombstoned by ``clawmem forget``. Anything else - a hand edit, a tool
    writing the file directly - is a violation at the entry's old line. Entries *added* by
    hand (no ledger record) are inside the operator trust boundary: a warning only, repeated
    until the owner accepts it. The audit itself never writes the baseline (a read must not
    change what the next read checks against): ``init`` establishes it, clawmem's own
    rewrites carry it along (``follow_write``: only when the file was as the baseline says, so
    a pending hand edit stays reported), and ``--accept`` advances it to the files as they
    are, first storing a held file's previous version as a pre-image (so the owner's edit is
    recoverable), and records that in ``DREAMS.md``.
annotation
    A curated entry with a malformed annotation (``Entry.problems``: importance outside
    1-10, a project key with an unescaped ``;``, an unknown status, an unreadable date, an
    empty trigger, no text), conflicting repeated importance values, a ``source`` that is not
    a workspace anchor (``path#L12``, inside the workspace), or a raw recall or
    untrusted-content marker in its text.
grounding
    A curated entry clawmem wrote (it has a ledger record) whose text says something the
    evidence at its ``source`` anchors (or where it moved to) does not: the rule dream
    validation applies to every line a consolidator adds (``clawmem.dream.grounding.ungrounded``,
    ``dream.grounding_similarity``): its words must match the evidence's, and no instruction,
    negation, command, URL, name or number may be new. Hand-written entries are not judged
    (with or without anchors), nor anchors whose lines hold nothing any more (forgotten: a
    ``stale-source`` warning).
index
    After a sync, the index must agree with the files and the ledger: no file still pending;
    every indexed unit (lines, text, hash, origin, session kind, metadata) equal to what a
    fresh rebuild from the files and the ledger produces; equal file taint; one full-text row
    per entry; vector rows flagged trusted exactly for owner and agent entries. A stale,
    half-written or tampered index (an edited origin column) fails here, and ``clawmem index
    --rebuild`` repairs it without upgrading anything.

``since`` limits the listing and the entry-level findings (provenance, annotation) to entries
that entered since then; file-level findings always count. An entry's time is its first
ledger record, else when an audit first saw it (hand-written lines).

Layout: the checks are ``index_check.py``, ``preimages.py`` (with the baseline) and
``entry_checks.py`` (provenance, annotation); ``sources.py`` traces anchors, ``diary.py``
finds sweeps in ``DREAMS.md``, ``ledger_view.py`` reads the ledger once; ``results.py``
holds what ``run_audit`` returns.
"""

from __future__ import annotations

import datetime as dt

from clawmem import loopguard
from clawmem.audit import preimages
from clawmem.audit.diary import _sweeps, diary_items
from clawmem.audit.entry_checks import _entry_findings, _grounding, _problems
from clawmem.audit.index_check import check_index
from clawmem.audit.ledger_view import UNTRUSTED, _Ledger, _when
from clawmem.audit.preimages import check_preimages
from clawmem.audit.results import (
    AuditEntry,
    AuditReport,
    Finding,
    SourceTrace,
    SweepRef,
)
from clawmem.audit.sources import _trace
from clawmem.baseline import AUDIT_LOCK, baseline_path, save_baseline
from clawmem.entries import grammar
from clawmem.errors import BadInput
from clawmem.workspace import Workspace

CHECKS = ("provenance", "preimage", "annotation", "grounding", "index")
__all__ = ["CHECKS", "AuditEntry", "AuditReport", "Finding", "SourceTrace", "SweepRef", "establish_baseline", "parse_since", "run_audit"]


def parse_since(ws: Workspace, since: str | None) -> dt.datetime | None:
    """``--since`` as a time: a date or a phrase, in the workspace's zone, and not in the future."""
    if since is None:
        return None
    from clawmem.timeparse import local_now, parse_time

    try:
        start = parse_time(since, timezone=ws.config.intents.timezone)
    except BadInput as err:
        raise BadInput(f"cannot read --since {since!r}", hint="use a date like 2026-11-29 or a phrase like '7 days ago'") from err
    if start > local_now() + dt.timedelta(days=1):
        raise BadInput(f"--since {since!r} is in the future", hint="give a date in the past")
    return start


def _uncommitted_baseline(ws: Workspace) -> list[Finding]:
    """A git checkout without a baseline (a fresh clone, or one that ignores it) must not pass quietly.

    Without the baseline the preimage check has nothing to compare with: every hand removal
    made before this audit is invisible. Outside git the first audit simply establishes it.
    """
    from clawmem import projects

    if baseline_path(ws).exists() or projects.identify(str(ws.root)) is None:
        return []
    return [Finding("baseline", ".clawmem/audit/baseline.json", 0,
                    "no audit baseline in this git checkout, so removals made before now cannot be checked: "
                    "create it with `clawmem audit --accept` (or `clawmem init`), commit it and rerun")]


def _oversize(ws: Workspace, index) -> list[Finding]:
    """The curated files as a session start renders them, against each host's cap (a warning: nothing is lost)."""
    from clawmem.recall import oversize

    return [Finding(oversize.NAME, ws.rel(ws.memory_md), 0, o.message) for o in oversize.check(ws, index)]


def establish_baseline(ws: Workspace) -> bool:
    """Write the audit baseline from the curated files as they are, if there is none; True when written.

    ``init`` calls it so the baseline exists from the first commit of a shared workspace.
    """
    if baseline_path(ws).exists():
        return False
    with ws.lock(AUDIT_LOCK):
        outcome = check_preimages(ws, _Ledger.read(ws), accept=False)
        save_baseline(ws, outcome.files)
    return True


def run_audit(ws: Workspace, *, since: dt.datetime | None = None, accept: bool = False) -> AuditReport:
    """Audit the curated files: provenance of every entry, and the ``--ci`` checks.

    Read-only unless ``accept``: only then does the baseline move (to the files as they are,
    recorded in ``DREAMS.md``), so a hand edit is reported by every audit until it is accepted.
    """
    from clawmem.index.db import Index

    with ws.lock(AUDIT_LOCK):
        unbased = _uncommitted_baseline(ws)
        with Index.open(ws) as index:
            index_findings = check_index(ws, index)
            led = _Ledger.read(ws)
            outcome = check_preimages(ws, led, accept=accept)
            taints = {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")}
            items = diary_items(ws)
            entries: list[AuditEntry] = []
            violations: list[Finding] = []
            warnings: list[Finding] = list(outcome.warnings)
            for path in (ws.memory_md, ws.user_md):
                rel = ws.rel(path)
                if not path.exists():
                    continue
                first_seen = (outcome.files.get(rel) or {}).get("first_seen") or {}
                rows = {r["line_start"]: r for r in index.query("SELECT * FROM entries WHERE path = ? AND block = 'entry'", (rel,))}
                file_taint = taints.get(rel)
                if file_taint in UNTRUSTED:
                    violations.append(Finding("provenance", rel, 0, f"the file is tainted by {file_taint} content (a flush or writer recorded it)"))
                doc = grammar.parse(path.read_text(encoding="utf-8", errors="replace"))
                for entry in doc.entries:
                    row = rows.get(entry.line_start)
                    text_hash = loopguard.text_hash(entry.body)
                    entered = led.first_at.get((rel, text_hash)) or first_seen.get(text_hash)
                    if since is not None and (_when(entered) or since) < since:
                        continue
                    audited = AuditEntry(
                        path=rel, line_start=entry.line_start, line_end=entry.line_end, text=entry.body, text_hash=text_hash,
                        origin=row["origin"] if row else None, session_kind=row["session_kind"] if row else None,
                        session_id=row["session_id"] if row else None, hand_written=bool(row["hand_written"]) if row else None,
                        untrusted=bool(row and row["origin"] in UNTRUSTED), entered_at=entered,
                        importance=entry.importance, triggers=entry.triggers, projects=entry.projects, key=entry.key,
                        status=entry.status, sources=[_trace(ws, index, s, entry.body, taints) for s in entry.sources],
                        sweeps=_sweeps(entry.body, items), problems=_problems(ws, entry),
                    )
                    entries.append(audited)
                    bad, notes = _entry_findings(audited, led, rel)
                    violations += bad + _grounding(ws, index, audited, rel)
                    warnings += notes
            warnings += _oversize(ws, index)
        if not led.intact:
            warnings.append(Finding("ledger", ".clawmem/provenance.jsonl", 0, "the provenance ledger is missing or has no header: unrecorded episodic lines count as untrusted"))
        violations = unbased + index_findings + outcome.violations + violations
        if accept:
            try:
                save_baseline(ws, outcome.files)
            except OSError as err:
                violations.append(Finding("baseline", ".clawmem/audit/baseline.json", 0, f"cannot store the audit baseline: {err.strerror}"))
            else:
                preimages.record_acceptance(ws, outcome)
                violations = [v for v in violations if v not in unbased]  # the baseline exists now
    return AuditReport(
        workspace=str(ws.root),
        since=since.isoformat(timespec="seconds") if since else None,
        checks=list(CHECKS),
        entries=entries,
        violations=violations,
        warnings=warnings,
        baseline=outcome.states,
    )
