"""Ranked memory search: FTS5 BM25 and sqlite-vec cosine lanes, blended and explained.

Every returned hit is logged as a recall event (the signal dreaming ranks by) and added to
the recalled set, so an agent echoing it back never creates a second copy of the fact.
Untrusted and system hits are left out unless asked for, and then come framed as untrusted;
superseded entries (``clawmem.index.supersession``) too, and then say what replaced them.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from clawmem import provenance
from clawmem.framing import frame_untrusted, inert
from clawmem.index import supersession, tokens
from clawmem.index.db import Index
from clawmem.search import ranking
from clawmem.timeparse import local_now
from clawmem.workspace import Workspace

TIERS = ("curated", "episodic", "all")
INLINE_EMBED_MAX = 256  # entries a search embeds itself before asking for `clawmem index`


@dataclass(frozen=True)
class SearchHit:
    id: int
    path: str
    line_start: int
    line_end: int
    citation: str
    text: str
    score: float
    text_score: float
    vector_score: float
    origin: str
    session_kind: str
    tier: str
    kind: str
    importance: int | None
    observed_at: str | None
    projects: list[str]
    untrusted: bool
    backfill: bool
    signals: dict[str, Any] = field(default_factory=dict)
    superseded: bool = False
    superseded_by: dict[str, str] | None = None  # the newer entry's citation and text

    @property
    def framed_text(self) -> str:
        """The text an agent should see: untrusted hits inside their own untrusted-content frame,
        trusted ones inert (so no hit can spell a marker that closes another's frame)."""
        return frame_untrusted(self.text, self.citation) if self.untrusted else inert(self.text)


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str  # "hybrid" or "lexical"
    embedder: str | None
    hits: list[SearchHit]
    warnings: list[str]
    decay: str  # "on", "off", "relaxed" (query about the past) or "current" (query about the value now)


SNIPPET_CHARS = 240


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One line of at most ``limit`` characters: enough to judge a hit before reading it whole."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def hit_snippet(hit: SearchHit) -> str:
    """The hit on one line within ``SNIPPET_CHARS``; an untrusted hit's frame is kept whole (both tags)."""
    if not hit.untrusted:
        return snippet(inert(hit.text))
    room = SNIPPET_CHARS - len(frame_untrusted("", hit.citation))  # the tags and the two line breaks
    return " ".join(frame_untrusted(snippet(inert(hit.text), max(1, room)), hit.citation).split("\n"))


def payload(result: SearchResult, *, explain: bool = False) -> dict[str, Any]:
    """The documented JSON shape of a search (``docs/schemas/search.json``), for the CLI and MCP.

    Hit text is the framed text: untrusted hits stay inside their untrusted-content frame
    (and so does the snippet, whose closing tag is never cut off); the query echoed back is inert.
    """
    hits = []
    for h in result.hits:
        hit = {
            "path": h.path, "line_start": h.line_start, "line_end": h.line_end, "citation": h.citation,
            "text": h.framed_text, "snippet": hit_snippet(h), "score": h.score, "vector_score": h.vector_score, "text_score": h.text_score,
            "origin": h.origin, "session_kind": h.session_kind, "tier": h.tier, "kind": h.kind,
            "importance": h.importance, "observed_at": h.observed_at, "projects": list(h.projects),
            "untrusted": h.untrusted, "backfill": h.backfill, "superseded": h.superseded, "superseded_by": h.superseded_by,
        }
        if explain:
            hit["signals"] = h.signals
        hits.append(hit)
    return {
        "query": inert(result.query), "mode": result.mode, "embedder": result.embedder, "decay": result.decay,
        "warnings": list(result.warnings), "results": hits,
    }


@dataclass(frozen=True)
class SearchOptions:
    limit: int | None = None
    min_score: float | None = None
    tier: str = "all"
    include_untrusted: bool = False
    include_superseded: bool = False
    active_projects: Sequence[str] = ()
    lanes: str = "hybrid"  # hybrid, lexical or vector (benchmarks compare them)
    decay: str = "auto"  # auto (relaxed for the past, current for "now/latest" questions), on, off, relaxed, current
    log_recall: bool = True


def _filters(opts: SearchOptions) -> tuple[str, list[Any]]:
    clauses, params = [], []
    if opts.tier != "all":
        clauses.append("e.tier = ?")
        params.append(opts.tier)
    if not opts.include_untrusted:
        clauses.append(provenance.trusted_sql("e.origin"))
    if not opts.include_superseded:
        clauses.append(supersession.live_sql("e"))
    return (" AND " + " AND ".join(clauses)) if clauses else "", params


def _fts(index: Index, expression: str, opts: SearchOptions, k: int) -> list[tuple[int, float]]:
    """(entry id, BM25) best first; SQLite's BM25 is negative, lower is better."""
    where, params = _filters(opts)
    rows = index.conn.execute(
        f"SELECT e.id, bm25(entries_fts) AS score FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid "
        f"WHERE entries_fts MATCH ?{where} ORDER BY score LIMIT ?",
        [expression, *params, k],
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def _quoted(terms: list[str]) -> list[str]:
    """Each term as an FTS5 string literal, so query text is never read as FTS5 syntax."""
    return ['"' + t.replace('"', '""') + '"' for t in terms]


def lexical_candidates(index: Index, query: str, opts: SearchOptions, k: int) -> list[tuple[int, float]]:
    """Entries containing any query term, in BM25 order."""
    terms = tokens.query_terms(query)
    return _fts(index, " OR ".join(_quoted(terms)), opts, k) if terms else []


def exact_candidates(index: Index, query: str, opts: SearchOptions, k: int) -> list[int]:
    """Entries containing every query term: the lexical back-fill that is never dropped."""
    terms = tokens.query_terms(query)
    return [entry_id for entry_id, _ in _fts(index, " AND ".join(_quoted(terms)), opts, k)] if terms else []


def _allowed(row: dict, opts: SearchOptions) -> bool:
    """The tier, supersession and trust filters, re-applied to rows from every lane (a vector row's own flags
    are an optimisation of the KNN scan, never the authority)."""
    if opts.tier != "all" and row["tier"] != opts.tier:
        return False
    if not (opts.include_superseded or supersession.is_live(row)):
        return False
    return opts.include_untrusted or provenance.is_trusted(row["origin"])


def neighbours(index: Index, rows: dict[int, dict], *, trusted_only: bool) -> dict[int, list[int]]:
    """Transcript entry id -> the turns just before and after it in the same transcript.

    A dialogue turn is often relevant only together with its neighbour (the question with its
    answer); on the LoCoMo benchmark letting a turn share in its neighbour's relevance gained
    several points of recall@5 (benchmarks/README.md). Daily-note lines are independent facts,
    so they keep their own relevance.
    """
    wanted = [i for i, r in rows.items() if r["kind"] == "transcript"]
    paths = sorted({rows[i]["path"] for i in wanted})
    if not wanted:
        return {}
    trust = f" AND {provenance.trusted_sql()}" if trusted_only else ""
    found: dict[int, list[int]] = {}
    for start in range(0, len(paths), 400):
        part = paths[start : start + 400]
        sql = (
            "SELECT id, prev, next FROM (SELECT id, LAG(id) OVER w AS prev, LEAD(id) OVER w AS next FROM entries "
            f"WHERE path IN ({','.join('?' * len(part))}){trust} WINDOW w AS (PARTITION BY path ORDER BY line_start)) "
            f"WHERE id IN ({','.join('?' * len(wanted))})"
        )
        for entry_id, before, after in index.conn.execute(sql, [*part, *wanted]).fetchall():
            found[entry_id] = [n for n in (before, after) if n is not None]
    return found


def _rows(index: Index, ids: Sequence[int]) -> dict[int, dict]:
    found: dict[int, dict] = {}
    for start in range(0, len(ids), 500):
        part = list(ids[start : start + 500])
        marks = ",".join("?" * len(part))
        for row in index.query(f"SELECT * FROM entries WHERE id IN ({marks})", part):
            found[row["id"]] = row
    return found


def _load_embedder(ws: Workspace, warnings: list[str]):
    from clawmem.embeddings import EmbedderUnavailable, load_embedder

    cfg = ws.config.embeddings
    try:
        return load_embedder(cfg.backend, cfg.model_path or None)
    except EmbedderUnavailable as err:
        warnings.append(f"vector search off, lexical only: {err}")
        return None


def _decay_mode(query: str, opts: SearchOptions) -> str:
    """auto: relaxed for questions about the past, current for questions about the value now, else on."""
    if opts.decay != "auto":
        return opts.decay
    from clawmem.recall_intent import detect
    from clawmem.search.current import asks_current

    if detect(query).present:
        return "relaxed"
    return "current" if asks_current(query) else "on"


def _decay(mode: str, cfg) -> tuple[float | None, float | None]:
    """(half-life, floor) for a decay mode; None keeps the configured default."""
    if mode == "off":
        return 0.0, None
    if mode == "relaxed":
        return cfg.half_life_days * 12, None
    if mode == "current":
        return cfg.current_half_life_days, cfg.current_floor
    return None, None


def search(
    ws: Workspace,
    index: Index,
    query: str,
    opts: SearchOptions = SearchOptions(),
    *,
    now: dt.datetime | None = None,
    embedder: Any = "auto",
) -> SearchResult:
    """Rank entries for ``query``; ``index`` must be synced. ``embedder=None`` forces lexical."""
    cfg = ws.config.search
    limit = opts.limit or cfg.limit
    min_score = cfg.min_score if opts.min_score is None else opts.min_score
    now = now or local_now()
    warnings: list[str] = []
    k = min(cfg.candidates_max, cfg.candidates_factor * limit)

    if opts.lanes == "lexical":
        embedder = None
    elif embedder == "auto":
        embedder = _load_embedder(ws, warnings)
    vector_scores: dict[int, float] = {}
    if embedder is not None:
        from clawmem.search import vectors

        report = vectors.refresh(index, embedder, max_new=INLINE_EMBED_MAX, cache_cap=ws.config.embeddings.cache_max_entries)
        if report.reason:
            warnings.append(f"vector search off, lexical only: {report.reason}")
            embedder = None
        else:
            if report.rebuilt:
                warnings.append(f"embedder changed to {embedder.id}: vectors were rebuilt")
            if report.pending:
                warnings.append(f"{report.pending} entries are not embedded yet; run `clawmem index` to embed them")
            query_vector = embedder.embed_query(query)
            tier = None if opts.tier == "all" else opts.tier
            vector_scores = dict(vectors.knn(index, query_vector, k=k, tier=tier, trusted_only=not opts.include_untrusted))
    vectors_on = embedder is not None and opts.lanes != "lexical"

    lexical = [] if opts.lanes == "vector" else lexical_candidates(index, query, opts, k)
    lexical_ids = [entry_id for entry_id, _ in lexical]
    text_scores = ranking.normalise_bm25(lexical)
    exact = [] if opts.lanes == "vector" else exact_candidates(index, query, opts, limit)
    rows = {i: r for i, r in _rows(index, list(dict.fromkeys([*lexical_ids, *vector_scores, *exact]))).items() if _allowed(r, opts)}

    fused = ranking.fused(lexical, vector_scores, cfg) if vectors_on and opts.lanes == "hybrid" else None

    def relevance(entry_id: int) -> float:
        if fused is not None:
            return fused.get(entry_id, 0.0)
        text_score, vector_score = text_scores.get(entry_id, 0.0), vector_scores.get(entry_id, 0.0)
        return vector_score if opts.lanes == "vector" else ranking.hybrid(text_score, vector_score, cfg, vectors_on=vectors_on)

    adjacent = neighbours(index, rows, trusted_only=not opts.include_untrusted) if cfg.context_weight else {}
    if vectors_on and adjacent:
        from clawmem.search import vectors

        missing = sorted({n for around in adjacent.values() for n in around} - set(vector_scores))
        vector_scores.update({i: max(0.0, float(v @ query_vector)) for i, v in vectors.cached_vectors(index, embedder.id, missing).items()})

    boosts = ranking.conversation_factors(query, rows, cfg)
    decay = _decay_mode(query, opts)
    half_life, floor = _decay(decay, cfg)
    scored: dict[int, ranking.Signals] = {}
    passes: dict[int, bool] = {}  # min_score is judged on the better of own and context relevance
    for entry_id, row in rows.items():
        own = relevance(entry_id)
        context = max((relevance(n) for n in adjacent.get(entry_id, ())), default=0.0)
        rec, age = ranking.recency(row["observed_at"], row["tier"], now, cfg, half_life_days=half_life, floor=floor)
        scored[entry_id] = ranking.Signals(
            text_score=text_scores.get(entry_id, 0.0),
            vector_score=vector_scores.get(entry_id, 0.0),
            hybrid=ranking.with_context(own, context, cfg.context_weight) if entry_id in adjacent else own,
            recency=rec,
            importance=ranking.importance(row["importance"], cfg),
            project=ranking.project_factor(row["projects"], opts.active_projects, cfg),
            age_days=age,
            conversation=boosts.get(entry_id, 1.0),
        )
        factors = rec * scored[entry_id].importance * scored[entry_id].project * scored[entry_id].conversation
        passes[entry_id] = max(own, scored[entry_id].hybrid) * factors >= min_score
    ordered = sorted(((i, s.score) for i, s in scored.items() if passes[i]), key=lambda p: -p[1])
    similarity = _similarity(index, [i for i, _ in ordered[: limit * 4]], rows, embedder.id if vectors_on else None)
    chosen = ranking.mmr(ordered[: limit * 4], similarity, lam=cfg.mmr_lambda, limit=limit)
    backfilled = [i for i in exact if i not in chosen][: max(0, limit - len(chosen))]

    newer = _superseding(index, [rows[i] for i in [*chosen, *backfilled]])
    hits = [_hit(rows[i], scored[i], backfill=i in backfilled, newer=newer) for i in [*chosen, *backfilled]]
    if not hits:
        warnings.extend(_why_empty(index, query, opts))
    if opts.log_recall and hits:
        from clawmem.index.recalls import Returned, record_returned

        returned = [Returned(rows[h.id]["text_hash"], h.path, h.score, h.origin) for h in hits]
        record_returned(index, returned, query=query, source="search", ws=ws)
    return SearchResult(query, "hybrid" if vectors_on else "lexical", getattr(embedder, "id", None), hits, warnings, decay)


def _similarity(index: Index, ids: list[int], rows: dict[int, dict], embedder_id: str | None):
    if embedder_id is not None:
        from clawmem.search.vectors import cached_vectors

        stored = cached_vectors(index, embedder_id, ids)
        if stored:
            return lambda a, b: float(stored[a] @ stored[b]) if a in stored and b in stored else 0.0
    words = {i: set(tokens.query_terms(rows[i]["text"].casefold())) for i in ids}
    return lambda a, b: ranking.jaccard(words.get(a, set()), words.get(b, set()))


def _citation(row: dict) -> str:
    return f"{row['path']}#L{row['line_start']}" + (f"-L{row['line_end']}" if row["line_end"] != row["line_start"] else "")


def _superseding(index: Index, rows: list[dict]) -> dict[int, dict[str, str]]:
    """Superseding entry id -> its citation and text (inert: it is shown beside the hit)."""
    wanted = sorted({r["superseded_by"] for r in rows if r.get("superseded_by") is not None})
    found = _rows(index, wanted) if wanted else {}
    return {i: {"citation": _citation(r), "text": inert(r["text"])} for i, r in found.items()}


def _hit(row: dict, signals: ranking.Signals, *, backfill: bool, newer: dict[int, dict[str, str]]) -> SearchHit:
    citation = _citation(row)
    return SearchHit(
        id=row["id"],
        path=row["path"],
        line_start=row["line_start"],
        line_end=row["line_end"],
        citation=citation,
        text=row["text"],
        score=round(signals.score, 6),
        text_score=round(signals.text_score, 6),
        vector_score=round(signals.vector_score, 6),
        origin=row["origin"],
        session_kind=row["session_kind"],
        tier=row["tier"],
        kind=row["kind"],
        importance=row["importance"],
        observed_at=row["observed_at"],
        projects=json.loads(row["projects"]) if row["projects"] else [],
        untrusted=not provenance.is_trusted(row["origin"]),
        backfill=backfill,
        signals={
            "hybrid": round(signals.hybrid, 6),
            "recency": round(signals.recency, 6),
            "age_days": None if signals.age_days is None else round(signals.age_days, 2),
            "importance": round(signals.importance, 6),
            "project": round(signals.project, 6),
            "conversation": round(signals.conversation, 6),
        },
        superseded=not supersession.is_live(row),
        superseded_by=newer.get(row.get("superseded_by")),
    )


def _why_empty(index: Index, query: str, opts: SearchOptions) -> list[str]:
    """Say plainly why nothing came back (the silent-empty failure of other tools)."""
    total = index.scalar("SELECT count(*) FROM entries")
    if total == 0:
        return ["the index holds no entries: add notes (`clawmem note add`) or run `clawmem index`"]
    if not tokens.query_terms(query):
        return ["the query has no searchable words"]
    if not opts.include_untrusted:
        everything = SearchOptions(tier=opts.tier, include_untrusted=True)
        if lexical_candidates(index, query, everything, 1):
            return ["only untrusted or system entries match; pass --include-untrusted to see them (framed as untrusted)"]
    if not opts.include_superseded:
        replaced = SearchOptions(tier=opts.tier, include_untrusted=opts.include_untrusted, include_superseded=True)
        if lexical_candidates(index, query, replaced, 1):
            return ["only superseded entries match (a newer entry with the same key replaced them); pass --include-superseded to see them"]
    return [f"no entry scored at or above the minimum score; try --min-score 0 (searched {total} entries)"]
