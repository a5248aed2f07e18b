"""What a search returns: hits with their provenance and signals, and the documented JSON shape.

Hit text reaches an agent framed: untrusted hits inside their own untrusted-content frame,
trusted ones inert, so no hit can spell a marker that closes another's frame.
"""

from __future__ import annotations

from typing import Any

from clawmem.foundation.records import dataclass, field
from clawmem.trust.framing import frame_untrusted, inert


@dataclass(frozen=True)
class SearchHit:
    id: int
    path: str
    line_start: int
    line_end: int
    citation: str
    text: str
    score: float
    text_score: float
    vector_score: float
    origin: str
    session_kind: str
    tier: str
    kind: str
    importance: int | None
    observed_at: str | None
    projects: list[str]
    untrusted: bool
    backfill: bool
    signals: dict[str, Any] = field(default_factory=dict)
    superseded: bool = False
    superseded_by: dict[str, str] | None = None  # the newer entry's citation and text

    @property
    def framed_text(self) -> str:
        """The text an agent should see: untrusted hits inside their own untrusted-content frame,
        trusted ones inert (so no hit can spell a marker that closes another's frame)."""
        return frame_untrusted(self.text, self.citation) if self.untrusted else inert(self.text)


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str  # "hybrid" or "lexical"
    embedder: str | None
    hits: list[SearchHit]
    warnings: list[str]
    decay: str  # "on", "off", "relaxed" (query about the past) or "current" (query about the value now)


SNIPPET_CHARS = 240


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One line of at most ``limit`` characters: enough to judge a hit before reading it whole."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def hit_snippet(hit: SearchHit) -> str:
    """The hit on one line within ``SNIPPET_CHARS``; an untrusted hit's frame is kept whole (both tags)."""
    if not hit.untrusted:
        return snippet(inert(hit.text))
    room = SNIPPET_CHARS - len(frame_untrusted("", hit.citation))  # the tags and the two line breaks
    return " ".join(frame_untrusted(snippet(inert(hit.text), max(1, room)), hit.citation).split("\n"))


def payload(result: SearchResult, *, explain: bool = False) -> dict[str, Any]:
    """The documented JSON shape of a search (``docs/schemas/search.json``), for the CLI and MCP.

    Hit text is the framed text: untrusted hits stay inside their untrusted-content frame
    (and so does the snippet, whose closing tag is never cut off); the query echoed back is inert.
    """
    hits = []
    for h in result.hits:
        hit = {
            "path": h.path, "line_start": h.line_start, "line_end": h.line_end, "citation": h.citation,
            "text": h.framed_text, "snippet": hit_snippet(h), "score": h.score, "vector_score": h.vector_score, "text_score": h.text_score,
            "origin": h.origin, "session_kind": h.session_kind, "tier": h.tier, "kind": h.kind,
            "importance": h.importance, "observed_at": h.observed_at, "projects": list(h.projects),
            "untrusted": h.untrusted, "backfill": h.backfill, "superseded": h.superseded, "superseded_by": h.superseded_by,
        }
        if explain:
            hit["signals"] = h.signals
        hits.append(hit)
    return {
        "query": inert(result.query), "mode": result.mode, "embedder": result.embedder, "decay": result.decay,
        "warnings": list(result.warnings), "results": hits,
    }
