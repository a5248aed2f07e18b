"""The recalled set and recall events: what clawmem returned, how often, for which queries."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Iterable

from clawmem.index.db import Index
from clawmem.ledger import now_iso


def query_hash(query: str) -> str:
    return hashlib.sha256(" ".join(query.casefold().split()).encode()).hexdigest()[:16]


def record_returned(index: Index, hits: Iterable[tuple[str, str, float]], *, query: str, source: str) -> None:
    """Log each returned (text_hash, path, score) as a recall event and add it to the recalled set."""
    at = now_iso()
    day = dt.date.today().isoformat()
    qh = query_hash(query)
    rows = list(hits)
    with index.transaction():
        for text_hash, path, score in rows:
            index.execute(
                "INSERT INTO recall_events(text_hash, path, query_hash, score, day, at, source) VALUES (?,?,?,?,?,?,?)",
                (text_hash, path, qh, float(score), day, at, source),
            )
            index.execute(
                """INSERT INTO recalled(text_hash, first_at, last_at, times) VALUES (?, ?, ?, 1)
                   ON CONFLICT(text_hash) DO UPDATE SET last_at = excluded.last_at, times = times + 1""",
                (text_hash, at, at),
            )


def take_echoes(index: Index, hashes: Iterable[str]) -> set[str]:
    """Return the hashes that are recalled content, counting each as an echo (not a new fact)."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    found: set[str] = set()
    with index.transaction():
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            found.update(r["text_hash"] for r in index.query(f"SELECT text_hash FROM recalled WHERE text_hash IN ({marks})", part))
        for text_hash in found:
            index.execute("UPDATE recalled SET echoes = echoes + 1 WHERE text_hash = ?", (text_hash,))
    return found


def mark_recalled(index: Index, hashes: Iterable[str]) -> None:
    """Add injected content (e.g. bootstrap lines) to the recalled set without logging events."""
    wanted = sorted(set(hashes))
    known: set[str] = set()
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ",".join("?" * len(part))
        known.update(r[0] for r in index.conn.execute(f"SELECT text_hash FROM recalled WHERE text_hash IN ({marks})", part))
    at = now_iso()
    rows = [(h, at, at) for h in wanted if h not in known]
    if rows:  # a read-only turn when nothing new was injected: no write lock taken
        with index.transaction():
            index.executemany("INSERT OR IGNORE INTO recalled(text_hash, first_at, last_at, times) VALUES (?, ?, ?, 0)", rows)
