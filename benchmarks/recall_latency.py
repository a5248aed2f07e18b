"""Whole-process ``clawmem recall`` latency on a 10k-entry workspace with 200 trigger entries.

Prints p50/p95 for: ``python -c pass`` (the floor), ``clawmem --version``, recall settled
lexically (a trigger matches by words), and recall that needs the vector lane (a paraphrase),
with ratios to the floor measured in the same run. Targets (issue 4): vector lane
p50 <= 10x the floor, lexically settled p50 <= 5x.

    python benchmarks/recall_latency.py [--entries 10000] [--triggers 200] [--runs 30] [--code CHECKOUT]

``--code`` measures another checkout's clawmem (``python -m clawmem`` with it first on the path),
so a baseline (``git archive main | tar -x -C /tmp/base``) is measured by the same script.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
if "--code" in sys.argv[:-1]:  # the checkout to measure comes first, here and in the subprocesses
    _code = str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve())
    sys.path.insert(0, _code)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_code, os.environ.get("PYTHONPATH", "")) if p)
from _timing import summary, time_command

WORDS = ["deploy", "build", "server", "cache", "proxy", "gateway", "token", "release", "docker", "kernel", "network", "schema", "index", "backup", "queue", "worker", "cluster", "secret", "storage", "billing", "invoice", "calendar", "meeting", "travel", "hotel", "flight", "dentist", "garden", "recipe"]  # noqa: E501


def build(root: Path, entries: int, triggers: int) -> None:
    from clawmem.embeddings import EmbedderUnavailable, load_embedder
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index
    from clawmem.search import vectors
    from clawmem.workspace import Workspace

    rng = random.Random(7)
    ws = Workspace.init(root)
    per_day = 50
    start = dt.date(2026, 1, 1)
    for day in range(entries // per_day):
        date = start + dt.timedelta(days=day)
        lines = [f"- {' '.join(rng.choices(WORDS, k=12))} note {day}-{n}\n" for n in range(per_day)]
        ws.daily_note(date).write_text(f"# {date}\n\n" + "".join(lines))
    memory = [f"- Procedure {n}: {' '.join(rng.choices(WORDS, k=8))}. <!-- trigger: {rng.choice(WORDS)} {rng.choice(WORDS)} {n} -->\n" for n in range(triggers - 1)]
    memory.append("- When the arm64 build fails, run make clean first. <!-- trigger: arm64 build fails -->\n")
    ws.memory_md.write_text(ws.memory_md.read_text() + "".join(memory))
    run_index(ws, embed=False)
    try:
        embedder = load_embedder()
    except EmbedderUnavailable as err:
        print(f"note: no embedder ({err}); the vector lane cannot be measured")
        return
    with Index.open(ws) as index:
        print(f"embedded {vectors.refresh_triggers(index, embedder)} trigger phrases")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--triggers", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--code", type=Path, default=None, help="measure the clawmem of another checkout")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="clawmem-recall-bench-"))
    try:
        root = tmp / "ws"
        build(root, args.entries, args.triggers)
        env = {"CLAWMEM_WORKSPACE": str(root)}
        clawmem_argv = [sys.executable, "-m", "clawmem"] if args.code else [shutil.which("clawmem") or "clawmem"]
        budget = ["--budget-ms", "2000"]  # measure the work itself, not the budget cut-off
        rows = {
            "python -c pass": time_command([sys.executable, "-c", "pass"], runs=args.runs),
            "clawmem --version": time_command([*clawmem_argv, "--version"], runs=args.runs, env=env),
            "recall, settled lexically": time_command([*clawmem_argv, "recall", "the arm64 build fails again", *budget], runs=args.runs, env=env),
            "recall, vector lane": time_command([*clawmem_argv, "recall", "why is compiling broken on the ARM machine", *budget], runs=args.runs, env=env),
        }
        floor = summary(rows["python -c pass"])["p50"]
        from clawmem.embeddings import backend_status

        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"\n{args.entries:,} entries, {args.triggers} trigger entries, {args.runs} runs each; code {args.code or 'this checkout'}; "
              f"embedder {backend_status().get('model_id')}; load average {load}\n")
        print("| command | p50 ms | p95 ms | p50 / floor |")
        print("|---|---|---|---|")
        for name, samples in rows.items():
            s = summary(samples)
            print(f"| {name} | {s['p50']:.0f} | {s['p95']:.0f} | {s['p50'] / floor:.1f}x |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
