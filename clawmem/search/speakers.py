"""Speaker-aware matching: a question about a person is answered by what that person said.

A transcript turn is indexed as ``"<speaker>: <text>"``. A question naming one of the speakers
("What did Caroline research?") is mostly answered by that speaker's own turns, and a question
in the first person ("Which database did I pick?") by the user's turns, not the assistant's.
BM25 barely sees the name (it is in half of all turns) and the vector lane not at all, so the
named speaker's turns get a multiplicative boost. Trust is untouched: the boost only reorders
candidates the lanes already allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SPEAKER = re.compile(r"^(?P<who>[^:\n]{1,40}): ")
FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll)\b", re.IGNORECASE)
OWNER = "user"  # the role a first-person question speaks as, in a user/assistant transcript


def speaker_of(text: str) -> str | None:
    """The speaker prefix of a transcript turn, casefolded (``None`` when there is none)."""
    match = SPEAKER.match(text)
    return match.group("who").strip().casefold() if match else None


def addressed(query: str, speakers: Iterable[str]) -> set[str]:
    """The speakers (casefolded) a question is about: those it names, else the user when it says "I"."""
    words = set(re.findall(r"\w+", query.casefold()))
    known = set(speakers)
    named = {s for s in known if s != OWNER and set(s.split()) <= words}
    if named:
        return named
    return {OWNER} if OWNER in known and FIRST_PERSON.search(query) else set()


def factors(query: str, turns: dict[int, str], boost: float) -> dict[int, float]:
    """Entry id -> ``1 + boost`` for the turns spoken by the person the query is about."""
    if boost <= 0 or not turns:
        return {}
    spoken = {entry_id: speaker_of(text) for entry_id, text in turns.items()}
    wanted = addressed(query, {s for s in spoken.values() if s})
    return {entry_id: 1.0 + boost for entry_id, who in spoken.items() if who in wanted}
