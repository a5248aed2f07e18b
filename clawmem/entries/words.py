"""Function words: what carries no content when two texts are compared word by word.

Low in the layers so the trust rules (``clawmem.trust.content_origin``) and dreaming share one
list without a rule importing the dreaming package, and so search and dreaming stem alike
(``stems``: which words of a query a returned turn holds, and which of its claims hold them).
"""

from __future__ import annotations

import re

STEM_CHARS = 5
SUFFIXES = ("ing", "ed", "es", "s", "e")
MIN_STEM = 3  # letters a stem keeps: "used" is no "us"
INFLECTED = frozenset(("ing", "ed"))  # the endings that double a final consonant: "running", "planned"
DOUBLED = re.compile(r"([bcdfgkmnprt])\1$")  # "ll", "ss" and "zz" are the word's own: "called", "passed"
DIGIT = re.compile(r"\d")
TOKEN = re.compile(r"[^\W_]+")  # identifiers fall apart at "_", ".", "-": "fct_rides_daily" holds "rides"

STOPWORDS = frozenset(
    """
    a about after again against all also always am an and any are as at be because been before being below between both
    but by can could did do does doing done down during each either else ever every few for from further get gets got
    had has have having he her here hers him his how i if in into is it its just let me more most must my need needs
    never new no nor not now of off often on once only or other our ours out over own please same she should so some
    still such than that the their them then there these they this those through to too try under until up use used
    using very via was we were what when where which while who whom why will with would yes yet you your yours run runs
    running sure instead first next time times today yesterday tomorrow one two thing things way lot really
    """.split()  # noqa: SIM905
)


def stem(word: str) -> str:
    """A crude, deterministic stem: one inflection or a final "e" off, a consonant the inflection
    doubled undoubled, then the first ``STEM_CHARS`` letters ("opening" and "open", "adopted"
    and "adoption", "living" and "live", "games" and "game", "running" and "run" match; no
    dependency, no language model)."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            word = word[: -len(suffix)]
            if suffix in INFLECTED and DOUBLED.search(word) and len(word) > MIN_STEM:
                word = word[:-1]
            break
    return word[:STEM_CHARS]


def carries_content(word: str) -> bool:
    """Whether a casefolded word is a content word: no stop word, three characters or more, numbers always."""
    return word not in STOPWORDS and (len(word) > 2 or DIGIT.search(word) is not None)


def stems(text: str) -> frozenset[str]:
    """The stems of ``text``'s content words (``carries_content``)."""
    return frozenset(stem(t) for t in TOKEN.findall(text.casefold()) if carries_content(t))
