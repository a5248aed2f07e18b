"""The recalled set and recall events: what clawmem returned, how often, for which queries.

Trusted hits form the recalled set (writers drop echoes of it: a fact recalled a hundred
times stays one fact). Untrusted hits are kept apart in ``returned_untrusted``: they never
make a writer drop anything, they are what agent writes are checked against for content
derived from untrusted text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from clawmem.entries import identity
from clawmem.entries.words import stems
from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import local_now, now_iso
from clawmem.index.db import Index, in_batches
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

if TYPE_CHECKING:
    from clawmem.storage.ledger_records import ReturnedRecord


def query_hash(query: str) -> str:
    return sha256_hex(" ".join(query.casefold().split()).encode())[:16]


@dataclass(frozen=True)
class Returned:
    """One hit clawmem handed out: its text hash, where it sits, its score, its origin class and
    the query's word stems its text holds (``answered``; None: not known, every claim of it answered)."""

    text_hash: str
    path: str
    score: float
    origin: str
    matched: frozenset[str] | None = None


def answered(query: str, text: str) -> frozenset[str]:
    """The word stems of ``query`` that ``text`` holds: what a returned turn matched on, so
    dreaming can tell which of its claims answered the query (``dream.gate.credited``)."""
    return stems(query) & stems(text)


@dataclass(frozen=True)
class Handed:
    """An untrusted text clawmem handed out: where it sat, its text (None when only its hash is known), its hash."""

    path: str | None
    text: str | None
    text_hash: str


def joins_recalled_set(origin: str) -> bool:
    """Only trusted hits join the recalled set whose echoes writers drop.

    An untrusted hit there would let planted text veto the owner's identical fact for good;
    untrusted hits are recorded apart instead (``returned_untrusted``), as sources that agent
    writes are checked against (``clawmem.trust.content_origin``).
    """
    return origin in provenance.TRUSTED_ORIGINS


def record_returned(index: Index, hits: Iterable[Returned], *, query: str, source: str, ws: Workspace | None = None) -> None:
    """Log each returned hit as a recall event; trusted ones join the recalled set, untrusted ones are kept apart.

    The first return of an untrusted hash is also written to the provenance ledger (with
    ``ws``), so the record survives a deleted index: losing it would let an agent's copy of
    that text pass as agent evidence.
    """
    at = now_iso()
    day = local_now().date().isoformat()  # the day of ``at``: one clock, so a simulated week stays one week
    qh = query_hash(query)
    rows = list(hits)
    with index.transaction():
        for hit in rows:
            index.execute(
                "INSERT INTO recall_events(text_hash, path, query_hash, score, day, at, source, matched) VALUES (?,?,?,?,?,?,?,?)",
                (hit.text_hash, hit.path, qh, float(hit.score), day, at, source, " ".join(sorted(hit.matched)) if hit.matched else None),
            )
    _remember(index, rows, ws, at, times=1)


def mark_shown(index: Index, hits: Iterable[Returned], *, ws: Workspace | None = None) -> None:
    """Remember content shown without a query (``get``): trusted lines join the recalled set, untrusted ones are kept apart; no recall events."""
    _remember(index, list(hits), ws, now_iso(), times=0)


def _remember(index: Index, rows: list[Returned], ws: Workspace | None, at: str, *, times: int) -> None:
    untrusted = [h for h in rows if not joins_recalled_set(h.origin)]
    if untrusted and ws is not None:
        from clawmem.storage import ledger, ledger_records  # deferred: a search that returns nothing untrusted never writes the ledger

        known = _known_untrusted(index, [h.text_hash for h in untrusted])
        ledger.append(ws, [ledger_records.returned_record(h.text_hash, h.path) for h in untrusted if h.text_hash not in known])
    with index.transaction():
        for hit in rows:
            if joins_recalled_set(hit.origin):
                index.execute(
                    """INSERT INTO recalled(text_hash, first_at, last_at, times) VALUES (?, ?, ?, ?)
                       ON CONFLICT(text_hash) DO UPDATE SET last_at = excluded.last_at, times = times + excluded.times""",
                    (hit.text_hash, at, at, times),
                )
            else:
                text = index.scalar("SELECT text FROM entries WHERE path = ? AND text_hash = ?", (hit.path, hit.text_hash))
                index.execute(
                    """INSERT INTO returned_untrusted(text_hash, path, text, first_at, last_at, times) VALUES (?, ?, ?, ?, ?, ?)
                       ON CONFLICT(text_hash) DO UPDATE SET last_at = excluded.last_at, times = times + excluded.times,
                           text = COALESCE(excluded.text, text), path = COALESCE(excluded.path, path)""",
                    (hit.text_hash, hit.path, text, at, at, times),
                )


