"""The ranking pipeline: FTS5 BM25 and vector lanes, blended with their context and explained.

Every returned hit is logged as a recall event (the signal dreaming ranks by) and added to
the recalled set, so an agent echoing it back never creates a second copy of the fact.
Untrusted and system hits are left out unless asked for; superseded entries
(``clawmem.index.supersession``) too, and then say what replaced them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import local_now
from clawmem.index import pieces, supersession, tokens
from clawmem.index.db import Index
from clawmem.search import diversity, feedback, lanes, ranking, sessions
from clawmem.search.results import SearchHit, SearchResult
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance
from clawmem.trust.framing import inert


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
    session: str | None = None  # the caller's: what it is shown joins that session's lineage (``trust.sessions``)


def query_text(query: str, stdin: Any = None) -> str:
    """The query a command was given: ``-`` reads standard input; empty or blank is a usage error."""
    from clawmem.foundation.errors import BadValue

    text = (stdin or sys.stdin).read().strip() if query == "-" else query
    if not text.strip():
        raise BadValue("the query is empty", hint="give words to look for, or - to read them from standard input")
    return text


def active_projects(ws: Workspace, projects: Sequence[str] = (), session: str | None = None) -> list[str]:
    """The repository keys to boost: those named, then the session's active set in this workspace (each once, in order)."""
    active = list(dict.fromkeys(projects))
    if session:
        from clawmem.commands.projects import active_set

        active += [k for k in active_set(ws, session) if k not in active]
    return active


