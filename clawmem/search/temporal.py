"""Temporal matching: a "when" question is answered by a turn that says when.

LoCoMo-style questions ask "When did Melanie paint a sunrise?"; the evidence turn is the one
carrying a time ("last Saturday", "in May 2022", "two weeks ago"), while its topical neighbours
say nothing of time. A small word table, not ``dateparser`` (a 0.3 s import on the search hot
path, and it parses whole strings, not phrases inside sentences).
"""

from __future__ import annotations

import re

MONTHS = "january|february|march|april|june|july|august|september|october|november|december"
MAY = r"in may|may \d{1,2}|\d{1,2}(?:st|nd|rd|th)? may"  # the month, not the verb
WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# Pattern strings, compiled by ``re`` on first use and cached there: the boost is off by default,
# and compiling both at import cost every search 6.5 M instructions for nothing.
ASKS_WHEN = r"\bwhen\b|\bwhat (?:date|day|month|year|time|week)\b|\bwhich (?:date|day|month|year|week)\b|\bhow long (?:ago|since)\b"
TIME_PHRASE = (
    rf"\b(?:{MONTHS}|{MAY}|{WEEKDAYS}|yesterday|today|tonight|tomorrow|weekend|ago"
    r"|(?:last|next|this|past|coming) (?:week|month|year|summer|winter|spring|fall|autumn|night|time)"
    r"|(?:19|20)\d\d|\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?)\b"
)


def asks_when(query: str) -> bool:
    """True for questions asking for a time or date."""
    return bool(re.search(ASKS_WHEN, query, re.IGNORECASE))


def factors(query: str, texts: dict[int, str], boost: float) -> dict[int, float]:
    """Entry id -> ``1 + boost`` for entries that state a time, when the query asks when."""
    if boost <= 0 or not asks_when(query):
        return {}
    return {entry_id: 1.0 + boost for entry_id, text in texts.items() if re.search(TIME_PHRASE, text, re.IGNORECASE)}
