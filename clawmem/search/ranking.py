"""Score arithmetic: hybrid blend, recency decay, importance, project factor, MMR diversity.

score = hybrid relevance x recency x importance x project (DESIGN.md section 6) x the conversation
boosts (speaker, temporal: ``conversation_factors``); every
factor is returned with the score so ``--explain`` can show why a hit ranks where it does.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Callable, Sequence

from clawmem.foundation.config import SearchConfig
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import parse_when


@dataclass(frozen=True)
class Signals:
    text_score: float
    vector_score: float
    hybrid: float
    recency: float
    importance: float
    project: float
    age_days: float | None
    conversation: float = 1.0  # product of the conversation boosts (``conversation_factors``)
    boosts: dict[str, float] = field(default_factory=dict)  # each boost that moved this entry, by name (for --explain)
    feedback: float = 0.0  # the second, feedback round's BM25 (``feedback``), blended into text_score
    feedback_terms: tuple[str, ...] = ()  # the expansion words this entry contains
    session: float | None = None  # the relevance of the passage that lifted hybrid (``sessions``), if one did
    lent: float = 0.0  # how much of hybrid that passage lent: the turns around it matched, not this one
    piece: tuple[float, str] | None = None  # its best sentence's score and text when it lifted the vector score (``pieces``)

    @property
    def score(self) -> float:
        return self._times_factors(self.hybrid)

    @property
    def earned(self) -> float:
        """The score without what a passage lent: what a recall event records.

        A passage lifts a turn because the turns around it matched; shown for that, the turn has
        not been useful on its own, and a recall that counted the lift would promote the
        neighbours of every good match.
        """
        return self._times_factors(self.hybrid - self.lent)

    def _times_factors(self, relevance: float) -> float:
        return relevance * self.recency * self.importance * self.project * self.conversation


def normalise_bm25(ranked: Sequence[tuple[int, float]]) -> dict[int, float]:
    """BM25 relative to the best hit of this query: the best scores 1.0, ties score alike.

    (A pure rank transform would give equally good matches different scores by accident of order.)
    """
    if not ranked:
        return {}
    best = min(score for _, score in ranked)
    if best >= 0:
        return {entry_id: 1.0 for entry_id, _ in ranked}
    return {entry_id: max(0.0, score / best) for entry_id, score in ranked}


def hybrid(text_score: float, vector_score: float, cfg: SearchConfig, *, vectors_on: bool) -> float:
    """Weighted blend; with vectors off the text score stands alone (lexical-only mode)."""
    if not vectors_on:
        return text_score
    total = cfg.vector_weight + cfg.text_weight
    return (cfg.vector_weight * vector_score + cfg.text_weight * text_score) / total


def fused(lexical: Sequence[tuple[int, float]], vector_scores: dict[int, float], cfg: SearchConfig) -> dict[int, float] | None:
    """Hybrid relevance by rank fusion (``search.fusion = "rrf"``); ``None`` keeps the score blend."""
    if cfg.fusion != "rrf":
        return None
    from clawmem.search import fusion

    vector = sorted(vector_scores, key=lambda i: -vector_scores[i])
    return fusion.rrf([i for i, _ in lexical], vector, k=cfg.rrf_k, text_weight=cfg.text_weight, vector_weight=cfg.vector_weight)


def with_context(own: float, context: float, weight: float) -> float:
    """Relevance that shares in the best neighbour's: (own + weight x context) / (1 + weight).

    It ranks; the minimum-score gate looks at the larger of this and ``own``, so irrelevant
    neighbours can lower a turn's rank but never drop it from the results.
    """
    return (own + weight * context) / (1 + weight)


def recency(
    observed_at: str | None, tier: str, now: dt.datetime, cfg: SearchConfig, *, half_life_days: float | None = None, floor: float | None = None
) -> tuple[float, float | None]:
    """Exponential decay on dated episodic entries only; curated and undated entries do not decay."""
    if tier != "episodic" or not observed_at:
        return 1.0, None
    when = parse_when(observed_at)
    if when is None:
        return 1.0, None
    if when.tzinfo is not None:
        when = when.astimezone().replace(tzinfo=None)
    age = max(0.0, (now - when).total_seconds() / 86400.0)
    half_life = half_life_days if half_life_days is not None else cfg.half_life_days
    if half_life <= 0:
        return 1.0, age
    return max(cfg.recency_floor if floor is None else floor, 0.5 ** (age / half_life)), age


def importance(value: int | None, cfg: SearchConfig) -> float:
    """NULL is exactly neutral; 1-10 maps monotonically around it (0.80 ... 1.25 by default)."""
    if value is None:
        return 1.0
    return cfg.importance_base + cfg.importance_step * value


def project_factor(projects_json: str | None, active: Sequence[str], cfg: SearchConfig) -> float:
    """Boost entries of an active repository, mildly demote other repositories, untagged neutral."""
    if not projects_json:
        return 1.0
    tagged = json.loads(projects_json)
    if not tagged:
        return 1.0
    if any(key in active for key in tagged):
        return cfg.project_match
    return cfg.project_other


def conversation_factors(query: str, rows: dict[int, dict], cfg: SearchConfig) -> dict[int, dict[str, float]]:
    """Entry id -> the conversation-aware boosts (speaker, temporal, date) that apply to it, by name.

    Each is a multiplicative factor on candidates the lanes already found, so none can add an
    entry or lift one past the trust and supersession filters; untrusted turns (shown only with
    ``--include-untrusted``) are never boosted, so they rank exactly as before.
    """
    from clawmem.trust import provenance

    trusted = {i: r for i, r in rows.items() if r["kind"] == "transcript" and provenance.is_trusted(r["origin"])}
    if not trusted:  # each boost is for transcript turns: none here, so none applies (and their patterns stay uncompiled)
        return {}
    from clawmem.search import dates, speakers, temporal

    turns = {i: r["text"] for i, r in trusted.items()}
    found: dict[int, dict[str, float]] = {}
    parts = {
        "speaker": speakers.factors(query, turns, cfg.speaker_boost),
        "temporal": temporal.factors(query, turns, cfg.temporal_boost),
        "date": dates.factors(query, {i: (r["text"], r["observed_at"]) for i, r in trusted.items()}, cfg.date_boost),
    }
    for name, part in parts.items():
        for entry_id, factor in part.items():
            found.setdefault(entry_id, {})[name] = factor
    return found


def mmr(
    candidates: Sequence[tuple[int, float]],
    similarity: Callable[[int, int], float],
    *,
    lam: float,
    limit: int,
) -> list[int]:
    """Maximal marginal relevance: pick high scores, penalise near-copies of what is already picked."""
    remaining = list(candidates)
    chosen: list[int] = []
    while remaining and len(chosen) < limit:
        best_index, best_value = 0, -math.inf
        for position, (entry_id, score) in enumerate(remaining):
            redundancy = max((similarity(entry_id, c) for c in chosen), default=0.0)
            value = lam * score - (1 - lam) * redundancy
            if value > best_value:
                best_index, best_value = position, value
        chosen.append(remaining.pop(best_index)[0])
    return chosen


def jaccard(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)
