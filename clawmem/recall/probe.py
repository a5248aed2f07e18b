"""Fit and check the vector lane's margins on a probe set (``python -m clawmem.recall.probe FILE [BACKEND]``).

The probe file (tests/recall/trigger_probe.json) has a ``fit`` and a ``holdout`` half, each with
fixes (the problem texts of three sessions, and paraphrases of that problem), unrelated messages
and failure talk about none of the fixes. Each fix's triggers are derived as dreaming derives
them (``clawmem.dream.problems.choose_symptoms``); every message is scored against every phrase
through the recall lane's own rules (``triggers.vector_score``). A margin is fitted just above
the best unrelated or failure-talk message of its kind in the fit half; the holdout half is then
scored with it. Needs the embedding model; prints a report, changes nothing.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path
from typing import Any

from clawmem.foundation.config import RecallConfig
from clawmem.foundation.records import dataclass


@dataclass
class Scored:
    """One message against one fix: the best calibrated score per kind of phrase that may match it."""

    message: str
    fix: str
    role: str  # paraphrase | wrong-fix | unrelated | failure
    failure: float | None  # best score when the fix names a failure (the message reports one too)
    topic: float | None  # best score when it names none
    old: float  # the plain common-scale score the lane used before calibration (identifiers must match)


def _score_half(half: dict[str, Any], embedder, cfg: RecallConfig) -> tuple[list[Scored], dict[str, list[str]]]:
    import numpy as np

    from clawmem.dream.problems import choose_symptoms
    from clawmem.embeddings.base import similarity
    from clawmem.recall.calibration import mean_vector
    from clawmem.recall.triggers import Message, _names_match, names_failure, vector_score

    mean = mean_vector(embedder)
    if mean is None:
        raise SystemExit(f"no calibration for {embedder.model}: run `python -m clawmem.recall.calibration means` and paste MEANS")
    triggers = {f["name"]: choose_symptoms([[t] for t in f["contexts"]]) for f in half["fixes"]}
    phrases = sorted({p for ps in triggers.values() for p in ps})
    vectors = dict(zip(phrases, embedder.embed(phrases), strict=True))
    jobs = [(m, f["name"], "paraphrase") for f in half["fixes"] for m in f["paraphrases"]]
    jobs += [(m, f2["name"], "wrong-fix") for f in half["fixes"] for m in f["paraphrases"] for f2 in half["fixes"] if f2["name"] != f["name"] and not _twins(f, f2)]
    jobs += [(m, f["name"], role) for role in ("unrelated", "failure") for m in half[role + ("" if role == "unrelated" else "s")] for f in half["fixes"]]
    queries = {m: embedder.embed_query(m) for m in {j[0] for j in jobs}}
    zero = dataclasses.replace(cfg, trigger_threshold=0.0, trigger_vector_margin=0.0, trigger_vector_margin_topic=0.0)
    scored = []
    for message, fix, role in jobs:
        q = queries[message]
        said = Message.of(message)
        best: dict[str, float | None] = {"failure": None, "topic": None}
        old = 0.0
        kind = "failure" if names_failure(triggers[fix]) else "topic"
        for phrase in triggers[fix]:
            cosine = float(vectors[phrase] @ q)
            value = (cosine - float(q @ mean)) / (1.0 - embedder.cosine_floor)
            got = vector_score(phrase, value, True, said, zero, fix=kind == "failure")
            if got is not None:
                best[kind] = got if best[kind] is None else max(best[kind] or 0.0, got)
            if _names_match(phrase, said.words):
                old = max(old, float(similarity(np.float32(cosine), embedder.cosine_floor)))
        scored.append(Scored(message, fix, role, best["failure"], best["topic"], old))
    return scored, triggers


def _twins(a: dict, b: dict) -> bool:
    """Two variants of one fix (same paraphrases): neither is the other's wrong fix."""
    return a["paraphrases"] == b["paraphrases"]


def _ceil(x: float) -> float:
    return math.ceil(x * 100 + 1e-9) / 100


def fires(s: Scored, failure_margin: float, topic_margin: float) -> bool:
    return (s.failure is not None and s.failure >= failure_margin) or (s.topic is not None and s.topic >= topic_margin)


def fit(path: str, backend: str = "auto") -> int:
    from clawmem.embeddings import load_embedder

    data = json.loads(Path(path).read_text())
    embedder = load_embedder(backend)
    cfg = RecallConfig()
    fit_rows, fit_triggers = _score_half(data["fit"], embedder, cfg)
    negatives = [s for s in fit_rows if s.role in ("unrelated", "failure")]
    worst: dict[str, Scored | None] = {}
    margins: dict[str, float] = {}
    for kind in ("failure", "topic"):
        ranked = sorted((s for s in negatives if getattr(s, kind) is not None), key=lambda s: -(getattr(s, kind) or 0.0))
        worst[kind] = ranked[0] if ranked else None
        margins[kind] = _ceil(max(0.0, (getattr(ranked[0], kind) or 0.0) + 0.005)) if ranked else 0.0
    print(f"embedder {embedder.id}, cosine_floor {embedder.cosine_floor}; scores on the common scale above the background mean\n")
    for kind, label in (("failure", "recall.trigger_vector_margin"), ("topic", "recall.trigger_vector_margin_topic")):
        w = worst[kind]
        why = f"{getattr(w, kind):.3f} for {w.message!r} against {w.fix}" if w else "no negative reaches this kind"
        print(f"{label}: fitted {margins[kind]:.2f} (shipped {getattr(cfg, label.split('.')[1])}); best negative {why}")
    used = (cfg.trigger_vector_margin, cfg.trigger_vector_margin_topic)
    for name, rows, triggers in (("fit", fit_rows, fit_triggers), ("holdout", *_score_half(data["holdout"], embedder, cfg))):
        print(f"\n== {name} half, shipped margins {used[0]} / {used[1]}")
        for fix, ps in triggers.items():
            print(f"  triggers of {fix}: {ps}")
        for role in ("paraphrase", "wrong-fix", "unrelated", "failure"):
            group = [s for s in rows if s.role == role]
            messages = {s.message for s in group} if role != "paraphrase" else {(s.message, s.fix) for s in group}
            fired = {s.message if role != "paraphrase" else (s.message, s.fix) for s in group if fires(s, *used)}
            old = {s.message if role != "paraphrase" else (s.message, s.fix) for s in group if s.old >= cfg.trigger_threshold}
            print(f"  {role:10s}: {len(fired)}/{len(messages)} fire (the uncalibrated lane: {len(old)})")
            if role != "paraphrase":
                for s in sorted(group, key=lambda s: -max(s.failure or -1, s.topic or -1))[:3]:
                    print(f"      {s.failure if s.failure is not None else '-'!s:>6.6} {s.topic if s.topic is not None else '-'!s:>6.6}  {s.message!r} -> {s.fix}")
        for s in rows:
            if s.role == "paraphrase":
                mark = "fires" if fires(s, *used) else "     "
                print(f"    {mark} failure {s.failure if s.failure is not None else '-'!s:>6.6} topic {s.topic if s.topic is not None else '-'!s:>6.6}  {s.fix}: {s.message!r}")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) in (1, 2):
        return fit(*argv)
    print("usage: python -m clawmem.recall.probe PROBE_FILE [BACKEND]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
