"""What ``clawmem hook`` does once its arguments are parsed (shared by Typer and the fast lane).

Hooks run on every prompt, so ``clawmem.launcher`` parses plain ``clawmem hook`` invocations
without importing Typer, as it does for ``recall``. Always returns 0.
"""

from __future__ import annotations

import os
import sys


def one_line(text: str) -> str:
    """A reason as one printable line: reasons may quote the input (a session id, a path)."""
    from clawmem.rules import inputs

    return " ".join(inputs.printable(text).split())


def read_stdin(limit: int) -> bytes | None:
    """The hook JSON on stdin, read up to ``limit`` bytes; None when there is more (never read whole)."""
    if sys.stdin is None or sys.stdin.isatty():
        return b""
    raw = sys.stdin.buffer.read(limit + 1)
    return raw if len(raw) <= limit else None


def outcome_of(event: str, host: str, workspace: str | os.PathLike[str] | None, budget_ms: int | None):
    """The hook's outcome whatever stdin holds: any failure, even an unexpected one, is one degraded reason."""
    from clawmem.foundation.config import HOOK_STDIN_MAX_BYTES
    from clawmem.hosts.hook import HookOutcome, run

    try:
        raw = read_stdin(HOOK_STDIN_MAX_BYTES)
        if raw is None:
            return HookOutcome("", [f"stdin is larger than {HOOK_STDIN_MAX_BYTES:,} bytes: not read, nothing done"])
        return run(event, host, raw, workspace=workspace, budget_ms=budget_ms)
    except Exception as err:  # noqa: BLE001 -- the hook contract: exit 0 and one line, for any input
        return HookOutcome("", [getattr(err, "message", None) or f"unexpected {type(err).__name__}"])


def run_command(*, event: str, host: str, workspace: str | os.PathLike[str] | None = None, budget_ms: int | None = None) -> int:
    """The hook in this process, or for the context events in the workspace's resident worker when one answers."""

    def local() -> int:
        return answer(event=event, host=host, workspace=workspace, budget_ms=budget_ms)

    from clawmem.hosts.names import CONTEXT_EVENTS

    if event in CONTEXT_EVENTS:  # recall: the worker's work
        from clawmem.worker.client import delegated

        delegated("hook", {"event": event, "host": host, "workspace": workspace, "budget_ms": budget_ms}, local)
    else:  # the ingest events start a detached job: nothing a worker would make faster
        local()
    return 0


def answer(*, event: str, host: str, workspace: str | os.PathLike[str] | None = None, budget_ms: int | None = None) -> int:
    """What the hook prints for this event (the worker calls this very function)."""
    outcome = outcome_of(event, host, workspace, budget_ms)
    if outcome.stdout:
        sys.stdout.write(outcome.stdout)
    if outcome.degraded:
        sys.stderr.write(f"clawmem: hook degraded: {one_line('; '.join(outcome.degraded))}\n")
    return 0
