"""Trigger injection: curated entries whose trigger phrases match the message strongly.

Only curated entries qualify (daily notes, transcripts and anything untrusted never
auto-inject, whatever their score), a project-tagged entry only while every one of its keys
is active, and at most ``recall.max_triggers`` per turn. The lexical lane (rapidfuzz over
tokens) runs first; the message is embedded only when lexical matching did not settle the
turn, and phrase vectors were computed at index time, so recall embeds one text at most.

The vector lane lets a rewording of a failure ("linking breaks on the ARM machine") fire the
fix whose trigger quotes the error ("undefined symbol __atomic_load_8 on arm64"), whether or
not the message repeats the identifiers. A phrase matches by vector when (``vector_score``):

- it has two content words (an identifier alone embeds as near "thanks!" as a rewording);
- the message shares a word stem with it (``symptoms.anchored``: "linking" ~ "linker");
- a fix (an entry whose triggers name a failure) meets a message reporting one
  (``symptoms.reports_problem``): never "let's plan the release";
- its calibrated score (``calibration``: above the message's closeness to ordinary turns)
  reaches ``recall.trigger_vector_margin`` (a fix) or ``recall.trigger_vector_margin_topic``.

An entry whose triggers name an identifier the message contradicts (``__atomic_load_4`` for
``__atomic_load_8``, ``arm32`` for ``arm64``) injects by neither lane. A model with no
calibration keeps the plain common-scale match, and then only for phrases whose identifiers
the message names.
"""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING

from clawmem.foundation.config import RecallConfig
from clawmem.foundation.records import dataclass
from clawmem.index import tokens
from clawmem.recall import symptoms
from clawmem.recall.budget import Budget
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import eligibility

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class TriggerHit:
    path: str
    line: int
    citation: str
    text: str
    text_hash: str
    phrase: str
    score: float
    lexical: float
    vector: float | None
    superseded_by: str | None = None  # citation of the newer entry (only with include_superseded)


WORD_SHARE = 0.75  # a shared prefix must cover this share of the shorter word (recall.trigger_stem_prefix)


class Words:
    """How well one message contains each phrase word, remembered for the turn (the phrases share most of their words).

    A phrase word counts 1.0 when the message holds it, or another spelling of it ("fails" ~
    "failed"; an identifier only as itself); otherwise, unless it is an identifier, its best
    ``fuzz.ratio`` against the message's words: 1.0 from ``recall.trigger_word_ratio`` up, half
    the ratio below.
    """

    def __init__(self, message_words: list[str], cfg: RecallConfig) -> None:
        self.words = message_words
        self.present = set(message_words)
        self.spellable = [m for m in self.present if not symptoms.exact_only(m)]  # the only ones another spelling can match
        self.cfg = cfg
        self.seen: dict[str, float] = {}

    def identifiers(self, words: frozenset[str]) -> None:
        """Score phrase words that are identifiers (``symptoms.exact_only``, known per index change) at once:
        one counts only as itself (``_score``), so there is nothing to compare."""
        present = self.present
        self.seen.update({w: 1.0 if w in present else 0.0 for w in words})

    def word(self, word: str) -> float:
        score = self.seen.get(word)
        if score is None:
            score = self.seen[word] = self._score(word)
        return score

    def _score(self, word: str) -> float:
        if word in self.present:
            return 1.0
        if symptoms.exact_only(word):
            return 0.0
        prefix = self.cfg.trigger_stem_prefix
        if any(symptoms.same_stem(word, m, prefix, WORD_SHARE) for m in self.spellable):
            return 1.0
        from rapidfuzz import fuzz, process  # deferred: only recall's trigger lane needs it

        best = process.extractOne(word, self.words, scorer=fuzz.ratio)
        ratio = best[1] / 100.0 if best else 0.0
        return 1.0 if ratio >= self.cfg.trigger_word_ratio else ratio * 0.5

    def phrase(self, words: tuple[str, ...]) -> float:
        """Mean over the phrase's words (``phrase_words``) of how well the message contains each (1.0 = all present)."""
        if not words or not self.words:
            return 0.0
        seen = self.seen
        total = 0.0  # summed in order, as ``sum`` does: every turn scores each of ~200 phrases
        for w in words:
            score = seen.get(w)
            total += self.word(w) if score is None else score
        return total / len(words)


def phrase_words(phrase: str) -> tuple[str, ...]:
    """The words of a trigger phrase the lexical lane scores, casefolded."""
    return tuple(w.casefold() for w in tokens.query_terms(phrase))


def _names_match(phrase: str, message_words: list[str]) -> bool:
    """Every identifier of the phrase is in the message: vectors blur ``_4`` and ``_8`` too."""
    return all(w in message_words for w in (t.casefold() for t in tokens.query_terms(phrase)) if symptoms.exact_only(w))


