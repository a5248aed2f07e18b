"""Pseudo-relevance feedback for the lexical lane: a second BM25 round with the top hits' words.

A question names a category ("What instruments does Calvin play?") where the turns name the
instances ("my guitar", "the drums"); BM25 cannot cross that gap, but the first round's best
hits often already use the turn's vocabulary. The words shared by several of them, rare in the
whole index, are searched for in a second round, and its normalised BM25 is blended into the
text score, so turns that share the answer's words (not the question's) become candidates.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from clawmem.index import tokens
from clawmem.index.db import Index

WORD = re.compile(r"[^\W\d_]{3,}")


def _document_frequency(index: Index, term: str) -> int:
    expression = '"' + term.replace('"', '""') + '"'
    return int(index.scalar("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?", [expression]) or 0)


def _stem(word: str) -> str:
    """A crude shared root, only to keep the query's own words (and their plurals) out of the expansion."""
    return word[:5]


def expansion_terms(index: Index, query: str, texts: Sequence[str], *, count: int, min_docs: int) -> list[str]:
    """Up to ``count`` words found in at least ``min_docs`` of ``texts``, not in the query, best by docs x idf."""
    asked = {_stem(t.casefold()) for t in tokens.query_terms(query, drop_stopwords=False)}
    seen: Counter[str] = Counter()
    for text in texts:
        seen.update({w for w in (m.casefold() for m in WORD.findall(text)) if w not in tokens.STOPWORDS and _stem(w) not in asked})
    shared = [w for w, n in seen.items() if n >= min_docs]
    if not shared:
        return []
    total = max(1, int(index.scalar("SELECT count(*) FROM entries") or 0))
    weight = {}
    for word in shared:
        df = _document_frequency(index, word)
        if 0 < df < total / 2:  # a word in half the index says nothing about this question
            weight[word] = seen[word] * math.log(total / df)
    return sorted(weight, key=lambda w: (-weight[w], w))[:count]


def blend(text_scores: dict[int, float], second: dict[int, float], weight: float) -> dict[int, float]:
    """Entry id -> (first-round score + weight x second-round score) / (1 + weight)."""
    ids = set(text_scores) | set(second)
    return {i: (text_scores.get(i, 0.0) + weight * second.get(i, 0.0)) / (1 + weight) for i in ids}


def present(terms: Sequence[str], text: str) -> tuple[str, ...]:
    """The expansion terms ``text`` contains (what ``--explain`` names as having moved it)."""
    words = {w.casefold() for w in WORD.findall(text)}
    return tuple(t for t in terms if t in words)
