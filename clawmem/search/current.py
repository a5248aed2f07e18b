"""Does a query ask for the current value of something? Deterministic patterns, kept in one place.

"Where do we deploy now?", "which editor do I currently use?", "the latest API URL": the
answer is the newest observation, so search decays recency harder for such queries
(``search.current_half_life_days``, ``search.current_floor``). Questions about the past
(``clawmem.commands.recall_intent``) take precedence: "what did we use before we moved?" is not current.
"""

from __future__ import annotations

import re

CURRENT = re.compile(
    r"\b(current|currently|now|nowadays|these days|at the moment|right now|latest|newest|most recent|"
    r"still|anymore|any more|up to date|today)\b",
    re.IGNORECASE,
)


def asks_current(query: str) -> bool:
    """True when the query asks for the value as it stands now."""
    return CURRENT.search(query) is not None