@dataclass(frozen=True)
class Candidate:
    """An entry with trigger phrases, and what matching needs of them that depends on nothing but the entry."""

    path: str
    line_start: int
    text: str
    text_hash: str
    superseded_by: int | None
    keys: tuple[str, ...]  # the projects it is tagged with
    phrases: tuple[str, ...]
    words: tuple[tuple[str, ...], ...]  # ``phrase_words`` of each phrase
    identifiers: frozenset[str]  # the identifiers its phrases name (``symptoms.Conflicts``)
    fix: bool  # its triggers name a failure (``names_failure``)


CANDIDATE_TABLES = frozenset({"entries", "file_taint"})  # what ``candidates`` reads: ``Index.derived`` keeps it while they stand


def _all_candidates(index) -> tuple[tuple[Candidate, ...], frozenset[str]]:
    """Every entry with triggers that may inject, and the identifiers among their phrase words (``Words.identifiers``)."""
    rows = index.query(
        "SELECT e.id, e.path, e.line_start, e.text, e.text_hash, e.triggers, e.projects, e.superseded_by FROM entries e "
        f"LEFT JOIN file_taint t ON t.path = e.path WHERE e.triggers IS NOT NULL AND {eligibility.injectable_sql('e', 't')}"
    )
    found = []
    for row in rows:
        phrases = tuple(json.loads(row["triggers"]))
        found.append(Candidate(
            row["path"], row["line_start"], row["text"], row["text_hash"], row["superseded_by"],
            tuple(json.loads(row["projects"])) if row["projects"] else (), phrases, tuple(phrase_words(p) for p in phrases),
            frozenset().union(*(symptoms.identifiers(p) for p in phrases)), names_failure(list(phrases)),
        ))
    words = {w for c in found for phrase in c.words for w in phrase}
    return tuple(found), frozenset(w for w in words if symptoms.exact_only(w))


def candidates(index, active_keys: list[str]) -> tuple[list[Candidate], frozenset[str]]:
    """Curated, trusted, active entries with triggers, eligible under the project rule, and the identifiers among the phrase words of all.

    Each carries ``superseded_by`` (``clawmem.index.supersession``): ``match`` leaves replaced
    entries out unless asked, since an injected stale value is what supersession prevents. Read
    through ``Index.derived``: a worker's kept connection reads them again only after a change.
    """
    everything, identifiers = index.derived("recall.triggers.candidates", CANDIDATE_TABLES, lambda: _all_candidates(index))
    return [c for c in everything if not c.keys or all(k in active_keys for k in c.keys)], identifiers


class VectorLane:
    """Load the embedder and embed the message in a thread, so the budget can cut it off.

    ``baseline`` is the message's cosine to the mean of ordinary turns (``calibration``), None
    for a model never calibrated."""

    def __init__(self, ws: Workspace, message: str) -> None:
        self.vector: np.ndarray | None = None
        self.cosine_floor = 0.0
        self.baseline: float | None = None
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, args=(ws, message), daemon=True)
        self.thread.start()

    def _run(self, ws: Workspace, message: str) -> None:
        # One short text: extra BLAS threads only add hand-off latency (and stall badly when
        # the other core is busy). Must be set before numpy loads; recall loads it only here.
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")
        try:
            from clawmem.embeddings import load_embedder
            from clawmem.recall.calibration import mean_vector

            cfg = ws.config.embeddings
            embedder = load_embedder(cfg.backend, cfg.model_path or None)
            vector = embedder.embed_query(message)
            mean = mean_vector(embedder)
            self.cosine_floor = embedder.cosine_floor
            self.baseline = None if mean is None else float(vector @ mean)
            self.vector = vector
        except Exception as err:  # the vector lane is an optional refinement
            self.error = f"{type(err).__name__}: {err}"

    def wait(self, seconds: float) -> bool:
        self.thread.join(seconds)
        return not self.thread.is_alive()


# What the turn still does once the lane answers or is cut off (scoring, the project block, the
# recall bookkeeping, a write when something fired): 10-30 ms on a loaded machine, so the lane
# leaves that much of the budget (at most a tenth of it).
AFTER_LANE_S = 0.03


@dataclass(frozen=True)
class Vectors:
    """The vector lane's answer: per phrase (casefolded) its score on the common scale, calibrated
    (above ordinary turns) or, for a model with no calibration, ``similarity`` plain."""

    scores: dict[str, float]
    calibrated: bool


def _vector_scores(ws: Workspace, index, message: str, phrases: set[str], budget: Budget, degraded: list[str]) -> Vectors | None:
    from clawmem.embeddings import backend_status

    cfg = ws.config.embeddings
    status = backend_status(cfg.backend, cfg.model_path or None)
    if not status.get("available"):
        return None
    stored = index.query("SELECT phrase, vector FROM trigger_vectors WHERE embedder = ?", (status["model_id"],))
    stored = [r for r in stored if r["phrase"] in phrases]
    if not stored:
        degraded.append("trigger phrases have no vectors yet: run `clawmem index`; lexical trigger matching only")
        return None
    lane = VectorLane(ws, message)
    if not lane.wait(max(0.0, budget.remaining_s() - min(AFTER_LANE_S, budget.total_ms / 10_000))):
        from clawmem.foundation.abandoned import abandon

        abandon(lane.thread)  # the process exits without waiting for the model it may still be loading
        degraded.append("vector trigger matching cut off by the time budget; lexical only this turn")
        return None
    if lane.vector is None:
        degraded.append(f"vector trigger matching unavailable ({lane.error})")
        return None
    import numpy as np  # already imported by the embedder

    matrix = np.frombuffer(b"".join(r["vector"] for r in stored), dtype=np.float32).reshape(len(stored), -1)
    from clawmem.embeddings.base import similarity

    cosines = matrix @ lane.vector
    if lane.baseline is None:
        sims = similarity(cosines, lane.cosine_floor)
    else:
        sims = (cosines - lane.baseline) / (1.0 - lane.cosine_floor)
    return Vectors({r["phrase"]: float(s) for r, s in zip(stored, sims, strict=False)}, lane.baseline is not None)


