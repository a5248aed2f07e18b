"""Anchors: the one grammar naming lines of a memory file, for every command that takes one.

``get``, ``forget``, ``promote``, ``audit`` (a curated entry's ``source``) and the MCP tool
``read_excerpt`` all parse here, so what one prints another accepts:

* ``PATH``: the whole file (only where a command reads a file, not an entry);
* ``PATH#L3`` and ``PATH#L3-L9`` (``#L3-9`` too): as search, audit and MEMORY.md cite lines;
* ``PATH:3`` and ``PATH:3-9``: as ``note add`` prints them, and compilers and CI do.

``PATH`` is relative to the workspace, or absolute inside it; anything outside is refused.
Every citation clawmem prints is written by ``cite``, so what it prints parses here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from clawmem.foundation.errors import BadInput, UnsafePath
from clawmem.foundation.records import dataclass
from clawmem.storage.workspace import Workspace

GRAMMAR = "PATH, PATH#L12, PATH#L12-L20, PATH:12 or PATH:12-20"
_ANCHOR = re.compile(r"^(?P<path>.+?)(?:#L(?P<start>\d+)(?:-L?(?P<end>\d+))?|:(?P<cstart>\d+)(?:-(?P<cend>\d+))?)?$")


def cite(path: object, start: object, end: object = None) -> str:
    """The citation of lines ``start``..``end`` of ``path`` as search and MEMORY.md print it: ``path#L12`` or ``path#L12-L14``."""
    return f"{path}#L{start}" + (f"-L{end}" if end is not None and end != start else "")


def _lines(match: re.Match[str]) -> tuple[int, int] | None:
    """The first and last line an anchor's match names, in either spelling (None: none)."""
    start, end = match["start"] or match["cstart"], match["end"] or match["cend"]
    return None if start is None else (int(start), int(end or start))


def lines_of(text: str) -> tuple[str, int, int] | None:
    """The path and line range ``text`` names, read by its syntax alone (no workspace: for
    comparing two citations); None when it names no line."""
    match = _ANCHOR.match(text.strip())
    lines = _lines(match) if match else None
    return None if match is None or lines is None else (match["path"], *lines)


@dataclass(frozen=True)
class Anchor:
    """A parsed anchor: the file inside the workspace and, when given, its line range."""

    path: Path
    rel: str
    start: int | None
    end: int | None


def parse(ws: Workspace, text: str, *, lines_required: bool = False) -> Anchor:
    """Parse ``text`` against the workspace; bad syntax, a bad range or a path outside it raise."""
    match = _ANCHOR.match(text.strip())
    if "\x00" in text:  # no file name holds one (an MCP argument can); the OS layer would raise mid-command
        raise UnsafePath(f"{text!r} holds a NUL character: it names no file", hint=f"use {GRAMMAR}")
    if not match:
        raise BadInput(f"cannot read the anchor {text!r}", hint=f"use {GRAMMAR}")
    lines = _lines(match)
    if lines is None and lines_required:
        raise BadInput(f"{text!r} is not an entry anchor: it names no line", hint="give PATH#L12 or PATH:12, as search and note add cite it")
    start, end = lines or (None, None)
    if start is not None and (start < 1 or end is None or end < start):
        raise BadInput(f"bad line range in {text!r}", hint="lines count from 1, and a range runs forwards (PATH#L3-L9)")
    path = ws.resolve_member(_relative(ws, match["path"]))
    if path.suffix != ".md":
        raise BadInput(f"{match['path']} is not a memory file (.md)")
    return Anchor(path, ws.rel(path), start, end)


def _relative(ws: Workspace, given: str) -> str:
    """An absolute path inside the workspace, as the workspace-relative path; an outside one is refused."""
    if not os.path.isabs(given):
        return given
    for spell in (os.path.abspath, os.path.realpath):  # the root may be a link (~/notes -> /data/notes)
        root, target = spell(ws.root), spell(given)
        if os.path.commonpath([root, target]) == root:
            return Path(os.path.relpath(target, root)).as_posix()
    raise UnsafePath(f"{given!r} is outside the workspace {ws.root}", hint="give a path inside it, or relative to it")
