"""Freshness benchmark: when a fact changed, does the updated observation outrank the original?

Two kinds of data, given as arguments (nothing is copied into the repository):

* a BEAM conversation folder (``/work/shared/data/beam-100k``): every conversation goes into its
  own workspace through clawmem's ``ingest`` (one transcript per batch, the batch's
  ``time_anchor`` as its date, one minute between messages, message ids kept as turn ids);
  each ``knowledge_update`` question is searched and the ranks of its ``updated_info`` and
  ``original_info`` messages are compared;
* a hand-written agent case file (``benchmarks/data/freshness-agent.json``): each case is an
  original and an updated note with their dates, plus distractor notes, all in one workspace
  added through ``clawmem.commands.notes.add_note`` with ``at=`` their dates; every question asks for
  the value now.

Per question: the updated entry **wins** when it is in the top ``--k`` and above the original
(or the original is not there); MRR and recall@1/@5 are of the updated entry. Every variant
(``[search]`` overrides written to ``clawmem.toml``) runs on every data set, and with
``--locomo FILE`` also on LoCoMo (turn-level recall@5/@10, ``benchmarks/locomo.py``), so the
trade-off between freshness and old-fact recall is measured in one run.

Run: ``python benchmarks/freshness.py /work/shared/data/beam-100k benchmarks/data/freshness-agent.json
[--locomo /work/shared/data/locomo-dev.json --locomo-conversations conv-26 --locomo-limit-questions N]
[--variants before,after] [--workdir DIR --reuse]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import locomo

from clawmem.commands import workspace_init
from clawmem.entries import grammar
from clawmem.foundation import config as config_module
from clawmem.storage.workspace import Workspace

MARKER = re.compile(r"\s*->->\s*[\d,\s]+$")  # BEAM generator bookkeeping at the end of user messages
# [search] settings before this benchmark (issue 12): one floor for every query, no "current" mode.
BEFORE = (("half_life_days", 30.0), ("recency_floor", 0.9), ("current_half_life_days", 30.0), ("current_floor", 0.9))
VARIANTS: dict[str, tuple[tuple[str, Any], ...]] = {
    "before": BEFORE,
    "after": (),  # the shipped defaults
    "floor 0.75": (("recency_floor", 0.75), ("current_half_life_days", 30.0), ("current_floor", 0.75)),
    "floor 0.5": (("recency_floor", 0.5), ("current_half_life_days", 30.0), ("current_floor", 0.5)),
    "current: floor 0": (("recency_floor", 0.9), ("current_half_life_days", 30.0), ("current_floor", 0.0)),
    "current: floor 0.3": (("recency_floor", 0.9), ("current_half_life_days", 30.0), ("current_floor", 0.3)),
    "current: floor 0.5": (("recency_floor", 0.9), ("current_half_life_days", 30.0), ("current_floor", 0.5)),
    "current: 14 d + floor 0": (("recency_floor", 0.9), ("current_half_life_days", 14.0), ("current_floor", 0.0)),
    "floor 0.75 + current: floor 0": (("recency_floor", 0.75), ("current_half_life_days", 30.0), ("current_floor", 0.0)),
    "floor 0.5 + current: floor 0": (("recency_floor", 0.5), ("current_half_life_days", 30.0), ("current_floor", 0.0)),
}


@dataclass(frozen=True)
class Probe:
    set_name: str
    question: str
    updated: tuple[str, ...]  # unit ids of the updated observation
    original: tuple[str, ...]


@dataclass
class Corpus:
    """One workspace and the probes asked of it."""

    name: str
    root: Path
    now: dt.datetime
    probes: list[Probe]
    units: dict[str, list[tuple[int, int, str]]]  # path -> (line_start, line_end, unit id)
    lanes: str = "hybrid"


def configured(root: Path, overrides: tuple[tuple[str, Any], ...]) -> Workspace:
    """The workspace at ``root`` with the defaults plus ``overrides`` as its ``[search]`` table."""
    path = root / config_module.CONFIG_FILE
    if overrides:
        path.write_text("[search]\n" + "".join(f"{key} = {value!r}\n" for key, value in overrides), encoding="utf-8")
    elif path.exists():
        path.unlink()
    return Workspace(root)


def _fresh(root: Path, reuse: bool) -> Workspace | None:
    if reuse and (root / ".clawmem" / "index.db").is_file():
        return None
    if root.exists():
        shutil.rmtree(root)
    return workspace_init.create(root)


def _index(ws: Workspace, embedder: Any) -> None:
    from clawmem.index import vectors
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index

    run_index(ws, embed=False)
    if embedder is None:
        return
    with Index.open(ws) as index:
        vectors.refresh(index, embedder)


def _turn_units(ws: Workspace) -> dict[str, list[tuple[int, int, str]]]:
    units = {}
    for path in sorted(ws.transcripts_dir.glob("*.md")):
        doc = grammar.parse(path.read_text(encoding="utf-8"))
        units[ws.rel(path)] = [(e.line_start, e.line_end, e.first("turn")) for e in doc.entries if e.first("turn")]
    return units


# BEAM ------------------------------------------------------------------------------------
def beam_corpora(folder: Path, workdir: Path, embedder: Any, reuse: bool, wanted: set[str]) -> list[Corpus]:
    """One workspace per conversation; ``embedder=None`` builds them for BM25-only search."""
    from clawmem.commands.ingest import ingest

    corpora = []
    for chat_path in sorted(folder.glob("*/chat.json"), key=lambda p: int(p.parent.name)):
        number = chat_path.parent.name
        if wanted and number not in wanted:
            continue
        batches = json.loads(chat_path.read_text(encoding="utf-8"))
        questions = json.loads((chat_path.parent / "probing_questions.json").read_text(encoding="utf-8"))
        root = workdir / f"beam-{number}{'' if embedder else '-lexical'}"
        ws = _fresh(root, reuse)
        last = None
        for batch in batches:
            messages = [m for exchange in batch["turns"] for m in exchange]
            anchor = next(m["time_anchor"] for m in messages if m.get("time_anchor"))
            start = dt.datetime.strptime(anchor, "%B-%d-%Y").replace(hour=9)
            last = start
            records = [
                {"role": m["role"], "content": MARKER.sub("", m["content"]), "id": str(m["id"]),
                 "timestamp": (start + dt.timedelta(minutes=i)).isoformat()}
                for i, m in enumerate(messages)
            ]
            if ws is not None:
                data = "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n"
                ingest(ws, data, session=f"beam-{number}-b{batch['batch_number']}", origin="owner")
        ws = ws or Workspace(root)
        if not reuse or not (root / ".clawmem" / "vectors-ready").exists():
            _index(ws, embedder)
            (root / ".clawmem" / "vectors-ready").write_text("1")
        probes = [
            Probe("beam", q["question"], tuple(map(str, q["source_chat_ids"]["updated_info"])), tuple(map(str, q["source_chat_ids"]["original_info"])))
            for q in questions.get("knowledge_update", [])
            if isinstance(q.get("source_chat_ids"), dict)
        ]
        lanes = "hybrid" if embedder else "lexical"
        corpora.append(Corpus(f"beam-{number}", root, last + dt.timedelta(days=1), probes, _turn_units(ws), lanes))
    return corpora


# agent cases -----------------------------------------------------------------------------
def agent_corpus(path: Path, workdir: Path, embedder: Any, reuse: bool) -> Corpus:
    from clawmem.commands.notes import add_note

    data = json.loads(path.read_text(encoding="utf-8"))
    root = workdir / f"agent-{path.stem}"
    ws = _fresh(root, reuse)

    def at(day: str) -> dt.datetime:
        return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(10))

    notes = [tuple(c["original"]) for c in data["cases"]] + [tuple(c["updated"]) for c in data["cases"]] + [tuple(d) for d in data["distractors"]]
    if ws is not None:
        for day, text in sorted(notes):
            add_note(ws, text, origin="owner", at=at(day))
        _index(ws, embedder)
    ws = ws or Workspace(root)
    units: dict[str, list[tuple[int, int, str]]] = {}
    for daily in sorted(ws.daily_dir.glob("*.md")):
        doc = grammar.parse(daily.read_text(encoding="utf-8"))
        units[ws.rel(daily)] = [(e.line_start, e.line_end, e.body) for e in doc.entries]
    probes = [Probe("agent", c["question"], (c["updated"][1],), (c["original"][1],)) for c in data["cases"]]
    return Corpus(f"agent-{path.stem}", root, dt.datetime.fromisoformat(data["now"]), probes, units)


# scoring ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ranked:
    updated: int | None  # 1-based rank of the first hit covering the updated observation
    original: int | None

    @property
    def wins(self) -> bool:
        return self.updated is not None and (self.original is None or self.updated < self.original)


def rank_of(hit_units: list[list[str]], wanted: tuple[str, ...]) -> int | None:
    return next((n for n, units in enumerate(hit_units, 1) if any(u in wanted for u in units)), None)


def run(corpus: Corpus, overrides: tuple[tuple[str, Any], ...], embedder: Any, k: int) -> list[Ranked]:
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    ws = configured(corpus.root, overrides)
    ranked = []
    with Index.open(ws) as index:
        for probe in corpus.probes:
            opts = SearchOptions(limit=k, min_score=0.0, lanes=corpus.lanes, log_recall=False)
            result = search(ws, index, probe.question, opts, now=corpus.now, embedder=embedder if corpus.lanes != "lexical" else None)
            hit_units = [
                [u for start, end, u in corpus.units.get(h.path, ()) if start <= h.line_end and end >= h.line_start] for h in result.hits
            ]
            ranked.append(Ranked(rank_of(hit_units, probe.updated), rank_of(hit_units, probe.original)))
    configured(corpus.root, ())
    return ranked


def summary(ranked: list[Ranked]) -> dict[str, float]:
    n = max(1, len(ranked))
    return {
        "questions": len(ranked),
        "wins": 100 * sum(r.wins for r in ranked) / n,
        "original_first": 100 * sum(r.original is not None and (r.updated is None or r.original < r.updated) for r in ranked) / n,
        "mrr": statistics.fmean([1 / r.updated if r.updated else 0.0 for r in ranked]) if ranked else 0.0,
        "r1": 100 * sum(r.updated == 1 for r in ranked) / n,
        "r5": 100 * sum(r.updated is not None and r.updated <= 5 for r in ranked) / n,
    }


def locomo_scores(convs: list, overrides: tuple[tuple[str, Any], ...], embedder: Any, limit_questions: int | None) -> dict[int, float]:
    variant = locomo.Variant("freshness", decay="auto", search=overrides)
    results = {c.sample_id: locomo.run_variant(c, variant, embedder, (5, 10), limit_questions) for c in convs}
    overall = locomo.summarise(convs, results, (5, 10))["overall_1_4"]
    return {5: overall[5], 10: overall[10]}


def main(argv: list[str] | None = None) -> int:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+", help="a BEAM folder and/or agent case JSON files")
    parser.add_argument("--k", type=int, default=10, help="results per search")
    parser.add_argument("--variants", default="", help="comma-separated variant names (default: all): " + ", ".join(VARIANTS))
    parser.add_argument("--beam-conversations", default="", help="comma-separated BEAM conversation numbers (default: all)")
    parser.add_argument("--beam-lexical", action="store_true", help="BEAM with BM25 only (embedding its long messages is slow on a small machine)")
    parser.add_argument("--locomo", type=Path, default=None, help="LoCoMo JSON: also report its recall@5/@10 per variant")
    parser.add_argument("--locomo-conversations", default="", help="comma-separated LoCoMo sample ids (default: all)")
    parser.add_argument("--locomo-limit-questions", type=int, default=None, help="first N LoCoMo questions with evidence per conversation")
    parser.add_argument("--workdir", type=Path, default=None, help="where the workspaces go (default: a temp dir, removed)")
    parser.add_argument("--reuse", action="store_true", help="reuse workspaces already built in --workdir")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args(argv)

    from clawmem.embeddings import load_embedder

    started = time.perf_counter()
    chosen = [n.strip() for n in args.variants.split(",") if n.strip()] or list(VARIANTS)
    unknown = [n for n in chosen if n not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(unknown)}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clawmem-freshness-"))
    workdir.mkdir(parents=True, exist_ok=True)
    embedder = locomo.QueryCache(load_embedder("numpy"))

    sets: dict[str, list[Corpus]] = {}
    for path in args.data:
        print(f"building {path} ...", file=sys.stderr)
        if path.is_dir():
            beam_wanted = {s for s in args.beam_conversations.split(",") if s}
            label = "BEAM knowledge_update" + (" (BM25 only)" if args.beam_lexical else "")
            sets[label] = beam_corpora(path, workdir, None if args.beam_lexical else embedder, args.reuse, beam_wanted)
        else:
            sets[f"agent ({path.name})"] = [agent_corpus(path, workdir, embedder, args.reuse)]
    convs = []
    if args.locomo:
        wanted = {s for s in args.locomo_conversations.split(",") if s}
        for sample in json.loads(args.locomo.read_text(encoding="utf-8")):
            if not wanted or sample["sample_id"] in wanted:
                print(f"building LoCoMo {sample['sample_id']} ...", file=sys.stderr)
                convs.append(locomo.build(sample, workdir / f"locomo-{sample['sample_id']}", embedder, reuse=args.reuse))

    figures: dict[str, dict[str, Any]] = {}
    for name in chosen:
        ranked = {set_name: [r for c in corpora for r in run(c, VARIANTS[name], embedder, args.k)] for set_name, corpora in sets.items()}
        row: dict[str, Any] = {set_name: summary(found) for set_name, found in ranked.items()}
        row["both"] = summary([r for found in ranked.values() for r in found])
        if convs:
            row["locomo"] = locomo_scores(convs, VARIANTS[name], embedder, args.locomo_limit_questions)
        figures[name] = row
        print(f"  {name}: " + json.dumps(row), file=sys.stderr)

    print(f"# Freshness: does the updated observation outrank the original? (top {args.k}, min_score 0)\n")
    print("variant settings: " + "; ".join(f"{n} = {dict(VARIANTS[n]) or 'defaults'}" for n in chosen) + "\n")
    set_names = [*sets, "both"]
    header = "| variant | " + " | ".join(f"{s}: wins % / original first % / MRR / R@1 / R@5" for s in set_names)
    header += " | LoCoMo R@5 / R@10 |" if convs else " |"
    print(header)
    print("|---" * (len(set_names) + 1 + bool(convs)) + "|")
    for name, row in figures.items():
        cells = [f"{row[s]['wins']:.1f} / {row[s]['original_first']:.1f} / {row[s]['mrr']:.3f} / {row[s]['r1']:.1f} / {row[s]['r5']:.1f}" for s in set_names]
        if convs:
            cells.append(f"{locomo.fmt(row['locomo'][5])} / {locomo.fmt(row['locomo'][10])}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    questions = {s: figures[chosen[0]][s]["questions"] for s in set_names}
    print(f"\nquestions: {questions}; LoCoMo: {', '.join(c.sample_id for c in convs) or 'not run'}"
          + (f", first {args.locomo_limit_questions} questions with evidence each" if args.locomo_limit_questions else ""))
    print(f"total {time.perf_counter() - started:.0f} s")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
