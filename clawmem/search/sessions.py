"""Session-level relevance: a session that matches the question as a whole lifts its turns.

A conversation about one topic spreads the answer over many turns, each matching the question
only a little ("How does Melanie spend time with her kids?" over a session of beach, camping and
pottery turns). A session's score is the mean of its best few turns' own relevance, relative to
the best session's, and a turn's relevance shares in its session's score, so the weakly
matching turns of a strongly matching session rise above stray matches elsewhere.
"""

from __future__ import annotations

from collections import defaultdict

TOP_TURNS = 3  # turns whose relevance make up a session's: one lucky turn is not a session about it


def scores(rows: dict[int, dict], relevance: dict[int, float]) -> dict[int, float]:
    """Transcript entry id -> its session's score in 0..1 (1 = the best-matching session)."""
    import statistics  # here: off by default (``search.session_weight``), and its import costs a search more than this

    by_path: dict[str, list[float]] = defaultdict(list)
    for entry_id, row in rows.items():
        if row["kind"] == "transcript":
            by_path[row["path"]].append(relevance.get(entry_id, 0.0))
    session = {path: statistics.fmean(sorted(values, reverse=True)[:TOP_TURNS] + [0.0] * max(0, TOP_TURNS - len(values)))
               for path, values in by_path.items()}
    best = max(session.values(), default=0.0)
    if best <= 0:
        return {}
    return {i: session[r["path"]] / best for i, r in rows.items() if r["kind"] == "transcript"}

