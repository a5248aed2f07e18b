"""Fusing the lexical and vector lanes by rank (reciprocal rank fusion) instead of by raw score.

The fixed blend adds a max-normalised BM25 to a raw cosine, and cosines sit in a band that
depends on the embedder (MiniLM spreads them over 0.1-0.7, e5 packs them into 0.7-0.9), so one
pair of weights cannot suit every backend. RRF looks only at each entry's rank in each lane,
``weight / (k + rank)``, which no embedder can skew. The sum is divided by its largest possible
value (first in both lanes), so scores stay in 0..1 and ``min_score`` keeps its scale.
"""

from __future__ import annotations

from collections.abc import Sequence

MODES = ("blend", "rrf")


def rrf(lexical: Sequence[int], vector: Sequence[int], *, k: float, text_weight: float, vector_weight: float) -> dict[int, float]:
    """Entry id -> weighted reciprocal-rank score in 0..1, from each lane's ids best first."""
    best = (text_weight + vector_weight) / (k + 1)
    fused: dict[int, float] = {}
    for ids, weight in ((lexical, text_weight), (vector, vector_weight)):
        for rank, entry_id in enumerate(ids, start=1):
            fused[entry_id] = fused.get(entry_id, 0.0) + weight / (k + rank)
    return {entry_id: value / best for entry_id, value in fused.items()} if best > 0 else fused
