"""Starting, finding and stopping a workspace's worker (``clawmem worker``, and the client's start on first use)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from clawmem import worker
from clawmem.worker.connection import ask


def unsupported(root: Path) -> str | None:
    """Why this workspace cannot have a worker, if it cannot."""
    from clawmem.foundation.config import WORKER_SOCKET_PATH_MAX

    path = worker.socket_path(root)
    if len(os.fsencode(path)) > WORKER_SOCKET_PATH_MAX:
        return f"the socket path {path} is longer than a Unix socket allows ({WORKER_SOCKET_PATH_MAX} bytes)"
    if not (root / ".clawmem").is_dir():
        return f"no clawmem workspace at {root}"
    return None


def running(root: Path) -> bool:
    """True while a worker holds the workspace's lock (running, or still warming up)."""
    try:
        with open(worker.run_dir(root) / worker.LOCK_NAME, "rb") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False
    except FileNotFoundError:
        return False


def spawn(root: Path) -> None:
    """Start a worker in the background (detached: never waited for); a second one exits at once."""
    import subprocess  # deferred: the client imports this module on every miss, and rarely spawns

    subprocess.Popen(
        [sys.executable, "-m", "clawmem.worker", str(root)], cwd=root,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
    )


def start_in_background(root: Path) -> None:
    """The first use's start: only when the settings allow it, none runs and one can; never raises."""
    try:
        from clawmem.storage.workspace import Workspace

        if unsupported(root) is None and not running(root) and Workspace(root).config.worker.autostart:
            spawn(root)
    except Exception:  # noqa: BLE001,S110 -- starting a worker is an optimisation: this turn is served anyway
        pass


def record(root: Path) -> dict[str, Any]:
    """What the running worker wrote about itself (pid, code, idle time), or {}."""
    try:
        return json.loads((worker.run_dir(root) / worker.RECORD_NAME).read_text())
    except (OSError, ValueError):
        return {}


def status(root: Path) -> dict[str, Any]:
    """Whether a worker runs and answers this install (``clawmem worker status``)."""
    reason = unsupported(root)
    alive = reason is None and running(root)
    reply = ask(root, {"command": "ping"}) if alive else None
    answers = bool(reply and reply.get("ok"))
    if reply and not answers:
        reason = f"it refused this client ({reply.get('error')})"
    elif alive and reply is None:
        reason = "it is starting (loading the index and the embedder) or not answering"
    info = record(root) if alive else {}
    return {
        "running": alive, "answers": answers, "pid": info.get("pid"), "idle_s": info.get("idle_s"),
        "served": reply.get("served") if answers and reply else None,
        "socket": str(worker.socket_path(root)), "reason": reason,
    }


def wait_until(ready: Any, seconds: float) -> bool:
    """Poll ``ready()`` until it is true or ``seconds`` pass (a bounded wait, not a timing)."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def start(root: Path, wait_s: float) -> dict[str, Any]:
    """Start a worker unless one runs, and wait for it to answer."""
    if not running(root):
        spawn(root)
    wait_until(lambda: status(root)["answers"], wait_s)
    return status(root)


def stop(root: Path, wait_s: float) -> bool:
    """Ask the worker to exit (SIGTERM when it does not answer); True when one was running."""
    if not running(root):
        return False
    reply = ask(root, {"command": "stop"})
    pid = record(root).get("pid")
    if not (reply and reply.get("ok")) and isinstance(pid, int):
        os.kill(pid, signal.SIGTERM)
    wait_until(lambda: not running(root), wait_s)
    return True
