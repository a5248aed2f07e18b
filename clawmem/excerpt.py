"""``clawmem get``: a bounded excerpt of one memory file, so an agent can read around a hit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clawmem.errors import BadInput, NotFound
from clawmem.workspace import Workspace

MAX_LINES = 200
MAX_CHARS = 20_000
ANCHOR = re.compile(r"^(?P<path>[^#]+?)(?:#L(?P<start>\d+)(?:-L?(?P<end>\d+))?)?$")


@dataclass(frozen=True)
class Excerpt:
    path: str
    line_start: int
    line_end: int
    total_lines: int
    text: str
    truncated: bool
    untrusted: bool


def get_excerpt(ws: Workspace, anchor: str, *, context: int = 0, max_lines: int = MAX_LINES) -> Excerpt:
    """Read ``path[#Lx[-Ly]]`` (plus ``context`` lines around it), never more than the caps."""
    match = ANCHOR.match(anchor.strip())
    if not match:
        raise BadInput(f"cannot read the anchor {anchor!r}", hint="use PATH or PATH#L12 or PATH#L12-L20")
    path = ws.resolve_member(match["path"])
    if path.suffix != ".md":
        raise BadInput(f"{match['path']} is not a memory file (.md)")
    if not path.is_file():
        raise NotFound(f"no memory file {match['path']}", hint="paths are relative to the workspace, as search prints them")
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    start = int(match["start"] or 1)
    end = int(match["end"] or (match["start"] or len(lines)))
    if start < 1 or end < start:
        raise BadInput(f"bad line range in {anchor!r}")
    start, end = max(1, start - context), min(len(lines), end + context)
    end_capped = min(end, start + max(1, min(max_lines, MAX_LINES)) - 1)
    text = "\n".join(lines[start - 1 : end_capped])
    truncated = end_capped < end or len(text) > MAX_CHARS
    rel = ws.rel(path)
    untrusted = _untrusted(ws, rel, start, end_capped)
    return Excerpt(rel, start, end_capped, len(lines), text[:MAX_CHARS], truncated, untrusted)


def _untrusted(ws: Workspace, rel: str, start: int, end: int) -> bool:
    """Frame the excerpt when any line in it is untrusted or system content, or we cannot tell.

    Quarantine and transcripts are externally derived by location; elsewhere the index knows
    each line's origin and the file's taint (a flush of untrusted text taints a daily note).
    """
    if rel.startswith(("memory/quarantine/", "transcripts/")):
        return True
    from clawmem.errors import IndexUnavailable
    from clawmem.index.maintain import open_synced

    try:
        index, _ = open_synced(ws)
    except IndexUnavailable:
        return True
    with index:
        taint = index.scalar("SELECT origin FROM file_taint WHERE path = ?", (rel,))
        bad = index.scalar(
            "SELECT count(*) FROM entries WHERE path = ? AND line_end >= ? AND line_start <= ? AND origin NOT IN ('owner', 'agent')",
            (rel, start, end),
        )
    return bool(bad) or taint in ("untrusted", "system")
