"""One sweep at a time: a non-blocking lock, with the holder's pid, host and start time on record.

The lock itself is an OS file lock (``filelock``), which the kernel releases when its
process dies, so a crashed or ``kill -9``-ed sweep can never block the next one. Beside it
an owner file says who holds the lock; a sweep that acquires the lock and still finds an
owner file knows the previous sweep died mid-way, reports it as recovered, and removes
what that sweep may have left behind (temporary files of an unfinished atomic write).
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import now_iso
from clawmem.storage.workspace import Workspace

LOCK_NAME = "dream.lock"
OWNER_NAME = "dream.owner.json"


@dataclass(frozen=True)
class SweepLock:
    acquired: bool
    holder: dict[str, Any] | None  # who holds it (when not acquired)
    recovered: dict[str, Any] | None  # the dead sweep whose place we took (when acquired)


def _read_owner(ws: Workspace) -> dict[str, Any] | None:
    try:
        data = json.loads((ws.locks_dir / OWNER_NAME).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _clean_debris(ws: Workspace) -> None:
    """Remove temp files an interrupted atomic write of MEMORY.md or a pre-image left behind."""
    for pattern, folder in ((f".{ws.memory_md.name}.*.tmp", ws.root), (".*.tmp", ws.preimages_dir)):
        if folder.is_dir():
            for leftover in folder.glob(pattern):
                leftover.unlink(missing_ok=True)


@contextmanager
def sweep_lock(ws: Workspace) -> Iterator[SweepLock]:
    """Try once to become the workspace's only sweep; never waits."""
    from filelock import FileLock, Timeout  # deferred: only writers need it

    ws.locks_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(ws.locks_dir / LOCK_NAME), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        yield SweepLock(False, _read_owner(ws), None)
        return
    owner_path = ws.locks_dir / OWNER_NAME
    try:
        previous = _read_owner(ws)
        if previous is not None:  # its process died holding the lock (the kernel released it)
            _clean_debris(ws)
        owner_path.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": now_iso()}))
        yield SweepLock(True, None, previous)
    finally:
        owner_path.unlink(missing_ok=True)
        lock.release()