def _decay_mode(query: str, opts: SearchOptions) -> str:
    """auto: relaxed for questions about the past, current for questions about the value now, else on."""
    if opts.decay != "auto":
        return opts.decay
    from clawmem.commands.recall_intent import detect
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

    finish_vectors = lanes.vector_lane(ws, index, query, opts, k, embedder, warnings)  # the query is encoded meanwhile
    lexical = [] if opts.lanes == "vector" else lanes.lexical_candidates(index, query, opts, k)
    lexical_ids = [entry_id for entry_id, _ in lexical]
    text_scores = ranking.normalise_bm25(lexical)
    exact = [] if opts.lanes == "vector" else lanes.exact_candidates(index, query, opts, limit)
    # Read while the query is still being encoded (the main thread would only wait): the lexical
    # candidates' rows, their places in their transcripts and their stored vectors (issue 26).
    found = lanes.rows(index, list(dict.fromkeys([*lexical_ids, *exact])))
    early = {i: r for i, r in found.items() if lanes.allowed(r, opts)}
    wants_turns = bool(cfg.context_weight or cfg.session_weight)
    around = lanes.turns(index, early, trusted_only=not opts.include_untrusted) if wants_turns else {}
    lane_runs = finish_vectors is not lanes.no_vector_lane
    stored = lanes.stored_vectors(index, [*early, *(n for turn in around.values() for n in turn.beside)]) if lane_runs else None
    vector = finish_vectors()
    vector_scores, vectors_on = vector.scores, vector.on

    found.update(lanes.rows(index, [i for i in vector_scores if i not in found]))
    found = {i: found[i] for i in sorted(found)}  # by id, the order one read of them all gave: ties rank as before
    rows = {i: r for i, r in found.items() if lanes.allowed(r, opts)}
    if vectors_on:  # a lexical candidate beyond the vector scan's k has a cosine too: not 0 in the blend (LoCoMo +0.5 / +0.5)
        vector.score_more(index, set(rows), stored)

    fused = ranking.fused(lexical, vector_scores, cfg) if vectors_on and opts.lanes == "hybrid" else None

    def relevance(entry_id: int) -> float:
        if fused is not None:
            return fused.get(entry_id, 0.0)
        text_score, vector_score = text_scores.get(entry_id, 0.0), vector_scores.get(entry_id, 0.0)
        return vector_score if opts.lanes == "vector" else ranking.hybrid(text_score, vector_score, cfg, vectors_on=vectors_on)

    feedback_scores: dict[int, float] = {}
    terms: list[str] = []
    if cfg.feedback_weight > 0 and fused is None and opts.lanes != "vector" and rows:
        first = sorted(rows, key=lambda i: -relevance(i))[: cfg.feedback_docs]
        terms = feedback.expansion_terms(index, query, [rows[i]["text"] for i in first], count=cfg.feedback_terms, min_docs=cfg.feedback_min_docs)
        if terms:
            second = lanes.any_term_candidates(index, terms, opts, k)
            feedback_scores = ranking.normalise_bm25(second)
            fresh = lanes.rows(index, [i for i, _ in second if i not in found])
            rows.update({i: r for i, r in fresh.items() if lanes.allowed(r, opts)})
            if vectors_on:
                vector.score_more(index, set(fresh))
            text_scores = feedback.blend(text_scores, feedback_scores, cfg.feedback_weight)

    best_pieces = _late_interaction(index, vector, rows, cfg.piece_weight) if vectors_on and cfg.piece_weight > 0 else {}

    if wants_turns:
        around.update(lanes.turns(index, {i: r for i, r in rows.items() if i not in early}, trusted_only=not opts.include_untrusted))
    adjacent = {i: turn.beside for i, turn in around.items()} if cfg.context_weight else {}
    if vectors_on and adjacent:
        vector.score_more(index, {n for beside in adjacent.values() for n in beside}, stored)
    session = sessions.passages(rows, {i: relevance(i) for i in rows}, {i: turn.place for i, turn in around.items()}) if cfg.session_weight > 0 else {}

    boosts = ranking.conversation_factors(query, rows, cfg)
    decay = _decay_mode(query, opts)
    half_life, floor = _decay(decay, cfg)
    scored: dict[int, ranking.Signals] = {}
    passes: dict[int, bool] = {}  # min_score is judged on the better of own and context (and passage) relevance
    for entry_id, row in rows.items():
        own = relevance(entry_id)
        context = max((relevance(n) for n in adjacent.get(entry_id, ())), default=0.0)
        rec, age = ranking.recency(row["observed_at"], row["tier"], now, cfg, half_life_days=half_life, floor=floor)
        blended = ranking.with_context(own, context, cfg.context_weight) if entry_id in adjacent else own
        passage = session.get(entry_id)
        lent = 0.0
        if passage is not None and passage > blended:  # a passage lifts the turns around its best, never lowers one
            lifted = ranking.with_context(blended, passage, cfg.session_weight)
            blended, lent = lifted, lifted - blended
        else:
            passage = None
        scored[entry_id] = ranking.Signals(
            text_score=text_scores.get(entry_id, 0.0),
            vector_score=vector_scores.get(entry_id, 0.0),
            hybrid=blended,
            recency=rec,
            importance=ranking.importance(row["importance"], cfg),
            project=ranking.project_factor(row["projects"], opts.active_projects, cfg),
            age_days=age,
            conversation=math.prod(boosts.get(entry_id, {}).values()),
            boosts=boosts.get(entry_id, {}),
            feedback=feedback_scores.get(entry_id, 0.0),
            feedback_terms=feedback.present(terms, row["text"]) if entry_id in feedback_scores else (),
            session=passage,
            lent=lent,
            piece=best_pieces.get(entry_id),
        )
        factors = rec * scored[entry_id].importance * scored[entry_id].project * scored[entry_id].conversation
        passes[entry_id] = max(own, scored[entry_id].hybrid) * factors >= min_score
    ordered = sorted(((i, s.score) for i, s in scored.items() if passes[i]), key=lambda p: -p[1])
    chosen = _diverse(index, ordered[: limit * 4], rows, vector.embedder if vectors_on else None, lam=cfg.mmr_lambda, limit=limit)
    backfilled = [i for i in exact if i not in chosen][: max(0, limit - len(chosen))]

    newer = _superseding(index, [rows[i] for i in [*chosen, *backfilled]])
    by_score = {i: n for n, (i, _) in enumerate(ordered, 1)}  # diversity (MMR) may show a hit above a higher score
    hits = [_hit(rows[i], scored[i], backfill=i in backfilled, newer=newer, score_rank=by_score.get(i)) for i in [*chosen, *backfilled]]
    if not hits:
        warnings.extend(_why_empty(index, query, opts))
    if opts.log_recall and hits:
        from clawmem.index.recalls import Returned, answered, joins_recalled_set, record_returned

        returned = [
            Returned(rows[h.id]["text_hash"], h.path, scored[h.id].earned, h.origin, answered(query, rows[h.id]["text"])) for h in hits
        ]
        with index.writes_apart():  # search's own records: what is derived from the entries stays (``Index.derived``)
            record_returned(index, returned, query=query, source="search", ws=ws)
        untrusted = [f"untrusted {h.path} returned by search" for h in returned if not joins_recalled_set(h.origin)]
        if untrusted:  # the agent that asked has read them: its later notes inherit that (trust.sessions)
            from clawmem.trust.sessions import shown

            shown(ws, opts.session, untrusted)
    return SearchResult(query, "hybrid" if vectors_on else "lexical", getattr(vector.embedder, "id", None), hits, warnings, decay)


