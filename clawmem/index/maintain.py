"""Opening the index in a usable state: migrated, synced with the files, rebuilt when asked."""

from __future__ import annotations

from dataclasses import dataclass

from clawmem.errors import IndexUnavailable
from clawmem.index import sync as sync_module
from clawmem.index.db import Index, remove_index_files
from clawmem.workspace import Workspace


def open_synced(ws: Workspace, *, progress: sync_module.Progress | None = None) -> tuple[Index, sync_module.SyncReport]:
    """Open the index and bring it up to date with the files (cheap when nothing changed)."""
    index = Index.open(ws)
    try:
        report = sync_module.sync(ws, index, progress=progress)
    except BaseException:
        index.close()
        raise
    return index, report


@dataclass(frozen=True)
class IndexReport:
    sync: sync_module.SyncReport
    recreated: bool


def run_index(ws: Workspace, *, rebuild: bool = False, progress: sync_module.Progress | None = None) -> IndexReport:
    """``clawmem index``: incremental sync, or a full rebuild (recreating a corrupt database)."""
    recreated = False
    try:
        index = Index.open(ws)
    except IndexUnavailable:
        if not rebuild:
            raise
        remove_index_files(ws)
        index = Index.open(ws)
        recreated = True
    with index:
        report = sync_module.sync(ws, index, rebuild=rebuild, progress=progress)
    return IndexReport(report, recreated)
