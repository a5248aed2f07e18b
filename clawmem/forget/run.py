"""Carry out a forget: tombstones in the ledger first, then the files, history, index and copies, the undo record, the diary."""

from __future__ import annotations

from clawmem.entries import identity
from clawmem.forget import undo
from clawmem.forget.apply import (
    blank_episodic,
    clean_index,
    redact_diary,
    redact_preimages,
    rewrite_curated,
    scrub_file_copies,
)
from clawmem.forget.plan import Files, Plan, Target, excerpt, forgotten_texts, make_plan
from clawmem.forget.report import diary_lines, provenance_rows, removed_record
from clawmem.forget.results import ForgetResult, Review
from clawmem.forget.undo import FORGET_LOCK
from clawmem.foundation.errors import BadInput, IndexUnavailable
from clawmem.foundation.timeparse import local_now
from clawmem.storage import ledger, ledger_records
from clawmem.storage.ledger_records import LedgerRecord
from clawmem.storage.workspace import Workspace, validate_session_id


def forget(
    ws: Workspace,
    *,
    anchor: str | None = None,
    text: str | None = None,
    session: str | None = None,
    dry_run: bool = False,
    keep_undo: bool = True,
    copies: bool = False,
) -> ForgetResult:
    """Forget one entry (``anchor``; with ``copies`` its copies too), every entry saying ``text``,
    or everything from ``session``.

    ``keep_undo=False`` keeps no private copy of the removed lines (a leaked secret): the
    forget cannot be undone. Otherwise ``forget --undo`` can restore it for ``forget.undo_days``.
    """
    given = [(m, v) for m, v in (("entry", anchor), ("text", text), ("session", session)) if v is not None]
    if len(given) != 1:
        raise BadInput("say what to forget: an entry anchor, --text TEXT or --session ID (exactly one)")
    mode, target = given[0]
    if copies and mode != "entry":
        raise BadInput("--copies goes with an entry anchor", hint="--text and --session always take every copy")
    if mode == "session":
        target = validate_session_id(target)
    with ws.lock(FORGET_LOCK):
        files = Files(ws)
        plan = make_plan(ws, files, mode, target, copies=copies)
        rows = provenance_rows(ws)
        result = ForgetResult(
            mode, target, dry_run, [removed_record(t, rows) for t in plan.targets], plan.deleted, plan.review,
            target if mode == "session" else None, len(plan.tombs),
        )
        if dry_run:
            return result
        stamp = ledger_records.now_iso()
        forget_id = undo.new_id(stamp, f"{mode}:{target}")
        captured = undo.capture(files, plan.targets, plan.deleted) if keep_undo else {}
        _tombstone(ws, plan, forget_id, stamp)
        missed, changed, preimages = _apply(ws, files, plan)
        review = plan.review + [Review(t.rel, t.line_start, excerpt(t.body), "changed while it was being forgotten: not removed") for t in missed]
        kept = [t for t in plan.targets if t not in missed]
        hashes, redacted, norms = _redact(ws, plan, kept)
        try:
            clean_index(ws, hashes, changed, {(t.rel, t.line_start) for t in kept}, norms)
        except IndexUnavailable:
            pass  # a damaged index is rebuilt from the files, which no longer hold the text
        if kept or plan.deleted:
            redacted.update(scrub_file_copies(ws, norms))

        until = None
        if keep_undo:
            until = undo.save(
                ws, forget_id, mode=mode, captured=captured, kept={t.key for t in kept}, tombs=sorted(plan.tombs),
                session=target if mode == "session" else None,
            )
        result = ForgetResult(
            mode, target, False, [r for r in result.removed if (r.path, r.line_start) not in {t.key for t in missed}],
            plan.deleted, review, result.session_tombstoned, len(plan.tombs), redacted, forget_id, until,
        )
        from clawmem.storage import diary

        diary.append(ws, f"forget {mode}", diary_lines(result, preimages))
    return result


def _tombstone(ws: Workspace, plan: Plan, forget_id: str, stamp: str) -> None:
    """Ledger first: the forget record and its tombstones, before any file changes."""
    session = plan.target if plan.mode == "session" else None
    records: list[LedgerRecord] = [
        ledger_records.forget_record(forget_id, mode=plan.mode, entries=len(plan.targets), hashes=len(plan.tombs), session=session, at=stamp)
    ]
    records += [ledger_records.session_tombstone(session, forget_id, stamp)] if session else []
    records += [ledger_records.hash_tombstone(h, rel, forget_id, stamp) for h, rel in sorted(plan.tombs.items())]
    ledger.append(ws, records)


def _apply(ws: Workspace, files: Files, plan: Plan) -> tuple[list[Target], set[str], list[str]]:
    """Remove the targets from their files: (lines that changed meanwhile, files changed, pre-images)."""
    missed: list[Target] = []
    changed: set[str] = set()
    preimages: list[str] = []
    by_file: dict[str, list[Target]] = {}
    for t in plan.targets:
        by_file.setdefault(t.rel, []).append(t)
    for rel, group in by_file.items():
        path = files.files[rel].path
        if rel in plan.deleted:
            with ws.lock_file(path):
                path.unlink(missing_ok=True)
        elif files.kind(rel) in ("memory", "user"):
            image = rewrite_curated(ws, path, {t.hash for t in group})
            if image:
                preimages.append(image)
        else:
            missed += blank_episodic(ws, path, group)
        changed.add(rel)
    for rel in plan.deleted:
        if rel not in changed:
            with ws.lock_file(files.files[rel].path):
                files.files[rel].path.unlink(missing_ok=True)
            changed.add(rel)
    return missed, changed, preimages


def _redact(ws: Workspace, plan: Plan, kept: list[Target]) -> tuple[set[str], dict[str, int], frozenset[str]]:
    """Redact what is gone for good from DREAMS.md, pre-images and the audit baseline.

    Returns the hashes and the normalised texts that are gone (with a ``--text`` needle
    whatever its length: the owner named it), for the copies in the index, logs and report.
    """
    from clawmem.audit.preimages import redact_baseline

    # what is gone for good: forgotten texts that no surviving entry still says
    norms = {identity.normalise(x) for t in kept for x in forgotten_texts(t.body, t.kind)} - plan.surviving - {""}
    hashes = set(plan.tombs) | {identity.text_hash(t.body) for t in kept if identity.normalise(t.body) in norms}
    needle = identity.normalise(plan.target) if plan.mode == "text" else ""
    if needle:
        norms.add(needle)
    # a short forgotten line ("ok") must not redact every diary line that contains the word
    norms = {n for n in norms if len(n) >= 12 or len(n.split()) >= 3}
    redacted = {
        "dreams": redact_diary(ws, norms, local_now().date().isoformat()),
        "preimages": redact_preimages(ws, hashes),
        "baseline": redact_baseline(ws, hashes),
    }
    return hashes, redacted, frozenset(norms | ({needle} if needle else set()))
