"""Source anchors (``path#L12``): parse them, and trace each to the evidence it points at today."""

from __future__ import annotations

import re

from clawmem import loopguard, provenance
from clawmem.audit.results import SourceTrace
from clawmem.errors import UnsafePath
from clawmem.workspace import Workspace

ANCHOR = re.compile(r"^(?P<path>[^#\s]+?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
SUPPORT_SIMILARITY = 60.0  # rapidfuzz token-set ratio at which an evidence unit still says the entry's text


def parse_anchor(ws: Workspace, anchor: str) -> tuple[str, int, int] | None:
    """``path#L12`` / ``path#L12-L14`` inside the workspace -> (relative path, start, end); else None."""
    match = ANCHOR.match(anchor.strip())
    if not match:
        return None
    try:
        path = ws.resolve_member(match["path"])
    except UnsafePath:
        return None
    if path.suffix != ".md":
        return None
    start = int(match["start"])
    end = int(match["end"] or start)
    if start < 1 or end < start:
        return None
    return ws.rel(path), start, end


def _supports(body: str, row: dict) -> bool:
    """True when the indexed unit still says the curated entry's text (a dream unit is a sentence of it)."""
    from clawmem.dream.standalone import units
    from clawmem.dream.text import similarity

    want = loopguard.normalise(body)
    if not want:
        return False
    for unit in units(row) or [row["text"]]:
        have = loopguard.normalise(unit)
        if have == want or want in have or similarity(want, have) >= SUPPORT_SIMILARITY:
            return True
    return False


def _trace(ws: Workspace, index, anchor: str, body: str, taints: dict[str, str]) -> SourceTrace:
    parsed = parse_anchor(ws, anchor)
    if parsed is None:
        return SourceTrace(anchor, "invalid")
    rel, start, end = parsed
    rows = index.query("SELECT e.*, f.file_date FROM entries e JOIN files f ON f.path = e.path WHERE e.path = ? ORDER BY e.line_start", (rel,))
    if not rows:
        return SourceTrace(anchor, "missing" if not (ws.root / rel).exists() else "stale", rel, start, end)
    at_anchor = [r for r in rows if r["line_start"] <= end and r["line_end"] >= start and _supports(body, r)]
    state = "ok"
    if not at_anchor:
        at_anchor = sorted((r for r in rows if _supports(body, r)), key=lambda r: abs(r["line_start"] - start))[:1]
        state = "moved"
    if not at_anchor:
        return SourceTrace(anchor, "stale", rel, start, end)
    row = min(at_anchor, key=lambda r: provenance.TRUST_RANK[r["origin"]])
    return SourceTrace(
        anchor, state, rel, row["line_start"], row["line_end"], row["kind"], row["origin"], row["session_kind"],
        row["session_id"], taints.get(rel),
    )


def anchored_units(ws: Workspace, index, anchor: str) -> list[str]:
    """What the lines of an anchor say now, as dreaming reads evidence (units of each indexed
    entry there); empty when nothing is there (a forgotten or blanked line)."""
    from clawmem.dream.standalone import units

    parsed = parse_anchor(ws, anchor)
    if parsed is None:
        return []
    rel, start, end = parsed
    rows = index.query(
        """SELECT e.text, e.kind, e.origin, e.observed_at, f.file_date FROM entries e JOIN files f ON f.path = e.path
           WHERE e.path = ? AND e.line_start <= ? AND e.line_end >= ?""",
        (rel, end, start),
    )
    return [u for r in rows for u in (units(r) or [r["text"]])]
