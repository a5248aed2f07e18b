"""Maximal marginal relevance, incremental: each candidate's redundancy is updated once per pick.

``ranking.mmr`` recomputes every redundancy against every pick (O(limit^2 x n) similarity calls,
0.55 s at ``--limit 50``); keeping a running maximum picks exactly the same entries in
O(limit x n). With vectors the similarities are one numpy matrix product; without (lexical
searches) word-set Jaccard in plain Python, so a lexical search never imports numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def mmr_vectors(candidates: Sequence[tuple[int, float]], vectors: dict[int, np.ndarray], *, lam: float, limit: int, floor: float = 0.0) -> list[int]:
    """MMR over the similarity of stored vectors (an entry without one is similar to nothing).

    ``floor`` is the model's ``cosine_floor``: redundancy is weighed on the same scale as relevance.
    """
    import numpy as np

    from clawmem.embeddings.base import similarity as scaled

    if not candidates:
        return []
    ids = [i for i, _ in candidates]
    dimension = len(next(iter(vectors.values()))) if vectors else 1
    matrix = np.zeros((len(ids), dimension), dtype=np.float32)
    for row, entry_id in enumerate(ids):
        if entry_id in vectors:
            matrix[row] = vectors[entry_id]
    similarity = scaled((matrix @ matrix.T).astype(np.float64), floor)
    present = np.asarray([entry_id in vectors for entry_id in ids])
    similarity[~present, :] = 0.0  # a missing vector is similar to nothing, whatever the floor
    similarity[:, ~present] = 0.0
    value = lam * np.asarray([s for _, s in candidates], dtype=np.float64)
    redundancy = np.zeros(len(ids))  # before the first pick; then the highest similarity to a pick (may be < 0)
    open_ = np.ones(len(ids), dtype=bool)
    chosen: list[int] = []
    while len(chosen) < min(limit, len(ids)):
        gain = np.where(open_, value - (1 - lam) * redundancy, -np.inf)
        pick = int(np.argmax(gain))
        chosen.append(ids[pick])
        open_[pick] = False
        redundancy = np.maximum(redundancy, similarity[pick]) if len(chosen) > 1 else similarity[pick]
    return chosen


def mmr_pairs(candidates: Sequence[tuple[int, float]], similarity: Callable[[int, int], float], *, lam: float, limit: int) -> list[int]:
    """MMR with any similarity function, in plain Python."""
    remaining = list(candidates)
    redundancy = [0.0] * len(remaining)
    chosen: list[int] = []
    while remaining and len(chosen) < limit:
        best = max(range(len(remaining)), key=lambda p: (lam * remaining[p][1] - (1 - lam) * redundancy[p], -p))
        picked = remaining.pop(best)[0]
        redundancy.pop(best)
        chosen.append(picked)
        fresh = [similarity(entry_id, picked) for entry_id, _ in remaining]
        redundancy = fresh if len(chosen) == 1 else [max(r, f) for r, f in zip(redundancy, fresh, strict=True)]
    return chosen
