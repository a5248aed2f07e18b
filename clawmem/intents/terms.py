"""Trigger terms: how phrases and messages are reduced to comparable stems (no model, no data files)."""

from __future__ import annotations

from clawmem.entries.words import DOUBLED
from clawmem.index.tokens import query_terms

# Ignored inside a trigger phrase (unless the phrase is nothing else): "the release" = "release".
STOPWORDS = frozenset(
    ["a", "an", "the", "of", "to", "in", "on", "at", "for", "from", "by", "with", "about", "and", "or", "but", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "my", "our", "your", "their", "his", "her", "me", "us", "you", "we", "i"]  # noqa: E501
)


def stem(term: str) -> str:
    """A light, deterministic English stem: ``releases``/``released``/``releasing`` -> ``releas``.

    Plural first, then ``-ing``/``-ed`` (only when four letters remain, so "string" stays),
    then a final ``e``; words that are not plain ASCII letters (CJK bigrams, digits) are kept.
    """
    word = term.casefold()
    if not (word.isascii() and word.isalpha()) or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = DOUBLED.sub(r"\1", word[: -len(suffix)])
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def phrase_terms(phrase: str) -> tuple[str, ...]:
    """The stems a message must all contain for ``phrase`` to match."""
    terms = [t.casefold() for t in query_terms(phrase)]
    content = [t for t in terms if t not in STOPWORDS] or terms
    return tuple(dict.fromkeys(stem(t) for t in content))
