"""Passage relevance: the turns around a session's best matches share in their relevance.

A conversation answers a question over a few neighbouring turns, each matching it only a little
("How does Melanie spend time with her kids?" near "we went camping last weekend"). A session's
``SESSION_TOP_TURNS`` best-matching turns anchor a passage whose relevance is their mean; a turn
within ``SESSION_WINDOW_TURNS`` turns of an anchor is lifted ``search.session_weight`` of the way
toward it (``engine.search``) and never lowered, so a turn that matches on its own keeps its rank.
Shared by a whole session and on a scale relative to the best session, the same idea lowered the
one strong turn of a weak session (LoCoMo adversarial R@5 -11.3, multi-hop -2.7: issue 25 in
benchmarks/README.md).
"""

from __future__ import annotations

from collections import defaultdict

from clawmem.foundation.config import SESSION_TOP_TURNS, SESSION_WINDOW_TURNS


def passages(rows: dict[int, dict], relevance: dict[int, float], places: dict[int, int]) -> dict[int, float]:
    """Transcript entry id -> the relevance of the passage it lies in (only turns near an anchor)."""
    by_path: dict[str, list[int]] = defaultdict(list)
    for entry_id, row in rows.items():
        if row["kind"] == "transcript" and entry_id in places:
            by_path[row["path"]].append(entry_id)
    lifted: dict[int, float] = {}
    for ids in by_path.values():
        anchors = sorted(ids, key=lambda i: -relevance.get(i, 0.0))[:SESSION_TOP_TURNS]
        level = sum(relevance.get(i, 0.0) for i in anchors) / SESSION_TOP_TURNS  # one lucky turn is not a passage
        at = [places[a] for a in anchors]
        lifted.update({i: level for i in ids if min(abs(places[i] - p) for p in at) <= SESSION_WINDOW_TURNS})
    return lifted