def restore_returned(index: Index, record: ReturnedRecord) -> None:
    """Replay a ``returned`` ledger record: a rebuilt or recreated index keeps knowing what was returned."""
    if isinstance(record.get("hash"), str):
        index.execute(
            "INSERT OR IGNORE INTO returned_untrusted(text_hash, path, text, first_at, last_at, times) VALUES (?, ?, NULL, ?, ?, 0)",
            (record["hash"], record.get("path") if isinstance(record.get("path"), str) else None, str(record.get("at")), str(record.get("at"))),
        )


def _known_untrusted(index: Index, hashes: list[str]) -> set[str]:
    marks = ",".join("?" * len(hashes))
    return {r["text_hash"] for r in index.query(f"SELECT text_hash FROM returned_untrusted WHERE text_hash IN ({marks})", hashes)}


def returned_untrusted(index: Index) -> list[Handed]:
    """Every untrusted text clawmem returned, oldest first (its text from the entries when the record lost it)."""
    rows = index.query(
        """SELECT r.text_hash, r.path,
                  COALESCE(r.text, (SELECT e.text FROM entries e WHERE e.text_hash = r.text_hash LIMIT 1)) AS text
           FROM returned_untrusted r ORDER BY r.first_at"""
    )
    return [Handed(r["path"], r["text"], r["text_hash"]) for r in rows]


def take_echoes(index: Index, hashes: Iterable[str]) -> set[str]:
    """Return the hashes that are recalled content, counting each as an echo (not a new fact)."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    found: set[str] = set()
    with index.transaction():
        for part, marks in in_batches(wanted):
            found.update(r["text_hash"] for r in index.query(f"SELECT text_hash FROM recalled WHERE text_hash IN ({marks})", part))
        for text_hash in found:
            index.execute("UPDATE recalled SET echoes = echoes + 1 WHERE text_hash = ?", (text_hash,))
    return found


def injected_lines(index: Index) -> dict[str, str]:
    """Comparison form -> text hash of every line the recall log says was injected, with its text.

    The recalled set's entries still in the index, and the standing intents that fired (recall
    injected their text): the lines a writer's line is compared with by identity. A recalled
    hash whose entry is gone is still caught exactly, by hash.
    """
    rows = index.query(
        """SELECT DISTINCT r.text_hash, e.text FROM recalled r JOIN entries e ON e.text_hash = r.text_hash
           UNION ALL SELECT NULL, text FROM intents WHERE fires > 0"""
    )
    found: dict[str, str] = {}
    for row in rows:
        form = identity.normalise(row["text"] or "")
        if form:
            found.setdefault(form, row["text_hash"] or identity.text_hash(row["text"]))
    return found


def count_echoes(index: Index, originals: Iterable[str]) -> None:
    """One more echo for each recalled hash a writer's line repeated (``echoes.near_echoes`` found them)."""
    with index.transaction():
        for original in originals:
            index.execute("UPDATE recalled SET echoes = echoes + 1 WHERE text_hash = ?", (original,))


def mark_recalled(index: Index, hashes: Iterable[str]) -> None:
    """Add injected content (e.g. bootstrap lines) to the recalled set without logging events."""
    wanted = sorted(set(hashes))
    known: set[str] = set()
    for part, marks in in_batches(wanted):
        known.update(r[0] for r in index.conn.execute(f"SELECT text_hash FROM recalled WHERE text_hash IN ({marks})", part))
    at = now_iso()
    rows = [(h, at, at) for h in wanted if h not in known]
    if rows:  # a read-only turn when nothing new was injected: no write lock taken
        with index.transaction():
            index.executemany("INSERT OR IGNORE INTO recalled(text_hash, first_at, last_at, times) VALUES (?, ?, ?, 0)", rows)


def ledger_returned(ws: Workspace) -> list[Handed]:
    """The untrusted hits the ledger says were returned, by hash only (for an index that lost them).

    Cheap when nothing untrusted was ever returned (one substring search over the ledger's bytes).
    """
    try:
        data = ws.ledger_path.read_bytes()
    except FileNotFoundError:
        return []
    found: list[Handed] = []
    if b'"returned"' in data:
        from clawmem.storage import ledger
        from clawmem.storage.ledger_records import ReturnedRecord, is_kind

        for line in data.splitlines():
            r = ledger.parse_record(line)[0] if b'"returned"' in line else None  # malformed: skipped (``ledger.read`` reports it)
            if r is not None and is_kind(r, ReturnedRecord):
                found.append(Handed(r.get("path"), None, r["hash"]))
    return found
