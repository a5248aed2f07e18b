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

Layout: ``run.py`` runs the audit; the checks are ``index_check.py``, ``preimages.py`` (with
the baseline) and ``entry_checks.py`` (provenance, annotation); ``sources.py`` traces anchors,
``mentions.py`` reads the sweeps in ``DREAMS.md`` (through ``storage/diary.py``), ``ledger_view.py`` reads the ledger once;
``results.py`` holds what ``run_audit`` returns.
"""

from __future__ import annotations

from clawmem.audit.results import AuditEntry, AuditReport, Finding, SourceTrace, SweepRef
from clawmem.audit.run import CHECKS, establish_baseline, parse_since, run_audit

__all__ = ["CHECKS", "AuditEntry", "AuditReport", "Finding", "SourceTrace", "SweepRef", "establish_baseline", "parse_since", "run_audit"]
