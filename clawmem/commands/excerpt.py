"""``clawmem get``: a bounded excerpt of one memory file, so an agent can read around a hit.

What ``get`` hands out is recalled content, like a search hit: the entries it returns join the
recalled set (an agent flushing them back stores nothing new), the printed form is a recall
block, and untrusted lines come inside their untrusted-content frame.
"""

from __future__ import annotations

from typing import Any

from clawmem.foundation.errors import NotFound
from clawmem.foundation.records import dataclass
from clawmem.rules import inputs
from clawmem.storage import anchors
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance, sessions
from clawmem.trust.framing import frame_untrusted, inert, recall_block

MAX_LINES = 200
MAX_CHARS = 20_000


@dataclass(frozen=True)
class Excerpt:
    path: str
    line_start: int
    line_end: int
    total_lines: int
    text: str
    truncated: bool
    untrusted: bool


def get_excerpt(ws: Workspace, anchor: str, *, context: int = 0, max_lines: int = MAX_LINES, session: str | None = None) -> Excerpt:
    """Read the lines an anchor names (``clawmem.storage.anchors``; plus ``context`` around them), never more than the caps.

    Untrusted lines shown join ``session``'s lineage (``clawmem.trust.sessions.shown``).
    """
    where = anchors.parse(ws, anchor)
    if not where.path.is_file():
        raise NotFound(f"no memory file {where.rel}", hint="paths are relative to the workspace, as search prints them")
    lines = where.path.read_text(encoding="utf-8", errors="replace").splitlines()
    start, end = (where.start, where.end) if where.start is not None and where.end is not None else (1, len(lines))
    if end > len(lines) and where.start is not None:
        raise NotFound(
            f"{anchor.strip()} is past the end of {where.rel} ({len(lines)} line{'' if len(lines) == 1 else 's'})",
            hint=f"see the whole file with `clawmem get {where.rel}`",
        )
    start, end = max(1, start - context), min(len(lines), end + context)
    end_capped = min(end, start + max(1, min(max_lines, MAX_LINES)) - 1)
    text = "\n".join(lines[start - 1 : end_capped])
    truncated = end_capped < end or len(text) > MAX_CHARS
    rel = where.rel
    untrusted = _recall_lines(ws, rel, start, end_capped)
    if untrusted:
        sessions.shown(ws, session, [f"untrusted {cite(rel, start, end_capped)} shown by get"])
    return Excerpt(rel, start, end_capped, len(lines), text[:MAX_CHARS], truncated, untrusted)


def _recall_lines(ws: Workspace, rel: str, start: int, end: int) -> bool:
    """Add the entries on lines ``start``-``end`` to the recalled set; True when they need a frame.

    The excerpt is framed when any line in it is untrusted or system content, or we cannot
    tell. Quarantine and transcripts are externally derived by location; elsewhere the index
    knows each line's origin and the file's taint (a flush of untrusted text taints a daily note).
    """
    from clawmem.foundation.errors import IndexUnavailable
    from clawmem.index.freshness import open_fresh
    from clawmem.index.recalls import Returned, mark_shown

    try:
        index = open_fresh(ws)
    except IndexUnavailable:
        return True
    with index:
        rows = index.query("SELECT text_hash, origin FROM entries WHERE path = ? AND line_end >= ? AND line_start <= ?", (rel, start, end))
        mark_shown(index, [Returned(r["text_hash"], rel, 0.0, r["origin"]) for r in rows], ws=ws)
        taint = index.scalar("SELECT origin FROM file_taint WHERE path = ?", (rel,))
    return provenance.span_shown_untrusted(rel, [r["origin"] for r in rows], taint)


def framed_text(excerpt: Excerpt) -> str:
    """The excerpt's text as an agent should see it: inside its untrusted-content frame, or inert."""
    return frame_untrusted(excerpt.text, excerpt.path) if excerpt.untrusted else inert(excerpt.text)


def payload(excerpt: Excerpt) -> dict[str, Any]:
    """The documented JSON shape of ``get`` (``docs/schemas/get.json``), for the CLI and MCP."""
    from clawmem.rules.output import to_jsonable

    return {**to_jsonable(excerpt), "text": framed_text(excerpt)}


def _numbered(excerpt: Excerpt, text: str) -> str:
    width = len(str(excerpt.line_end))
    return "\n".join(f"{number:>{width}}  {line}" for number, line in enumerate(text.split("\n"), excerpt.line_start))


def _truncation(excerpt: Excerpt) -> str:
    return f"\n... (truncated; {excerpt.total_lines} lines in all)" if excerpt.truncated else ""


def render(excerpt: Excerpt) -> str:
    """The excerpt for a program (a pipe, which agents read): numbered lines (framed when untrusted) inside one recall block."""
    numbered = _numbered(excerpt, inert(excerpt.text))
    body = frame_untrusted(numbered, excerpt.path) if excerpt.untrusted else numbered
    return recall_block(body + _truncation(excerpt))


def render_for_person(excerpt: Excerpt) -> str:
    """The excerpt for a person at a terminal: the lines as written (controls made visible, no
    frames, no escapes), headed by the file and, for untrusted lines, a plain warning."""
    head = cite(excerpt.path, excerpt.line_start, excerpt.line_end)
    if excerpt.untrusted:
        head += "  (untrusted: external or agent content, not the owner's)"
    return f"{inputs.printable(head)}\n{_numbered(excerpt, inputs.printable(excerpt.text))}{_truncation(excerpt)}"
