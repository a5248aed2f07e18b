"""Recall-loop prevention: what clawmem hands out is marked, and never comes back as new memory.

What clawmem hands out is inside a recall block (``clawmem.framing``); the text hash of every
returned entry is recorded in the index. Writers (note, flush, ingest) drop marked blocks and any
line whose normalised hash matches recalled content, so a fact recalled a hundred times stays
one fact; each echo raises its recall count instead.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from clawmem.entries.neutralise import fold
from clawmem.framing import strip_marked  # noqa: F401  (writers strip recall blocks through loopguard)

COMMENT = re.compile(r"<!--.*?-->", re.S)
LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
ROLE_PREFIX = re.compile(r"^\s*\**(user|assistant|system|tool)\**\s*[:·]", re.IGNORECASE)


def normalise(text: str) -> str:
    """The comparison form of a memory line: no markup, case, punctuation or spacing."""
    text = COMMENT.sub(" ", fold(text))
    text = LIST_MARKER.sub("", text)
    text = ROLE_PREFIX.sub("", text)
    kept = [ch if unicodedata.category(ch)[0] in "LN" else " " for ch in text.casefold()]
    return " ".join("".join(kept).split())


def text_hash(text: str) -> str:
    """Stable short hash of the normalised text (the key of the recalled set and the ledger)."""
    return hashlib.sha256(normalise(text).encode()).hexdigest()[:20]
