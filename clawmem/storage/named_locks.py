"""Named inter-process locks whose files do not outlive their holders.

``filelock`` leaves every ``<hash>.lock`` behind on POSIX on purpose: deleting a lock file
naively lets a waiter lock the deleted inode while a newcomer locks a fresh file of the same
name, and both believe they hold the lock. One lock per daily note and per transcript made
``.clawmem/locks/`` grow without end. The safe pattern used here: the holder unlinks the
file *while still holding it*, and whoever acquires a lock checks that its descriptor is
still the file at that path, retrying otherwise. A crashed holder's file is harmless (the
kernel releases the lock) and is removed by the next holder of that name.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

POLL_S = 0.02


def _same_file(fd: int, path: Path) -> bool:
    try:
        here = os.stat(path)
    except FileNotFoundError:
        return False
    there = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _acquire(path: Path, deadline: float | None) -> int:
    """An open descriptor holding the exclusive lock on the file now at ``path``."""
    from filelock import Timeout  # the type every caller already catches

    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as err:
                    if err.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                if deadline is not None and time.monotonic() >= deadline:
                    raise Timeout(str(path))
                time.sleep(POLL_S)
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            return fd
        os.close(fd)  # the previous holder removed it while we waited: lock the new one


@contextmanager
def hold(path: Path, *, timeout: float) -> Iterator[None]:
    """Hold the exclusive lock named by ``path`` (``timeout`` < 0: wait forever); the file goes with it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _acquire(path, None if timeout < 0 else time.monotonic() + timeout)
    try:
        yield
    finally:
        try:
            os.unlink(path)  # still held: a waiter on this inode sees it gone and retries
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)

