"""Is the index in step with the files? Answered with stat calls only, no lock, no write.

Read paths (``status``, ``search``, ``recall``) ask this first and sync only when a file or the
ledger changed, so the common case costs one directory scan. It lives apart from
``clawmem.index.sync`` (the writer) so that asking does not import the writer's parsers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from clawmem.index import resident
from clawmem.index.db import Index
from clawmem.index.files import MemoryFile, memory_files
from clawmem.storage.workspace import Workspace

FILES_TABLES = frozenset({"files"})  # what ``_recorded`` reads: ``Index.derived`` keeps it while the table stands


def _recorded(index: Index) -> dict[str, tuple[int, int]]:
    """Each indexed file's size and mtime as the last sync saw them (the worker keeps it until the index changes)."""
    return {r["path"]: (r["size"], r["mtime_ns"]) for r in index.query("SELECT path, size, mtime_ns FROM files")}


def pending_changes(ws: Workspace, index: Index, files: list[MemoryFile] | None = None) -> list[str]:
    """Paths whose size or mtime differs from what the index recorded (cheap: stat only).

    ``files``: the listing when the caller already has one (``status`` lists once for this and
    for its warnings, recall for this and for the aspirations).
    """
    known = dict(index.derived("freshness.files", FILES_TABLES, lambda: _recorded(index)))
    changed = []
    for mf in memory_files(ws) if files is None else files:
        if known.pop(mf.rel, None) != (mf.size, mf.mtime_ns):
            changed.append(mf.rel)
    return changed + sorted(known)


def needs_sync(ws: Workspace, index: Index, files: list[MemoryFile] | None = None) -> bool:
    """True when a file or the ledger changed since the last sync (stat calls only, no lock); ``files`` as for ``pending_changes``."""
    try:
        ledger_size = ws.ledger_path.stat().st_size
    except FileNotFoundError:
        ledger_size = 0
    if ledger_size != int(index.meta("ledger_offset", "0") or 0):
        return True
    return bool(pending_changes(ws, index, files))


def open_fresh(ws: Workspace) -> Index:
    """The index, synced first only when ``needs_sync`` says a file or the ledger changed.

    For read paths: when nothing changed (the common case) there is no lock, no write
    transaction and no import of the sync's parsers; when something did, the results include it.
    """
    index = Index.open(ws)
    try:
        _sync_if_changed(ws, index)
    except BaseException:
        index.close()
        raise
    return index


@contextmanager
def fresh(ws: Workspace) -> Iterator[Index]:
    """``open_fresh`` for one request: in the worker its kept connection (``clawmem.index.resident``), elsewhere opened and closed."""
    index = resident.opened(ws)
    try:
        _sync_if_changed(ws, index)
        yield index
    finally:
        resident.done(index)


def _sync_if_changed(ws: Workspace, index: Index) -> None:
    """Sync only when ``needs_sync`` says so: the common case imports no parser and takes no lock."""
    if needs_sync(ws, index):
        from clawmem.index.sync import sync

        sync(ws, index)
