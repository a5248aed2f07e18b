"""Problem statements behind a fix, turned into trigger phrases.

A workaround is needed when its problem comes back, and then the person types the error,
not the fix: "undefined symbol __atomic_load_8 on arm64", not "add -latomic". So when a
promoted fact answers a problem, its triggers come from the problem statements next to its
evidence: the entry just before it in the same file and session (the user's previous turn,
the previous daily-note entry of that session) and any problem clause inside the evidence's
own entry ("if the build fails with undefined reference errors, …").

Everything is deterministic. A text is a problem statement when it has an error-ish marker
(``PROBLEM``). Only lines that pass ``provenance.promotion_eligibility`` (and are not in
quarantine) may feed triggers: an untrusted tool turn quoting an "error" must never choose
the words that make a curated entry auto-inject. Phrases quoted in more of the candidate's
independent occurrences win; identifiers (``__atomic_load_8``, ``arm64``, ``E0425``) weigh
more than plain words; a phrase made only of generic words ("build fails", "thanks") is
never a trigger.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from clawmem import provenance
from clawmem.dream.store import Candidate, Evidence, taints
from clawmem.dream.text import PHRASE_BREAK, STOPWORDS
from clawmem.index.db import Index

# Error-ish wording: any of these makes a text (or, inside a fix, a clause) a problem statement.
PROBLEM = re.compile(
    r"\b(?:errors?|errno|fail(?:s|ed|ing|ures?)?|undefined|unresolved|cannot|can'?t|can not|could(?:n'?t| not)|unable"
    r"|exceptions?|traceback|panic(?:ked|s)?|segfault(?:ed|s)?|segmentation fault|crash(?:es|ed|ing)?|broken|broke"
    r"|does(?:n'?t| not) work|won'?t|will not|did(?:n'?t| not) work|not working|not found|no such|denied|refused"
    r"|timed out|time ?out|exit (?:code|status)|abort(?:ed|s)?|fatal|missing|invalid|died)\b"
    r"|\b\w+(?:Error|Exception)\b|\b__\w+|\b\w+\.\w+:\d+",
    re.IGNORECASE,
)
# Words that say nothing about *which* problem: never a trigger on their own, never at a
# phrase's edge. Problem markers are here too: "fails" alone would fire on every failure.
GENERIC = frozenset(
    {
        "thanks", "thank", "great", "cool", "nice", "awesome", "remember", "again", "ugh", "hmm", "hi", "hello", "hey",
        "ok", "okay", "yeah", "help", "idea", "ideas", "fix", "fixed", "fixes", "build", "builds", "building", "built",
        "fail", "fails", "failed", "failing", "failure", "failures", "error", "errors", "broken", "broke", "break",
        "breaks", "work", "works", "worked", "working", "problem", "problems", "issue", "issues", "bug", "bugs", "wrong",
        "weird", "went", "still", "same", "like", "something", "anything", "everything", "happened", "happens", "happen",
        "morning", "evening", "tonight", "now", "just", "know", "think", "any", "why", "mess", "stuff", "thing", "things",
        "machine", "laptop", "box", "cannot", "unable", "crash", "crashed", "crashes", "died", "dies", "dead", "red",
        "green", "known", "classic", "getting",
    }
)
WORD = re.compile(r"\w+", re.UNICODE)
CAMEL = re.compile(r"[a-z][A-Z]")
MAX_WORDS = 5  # a longer quote is rarely typed again word for word
PROBLEM_TRIGGERS = 2  # the rest of an entry's triggers still come from the fix


@dataclass(frozen=True)
class Phrase:
    """A trigger candidate: its words (casefolded, its identity), as written, and how specific."""

    words: tuple[str, ...]
    text: str
    weight: float
    position: int


def identifier_weight(token: str) -> float:
    """3 for code identifiers (``__atomic_load_8``, ``KeyError``), 2 for letters mixed with
    digits (``arm64``, ``E0425``), 0 for anything else (a plain word weighs 1)."""
    if "_" in token.strip("_") or token.startswith("__") or CAMEL.search(token):
        return 3.0
    if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
        return 2.0
    return 0.0


def _weight(token: str) -> float:
    """How much a word says about which problem this is (0: it may not open or close a phrase)."""
    word = token.casefold()
    if word in STOPWORDS or word in GENERIC:
        return 0.0
    if identifier_weight(token):
        return identifier_weight(token)
    return 1.0 if len(word) > 2 or word.isdigit() else 0.0


def is_generic(phrase: str) -> bool:
    """True when no word of ``phrase`` is specific ("build fails", "thanks again")."""
    return not any(_weight(t) for t in WORD.findall(phrase))


def phrases(text: str) -> list[Phrase]:
    """Trigger candidates of one problem text: runs of 2..MAX_WORDS words that open and close on
    a specific word and hold two of them, plus each identifier on its own."""
    found: list[Phrase] = []
    position = 0
    for run in PHRASE_BREAK.split(text.replace("’", "'")):
        tokens = WORD.findall(run)
        weights = [_weight(t) for t in tokens]
        for start, token in enumerate(tokens):
            position += 1
            if not weights[start]:
                continue
            if identifier_weight(token):
                found.append(Phrase((token.casefold(),), token, weights[start], position))
            for end in range(start + 1, min(len(tokens), start + MAX_WORDS)):
                span = weights[start : end + 1]
                if weights[end] and sum(1 for w in span if w) >= 2:
                    gram = tokens[start : end + 1]
                    found.append(Phrase(tuple(t.casefold() for t in gram), " ".join(gram), sum(span), position))
    return found


def problem_text(text: str, *, whole: bool) -> str:
    """The problem part of ``text``: all of it when it states a problem (``whole``, for the turn
    before a fix), else only its clauses that do (for the fix's own entry)."""
    if whole:
        return text if PROBLEM.search(text) else ""
    return " | ".join(c for c in PHRASE_BREAK.split(text) if PROBLEM.search(c))


COLUMNS = "path, line_start, text, kind, origin, session_kind"


class Problems:
    """Looks up the problem statements of a candidate's evidence in the index (one sweep)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.taint = taints(index)
        self.seen: dict[tuple[str, str, int], dict | None] = {}

    def _eligible(self, row: dict) -> bool:
        """The one rule, applied to a line that would lend its words to a curated entry.

        Only trust is asked here: a line searched for before lends words, not evidence (light
        already keeps recalled copies out of the evidence count)."""
        if provenance.location_floor(row["kind"]) is not None:
            return False
        return provenance.promotion_eligibility(
            origin=row["origin"], session_kind=row["session_kind"], file_taint=self.taint.get(row["path"]),
        ).eligible

    def _before(self, e: Evidence) -> dict | None:
        """The previous entry of the same session, when it states a problem and may lend words
        (asked once per evidence line and sweep: triggers and absorbed problems both need it)."""
        if e.session_id is None:
            return None
        where = (e.path, e.session_id, e.line_start)
        if where not in self.seen:
            rows = self.index.query(
                f"SELECT {COLUMNS} FROM entries WHERE path = ? AND session_id = ? AND line_start < ? ORDER BY line_start DESC LIMIT 1",
                where,
            )
            self.seen[where] = next((r for r in rows if self._eligible(r) and problem_text(r["text"], whole=True)), None)
        return self.seen[where]

    def texts(self, e: Evidence) -> list[str]:
        """Problem texts around one piece of evidence: its own entry's problem clauses and the
        previous entry of the same session when that states a problem."""
        own = self.index.query(f"SELECT {COLUMNS} FROM entries WHERE path = ? AND line_start = ?", (e.path, e.line_start))
        found = [problem_text(r["text"], whole=False) for r in own if self._eligible(r)]
        before = self._before(e)
        if before is not None:
            found.append(problem_text(before["text"], whole=True))
        return [t for t in found if t]

    def statements(self, c: Candidate) -> set[tuple[str, int]]:
        """(path, line) of the problem statements the candidate's evidence answers."""
        found = (self._before(e) for e in c.evidence)
        return {(r["path"], r["line_start"]) for r in found if r is not None}

    def triggers(self, c: Candidate, limit: int = PROBLEM_TRIGGERS) -> list[str]:
        by_context: dict[tuple[str, str], list[str]] = {}
        for e in c.evidence:
            by_context.setdefault(e.context, []).extend(self.texts(e))
        return choose(by_context.values(), limit)


def choose(contexts: Iterable[list[str]], limit: int) -> list[str]:
    """Up to ``limit`` phrases, those quoted in the most independent occurrences first.

    When some phrase recurs, one-off phrases are dropped (chatter differs between sessions,
    the error does not). Then more specific, then earlier. Chosen phrases share no specific
    word, except that an identifier may also stand alone (it survives any rewording).
    """
    support: dict[tuple[str, ...], int] = {}
    best: dict[tuple[str, ...], Phrase] = {}
    for texts in contexts:
        seen = {p.words: p for t in texts for p in phrases(t)}
        for words, p in seen.items():
            support[words] = support.get(words, 0) + 1
            if words not in best or p.position < best[words].position:
                best[words] = p
    if not support:
        return []
    floor = 2 if max(support.values()) >= 2 else 1
    ranked = sorted((p for w, p in best.items() if support[w] >= floor), key=lambda p: (-support[p.words], -p.weight, p.position))
    chosen: list[Phrase] = []
    used: set[str] = set()
    for p in ranked:
        specific = {w for w in p.words if _weight(w)}
        if any(p.words == q.words for q in chosen) or (specific & used and len(p.words) > 1):
            continue
        chosen.append(p)
        used |= specific
        if len(chosen) == limit:
            break
    return [p.text for p in chosen]
