"""Is the index in step with the files? Answered with stat calls only, no lock, no write.

Read paths (``status``, ``search``, ``recall``) ask this first and sync only when a file or the
ledger changed, so the common case costs one directory scan. It lives apart from
``clawmem.index.sync`` (the writer) so that asking does not import the writer's parsers.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from clawmem import workspace
from clawmem.index.db import Index
from clawmem.workspace import Workspace

DAILY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


@dataclass(frozen=True)
class MemoryFile:
    path: Path
    rel: str
    kind: str
    size: int  # as listed (lstat): what ``pending_changes`` compares with the index
    mtime_ns: int

    @property
    def file_date(self) -> str | None:
        match = DAILY_NAME.match(self.path.name)
        return match.group(1) if match and self.kind in ("daily", "quarantine") else None


def _followed(path: Path, info: os.stat_result) -> os.stat_result:
    """What a file admitted by the link rule is: itself, or (only were the rule to admit a link) its target."""
    return path.stat() if stat.S_ISLNK(info.st_mode) else info


def memory_files(ws: Workspace, skipped: list[str] | None = None) -> Iterator[MemoryFile]:
    """Every file the index covers, with its kind (docs/design.md section 2).

    A file reached through a link (``ws.contains``) is never read: it could be any file on the
    machine, served as the owner's. Its path goes to ``skipped`` so ``index`` and ``status`` warn.
    A folder is checked once and its files from one ``scandir``: the same rule as checking each
    file's whole path, at one ``lstat`` per file.
    """
    for path, kind in ((ws.memory_md, "memory"), (ws.user_md, "user")):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        if not ws.contains(path):
            if skipped is not None:
                skipped.append(ws.rel(path))
        elif stat.S_ISREG((info := _followed(path, info)).st_mode):
            yield MemoryFile(path, ws.rel(path), kind, info.st_size, info.st_mtime_ns)
    for folder, kind in ((ws.daily_dir, "daily"), (ws.quarantine_dir, "quarantine"), (ws.transcripts_dir, "transcript")):
        if not folder.is_dir():
            continue
        prefix = ws.rel(folder) + "/"
        reachable = workspace.inside_workspace(ws.root, folder)
        with os.scandir(folder) as listing:
            found = sorted((e for e in listing if e.name.endswith(".md") and not e.name.startswith(".")), key=lambda e: e.name)
        for entry in found:
            info = entry.stat(follow_symlinks=False)
            if not reachable or workspace.linked(info):  # the rule of ``inside_workspace``, per listed file
                if skipped is not None:
                    skipped.append(prefix + entry.name)
            elif stat.S_ISREG((info := _followed(folder / entry.name, info)).st_mode):
                yield MemoryFile(folder / entry.name, prefix + entry.name, kind, info.st_size, info.st_mtime_ns)


def storage_warnings(skipped_links: tuple[str, ...] | list[str], ledger_damaged: int) -> list[str]:
    """What ``index`` and ``status`` tell the user about links skipped and a damaged ledger."""
    warnings = []
    if skipped_links:
        warnings.append(
            f"not indexed, because they lead through a symbolic or hard link: {', '.join(skipped_links)}"
            " (replace each link with the file itself)"
        )
    if ledger_damaged:
        warnings.append(
            f"the provenance ledger has {ledger_damaged} damaged record(s) (a torn write): unrecorded lines in the"
            " files they concern are treated as untrusted"
        )
    return warnings


def pending_changes(ws: Workspace, index: Index, files: list[MemoryFile] | None = None) -> list[str]:
    """Paths whose size or mtime differs from what the index recorded (cheap: stat only).

    ``files``: the listing when the caller already has one (``status`` lists once for this and
    for its warnings).
    """
    known = {r["path"]: (r["size"], r["mtime_ns"]) for r in index.query("SELECT path, size, mtime_ns FROM files")}
    changed = []
    for mf in memory_files(ws) if files is None else files:
        if known.pop(mf.rel, None) != (mf.size, mf.mtime_ns):
            changed.append(mf.rel)
    return changed + sorted(known)


def needs_sync(ws: Workspace, index: Index) -> bool:
    """True when a file or the ledger changed since the last sync (stat calls only, no lock)."""
    try:
        ledger_size = ws.ledger_path.stat().st_size
    except FileNotFoundError:
        ledger_size = 0
    if ledger_size != int(index.meta("ledger_offset", "0") or 0):
        return True
    return bool(pending_changes(ws, index))


def open_fresh(ws: Workspace) -> Index:
    """The index, synced first only when ``needs_sync`` says a file or the ledger changed.

    For read paths: when nothing changed (the common case) there is no lock, no write
    transaction and no import of the sync's parsers; when something did, the results include it.
    """
    index = Index.open(ws)
    try:
        if needs_sync(ws, index):
            from clawmem.index.sync import sync

            sync(ws, index)
    except BaseException:
        index.close()
        raise
    return index
