"""The identity of a memory line: its comparison form and the hash every table and record keys it by.

Two lines are the same memory when they differ only in markup, case, punctuation or spacing
(a list marker, a role prefix, an HTML comment): the recalled set, the ledger, the baseline,
the embedding cache and dreaming's candidates all key a line by ``text_hash``. It lives with the
entry grammar, below the index and the trust rules, because all of them need it.
"""

from __future__ import annotations

import re
import unicodedata

from clawmem.entries.neutralise import fold
from clawmem.foundation.digest import sha256_hex

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


class TextHash(str):
    """A text hash that keeps the comparison form it was computed from (``form``).

    It is the plain hash string everywhere (sets, SQL, JSON); writers that hand only hashes to
    the recall check (note, flush, ingest) still let it compare their lines by identity, on the
    text as written (``text``) when a rule needs more than the form.
    """

    form: str
    text: str


def text_hash(text: str) -> str:
    """Stable short hash of the normalised text (the key of the recalled set and the ledger)."""
    form = normalise(text)
    hashed = TextHash(sha256_hex(form.encode())[:20])
    hashed.form = form
    hashed.text = text
    return hashed
