"""Breadth for list questions: an answer made of many turns is spread over many sessions.

"What activities has Melanie done with her family?" or "How many times has Nate taken his
turtles on a walk?" are answered by one turn in each of several sessions, while the best
matching session fills the top ranks with its own near-copies (a turn lifts its neighbours:
``context_weight``). For such a question each further turn of a session already ranked scores
x(1 - penalty). Applied to every question the same penalty lost recall (LoCoMo: the evidence of
most questions is one turn, or two of one session: "spread" in benchmarks/README.md), so it
applies only to a question that asks for a list: two people's common ground ("both", "in
common"), a count ("how many"), an accumulation over time ("What has X done", "Where has X
camped") or a plural answer ("What books ...", "What are ...") without a date pinning it to one day.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from clawmem.search import dates

LIST_QUESTION = re.compile(
    r"\b(?:both|in common)\b"
    r"|^how many\b"
    r"|^(?:what|which|where|who)\b.*\b(?:has|have)\s+(?!been\b)\w+"  # present perfect ("What has Maria done"), not "What pet does she have?"
    r"|^(?:what|which)\s+(?:\w+\s+){0,2}?\w+s\s+(?:does|do|did|is|are|were)\b"  # a plural answer ("What books did ... read")
    r"|^what (?:are|were)\b",
    re.IGNORECASE,
)


def asks_list(query: str) -> bool:
    """Whether the question asks for many things (and names no date that would pin it to one session)."""
    text = " ".join(query.split())
    return bool(LIST_QUESTION.search(text)) and not dates.wanted(text)


def spread(ordered: Sequence[tuple[int, float]], session_of: dict[int, str], penalty: float) -> list[tuple[int, float]]:
    """Greedy re-rank: the next pick is the best score x(1 - penalty)^(turns of its session already picked).

    An entry without a session (not a transcript turn) is never penalised. Returns the new order
    with the penalised scores (MMR then reads them as relevance).
    """
    remaining = list(ordered)
    taken: Counter[str] = Counter()
    result: list[tuple[int, float]] = []
    keep = 1.0 - penalty

    def value(pair: tuple[int, float]) -> float:
        session = session_of.get(pair[0])
        return pair[1] * keep ** taken[session] if session is not None else pair[1]

    while remaining:
        best = max(range(len(remaining)), key=lambda p: (value(remaining[p]), -p))
        entry_id, _ = pair = remaining.pop(best)
        result.append((entry_id, value(pair)))
        if (session := session_of.get(entry_id)) is not None:
            taken[session] += 1
    return result
