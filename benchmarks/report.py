"""Time and size of ``clawmem report`` on the demo workspace and on a 10,000-entry workspace.

Why: the report reads the whole index (every curated entry's sources and sweeps, the gate over
every staged candidate, growth by day), so it must stay a matter of seconds on a large
workspace, and its page must stay bounded (long lists are capped with their counts).

The large workspace is ``benchmarks/speed.py``'s generator (Zipf vocabulary, daily notes
ending today, a 50-entry ``MEMORY.md``), indexed without vectors, with recall events logged
on half the curated entries and one dream sweep (so staging and the diary are full).
Reported per workspace: ``gather`` and ``render`` in-process (best of ``--runs``), the whole
``clawmem report`` command as a process (median, next to ``clawmem status --json`` as the
baseline of start-up and index opening), and the page's size in bytes.
Run: ``python benchmarks/report.py [--entries 10000] [--runs 3] [--no-dream]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from speed import generate

from clawmem.storage.workspace import Workspace


def _clawmem() -> list[str]:
    exe = Path(sys.executable).with_name("clawmem")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "clawmem"]


def measure(ws: Workspace, runs: int) -> dict:
    from clawmem.report.data import gather
    from clawmem.report.page import render

    gather(ws)  # first run syncs the index and warms the page cache
    gathered, rendered = [], []
    for _ in range(runs):
        t = time.perf_counter()
        data = gather(ws)
        gathered.append(time.perf_counter() - t)
        t = time.perf_counter()
        html = render(data)
        rendered.append(time.perf_counter() - t)
    out = ws.root / "bench-report.html"
    process = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([*_clawmem(), "report", "-w", str(ws.root), "-o", str(out)], check=True, capture_output=True)
        process.append(time.perf_counter() - t)
    baseline = []
    for _ in range(runs):  # the same process start-up, index open and status, without the report
        t = time.perf_counter()
        subprocess.run([*_clawmem(), "status", "-w", str(ws.root), "--json"], check=True, capture_output=True)
        baseline.append(time.perf_counter() - t)
    return {
        "entries": data.overview["entries"],
        "gather_s": round(min(gathered), 3),
        "render_s": round(min(rendered), 3),
        "command_s": round(statistics.median(process), 3),
        "status_command_s": round(statistics.median(baseline), 3),
        "html_bytes": len(html.encode()),
        "staged_candidates": data.dreaming.candidates.total,
        "curated_listed": sum(len(c.items) for c in data.curated.values()),
    }


def large(root: Path, entries: int, dream: bool) -> Workspace:
    from clawmem.dream import run_sweep
    from clawmem.index.maintain import open_synced, run_index
    from clawmem.index.recalls import Returned, record_returned

    ws, _ = generate(root, entries)
    run_index(ws, embed=False)
    index, _ = open_synced(ws)
    with index:
        rows = index.query("SELECT text_hash, path, origin FROM entries WHERE path = 'MEMORY.md' ORDER BY line_start")
        for n, r in enumerate(rows[::2]):
            for q in range(1 + n % 5):
                record_returned(index, [Returned(r["text_hash"], r["path"], 0.8, r["origin"])], query=f"query {n} {q}", source="search", ws=ws)
    if dream:
        t = time.perf_counter()
        run_sweep(ws)
        print(f"(dream sweep on {entries:,} entries: {time.perf_counter() - t:.1f}s, not part of the report's time)", file=sys.stderr)
    return ws


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-dream", action="store_true", help="skip the dream sweep on the large workspace")
    args = parser.parse_args()
    from clawmem.commands.demo import run_demo

    results = {}
    with tempfile.TemporaryDirectory(prefix="clawmem-report-bench-") as scratch:
        results["demo"] = measure(run_demo(Path(scratch) / "demo", say=lambda step: None), args.runs)
        results[f"{args.entries:,} entries"] = measure(large(Path(scratch) / "large", args.entries, not args.no_dream), args.runs)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
