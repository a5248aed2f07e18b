"""Cold start and bulk throughput of every embedding backend installed in this interpreter.

Why: recall runs once per agent turn, so its cold start matters more than raw speed; indexing is
the opposite. Run: ``python benchmarks/embedders.py [--runs 7] [--sentences 1000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clawmem.embeddings import backend_status, load_embedder  # noqa: E402

BACKENDS = ("numpy", "onnx", "sentence-transformers")
REFERENCE = ROOT / "tests" / "data" / "reference_vectors.json"
WORDS = (
    "agent memory note file index search query vector token model cache server deploy branch commit "
    "review test failure retry webhook invoice customer database schema migration column table user "
    "prefers dark mode answer short long yesterday tomorrow meeting project deadline budget release "
    "bug fix crash log error warning config key secret rotate staging production backup restore disk "
    "network latency timeout queue worker job schedule cron python rust shell script library package "
    "version upgrade downgrade pin lock the a of to in on for with from by and or but not is was will "
    "should could must never always often rarely quickly slowly carefully again before after during"
).split()


def sentences(count: int, words: int = 20) -> list[str]:
    """Deterministic ~20-word English-like sentences (~26 WordPiece tokens each)."""
    rng = random.Random(0)
    return [" ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "." for _ in range(count)]


def run_seconds(code: str) -> float:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def median_seconds(code: str, runs: int) -> float:
    return statistics.median(run_seconds(code) for _ in range(runs))


def cold_start(backend: str, runs: int) -> float:
    """A fresh process: import clawmem.embeddings, load the backend, embed one sentence."""
    code = f"from clawmem.embeddings import load_embedder; load_embedder({backend!r}).embed(['hello world'])"
    return median_seconds(code, runs)


def throughput(backend: str, texts: list[str], repeats: int = 3) -> float:
    """Best of ``repeats`` sentences per second at batch size 64, after one warm-up batch."""
    embedder = load_embedder(backend)
    embedder.embed(texts[:64])
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        embedder.embed(texts, batch_size=64)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def max_cosine_deviation(backend: str) -> float | None:
    """Largest 1 - cos against the sentence-transformers reference vectors, if they exist."""
    if not REFERENCE.is_file():
        return None
    import numpy as np  # deferred: only once a backend (hence numpy) is known to be available

    data = json.loads(REFERENCE.read_text(encoding="utf-8"))
    got = load_embedder(backend).embed(data["sentences"]).astype(np.float64)
    want = np.asarray(data["vectors"], dtype=np.float64)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    return float(np.max(1.0 - np.sum(got * want, axis=1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold-start runs per backend (median)")
    parser.add_argument("--sentences", type=int, default=1000)
    args = parser.parse_args()
    texts = sentences(args.sentences)
    baseline = median_seconds("pass", args.runs)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; `python -c pass`: {baseline * 1000:.0f} ms")
    print(f"{'backend':<22} {'cold start':>11} {'x pass':>7} {'sent/s':>8} {'max 1-cos':>10}  model id")
    for backend in BACKENDS:
        status = backend_status(backend)
        if not status["available"]:
            print(f"{backend:<22} unavailable: {status['reason']}")
            continue
        runs = args.runs if backend != "sentence-transformers" else min(args.runs, 3)
        cold = cold_start(backend, runs)
        rate = throughput(backend, texts)
        deviation = max_cosine_deviation(backend)
        shown = "n/a" if deviation is None else f"{deviation:.1e}"
        row = f"{backend:<22} {cold * 1000:>8.0f} ms {cold / baseline:>7.1f} {rate:>8.1f} {shown:>10}"
        print(f"{row}  {status['model_id']}")


if __name__ == "__main__":
    main()
