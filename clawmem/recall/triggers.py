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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clawmem.config import RecallConfig
from clawmem.index import tokens
from clawmem.recall import symptoms
from clawmem.recall.budget import Budget
from clawmem.trust import provenance
from clawmem.workspace import Workspace

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


def _same_word(a: str, b: str, stem_prefix: int) -> bool:
    """One word, or two spellings of it ("fails" ~ "failed"); an identifier only as itself."""
    if a == b:
        return True
    if symptoms.exact_only(a) or symptoms.exact_only(b):
        return False
    return symptoms.same_stem(a, b, stem_prefix, WORD_SHARE)


def _names_match(phrase: str, message_words: list[str]) -> bool:
    """Every identifier of the phrase is in the message: vectors blur ``_4`` and ``_8`` too."""
    return all(w in message_words for w in (t.casefold() for t in tokens.query_terms(phrase)) if symptoms.exact_only(w))


def lexical_score(phrase: str, message_words: list[str], cfg: RecallConfig) -> float:
    """Mean over the phrase's words of how well the message contains each (1.0 = all present)."""
    from rapidfuzz import fuzz, process  # deferred: only recall's trigger lane needs it

    words = [w.casefold() for w in tokens.query_terms(phrase)]
    if not words or not message_words:
        return 0.0
    total = 0.0
    for word in words:
        if any(_same_word(word, m, cfg.trigger_stem_prefix) for m in message_words):
            total += 1.0
            continue
        if symptoms.exact_only(word):
            continue
        best = process.extractOne(word, message_words, scorer=fuzz.ratio)
        ratio = best[1] / 100.0 if best else 0.0
        total += 1.0 if ratio >= cfg.trigger_word_ratio else ratio * 0.5
    return total / len(words)


def candidates(index, active_keys: list[str]) -> list[dict]:
    """Curated, trusted, active entries with triggers, eligible under the project rule.

    Each row carries ``superseded_by`` (``clawmem.index.supersession``): ``match`` leaves
    replaced entries out unless asked, since an injected stale value is what supersession prevents.
    """
    rows = index.query(
        "SELECT e.id, e.path, e.line_start, e.text, e.text_hash, e.triggers, e.projects, e.superseded_by FROM entries e "
        "LEFT JOIN file_taint t ON t.path = e.path "
        f"WHERE e.tier = 'curated' AND e.triggers IS NOT NULL AND {provenance.trusted_sql('e.origin')} "
        "AND e.session_kind = 'interactive' AND (e.status IS NULL OR e.status = 'active') "
        f"AND (t.origin IS NULL OR {provenance.trusted_sql('t.origin')})"
    )
    eligible = []
    for row in rows:
        keys = json.loads(row["projects"]) if row["projects"] else []
        if all(k in active_keys for k in keys):
            row["phrases"] = json.loads(row["triggers"])
            eligible.append(row)
    return eligible


class VectorLane:
    """Load the embedder and embed the message in a thread, so the budget can cut it off.

    ``baseline`` is the message's cosine to the mean of ordinary turns (``calibration``), None
    for a model never calibrated."""

    def __init__(self, ws: Workspace, message: str) -> None:
        self.vector: np.ndarray | None = None
        self.cosine_floor = 0.0
        self.baseline: float | None = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, args=(ws, message), daemon=True)
        self._thread.start()

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
        self._thread.join(seconds)
        return not self._thread.is_alive()


ABANDONED: list[VectorLane] = []  # lanes cut off by the budget; the CLI exits without waiting for them
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
        ABANDONED.append(lane)
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


def _contradicted(row: dict, message: Message) -> bool:
    """The message names another thing of a kind this entry's triggers name (see ``symptoms.conflicts``)."""
    if not message.identifiers:
        return False
    named = set().union(*(symptoms.identifiers(p) for p in row["phrases"]))
    return bool(named) and symptoms.conflicts(named, message.identifiers)


def match(
    ws: Workspace, index, message: str, active_keys: list[str], budget: Budget, degraded: list[str], *, include_superseded: bool = False
) -> list[TriggerHit]:
    """Score the message against every eligible trigger phrase; inject the best at or above threshold."""
    cfg = ws.config.recall
    said = Message.of(message)
    rows = [r for r in candidates(index, active_keys) if (include_superseded or r.get("superseded_by") is None) and not _contradicted(r, said)]
    if not rows:
        return []
    lexical = {id(row): {p: lexical_score(p, said.words, cfg) for p in row["phrases"]} for row in rows}
    settled = any(score >= cfg.trigger_threshold for scores in lexical.values() for score in scores.values())
    vectors: Vectors | None = None
    if not settled and budget.expired():
        degraded.append("vector trigger matching skipped: the time budget was spent before it; lexical only this turn")
    elif not settled:
        vectors = _vector_scores(ws, index, message, {p.casefold() for r in rows for p in r["phrases"]}, budget, degraded)
    hits = []
    for row in rows:
        best = None
        fix = vectors is not None and names_failure(row["phrases"])
        for phrase, lex in lexical[id(row)].items():
            vec = None if vectors is None else vector_score(phrase, vectors.scores.get(phrase.casefold()), vectors.calibrated, said, cfg, fix=fix)
            score = max(lex, vec or 0.0)
            if best is None or score > best.score:
                best = TriggerHit(
                    row["path"], row["line_start"], f"{row['path']}#L{row['line_start']}", row["text"], row["text_hash"],
                    phrase, round(score, 4), round(lex, 4), None if vec is None else round(vec, 4),
                )
        if best is not None and best.score >= cfg.trigger_threshold:
            hits.append(best)
    hits.sort(key=lambda h: -h.score)
    return hits[: cfg.max_triggers]
