"""Which files the index covers: the memory files, listed with stat calls only.

Apart from ``freshness.py`` (which asks whether they changed and then syncs) and ``sync.py``
(which reads them), so that both can list them without importing each other.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from clawmem.foundation.records import dataclass
from clawmem.storage import workspace
from clawmem.storage.workspace import Workspace

DAILY_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


@dataclass(frozen=True)
class MemoryFile:
    folder: Path
    name: str
    rel: str
    kind: str
    size: int  # as listed (lstat): what ``pending_changes`` compares with the index
    mtime_ns: int
    inode: tuple[int, int]  # device and inode: a file replaced by a rename is another (what ``aspirations`` keys its reads on)

    @property
    def path(self) -> Path:
        """Made when asked: ``pending_changes`` lists every file on every turn and needs none of them."""
        return self.folder / self.name

    @property
    def file_date(self) -> str | None:
        match = DAILY_NAME.match(self.name)
        return match.group(1) if match and self.kind in ("daily", "quarantine") else None


def _followed(path: str, info: os.stat_result, folder: int | None = None) -> os.stat_result:
    """What a file admitted by the link rule is: itself, or (only were the rule to admit a link) its target (``path`` in ``folder``, an open one)."""
    return os.stat(path, dir_fd=folder) if stat.S_ISLNK(info.st_mode) else info


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
        elif stat.S_ISREG((info := _followed(str(path), info)).st_mode):
            yield MemoryFile(path.parent, path.name, ws.rel(path), kind, info.st_size, info.st_mtime_ns, (info.st_dev, info.st_ino))
    for folder, kind in ((ws.daily_dir, "daily"), (ws.quarantine_dir, "quarantine"), (ws.transcripts_dir, "transcript")):
        yield from _listed(ws, folder, kind, skipped)


def daily_notes(ws: Workspace) -> Iterator[MemoryFile]:
    """The daily notes ``memory_files`` lists (the same rule for links), for a reader that needs no other file."""
    return _listed(ws, ws.daily_dir, "daily", None)


# Per folder, each file's record with the ``lstat`` it was made from: a process that lists the workspace
# on every turn (the worker) makes a record again only for a file whose ``lstat`` changed.
_MADE: dict[tuple[str, str, str], dict[str, tuple[tuple[int, ...], MemoryFile | None]]] = {}


def _listed(ws: Workspace, folder: Path, kind: str, skipped: list[str] | None) -> Iterator[MemoryFile]:
    """The Markdown files of one of the workspace's folders, by name (``memory_files``).

    Each file is ``lstat``-ed relative to the open folder (one path component, not the whole path,
    for the kernel to walk), and its record is the one made before when that ``lstat`` is the same.
    """
    if not folder.is_dir():
        return
    prefix = ws.rel(folder) + "/"
    reachable = workspace.inside_workspace(ws.root, folder)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        names = sorted(name for name in os.listdir(fd) if name.endswith(".md") and not name.startswith("."))
        made = _MADE.setdefault((str(folder), prefix, kind), {})
        if len(made) > len(names):  # files gone since: their records go too
            for gone in made.keys() - set(names):
                del made[gone]
        for name in names:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if not reachable or workspace.linked(info):  # the rule of ``inside_workspace``, per listed file
                if skipped is not None:
                    skipped.append(prefix + name)
                continue
            seen = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_mode)
            kept = made.get(name)
            if kept is None or kept[0] != seen:
                info = _followed(name, info, fd)  # a link's target may change under an unchanged link: not kept
                record = MemoryFile(folder, name, prefix + name, kind, info.st_size, info.st_mtime_ns, (info.st_dev, info.st_ino)) if stat.S_ISREG(info.st_mode) else None
                kept = (seen, record)
                if not stat.S_ISLNK(seen[-1]):
                    made[name] = kept
            if kept[1] is not None:
                yield kept[1]
    finally:
        os.close(fd)


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
