"""Entry vectors in a sqlite-vec ``vec0`` table, with an embedding cache keyed by content hash.

The index records which embedder made its vectors (model/backend/dimension). When that
changes, the vec table is dropped and rebuilt, and the change is reported. Re-indexing a
file gives its entries new ids, but their vectors come back from the cache without running
the model; the cache is capped and trimmed least-recently-used first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from clawmem.foundation.background import in_background
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import now_iso
from clawmem.index.db import Index, in_batches
from clawmem.trust import provenance

if TYPE_CHECKING:
    import numpy as np

    from clawmem.embeddings import Embedder

VEC_TABLE = "entry_vectors"
IN_STEP_TABLES = frozenset({"entries", VEC_TABLE, f"{VEC_TABLE}_rowids"})  # what ``_in_step`` reads: ``Index.derived`` keeps it while they stand
T = TypeVar("T")
BATCH = 64  # one model call; also one commit and one progress step, so Ctrl-C waits for at most one batch
Progress = Callable[[int, int, str], None]  # (done, total, phase), as clawmem.index.sync.Progress


@dataclass(frozen=True)
class VectorReport:
    embedder: str
    embedded: int
    from_cache: int
    removed: int
    pending: int
    rebuilt: bool
    reason: str | None = None
    seconds: float = 0.0  # wall time of the embedding work, model load included (set by ``index.maintain.embed_pending``)
    per_second: float = 0.0  # entries embedded per second of ``seconds``: the rate to plan a big index by


def _has_table(index: Index) -> bool:
    return bool(index.scalar("SELECT count(*) FROM sqlite_master WHERE name = ?", (VEC_TABLE,)))


def ensure_table(index: Index, embedder: Embedder) -> bool:
    """Create the vec table for this embedder; rebuild it when the embedder changed. True if rebuilt."""
    previous = index.meta("embedder_id")
    rebuilt = previous is not None and previous != embedder.id
    if rebuilt and _has_table(index):
        index.execute(f"DROP TABLE {VEC_TABLE}")
        index.execute("DELETE FROM trigger_vectors WHERE embedder != ?", (embedder.id,))
    if not _has_table(index):
        index.execute(
            f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0("
            f"embedding float[{embedder.dimension}] distance_metric=cosine, tier text, trusted integer)"
        )
    index.set_meta("embedder_id", embedder.id)
    return rebuilt


def _blob(vector: np.ndarray) -> bytes:
    import numpy as np  # deferred: only vector work needs numpy

    return np.asarray(vector, dtype=np.float32).tobytes()


def _missing(index: Index, limit: int | None) -> list[dict]:
    sql = f"SELECT id, text, text_hash, tier, origin FROM entries WHERE id NOT IN (SELECT rowid FROM {VEC_TABLE}) ORDER BY id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return index.query(sql)


def _in_step(index: Index) -> bool:
    """Every entry has a vector and no vector outlives its entry (the per-search fast path).

    Entry ids are never reused (AUTOINCREMENT), so equal counts and equal largest ids mean the
    same set: an added entry raises the largest id, a deleted one lowers the count. The counts
    walk both tables (about 7 ms at 100k entries), so a connection that serves many searches
    (the worker, the MCP server) keeps the answer until the index changes (``Index.derived``).
    """
    if not _has_table(index):
        return False
    return index.derived("vectors.in_step", IN_STEP_TABLES, lambda: _counts_match(index))


def _counts_match(index: Index) -> bool:
    entries = index.conn.execute("SELECT count(*), max(id) FROM entries").fetchone()
    vectors = index.conn.execute(f"SELECT count(*), max(rowid) FROM {VEC_TABLE}_rowids").fetchone()
    return tuple(entries) == tuple(vectors)


def unembedded(index: Index, embedder_id: str | None) -> int:
    """Entries search can find only by their words: no vector yet (an interrupted or ``--no-embed``
    index), or every entry when the vectors are another embedder's (the next index rebuilds them)."""
    if embedder_id is None or index.meta("embedder_id") != embedder_id:
        return index.scalar("SELECT count(*) FROM entries")
    return pending_count(index)


