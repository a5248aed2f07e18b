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

Layout: ``run.py`` carries a forget out step by step; ``plan.py`` decides what goes and what
is reviewed, ``apply.py`` changes the files, history and index, ``report.py`` builds the
result and the ``DREAMS.md`` record, ``undo.py`` keeps the private undo record and carries out
``forget --undo`` (a mistake is reversible for ``forget.undo_days``; ``--no-undo`` keeps
nothing, for a leaked secret).
"""

from __future__ import annotations

from clawmem.forget.results import ForgetResult, Removed, Review
from clawmem.forget.run import forget

__all__ = ["ForgetResult", "Removed", "Review", "forget"]
