"""Does a message ask about the past? Deterministic patterns, kept in one place.

Used by recall (escalate to the deep lane only when the message shows recall intent) and by
search (relax recency decay for questions about the past). Future-tense requests ("remind me
tomorrow") are not recall.
"""

from __future__ import annotations

import re

from clawmem.foundation.records import dataclass

# Each pattern names why it counts; order does not matter.
RECALL_PATTERNS: tuple[tuple[str, str], ...] = (
    ("explicit memory", r"\b(remember|recall|remind me what|did i (tell|mention|say|ask)|have i (told|mentioned|said))\b"),
    ("earlier conversation", r"\b(we (talked|spoke|discussed|chatted|decided|agreed|said)|you (said|told|mentioned|suggested|recommended)|earlier|previously|last time|the other day|before that)\b"),  # noqa: E501
    ("past decision", r"\b(what did (we|i|you)|why did (we|i|you)|which .* did (we|i|you)|how did (we|i|you)|what was (the|our|my)|who (was|did))\b"),
    ("temporal question", r"\b(when did|when was|when were|how long ago|what year|what month|which day|what day did|since when)\b"),
    ("past time phrase", r"\b(yesterday|last (week|month|year|night|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(\d+|a|an|few|couple of) (days?|weeks?|months?|years?) ago|ago\b|back in|in (19|20)\d\d)"),  # noqa: E501
)
FUTURE_PATTERNS: tuple[str, ...] = (
    r"\bremind me (to|tomorrow|at|on|in|next|later|about)\b",
    r"\b(tomorrow|next (week|month|year)|later today|in \d+ (minutes?|hours?|days?))\b",
)
_RECALL = [(name, re.compile(p, re.IGNORECASE)) for name, p in RECALL_PATTERNS]
_FUTURE = [re.compile(p, re.IGNORECASE) for p in FUTURE_PATTERNS]


@dataclass(frozen=True)
class RecallIntent:
    present: bool
    reasons: tuple[str, ...]


def detect(message: str) -> RecallIntent:
    """Recall intent and the pattern names that found it (future requests cancel weak evidence)."""
    reasons = tuple(name for name, pattern in _RECALL if pattern.search(message))
    if reasons and any(p.search(message) for p in _FUTURE):
        strong = tuple(r for r in reasons if r in ("explicit memory", "earlier conversation", "past decision"))
        if not strong or re.search(r"\bremind me (to|tomorrow|at|on|in|next|later)\b", message, re.IGNORECASE):
            return RecallIntent(False, ())
        reasons = strong
    return RecallIntent(bool(reasons), reasons)
