"""Ranked memory search: FTS5 BM25 and sqlite-vec cosine lanes, blended and explained.

The package's face: ``engine`` ranks (``search``), ``results`` holds what it returns and its
JSON shape; the signals each have a module (``lanes``, ``ranking``, ``dates``, ``sessions``,
``feedback``, ``diversity``).
"""

from __future__ import annotations

from clawmem.search.engine import SearchOptions, active_projects, query_text, search
from clawmem.search.results import SNIPPET_CHARS, SearchHit, SearchResult, hit_snippet, payload, snippet

__all__ = [
    "SNIPPET_CHARS", "SearchHit", "SearchOptions", "SearchResult",
    "active_projects", "hit_snippet", "payload", "query_text", "search", "snippet",
]