@dataclass(frozen=True)
class Message:
    """What the lanes ask of one message, computed once per turn."""

    words: list[str]  # casefolded, stop words kept (the lexical lane)
    identifiers: set[str]
    stems: set[str]
    problem: bool

    @classmethod
    def of(cls, text: str) -> Message:
        words = [w.casefold() for w in tokens.query_terms(text, drop_stopwords=False)]
        return cls(words, symptoms.identifiers(text), symptoms.stems(text), symptoms.reports_problem(text))


def vector_eligible(phrase: str) -> bool:
    """Phrases the calibrated vector lane compares: two content words or more."""
    return len(symptoms.content_words(phrase)) >= 2


def names_failure(phrases: list[str]) -> bool:
    """An entry whose triggers name a failure is a fix: it answers a message reporting one."""
    return any(symptoms.reports_problem(p) for p in phrases)


def vector_score(phrase: str, value: float | None, calibrated: bool, message: Message, cfg: RecallConfig, *, fix: bool) -> float | None:
    """The vector part of one phrase's score, or None when the phrase may not match by vector.

    ``fix``: the entry's triggers name a failure (``names_failure``). Calibrated, a passing phrase
    scores ``trigger_threshold`` plus how far it clears its margin (so ``score >=
    trigger_threshold`` still means "inject"); one that fails a rule scores None.
    """
    if value is None:
        return None
    if not calibrated:
        return value if _names_match(phrase, message.words) else None
    if not vector_eligible(phrase) or not symptoms.anchored(symptoms.stems(phrase), message.stems):
        return None
    if fix:
        if not message.problem:
            return None
        margin = cfg.trigger_vector_margin
    else:
        margin = cfg.trigger_vector_margin_topic
    return min(1.0, max(0.0, cfg.trigger_threshold + value - margin))


def match(
    ws: Workspace, index, message: str, active_keys: list[str], budget: Budget, degraded: list[str], *, include_superseded: bool = False
) -> list[TriggerHit]:
    """Score the message against every eligible trigger phrase; inject the best at or above threshold."""
    cfg = ws.config.recall
    said = Message.of(message)
    if not said.words:
        return []  # nothing said (a session start): no phrase can match, by words or by meaning
    eligible, identifiers = candidates(index, active_keys)
    contradicted = symptoms.Conflicts(said.identifiers)  # the message names another thing of a kind an entry's triggers name
    rows = [
        r for r in eligible
        if (include_superseded or r.superseded_by is None) and not (said.identifiers and r.identifiers and contradicted(r.identifiers))
    ]
    if not rows:
        return []
    words = Words(said.words, cfg)
    words.identifiers(identifiers)
    lexical = [[words.phrase(w) for w in row.words] for row in rows]
    settled = any(score >= cfg.trigger_threshold for scores in lexical for score in scores)
    vectors: Vectors | None = None
    if not settled and budget.expired():
        degraded.append("vector trigger matching skipped: the time budget was spent before it; lexical only this turn")
    elif not settled:
        vectors = _vector_scores(ws, index, message, {p.casefold() for r in rows for p in r.phrases}, budget, degraded)
    hits = []
    for row, scores in zip(rows, lexical, strict=True):
        if vectors is None and round(max(scores, default=0.0), 4) < cfg.trigger_threshold:
            continue  # its best score is its best lexical one, rounded as below: it cannot inject
        best: tuple[float, str, float, float | None] | None = None  # score, phrase, lexical, vector
        fix = vectors is not None and row.fix
        for phrase, lex in zip(row.phrases, scores, strict=True):
            vec = None if vectors is None else vector_score(phrase, vectors.scores.get(phrase.casefold()), vectors.calibrated, said, cfg, fix=fix)
            score = round(max(lex, vec or 0.0), 4)
            if best is None or score > best[0]:
                best = (score, phrase, lex, vec)
        if best is not None and best[0] >= cfg.trigger_threshold:  # a hit is built only for a row that injects
            score, phrase, lex, vec = best
            hits.append(TriggerHit(
                row.path, row.line_start, cite(row.path, row.line_start), row.text, row.text_hash,
                phrase, score, round(lex, 4), None if vec is None else round(vec, 4),
            ))
    hits.sort(key=lambda h: -h.score)
    return hits[: cfg.max_triggers]
