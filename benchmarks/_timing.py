"""Shared helpers for the process-timing benchmarks: run a command N times, report percentiles."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

FLOOR = [sys.executable, "-c", "pass"]


def compile_measured() -> None:
    """Byte-compile the clawmem being measured, as ``pip install`` does.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (this sandbox, some CI images), an edited checkout
    would recompile every module changed since its ``.pyc`` in each timed run: about 2 ms a
    module on the hook client's path, a cost no installed copy pays.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("clawmem")
    if spec is not None and spec.origin:
        compileall.compile_dir(os.path.dirname(spec.origin), quiet=1)


def time_command(argv: list[str], *, runs: int, env: dict | None = None, cwd: str | None = None) -> list[float]:
    """Wall-clock milliseconds of ``runs`` executions (after one warm-up run)."""
    compile_measured()
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


def _once(argv: list[str], env: dict, cwd: str | None, stdin: bytes = b"") -> tuple[float, float]:
    """(wall ms, CPU ms of the child) of one run, ``stdin`` on its standard input."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, input=stdin, capture_output=True, check=False)
    wall = (time.perf_counter() - started) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000.0


Pair = tuple[tuple[float, float | None], tuple[float, float | None]]  # (command's wall, CPU ms), (the floor's run next to it)


def paired(
    commands: dict[str, list[str]], *, runs: int, env: dict | None = None, cwd: str | None = None,
    stdin: dict[str, bytes] | None = None, envs: dict[str, dict] | None = None,
) -> dict[str, dict]:
    """Each command ``runs`` times, every run right after a run of ``python -c pass`` (the floor).

    The machine is shared and its load moves, so a command is compared with the floor run next
    to it: ``x floor`` is the median of the per-pair ratios (wall and CPU). Commands take turns
    run by run, so a burst of load falls on all of them alike. One warm-up run each first.
    ``stdin`` gives a command its standard input (a hook's JSON), ``envs`` its own variables.
    """
    compile_measured()
    full_env = {**os.environ, **(env or {})}
    own = {name: {**full_env, **(envs or {}).get(name, {})} for name in commands}
    given = stdin or {}
    _once(FLOOR, full_env, cwd)
    for name, argv in commands.items():
        _once(argv, own[name], cwd, given.get(name, b""))
    pairs: dict[str, list[Pair]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            floor = _once(FLOOR, full_env, cwd)
            pairs[name].append((_once(argv, own[name], cwd, given.get(name, b"")), floor))
    return {name: paired_row(samples) for name, samples in pairs.items()}


def paired_row(samples: list[Pair]) -> dict:
    """A row of ``paired`` from its runs, each beside its floor run; no CPU figures where a run has none."""
    wall = [run[0] for run, _ in samples]
    ratios = [run[0] / floor[0] for run, floor in samples]
    timed = all(run[1] is not None and floor[1] is not None for run, floor in samples)
    return {
        "p50": statistics.median(wall), "p95": percentile(wall, 0.95),
        "cpu p50": statistics.median(run[1] for run, _ in samples) if timed else None,
        "floor p50": statistics.median(floor[0] for _, floor in samples),
        "x floor": statistics.median(ratios), "x floor p95": percentile(ratios, 0.95),
        "cpu x floor": statistics.median(run[1] / max(floor[1], 0.1) for run, floor in samples) if timed else None,
        "runs": len(samples),
    }


def paired_table(rows: dict[str, dict]) -> str:
    """The rows of ``paired`` as a Markdown table."""
    out = [
        "| command | p50 ms | p95 ms | CPU p50 ms | x floor (wall, paired) | x floor p95 (paired) | x floor (CPU) | floor p50 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    out += [
        f"| {name} | {r['p50']:.0f} | {r['p95']:.0f} | {_or_dash(r['cpu p50'], '.0f')} | {r['x floor']:.2f}x | {r['x floor p95']:.2f}x "
        f"| {_or_dash(r['cpu x floor'], '.2f', 'x')} | {r['floor p50']:.0f} |"
        for name, r in rows.items()
    ]
    return "\n".join(out)


def _or_dash(value: float | None, spec: str, unit: str = "") -> str:
    """A figure, or a dash where the row has none (the MCP handshake's CPU)."""
    return "–" if value is None else f"{value:{spec}}{unit}"
