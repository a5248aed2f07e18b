"""Make text from outside the trusted channel inert before it is written to a memory file.

Metadata rides in ``<!-- key: value -->`` comments, injected recall blocks are wrapped in
``<clawmem-recall>`` tags and untrusted hits in ``<untrusted-content>`` frames, so untrusted
text must not be able to spell any of them (or close a frame early). Look-alike
forms (full-width brackets, zero-width joiners) are folded first with NFKC, so they cannot
slip past and be read as markers by a model or a later parser.
"""

from __future__ import annotations

import re
import unicodedata

INVISIBLE = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    None,
)
# recall markers and the untrusted-content frame that search and get put around untrusted text
CLAWMEM_TAG = re.compile(r"<(\s*/?\s*)(clawmem|untrusted-content)", re.IGNORECASE)


def fold(text: str) -> str:
    """NFKC-normalise and drop invisible format characters."""
    return unicodedata.normalize("NFKC", text).translate(INVISIBLE)


def neutralise(text: str) -> str:
    """Return ``text`` with comment and recall markers escaped, so it carries no metadata."""
    text = fold(text)
    text = text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    return CLAWMEM_TAG.sub(r"&lt;\1\2", text)
