"""``clawmem forget``: remove an entry, every entry that says a text, or everything from a session.

Tombstones first. Before any file changes, the provenance ledger gets a tombstone for the
session (``ingest`` refuses it again) and for the normalised hash of every forgotten entry
and of each of its lines (``note add``, ``note flush`` and ``ingest`` drop them, so the text
does not come back from an agent's context). In session mode only lines of three or more
words are tombstoned one by one, so forgetting a chat does not block every future "thanks".

Then the files:

- episodic files (daily notes, quarantine, transcripts): a forgotten entry's lines are
  blanked, not deleted, so every other line keeps its number and the source anchors that
  ``MEMORY.md`` cites stay true; a forgotten session's transcript file is deleted;
- curated files (``MEMORY.md``, ``USER.md``): the entry's lines are removed by the same
  optimistic rewrite dreaming uses (hash re-check, pre-image, atomic rename);
- history: lines of ``DREAMS.md``, stored pre-images and the audit baseline that quote
  forgotten text are redacted; the removal itself is recorded in ``DREAMS.md`` by anchor,
  provenance and hash, never by text;
- the index: a sync drops the entries; staged dream evidence, recall events, cached vectors
  of forgotten text and vectors of re-numbered entries go too, and so do the untrusted hits
  clawmem returned (``returned_untrusted`` keeps their text) and trigger phrases no curated
  entry names any more (``apply.scrub_index_copies``);
- copies beside the memory (``apply.scrub_file_copies``): log lines that quote the text
  (the cron job's ``dream.jsonl``) are redacted and the review page ``report.html`` deleted.

What else goes, and what is only reported:

- an anchor names one entry, and only that entry goes: the same text elsewhere, evidence
  saying the same as a curated target and curated entries made only from the target are
  listed for review. ``copies`` (``forget --copies``) takes them too, as ``--text`` and
  ``--session`` always do (they name a text and a session, wherever it is): every entry with
  the same normalised text goes, and
- a curated entry that is a verbatim copy of forgotten text, or all of whose source anchors
  point at forgotten lines, is removed with it;
- a curated entry that also cites other evidence (already merged with it), or that is a
  near-duplicate of forgotten text, is left in place and reported for manual review;
- when a curated entry is the target, evidence it cites that says something more than the
  entry (a transcript turn, say) is reported for review: a later dream could promote it again.

Layout: ``plan.py`` decides what goes and what is reviewed, ``apply.py`` changes the files,
history and index, ``report.py`` builds the result and the ``DREAMS.md`` record, ``undo.py``
keeps the private undo record and carries out ``forget --undo`` (a mistake is reversible for
``forget.undo_days``; ``--no-undo`` keeps nothing, for a leaked secret).
"""

from __future__ import annotations

from dataclasses import dataclass

from clawmem import ledger, loopguard
from clawmem.errors import BadInput, IndexUnavailable
from clawmem.forget import undo
from clawmem.forget.apply import (
    blank_episodic,
    clean_index,
    redact_diary,
    redact_preimages,
    rewrite_curated,
    scrub_file_copies,
)
from clawmem.forget.plan import (
    Files,
    Target,
    by_anchor,
    by_session,
    by_text,
    excerpt,
    follow_curated,
    follow_evidence,
    forgotten_texts,
    surviving_texts,
    tombstone_hashes,
)
from clawmem.forget.report import diary_lines, provenance_rows, removed_record
from clawmem.forget.results import ForgetResult, Removed, Review
from clawmem.forget.undo import FORGET_LOCK
from clawmem.timeparse import local_now
from clawmem.workspace import Workspace, validate_session_id

__all__ = ["ForgetResult", "Removed", "Review", "forget"]


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
        plan = _plan(ws, files, mode, target, copies=copies)
        rows = provenance_rows(ws)
        result = ForgetResult(
            mode, target, dry_run, [removed_record(t, rows) for t in plan.targets], plan.deleted, plan.review,
            target if mode == "session" else None, len(plan.tombs),
        )
        if dry_run:
            return result
        stamp = ledger.now_iso()
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
        from clawmem import diary

        diary.append(ws, f"forget {mode}", diary_lines(result, preimages))
    return result


@dataclass
class _Plan:
    """What a forget will remove, what it only flags for review, and which hashes it tombstones."""

    mode: str
    target: str
    targets: list[Target]
    deleted: list[str]
    review: list[Review]
    surviving: set[str]
    tombs: dict[str, str]


def _plan(ws: Workspace, files: Files, mode: str, target: str, *, copies: bool) -> _Plan:
    """Find the targets, follow them into evidence and curated copies; reads only.

    An anchor without ``copies`` keeps only what it names: the copies found are reviewed.
    """
    deleted: list[str] = []
    if mode == "entry":
        targets = by_anchor(ws, files, target)
    elif mode == "text":
        targets = by_text(files, target)
    else:
        targets, deleted = by_session(ws, files, target)
    review: list[Review] = []
    more, reviewed = follow_evidence(ws, files, targets)
    targets += more
    review += reviewed
    more, reviewed = follow_curated(ws, files, targets, deleted)
    targets += more
    review += reviewed
    if mode == "entry" and not copies:
        review += [Review(t.rel, t.line_start, excerpt(t.body), f"{t.why}: kept (`forget --copies` takes it too)") for t in targets if t.why != "target"]
        targets = [t for t in targets if t.why == "target"]
    unique: dict[tuple[str, int], Target] = {}
    for t in targets:
        unique.setdefault(t.key, t)
    targets = sorted(unique.values(), key=lambda t: (t.rel, t.line_start))
    review = [r for r in review if (r.path, r.line) not in unique]
    surviving = surviving_texts(files, targets)
    tombs = tombstone_hashes(targets, surviving, every_line=mode != "session")
    return _Plan(mode, target, targets, deleted, review, surviving, tombs)


def _tombstone(ws: Workspace, plan: _Plan, forget_id: str, stamp: str) -> None:
    """Ledger first: the forget record and its tombstones, before any file changes."""
    session = plan.target if plan.mode == "session" else None
    records: list[dict] = [{
        "t": "forget", "id": forget_id, "mode": plan.mode, "entries": len(plan.targets), "hashes": len(plan.tombs),
        "session": session, "at": stamp,
    }]
    records += [{"t": "tombstone", "session": session, "forget": forget_id, "at": stamp}] if session else []
    records += [{"t": "tombstone", "hash": h, "path": rel, "forget": forget_id, "at": stamp} for h, rel in sorted(plan.tombs.items())]
    ledger.append(ws, records)


def _apply(ws: Workspace, files: Files, plan: _Plan) -> tuple[list[Target], set[str], list[str]]:
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


def _redact(ws: Workspace, plan: _Plan, kept: list[Target]) -> tuple[set[str], dict[str, int], frozenset[str]]:
    """Redact what is gone for good from DREAMS.md, pre-images and the audit baseline.

    Returns the hashes and the normalised texts that are gone (with a ``--text`` needle
    whatever its length: the owner named it), for the copies in the index, logs and report.
    """
    from clawmem.audit.preimages import redact_baseline

    # what is gone for good: forgotten texts that no surviving entry still says
    norms = {loopguard.normalise(x) for t in kept for x in forgotten_texts(t.body, t.kind)} - plan.surviving - {""}
    hashes = set(plan.tombs) | {loopguard.text_hash(t.body) for t in kept if loopguard.normalise(t.body) in norms}
    needle = loopguard.normalise(plan.target) if plan.mode == "text" else ""
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
