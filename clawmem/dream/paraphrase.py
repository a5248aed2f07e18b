"""Is a gated candidate a fact ``MEMORY.md`` already holds? The merge test of consolidation.

A merge keeps the existing line exactly as written and only adds the candidate's anchors,
so it is safe only when the candidate adds nothing: whatever it says beyond the line is lost.
The test is deliberately lopsided (a missed merge costs one extra line the next sweep can
still merge; a wrong merge silently drops a fact):

- *specific tokens* decide first: every number, host, version, name or identifier of the
  candidate ("web-2", "8080", "fly.io", "MySQL") must be a word of the existing line, and a
  negation on one side only ("never deploy on Fridays" / "deploy on Fridays") is a different fact;
- then *words*: when every topic word of the candidate matches one of the line's
  (``rapidfuzz`` ratio at ``dream.grounding_similarity``, so "deploys" matches "deploy"),
  the line already says it (text only: works without an embedder);
- else *vectors*, when an embedder is loaded: a paraphrase with at most
  ``dream.paraphrase_new_words`` reworded topic words merges when the sentence cosine
  reaches ``dream.paraphrase_cosine``. A cosine alone is never enough: "web-1" and "web-2"
  lines score 0.95 with MiniLM, and a *substitution* never merges: when each side has a word
  or two the other lacks ("Caroline adopted a dog." / "Caroline adopted a cat.", cosine 0.85
  with e5; "two dogs" / "three dogs"), the candidate names another thing in the same frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from clawmem.dream.grounding import NEGATIONS
from clawmem.dream.text import WORD, content_words, words
from clawmem.entries import grammar, identity
from clawmem.entries.words import stem
from clawmem.foundation.config import DreamConfig

if TYPE_CHECKING:
    import numpy as np

    from clawmem.embeddings import Embedder

JOINERS = frozenset(".+#-")
# Counts spelled out name one thing as much as digits do ("two dogs" / "three dogs"); "one" is
# left out, it is as often a pronoun ("the one I like")
NUMBER_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand twice".split()  # noqa: SIM905
)
SUBSTITUTION_WORDS = 2  # two texts differing in at most this many topic words on each side name different things


def specific(text: str) -> set[str]:
    """Tokens that name one thing: numbers (spelled out too), dotted or hyphenated identifiers,
    capitalised names inside the sentence and mixed-case words ("web-1", "fly.io", "Postgres", "GitHub")."""
    found = set()
    for i, token in enumerate(WORD.findall(identity.COMMENT.sub(" ", text))):
        if (
            any(ch.isdigit() for ch in token)
            or token.casefold() in NUMBER_WORDS
            or JOINERS & set(token)
            or any(ch.isupper() for ch in token[1:])
            or (i > 0 and token[0].isupper())
        ):
            found.add(token.casefold())
    return found


def negated(text: str) -> bool:
    return bool(NEGATIONS & set(words(text)))


def unmatched(text: str, other: str, threshold: float) -> set[str]:
    """Topic words of ``text`` that no word of ``other`` matches: the same stem, or a rapidfuzz
    ``ratio`` of at least ``threshold`` ("deploys" and "deploy")."""
    pool = set(words(other))
    return {w for w in content_words(text) if not any(stem(w) == stem(p) or fuzz.ratio(w, p) >= threshold for p in pool)}


def substitution(a: str, b: str, threshold: float) -> bool:
    """True when ``a`` and ``b`` each hold one or two topic words the other lacks and share the
    rest: the same frame with another thing in it ("a dog" / "a cat"), so different facts."""
    mine, theirs = unmatched(a, b, threshold), unmatched(b, a, threshold)
    return 0 < len(mine) <= SUBSTITUTION_WORDS and 0 < len(theirs) <= SUBSTITUTION_WORDS


class Judge:
    """Decides whether a candidate says nothing an existing line does not (see the module doc).

    ``embedder`` is optional: without one only the text rules run. Only lines the text rules
    leave open are embedded (most pairs differ in a name or a word), each text once a sweep.
    """

    def __init__(self, cfg: DreamConfig, embedder: Embedder | None = None) -> None:
        self.cfg = cfg
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}

    def prepare(self, texts: Iterable[str]) -> None:
        """Embed every text not seen yet, each as a query: comparing two statements is a symmetric task."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if self.embedder is None or not todo:
            return
        for text in todo:
            self._vectors[text] = self.embedder.embed_query(text)

    def cosine(self, a: str, b: str) -> float | None:
        """Cosine of two texts' vectors, or None without an embedder."""
        if self.embedder is None:
            return None
        self.prepare([a, b])
        from clawmem.embeddings.base import similarity

        return float(similarity(self._vectors[a] @ self._vectors[b], self.embedder.symmetric_floor))  # vectors are L2-normalised

    def new_words(self, existing: str, candidate: str) -> list[str]:
        """Topic words of ``candidate`` that match no word of ``existing``."""
        pool = sorted(set(words(existing)))
        if not pool:
            return sorted(content_words(candidate))
        threshold = self.cfg.grounding_similarity
        return sorted(w for w in content_words(candidate) if process.extractOne(w, pool, scorer=fuzz.ratio)[1] < threshold)

    def _by_text(self, existing: str, candidate: str) -> bool | None:
        """The text rules' verdict; None when only a cosine can tell (a reworded paraphrase)."""
        a, b = identity.normalise(existing), identity.normalise(candidate)
        if not a or not b:
            return False
        if a == b:
            return True
        if not specific(candidate) <= set(words(existing)) or negated(existing) != negated(candidate):
            return False
        new = self.new_words(existing, candidate)
        if not new:
            return True
        if substitution(existing, candidate, self.cfg.grounding_similarity):
            return False
        return None if self.embedder is not None and len(new) <= self.cfg.paraphrase_new_words else False

    def _close(self, existing: str, candidate: str) -> bool:
        score = self.cosine(existing, candidate)
        return score is not None and score >= self.cfg.paraphrase_cosine

    def same_fact(self, existing: str, candidate: str) -> bool:
        """True when merging ``candidate`` into the ``existing`` line loses nothing it says."""
        verdict = self._by_text(existing, candidate)
        return verdict if verdict is not None else self._close(existing, candidate)

    def twin(self, entries: Iterable[grammar.Entry], candidate: str) -> grammar.Entry | None:
        """The active entry that already holds ``candidate``: the first the text rules accept, else
        the first paraphrase by cosine (only those lines are embedded, in one batch)."""
        open_: list[grammar.Entry] = []
        for e in entries:
            if e.status == "superseded":
                continue
            verdict = self._by_text(e.body, candidate)
            if verdict:
                return e
            if verdict is None:
                open_.append(e)
        self.prepare([candidate] + [e.body for e in open_])
        return next((e for e in open_ if self._close(e.body, candidate)), None)
