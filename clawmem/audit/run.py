"""Run the audit: read every curated entry back with its provenance, run the ``--ci`` checks, move the baseline on ``--accept``."""

from __future__ import annotations

import datetime as dt

from clawmem.audit import preimages
from clawmem.audit.entry_checks import _entry_findings, _grounding, _problems
from clawmem.audit.index_check import check_index
from clawmem.audit.ledger_view import Ledger, when
from clawmem.audit.mentions import diary_items, sweeps
from clawmem.audit.preimages import check_preimages
from clawmem.audit.results import AuditEntry, AuditReport, Finding
from clawmem.audit.sources import trace
from clawmem.entries import grammar, identity
from clawmem.foundation.errors import BadInput
from clawmem.storage.baseline import AUDIT_LOCK, baseline_path, save_baseline
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

CHECKS = ("provenance", "preimage", "annotation", "grounding", "index")


def parse_since(ws: Workspace, since: str | None) -> dt.datetime | None:
    """``--since`` as a time: a date or a phrase, in the workspace's zone, and not in the future."""
    if since is None:
        return None
    from clawmem.foundation.timeparse import local_now, parse_time

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
    from clawmem.commands import projects

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
        outcome = check_preimages(ws, Ledger.read(ws), accept=False)
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
            led = Ledger.read(ws)
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
                if provenance.untrusted_class(file_taint):
                    violations.append(Finding("provenance", rel, 0, f"the file is tainted by {file_taint} content (a flush or writer recorded it)"))
                doc = grammar.parse(path.read_text(encoding="utf-8", errors="replace"))
                for entry in doc.entries:
                    row = rows.get(entry.line_start)
                    text_hash = identity.text_hash(entry.body)
                    entered = led.first_at.get((rel, text_hash)) or first_seen.get(text_hash)
                    if since is not None and (when(entered) or since) < since:
                        continue
                    audited = AuditEntry(
                        path=rel, line_start=entry.line_start, line_end=entry.line_end, text=entry.body, text_hash=text_hash,
                        origin=row["origin"] if row else None, session_kind=row["session_kind"] if row else None,
                        session_id=row["session_id"] if row else None, hand_written=bool(row["hand_written"]) if row else None,
                        untrusted=bool(row and provenance.untrusted_class(row["origin"])), entered_at=entered,
                        importance=entry.importance, triggers=entry.triggers, projects=entry.projects, key=entry.key,
                        status=entry.status, sources=[trace(ws, index, s, entry.body, taints) for s in entry.sources],
                        sweeps=sweeps(entry.body, items), problems=_problems(ws, entry),
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
