"""Source anchors (``path#L12``): parse them, and trace each to the evidence it points at today."""

from __future__ import annotations

from clawmem.audit.results import SourceTrace
from clawmem.entries import identity
from clawmem.foundation.errors import BadInput
from clawmem.storage import anchors
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

SUPPORT_SIMILARITY = 60.0  # rapidfuzz token-set ratio at which an evidence unit still says the entry's text


def parse_anchor(ws: Workspace, anchor: str) -> tuple[str, int, int] | None:
    """An anchor naming lines inside the workspace (``clawmem.storage.anchors``) -> (relative path, start, end); else None."""
    try:
        where = anchors.parse(ws, anchor, lines_required=True)
    except BadInput:
        return None
    assert where.start is not None and where.end is not None  # lines_required
    return where.rel, where.start, where.end


def _supports(body: str, row: dict) -> bool:
    """True when the indexed unit still says the curated entry's text (a dream unit is a sentence of it)."""
    from clawmem.dream.standalone import units
    from clawmem.dream.text import similarity

    want = identity.normalise(body)
    if not want:
        return False
    for unit in units(row) or [row["text"]]:
        have = identity.normalise(unit)
        if have == want or want in have or similarity(want, have) >= SUPPORT_SIMILARITY:
            return True
    return False


def trace(ws: Workspace, index, anchor: str, body: str, taints: dict[str, str]) -> SourceTrace:
    """A source anchor traced to the evidence it points at today; public: the review report shows the same trail."""
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
