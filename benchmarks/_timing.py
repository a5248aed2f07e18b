"""Shared helpers for the process-timing benchmarks: run a command N times, report percentiles."""

from __future__ import annotations

import os
import statistics
import subprocess
import time


def time_command(argv: list[str], *, runs: int, env: dict | None = None, cwd: str | None = None) -> list[float]:
    """Wall-clock milliseconds of ``runs`` executions (after one warm-up run)."""
    full_env = {**os.environ, **(env or {})}
    subprocess.run(argv, env=full_env, cwd=cwd, capture_output=True, check=False)
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, env=full_env, cwd=cwd, capture_output=True, check=False)
        samples.append((time.perf_counter() - started) * 1000.0)
    return samples


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(samples: list[float]) -> dict:
    return {"p50": statistics.median(samples), "p95": percentile(samples, 0.95), "runs": len(samples)}
