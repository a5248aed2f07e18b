"""Durable writes of clawmem's files: whole-file replacement and the one append.

A crash or a full disk must never leave half a file, or half a line that passes for a whole
one. ``atomic_write`` replaces a file (a temporary file, fsynced, renamed over it);
``append_durably`` is the append of every append-only file (the provenance ledger, the daily
notes, ``DREAMS.md``, the curated files' append fallback, and the machine-local lists of
trusted workspaces and of a copy's vouched lines), fsynced or cut back; ``torn_tail`` finds
what a crash left, for the writer to record and terminate before it appends; ``create_private``
makes a file another program appends to. A workspace file is written under its lock
(``Workspace.lock_file``); the machine-local lists rely on ``O_APPEND`` (one entry a write).
"""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so readers see the old file or the new one, never half."""
    import tempfile  # deferred: tempfile pulls shutil and random, and reads never need it

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def append_durably(path: Path, data: bytes) -> None:
    """Append and fsync; on failure (disk full, file too large) cut the file back to its old size.

    Unbuffered on purpose: a buffered file flushes again before it truncates, so on a full disk
    the cut itself failed and the torn half line stayed. A crash (``kill -9``) can still leave
    one; ``torn_tail`` finds it before the next append. Callers of a workspace file hold its lock.
    """
    from clawmem.foundation import config as config_module

    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, config_module.PRIVATE_FILE_MODE)
    try:
        size = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            cut_back(fd, size)
            raise
    finally:
        os.close(fd)


def create_private(path: Path) -> bool:
    """Create ``path`` empty with the curated files' mode (0600) unless it exists; True when created.

    A file another program appends to (the cron job's ``>> dream.jsonl``) keeps the mode of the
    file it finds: made here first, the memory text it receives is private like ``atomic_write``'s.
    """
    from clawmem.foundation import config as config_module

    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, config_module.PRIVATE_FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def cut_back(fd: int, size: int) -> None:
    """Truncate a failed append back to ``size``: a half-written line must not stay behind."""
    os.ftruncate(fd, size)


def torn_tail(path: Path) -> bytes:
    """The unterminated last line of ``path`` (what a crash or a full disk left), or ``b""``.

    Appending after it would glue the next record or entry onto the torn one, so writers call
    this under the file's lock, record what they found, and terminate it before appending.
    """
    try:
        with open(path, "rb") as handle:
            end = handle.seek(0, os.SEEK_END)
            if end == 0:
                return b""
            handle.seek(end - 1)
            if handle.read(1) == b"\n":
                return b""
            start = max(0, end - 65536)
            while True:
                handle.seek(start)
                chunk = handle.read(end - start)
                cut = chunk.rfind(b"\n")
                if cut >= 0 or start == 0:
                    return chunk[cut + 1 :]
                start = max(0, start - 65536)
    except FileNotFoundError:
        return b""