def pending_count(index: Index) -> int:
    """Entries without a vector (read from the vec0 rowid table, so sqlite-vec need not be loaded)."""
    if not _has_table(index):
        return index.scalar("SELECT count(*) FROM entries")
    return index.scalar(f"SELECT count(*) FROM entries WHERE id NOT IN (SELECT rowid FROM {VEC_TABLE}_rowids)")


def refresh(
    index: Index,
    embedder: Embedder,
    *,
    max_new: int | None = None,
    cache_cap: int = 200_000,
    progress: Progress | None = None,
) -> VectorReport:
    """Give every entry a vector (cache first, model second) and drop vectors of deleted entries."""
    if not index.load_vec():
        return VectorReport(embedder.id, 0, 0, 0, 0, False, "sqlite-vec could not be loaded")
    if index.meta("embedder_id") == embedder.id and _in_step(index):
        return VectorReport(embedder.id, 0, 0, 0, 0, False)
    with index.transaction():
        rebuilt = ensure_table(index, embedder)
        removed = index.scalar(f"SELECT count(*) FROM {VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)")
        if removed:
            index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)")
    todo = _missing(index, max_new)
    embedded = cached = 0
    now = now_iso()
    if progress and todo:
        progress(0, len(todo), "embedding")
    for start in range(0, len(todo), BATCH):
        batch = todo[start : start + BATCH]
        hashes = sorted({r["text_hash"] for r in batch})
        marks = ",".join("?" * len(hashes))
        found = {
            r["text_hash"]: r["vector"]
            for r in index.query(f"SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN ({marks})", [embedder.id, *hashes])
        }
        need = [r for r in batch if r["text_hash"] not in found]
        if need:
            unique = list({r["text_hash"]: r["text"] for r in need}.items())
            texts = [text for _, text in unique]
            vectors = interruptible(partial(embedder.embed, texts, batch_size=BATCH))
            for (text_hash, _), vector in zip(unique, vectors, strict=True):
                found[text_hash] = _blob(vector)
            embedded += len(unique)
        cached += len(batch) - len(need)
        with index.transaction():
            index.executemany(
                "INSERT INTO embedding_cache(embedder, text_hash, vector, last_used) VALUES (?,?,?,?) "
                "ON CONFLICT(embedder, text_hash) DO UPDATE SET last_used = excluded.last_used",
                [(embedder.id, h, found[h], now) for h in {r["text_hash"] for r in batch}],
            )
            index.executemany(
                f"INSERT INTO {VEC_TABLE}(rowid, embedding, tier, trusted) VALUES (?,?,?,?)",
                [(r["id"], found[r["text_hash"]], r["tier"], int(provenance.is_trusted(r["origin"]))) for r in batch],
            )
        if progress:
            progress(min(start + len(batch), len(todo)), len(todo), "embedding")
    trim_cache(index, cache_cap)
    return VectorReport(embedder.id, embedded, cached, removed, pending_count(index), rebuilt)


def interruptible(work: Callable[[], T]) -> T:
    """``work()`` on a helper thread, so Ctrl-C reaches the caller at once.

    A model call is one long C call: Python runs its SIGINT handler only after it returns (a
    batch can take many seconds), so the main thread waits instead, and a wait is interrupted
    at once. The helper is a daemon thread: an interrupted run exits without waiting for it, and
    nothing it computed is written (the caller commits after it returns).
    """
    return in_background(work, "clawmem-embed")()


def trim_cache(index: Index, cap: int) -> int:
    """Keep at most ``cap`` cached vectors, dropping the least recently used."""
    excess = index.scalar("SELECT count(*) FROM embedding_cache") - cap
    if excess <= 0:
        return 0
    with index.transaction():
        index.execute(
            "DELETE FROM embedding_cache WHERE rowid IN (SELECT rowid FROM embedding_cache ORDER BY last_used LIMIT ?)",
            (excess,),
        )
    return excess