def _late_interaction(index: Index, vector: lanes.VectorLane, rows: dict[int, dict], weight: float) -> dict[int, tuple[float, str]]:
    """Lift each candidate turn's vector score towards its best sentence's (``pieces``); the lifted ones, for ``--explain``."""
    from clawmem.foundation.config import PIECE_INLINE_MAX

    moved = {}
    for entry_id, (score, piece) in pieces.best(index, vector.embedder, vector.query_vector, rows, max_new=PIECE_INLINE_MAX).items():
        before = vector.scores.get(entry_id, 0.0)
        if score > before:
            vector.scores[entry_id] = pieces.lifted(before, score, weight)
            moved[entry_id] = (score, piece)
    return moved


def _diverse(index: Index, candidates: list[tuple[int, float]], rows: dict[int, dict], embedder: Any, *, lam: float, limit: int) -> list[int]:
    """MMR on stored vectors when the vector lane ran, else on word overlap."""
    if embedder is not None:
        from clawmem.index.vectors import cached_vectors

        stored = cached_vectors(index, embedder.id, [i for i, _ in candidates])
        if stored:
            return diversity.mmr_vectors(candidates, stored, lam=lam, limit=limit, floor=embedder.cosine_floor)
    words = {i: set(tokens.query_terms(rows[i]["text"].casefold())) for i, _ in candidates}
    return diversity.mmr_pairs(candidates, lambda a, b: ranking.jaccard(words[a], words[b]), lam=lam, limit=limit)


def _citation(row: dict) -> str:
    return cite(row['path'], row['line_start'], row['line_end'])


def _superseding(index: Index, rows: list[dict]) -> dict[int, dict[str, str]]:
    """Superseding entry id -> its citation and text (inert: it is shown beside the hit)."""
    wanted = sorted({r["superseded_by"] for r in rows if r.get("superseded_by") is not None})
    found = lanes.rows(index, wanted) if wanted else {}
    return {i: {"citation": _citation(r), "text": inert(r["text"])} for i, r in found.items()}


def _hit(row: dict, signals: ranking.Signals, *, backfill: bool, newer: dict[int, dict[str, str]], score_rank: int | None) -> SearchHit:
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
        untrusted=provenance.shown_untrusted(row["origin"], row["kind"]),
        backfill=backfill,
        signals={
            "hybrid": round(signals.hybrid, 6),
            "recency": round(signals.recency, 6),
            "age_days": None if signals.age_days is None else round(signals.age_days, 2),
            "importance": round(signals.importance, 6),
            "project": round(signals.project, 6),
            "conversation": round(signals.conversation, 6),
            "boosts": {name: round(value, 6) for name, value in signals.boosts.items()},
            "feedback": round(signals.feedback, 6),
            "feedback_terms": list(signals.feedback_terms),
            "session": None if signals.session is None else round(signals.session, 6),
            "piece": None if signals.piece is None else {"score": round(signals.piece[0], 6), "sentence": inert(signals.piece[1])},
            "score_rank": score_rank,
        },
        superseded=not supersession.is_live(row),
        superseded_by=newer.get(row["superseded_by"]) if row.get("superseded_by") is not None else None,
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
        if lanes.lexical_candidates(index, query, everything, 1):
            return ["only untrusted or system entries match; pass --include-untrusted to see them (framed as untrusted)"]
    if not opts.include_superseded:
        replaced = SearchOptions(tier=opts.tier, include_untrusted=opts.include_untrusted, include_superseded=True)
        if lanes.lexical_candidates(index, query, replaced, 1):
            return ["only superseded entries match (a newer entry with the same key replaced them); pass --include-superseded to see them"]
    return [f"no entry scored at or above the minimum score; try --min-score 0 (searched {total} entries)"]
