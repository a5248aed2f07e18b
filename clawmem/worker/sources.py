"""The worker's own source files, noted before it imports them and checked before each answer.

An edited or upgraded install must never answer with the code it replaced. The worker used to
hash the whole tree on every request (list each folder, sort, format and checksum every file's
size and mtime): 1-2 ms of each hook's answer. It now notes, once, each source file's inode,
size and mtime and each folder's mtime and source entries, and per request only ``stat``s
them, which sees every change the hash saw:

- a file written in place changes its own mtime (and its size, mostly); a file replaced by a
  rename (an editor's save, an install) is another inode; a removed one no longer stats;
- a file or folder added, removed or renamed changes its folder's mtime (POSIX updates a
  directory's modification time with each entry made, removed or renamed in it). The folder is
  then listed again: a change that adds or removes no source (the ``__pycache__`` an import
  makes, an editor's swap file) leaves the worker serving, any other stops it.

A timestamp moves by the clock's tick, coarser than its nanoseconds, so a folder changed in the
same tick as it was looked at would keep its mtime: a folder whose mtime is under
``WORKER_SOURCES_RACY_S`` old when looked at is listed on every check until it is older (git's
"racy" rule). As with the hash, a file written in place within one tick of being noted, to the
same size, is the one change not seen.
"""

from __future__ import annotations

import os
import time

from clawmem.foundation.config import WORKER_SOURCES_RACY_S

SUFFIXES = (".py", ".json")  # what the package is made of: modules, and the parsers' and MCP's recorded JSON
SKIPPED = "__pycache__"  # written by imports, never read as source by the worker's own check


class Sources:
    """The source files under ``top`` as first seen; ``changed()`` says whether any differs now."""

    def __init__(self, top: str) -> None:
        self.files: dict[str, list[tuple[str, tuple[int, int, int]]]] = {}  # folder -> [(name, (inode, size, mtime))]
        self.folders: dict[str, tuple[int | None, frozenset[str]]] = {}  # path -> (mtime, None while racy; source entries)
        pending = [top]
        while pending:
            folder = pending.pop()
            mtime = self._settled(os.stat(folder).st_mtime_ns)
            names = []
            files = self.files[folder] = []
            with os.scandir(folder) as found:
                for entry in found:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != SKIPPED:
                            names.append(entry.name)
                            pending.append(entry.path)
                    elif entry.name.endswith(SUFFIXES):
                        names.append(entry.name)
                        files.append((entry.name, _stamp(entry.stat())))
            self.folders[folder] = (mtime, frozenset(names))

    def changed(self) -> bool:
        """True when a source file or folder differs from what was noted (a folder whose entries did not change is noted anew).

        Each folder is opened once and its files ``stat``-ed relative to it: one path component
        for the kernel to walk per file instead of the whole path.
        """
        stat, fstat = os.stat, os.fstat
        try:
            for folder, (mtime, names) in self.folders.items():
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                try:
                    now = fstat(fd).st_mtime_ns  # before the listing: a change after it moves the mtime again
                    for name, stamp in self.files[folder]:
                        info = stat(name, dir_fd=fd)
                        if (info.st_ino, info.st_size, info.st_mtime_ns) != stamp:
                            return True
                finally:
                    os.close(fd)
                if now != mtime:
                    if _entries(folder) != names:
                        return True
                    self.folders[folder] = (self._settled(now), names)
        except OSError:  # a file or folder gone
            return True
        return False

    @staticmethod
    def _settled(mtime: int) -> int | None:
        """``mtime``, or None when it is too recent to show a change made in the same clock tick (module doc)."""
        return mtime if time.time_ns() - mtime >= WORKER_SOURCES_RACY_S * 1e9 else None


def _stamp(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_ino, info.st_size, info.st_mtime_ns


def _entries(folder: str) -> frozenset[str]:
    """The entries of ``folder`` that ``Sources`` notes: source files and folders other than ``__pycache__``."""
    with os.scandir(folder) as found:
        return frozenset(
            e.name for e in found
            if (e.name != SKIPPED if e.is_dir(follow_symlinks=False) else e.name.endswith(SUFFIXES))
        )
