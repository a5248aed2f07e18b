"""What ``clawmem hook`` does once its arguments are parsed (shared by Typer and the fast lane).

Hooks run on every prompt, so ``clawmem.launcher`` parses plain ``clawmem hook`` invocations
without importing Typer, as it does for ``recall``. Always returns 0.
"""

from __future__ import annotations

import os
import sys


def run_command(*, event: str, host: str, workspace: str | os.PathLike[str] | None = None, budget_ms: int | None = None) -> int:
    from clawmem.hosts.hook import run

    raw = b"" if sys.stdin.isatty() else sys.stdin.buffer.read()
    outcome = run(event, host, raw, workspace=workspace, budget_ms=budget_ms)
    if outcome.stdout:
        sys.stdout.write(outcome.stdout)
    if outcome.degraded:
        sys.stderr.write(f"clawmem: hook degraded: {'; '.join(outcome.degraded)}\n")
    sys.stdout.flush()
    sys.stderr.flush()
    from clawmem.recall.triggers import ABANDONED

    if ABANDONED:  # a vector lane cut off by the budget may still be loading a model: do not wait
        os._exit(0)
    return 0