def knn(index: Index, query_vector: np.ndarray, *, k: int, tier: str | None, trusted_only: bool) -> list[tuple[int, float]]:
    """Nearest entries as (entry id, cosine similarity), best first.

    Scans the derived int8 matrix (``clawmem.index.matrix``) and rescores its best candidates
    exactly; falls back to sqlite-vec's own scan when the matrix cannot be built. Either way the
    tier and trust flags only narrow the scan: the caller re-checks every row.
    """
    if not index.load_vec() or not _has_table(index):
        return []
    from clawmem.index import matrix

    scanned = matrix.scan(index, query_vector, k=k, tier=tier, trusted_only=trusted_only)
    if scanned is not None:
        return _rescored(index, query_vector, scanned, k)
    return _vec0_knn(index, query_vector, k=k, tier=tier, trusted_only=trusted_only)


def _rescored(index: Index, query_vector: np.ndarray, approximate: list[tuple[int, float]], k: int) -> list[tuple[int, float]]:
    """Exact float32 cosine for the quantised scan's candidates (kept approximate where the cache lost a vector)."""
    exact = cached_vectors(index, index.meta("embedder_id") or "", [i for i, _ in approximate])
    scored = [(i, max(0.0, float(exact[i] @ query_vector)) if i in exact else s) for i, s in approximate]
    return sorted(scored, key=lambda p: -p[1])[:k]


def _vec0_knn(index: Index, query_vector: np.ndarray, *, k: int, tier: str | None, trusted_only: bool) -> list[tuple[int, float]]:
    where = ["embedding MATCH ?", "k = ?"]
    params: list = [_blob(query_vector), k]
    if tier:
        where.append("tier = ?")
        params.append(tier)
    if trusted_only:
        where.append("trusted = 1")
    rows = index.conn.execute(f"SELECT rowid, distance FROM {VEC_TABLE} WHERE {' AND '.join(where)}", params).fetchall()
    return [(int(rowid), max(0.0, 1.0 - float(distance))) for rowid, distance in rows]


def cached_vectors(index: Index, embedder_id: str, ids: list[int]) -> dict[int, np.ndarray]:
    """Vectors of some entries looked up by content hash in the cache (fast, unlike vec0 rowid reads)."""
    import numpy as np  # deferred: only vector work needs numpy

    found: dict[int, np.ndarray] = {}
    for part, marks in in_batches(ids):
        # pairs, not ``index.query``'s dict rows: a hybrid search reads about a thousand here
        hashes = dict(index.conn.execute(f"SELECT id, text_hash FROM entries WHERE id IN ({marks})", part))
        if not hashes:
            continue
        marks = ",".join("?" * len(hashes))
        blobs = dict(index.conn.execute(f"SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN ({marks})", [embedder_id, *hashes.values()]))
        found.update({i: np.frombuffer(blobs[h], dtype=np.float32) for i, h in hashes.items() if h in blobs})
    return found


def vectors_for(index: Index, ids: list[int]) -> dict[int, np.ndarray]:
    """Stored vectors of some entries (for MMR diversity)."""
    import numpy as np  # deferred: only vector work needs numpy

    if not ids or not _has_table(index):
        return {}
    marks = ",".join("?" * len(ids))
    rows = index.conn.execute(f"SELECT rowid, embedding FROM {VEC_TABLE} WHERE rowid IN ({marks})", ids).fetchall()
    return {int(rowid): np.frombuffer(blob, dtype=np.float32) for rowid, blob in rows}


def refresh_triggers(index: Index, embedder: Embedder) -> int:
    """Embed trigger phrases of curated entries at index time, so recall only embeds the message."""
    import json

    phrases: set[str] = set()
    for row in index.query("SELECT triggers FROM entries WHERE tier = 'curated' AND triggers IS NOT NULL"):
        phrases.update(p.casefold() for p in json.loads(row["triggers"]))
    known = {r["phrase"] for r in index.query("SELECT phrase FROM trigger_vectors WHERE embedder = ?", (embedder.id,))}
    new = sorted(phrases - known)
    if new:
        vectors = embedder.embed(new, batch_size=BATCH)
        with index.transaction():
            index.executemany(
                "INSERT INTO trigger_vectors(embedder, phrase, vector) VALUES (?,?,?)",
                [(embedder.id, p, _blob(v)) for p, v in zip(new, vectors, strict=True)],
            )
    return len(new)
