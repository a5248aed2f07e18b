"""Curation benchmark: LoCoMo replayed as an agent's life, scored on what dreaming promotes.

Each conversation of the LoCoMo file becomes one agent's life in a fresh workspace: one
session is ingested (as the owner's JSONL transcript, with speakers and real dates) on its
own day, every question is asked as a search a few days after its last evidence appeared (the
way an agent looks things up), and ``dream`` runs every night in between, all on a simulated
clock (``CLAWMEM_NOW``). The final ``MEMORY.md`` is then scored:

- **lines**: promoted lines; **no one named**: lines naming neither speaker;
- **precision**: share of lines whose sources include a turn that LoCoMo's ``observation``
  annotations or any question's evidence cite;
- **coverage**: share of questions (categories 1-4) whose evidence turns are all cited by
  some line, and share answerable from the bootstrap block alone (those lines are in the
  block ``recall`` injects at session start);
- **junk**: lines failing the information preconditions (``clawmem.dream.worth``, judged by
  this checkout's rule for every column) — must be 0;
- **duplicates**: lines that near-duplicate an earlier line; **size** against the budget.

The replay itself runs in a subprocess per column, importing clawmem from the tree given, so
``--baseline-src`` (a checkout of an older clawmem, e.g. ``git worktree add /tmp/base REV``)
gives the same replay with that version's gate in the same run.

Run: ``python benchmarks/curation.py /work/shared/data/locomo-dev.json [--baseline-src DIR]
[--conversations conv-26 ...] [--ask-after-days 3] [--out DIR]``.
Data: LoCoMo (Maharana et al., ACL 2024), CC BY-NC 4.0; see the data directory's README.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DIA_ID = re.compile(r"^D(\d+):(\d+)$")
MAIN_CATEGORIES = (1, 2, 3, 4)
NIGHT = dt.time(3, 0)  # dreams run at 03:00 after each simulated day


# replay (runs in a subprocess, importing clawmem from --src) ---------------------------------
def _locomo():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import locomo

    return locomo


def _pin(when: dt.datetime) -> None:
    os.environ["CLAWMEM_NOW"] = when.astimezone().isoformat(timespec="seconds")


def _schedule(sample: dict, ask_after: int) -> tuple[list[tuple[dt.datetime, str, Any]], dict[str, str]]:
    """Events in time order: ingest a session, ask a question, dream at night."""
    locomo = _locomo()
    all_sessions = locomo.sessions(sample["conversation"])
    dates = {number: when for number, when, _ in all_sessions}
    known = {t["dia_id"] for _, _, turns in all_sessions for t in turns}
    events: list[tuple[dt.datetime, str, Any]] = [(when, "ingest", (number, turns)) for number, when, turns in all_sessions]
    for q in locomo.questions(sample, known):
        if q.category not in MAIN_CATEGORIES or not q.evidence:
            continue
        last = max(dates[int(DIA_ID.match(e).group(1))] for e in q.evidence)
        events.append((dt.datetime.combine(last.date() + dt.timedelta(days=ask_after), dt.time(12)), "ask", q))
    first = min(e[0] for e in events).date()
    final = max(e[0] for e in events).date()
    day = first
    while day <= final:
        events.append((dt.datetime.combine(day + dt.timedelta(days=1), NIGHT), "dream", None))
        day += dt.timedelta(days=1)
    order = {"ingest": 0, "ask": 1, "dream": 2}
    events.sort(key=lambda e: (e[0], order[e[1]]))
    return events, {str(n): w.isoformat() for n, w in dates.items()}


def _turn_lines(ws) -> dict[str, list[tuple[int, int, str]]]:
    from clawmem.entries import grammar

    found = {}
    for path in sorted(ws.transcripts_dir.glob("*.md")):
        doc = grammar.parse(path.read_text(encoding="utf-8"))
        found[ws.rel(path)] = [(e.line_start, e.line_end, e.first("turn")) for e in doc.entries if e.first("turn")]
    return found


def _cited_turns(anchor: str, turn_lines: dict[str, list[tuple[int, int, str]]]) -> list[str]:
    path, _, lines = anchor.partition("#")
    match = re.fullmatch(r"L(\d+)(?:-L(\d+))?", lines)
    if not match:
        return []
    start = int(match.group(1))
    end = int(match.group(2) or start)
    return [dia for s, e, dia in turn_lines.get(path, ()) if s <= end and e >= start]


def _bootstrap_text(ws) -> str:
    """The session-start block ``recall`` injects (curated files within their budgets)."""
    from clawmem.index.maintain import open_synced
    from clawmem.recall import bootstrap

    index, _ = open_synced(ws)
    with index:
        return "\n".join(f.text for f in bootstrap.load(ws, index, ws.config.recall, []))


def replay(sample: dict, root: Path, ask_after: int) -> dict[str, Any]:
    from clawmem.dream import run_sweep
    from clawmem.embeddings import EmbedderUnavailable, load_embedder
    from clawmem.entries import grammar
    from clawmem.index.maintain import open_synced
    from clawmem.ingest import ingest
    from clawmem.search import SearchOptions, search
    from clawmem.workspace import Workspace

    locomo = _locomo()
    ws = Workspace.init(root)
    try:
        embedder = load_embedder(ws.config.embeddings.backend, ws.config.embeddings.model_path or None)
    except EmbedderUnavailable:
        embedder = None
    events, _ = _schedule(sample, ask_after)
    timings = {"ingest": 0.0, "ask": 0.0, "dream": 0.0}
    counts = {"ingest": 0, "ask": 0, "dream": 0, "promoted": 0}
    for when, kind, payload in events:
        _pin(when)
        started = time.perf_counter()
        if kind == "ingest":
            number, turns = payload
            ingest(ws, locomo.transcript_jsonl(turns, when), session=f"{sample['sample_id']}-s{number}", origin="owner", at=when)
        elif kind == "ask":
            index, _ = open_synced(ws)
            with index:
                search(ws, index, payload.text, SearchOptions(), now=when, embedder=embedder)
        else:
            report = run_sweep(ws, now=when)
            counts["promoted"] += len(report.promoted)
        timings[kind] += time.perf_counter() - started
        counts[kind] += 1
    turn_lines = _turn_lines(ws)
    memory = ws.memory_md.read_text(encoding="utf-8") if ws.memory_md.exists() else ""
    boot = _bootstrap_text(ws)
    lines = [
        {
            "body": e.body,
            "sources": list(e.sources),
            "turns": sorted({t for s in e.sources for t in _cited_turns(s, turn_lines)}),
            "in_bootstrap": e.body in boot,
        }
        for e in grammar.parse(memory).entries
        if e.status != "superseded"
    ]
    conversation = sample["conversation"]
    known = {t for rows in turn_lines.values() for _, _, t in rows}
    return {
        "sample_id": sample["sample_id"],
        "speakers": [conversation["speaker_a"], conversation["speaker_b"]],
        "lines": lines,
        "memory_chars": len(memory),
        "budget": ws.config.dream.memory_chars,
        "observed_turns": sorted(_observation_turns(sample) & known),
        "questions": [
            {"evidence": list(q.evidence), "category": q.category}
            for q in locomo.questions(sample, known)
            if q.category in MAIN_CATEGORIES and q.evidence
        ],
        "timings": {k: round(v, 1) for k, v in timings.items()},
        "counts": counts,
    }


def _observation_turns(sample: dict) -> set[str]:
    found: set[str] = set()
    for per_session in sample.get("observation", {}).values():
        for facts in per_session.values():
            for fact in facts:
                ids = fact[1] if isinstance(fact[1], list) else [fact[1]]
                found.update(str(i).strip() for i in ids)
    return found


def run_replay(args: argparse.Namespace) -> None:
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    wanted = set(args.conversations or [s["sample_id"] for s in data])
    results = []
    with tempfile.TemporaryDirectory(prefix="clawmem-curation-") as tmp:
        for sample in data:
            if sample["sample_id"] in wanted:
                results.append(replay(sample, Path(tmp) / sample["sample_id"], args.ask_after_days))
                print(f"  {sample['sample_id']}: {results[-1]['counts']} in {results[-1]['timings']} s", file=sys.stderr, flush=True)
    Path(args.replay_out).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


# scoring (this checkout's rules, the same for every column) ---------------------------------
def _names_someone(body: str, speakers: list[str]) -> bool:
    return any(re.search(rf"\b{re.escape(name)}\b", body, re.IGNORECASE) for name in speakers)


def _is_junk(body: str) -> bool:
    from clawmem.dream import scaffolding, worth

    return bool(worth.reason(body) or scaffolding.reason(body))


def _duplicates(bodies: list[str], threshold: float) -> int:
    from clawmem import loopguard
    from clawmem.dream.text import similarity

    norms: list[str] = []
    found = 0
    for body in bodies:
        norm = loopguard.normalise(body)
        if any(similarity(norm, other) >= threshold for other in norms):
            found += 1
        norms.append(norm)
    return found


def score(results: list[dict[str, Any]]) -> dict[str, Any]:
    from clawmem.config import DreamConfig

    threshold = DreamConfig().dedupe_similarity
    lines = [(r, line) for r in results for line in r["lines"]]
    total = len(lines)
    questions = [(r, q) for r in results for q in r["questions"]]

    def covered(r: dict, q: dict, *, bootstrap: bool) -> bool:
        cited = {t for line in r["lines"] if line["in_bootstrap"] or not bootstrap for t in line["turns"]}
        return set(q["evidence"]) <= cited

    gold = {r["sample_id"]: set(r["observed_turns"]) | {t for q in r["questions"] for t in q["evidence"]} for r in results}
    return {
        "lines": total,
        "no_one_named": sum(not _names_someone(line["body"], r["speakers"]) for r, line in lines),
        "precision": sum(bool(set(line["turns"]) & gold[r["sample_id"]]) for r, line in lines) / total if total else None,
        "coverage": sum(covered(r, q, bootstrap=False) for r, q in questions) / len(questions) if questions else None,
        "coverage_bootstrap": sum(covered(r, q, bootstrap=True) for r, q in questions) / len(questions) if questions else None,
        "junk": sum(_is_junk(line["body"]) for _, line in lines),
        "duplicates": sum(_duplicates([line["body"] for line in r["lines"]], threshold) for r in results),
        "memory_chars": [r["memory_chars"] for r in results],
        "budget": results[0]["budget"] if results else None,
        "questions": len(questions),
        "seconds": round(sum(sum(r["timings"].values()) for r in results), 1),
    }


def _column(name: str, src: Path, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    target = out / f"replay-{name}.json"
    command = [sys.executable, str(Path(__file__).resolve()), args.data, "--replay-out", str(target), "--src", str(src),
               "--ask-after-days", str(args.ask_after_days)]
    if args.conversations:
        command += ["--conversations", *args.conversations]
    print(f"{name}: replaying with clawmem from {src}", file=sys.stderr, flush=True)
    subprocess.run(command, check=True, env={**os.environ, "PYTHONPATH": str(src)})
    results = json.loads(target.read_text(encoding="utf-8"))
    return {"name": name, "src": str(src), **score(results), "sample_lines": [line["body"] for r in results for line in r["lines"]][:40]}


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, list):
        return " / ".join(str(v) for v in value)
    return "–" if value is None else str(value)


def table(columns: list[dict[str, Any]]) -> str:
    rows = [
        ("promoted lines", "lines"), ("lines naming no one", "no_one_named"), ("precision", "precision"),
        ("coverage (all evidence cited)", "coverage"), ("coverage from the bootstrap block", "coverage_bootstrap"),
        ("junk lines", "junk"), ("duplicate lines", "duplicates"), ("MEMORY.md characters", "memory_chars"),
        ("MEMORY.md budget", "budget"), ("questions", "questions"), ("replay seconds", "seconds"),
    ]
    head = "| metric | " + " | ".join(c["name"] for c in columns) + " |\n|---|" + "---|" * len(columns) + "\n"
    return head + "".join(f"| {label} | " + " | ".join(_fmt(c[key]) for c in columns) + " |\n" for label, key in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="the LoCoMo JSON file")
    parser.add_argument("--baseline-src", type=Path, help="a checkout of another clawmem version for the baseline column")
    parser.add_argument("--conversations", nargs="*", help="sample ids to replay (default: all)")
    parser.add_argument("--ask-after-days", type=int, default=3, help="days after its last evidence a question is asked")
    parser.add_argument("--out", type=Path, help="directory for the replays and results.json (default: a temporary one)")
    parser.add_argument("--src", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--replay-out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay_out:
        run_replay(args)
        return
    out = args.out or Path(tempfile.mkdtemp(prefix="clawmem-curation-"))
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    columns = []
    if args.baseline_src:
        columns.append(_column("baseline", args.baseline_src.resolve(), args, out))
    columns.append(_column("this checkout", ROOT, args, out))
    (out / "results.json").write_text(json.dumps(columns, ensure_ascii=False, indent=1), encoding="utf-8")
    print(table(columns))
    print(f"details: {out / 'results.json'}")


if __name__ == "__main__":
    main()
