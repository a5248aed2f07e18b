"""Whole-process ``clawmem recall`` and hook latency on a 10k-entry workspace with 200 trigger entries, worker off and on.

Every row is paired run by run with ``python -c pass`` (the interpreter floor) in the same run
(``_timing.paired``: p50/p95 wall, CPU, and the median of the per-pair ratios): ``clawmem
--version``, recall settled lexically (a trigger matches by words), recall that needs the
vector lane (a paraphrase), and the Claude Code ``prompt`` and ``session-start`` hooks fed the
host's JSON; each in process (``CLAWMEM_WORKER=off``) and answered by the workspace's resident
worker (``clawmem worker start`` first; the output says how many requests it served, so a
row that silently fell back would show). Targets (issue 26, with the worker): hooks <= 1.5x
the floor, recall settled lexically <= 3x, recall on the vector lane <= 5x.

    python benchmarks/recall_latency.py [--entries 10000] [--triggers 200] [--runs 30] [--code CHECKOUT]

``--code`` measures another checkout's clawmem (``python -m clawmem`` with it first on the path),
so a baseline (``git archive main | tar -x -C /tmp/base``) is measured by the same script
(a checkout without ``clawmem worker`` gets the in-process rows only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
if "--code" in sys.argv[:-1]:  # the checkout to measure comes first, here and in the subprocesses
    _code = str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve())
    sys.path.insert(0, _code)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_code, os.environ.get("PYTHONPATH", "")) if p)
from _timing import paired, paired_table

WORDS = ["deploy", "build", "server", "cache", "proxy", "gateway", "token", "release", "docker", "kernel", "network", "schema", "index", "backup", "queue", "worker", "cluster", "secret", "storage", "billing", "invoice", "calendar", "meeting", "travel", "hotel", "flight", "dentist", "garden", "recipe"]  # noqa: E501


def build(root: Path, entries: int, triggers: int) -> None:
    from clawmem.commands import workspace_init
    from clawmem.embeddings import EmbedderUnavailable, load_embedder
    from clawmem.index import vectors
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index

    rng = random.Random(7)
    ws = workspace_init.create(root)
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
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
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
        clawmem_argv = [sys.executable, "-P", "-m", "clawmem"] if args.code else [shutil.which("clawmem") or "clawmem"]  # -P: not the current folder's clawmem
        budget = ["--budget-ms", "2000"]  # measure the work itself, not the budget cut-off
        commands = {
            "clawmem --version": [*clawmem_argv, "--version"],
            "recall, settled lexically": [*clawmem_argv, "recall", "the arm64 build fails again", *budget],
            "recall, vector lane": [*clawmem_argv, "recall", "why is compiling broken on the ARM machine", *budget],
            "hook prompt --host claude-code": [*clawmem_argv, "hook", "prompt", "--host", "claude-code", *budget],
            "hook session-start --host claude-code": [*clawmem_argv, "hook", "session-start", "--host", "claude-code", *budget],
        }
        hook_json = {"session_id": "bench-1", "cwd": str(tmp), "transcript_path": None}
        stdin = {
            "hook prompt --host claude-code": json.dumps({**hook_json, "hook_event_name": "UserPromptSubmit", "prompt": "the arm64 build fails again"}).encode(),
            "hook session-start --host claude-code": json.dumps({**hook_json, "hook_event_name": "SessionStart", "source": "startup"}).encode(),
        }
        # Every command runs in the temporary folder: ``python -m`` puts its directory first on the path,
        # so run from a checkout it would import that checkout's clawmem instead of ``--code``'s.
        cwd = str(tmp)
        rows = paired(commands, runs=args.runs, env={**env, "CLAWMEM_WORKER": "off"}, stdin=stdin, cwd=cwd)
        worker_rows = {name: command for name, command in commands.items() if name != "clawmem --version"}
        started = subprocess.run([*clawmem_argv, "worker", "start", "--json"], env={**os.environ, **env}, capture_output=True, text=True, check=False)
        if started.returncode == 0:
            on = paired(worker_rows, runs=args.runs, env=env, stdin=stdin, cwd=cwd)
            rows.update({f"{name}, worker on": row for name, row in on.items()})
            served = subprocess.run([*clawmem_argv, "worker", "status", "--json"], env={**os.environ, **env}, capture_output=True, text=True, check=False)
            print(f"worker: {json.loads(served.stdout).get('served')} requests served")
            subprocess.run([*clawmem_argv, "worker", "stop"], env={**os.environ, **env}, capture_output=True, check=False)
        else:
            print(f"note: no worker ({started.stderr.strip() or started.stdout.strip()}); in-process rows only")
        from clawmem.embeddings import backend_status

        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"\n{args.entries:,} entries, {args.triggers} trigger entries, {args.runs} runs each; code {args.code or 'this checkout'}; "
              f"embedder {backend_status().get('model_id')}; load average {load}; {os.cpu_count()} CPUs (shared)\n")
        print(paired_table({name if name.endswith("worker on") or name == "clawmem --version" else f"{name}, in process": row for name, row in rows.items()}))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
