"""The background ingest's job files: a log while a job runs, its outcome once it is done.

Apart from ``background.py`` (the detached worker, an entry point) so that ``status`` can
report the last failure without importing the worker.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clawmem.foundation.config import BACKGROUND_STDERR_TAIL
from clawmem.storage.workspace import Workspace

RUNTIME = "runtime/ingest"


def job_dir(ws: Workspace) -> Path:
    """Where the jobs' logs and outcomes are kept."""
    return ws.state_dir / RUNTIME


def in_flight(ws: Workspace) -> list[Path]:
    """The logs of jobs still running (each worker removes its own when it has recorded its outcome)."""
    folder = job_dir(ws)
    return sorted(folder.glob("*.log")) if folder.is_dir() else []


def _tail(log: Path) -> str:
    from clawmem.rules import inputs

    try:
        data = log.read_bytes()[-BACKGROUND_STDERR_TAIL:]
    except OSError:
        return ""
    return inputs.printable(data.decode("utf-8", "replace")).strip()


def record(ws: Workspace, host: str, session: str, transcript: str, code: int, log: Path) -> None:
    from clawmem.foundation.timeparse import now_iso
    from clawmem.storage.durable import atomic_write

    outcome = {"session": session, "host": host, "transcript": transcript, "exit": code, "stderr": _tail(log) if code else "", "at": now_iso()}
    atomic_write(job_dir(ws) / f"{session}.json", json.dumps(outcome).encode())


def last_failure(ws: Workspace) -> dict[str, Any] | None:
    """The newest background ingest that failed and was not followed by a success of the same session."""
    folder = job_dir(ws)
    failures = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            outcome = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(outcome, dict) and outcome.get("exit") not in (0, None):
            failures.append(outcome)
    return max(failures, key=lambda o: str(o.get("at")), default=None)
