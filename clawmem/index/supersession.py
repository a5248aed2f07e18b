"""Supersession: which entry replaces which, decided once per sync and stored as ``superseded_by``.

Entries sharing a supersession key (``<!-- key: … -->``) form one lineage; the newest
observation wins (observed time, then file date, then line) and every older entry of the
lineage points at it. Reading (search, recall) hides the pointed-at entries by default, so a
moved server or a new deploy target answers with the current value, not the first one seen.

Trust is structural here as everywhere: the winner for a trusted entry is chosen among trusted
entries only, so an untrusted note that borrows an owner fact's key can never hide that fact.
An entry marked ``<!-- status: superseded -->`` never wins; it points at its lineage's winner.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import parse_when
from clawmem.index.db import Index
from clawmem.trust import provenance

OLDEST = dt.datetime.min


@dataclass(frozen=True)
class Keyed:
    id: int
    key: str
    origin: str
    status: str | None
    observed_at: str | None
    file_date: str | None
    line_start: int
    text_hash: str = ""


def _naive(value: str | None) -> dt.datetime:
    when = parse_when(value) if value else None
    if when is None:
        return OLDEST
    return when.astimezone().replace(tzinfo=None) if when.tzinfo is not None else when


def _order(e: Keyed) -> tuple:
    """Newest last: observed time, then the daily file's date, then the line (undated sorts oldest)."""
    return (_naive(e.observed_at), e.file_date or "", e.line_start, e.id)


def may_supersede(newer_origin: str, older_origin: str) -> bool:
    """The trust gate: only a trusted entry may hide a trusted one; anyone may hide untrusted text."""
    return provenance.is_trusted(newer_origin) or not provenance.is_trusted(older_origin)


def winners(entries: list[Keyed]) -> dict[int, int]:
    """Entry id -> id of the entry that supersedes it, for one workspace's keyed entries.

    Per lineage, each entry yields to the newest current entry allowed to supersede it
    (``may_supersede``) when that entry is newer, or when it is itself marked superseded. The
    same words are the same observation: a curated copy of a note (a promotion, a hand copy)
    and the note never hide each other.
    """
    lineages: dict[str, list[Keyed]] = defaultdict(list)
    for e in entries:
        lineages[e.key.strip().casefold()].append(e)
    result: dict[int, int] = {}
    for lineage in lineages.values():
        newest_first = sorted((e for e in lineage if e.status != "superseded"), key=_order, reverse=True)
        for e in lineage:
            winner = next((w for w in newest_first if w.text_hash != e.text_hash and may_supersede(w.origin, e.origin)), None)
            if winner is not None and (e.status == "superseded" or _order(e) < _order(winner)):
                result[e.id] = winner.id
    return result


def resolve(index: Index) -> int:
    """Recompute ``superseded_by`` for every keyed entry; returns how many entries are superseded."""
    rows = index.query(
        "SELECT e.id, e.supersession_key AS key, e.origin, e.status, e.observed_at, f.file_date, e.line_start, e.text_hash "
        "FROM entries e LEFT JOIN files f ON f.path = e.path WHERE e.supersession_key IS NOT NULL AND trim(e.supersession_key) != ''"
    )
    found = winners([Keyed(**row) for row in rows])
    index.execute("UPDATE entries SET superseded_by = NULL WHERE superseded_by IS NOT NULL")
    if found:
        index.executemany("UPDATE entries SET superseded_by = ? WHERE id = ?", [(winner, loser) for loser, winner in found.items()])
    return len(found)


def live_sql(alias: str = "e") -> str:
    """SQL condition: the entry is current (not replaced by a newer one, not marked superseded)."""
    return f"{alias}.superseded_by IS NULL AND ({alias}.status IS NULL OR {alias}.status != 'superseded')"


def is_live(row: dict) -> bool:
    """``live_sql`` for a row already read."""
    return row.get("superseded_by") is None and row.get("status") != "superseded"
