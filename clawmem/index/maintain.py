"""Opening the index in a usable state: migrated, synced with the files, rebuilt when asked."""

from __future__ import annotations

import time
from typing import Any

from clawmem.foundation.errors import IndexUnavailable
from clawmem.foundation.records import dataclass, replace
from clawmem.index import sync as sync_module
from clawmem.index.db import Index, remove_index_files
from clawmem.storage.workspace import Workspace


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
    vectors: Any = None  # an index.vectors.VectorReport when embedding ran
    embeddings: str | None = None  # why vectors were not built, when they were not
    seconds: float = 0.0  # the whole run: open, sync, model load, embedding


def embed_pending(ws: Workspace, index: Index, *, progress: sync_module.Progress | None = None) -> tuple[Any, str | None]:
    """Embed every entry and trigger phrase lacking a vector; (report, None) or (None, reason)."""
    from clawmem.embeddings import EmbedderUnavailable, load_embedder
    from clawmem.index import vectors

    started = time.perf_counter()
    cfg = ws.config.embeddings
    if progress:
        progress(0, 0, "loading the embedder")
    try:
        embedder = load_embedder(cfg.backend, cfg.model_path or None)
    except EmbedderUnavailable as err:
        return None, str(err)
    report = vectors.refresh(index, embedder, cache_cap=cfg.cache_max_entries, progress=progress)
    if report.reason:
        return None, report.reason
    vectors.refresh_triggers(index, embedder)
    if ws.config.search.piece_weight > 0:
        from clawmem.index import pieces

        pieces.embed_all(index, embedder)
    seconds = time.perf_counter() - started
    return replace(report, seconds=seconds, per_second=report.embedded / seconds if seconds > 0 else 0.0), None


def run_index(
    ws: Workspace, *, rebuild: bool = False, embed: bool = True, progress: sync_module.Progress | None = None
) -> IndexReport:
    """``clawmem index``: incremental sync (or a rebuild that recreates a corrupt database), then embeddings."""
    started = time.perf_counter()
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
        vectors, reason = embed_pending(ws, index, progress=progress) if embed else (None, "skipped (--no-embed)")
    return IndexReport(report, recreated, vectors, reason, time.perf_counter() - started)
