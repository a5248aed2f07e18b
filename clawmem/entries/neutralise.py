"""Make text from outside the trusted channel inert: the one neutraliser, for files and frames.

Metadata rides in ``<!-- key: value -->`` comments, injected recall blocks are wrapped in
``<clawmem-recall>`` tags and untrusted hits in ``<untrusted-content>`` frames, so untrusted
text must not be able to spell any of them (or close a frame early). Writers run it before a
line reaches a memory file; ``clawmem.trust.framing`` runs it on every string printed inside a frame.
Look-alike forms (full-width brackets, zero-width joiners) are folded first with NFKC, and a
tag is recognised however it is padded (spaces, slashes, invisible or combining characters,
other punctuation between its letters), so no spelling a model might read as a marker survives.
"""

from __future__ import annotations

import re
import unicodedata

INVISIBLE = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    None,
)
# openers a reader may take for "<" (NFKC already folds the full-width and small forms)
ANGLES = "<\u2039\u2329\u27e8\u276e\u02c2\u1438\u3008"
OPENER = re.compile(f"[{ANGLES}]")
# the letters of clawmem's own markers: clawmem-recall (and any clawmem tag) and untrusted-content
MARKER_NAMES = ("clawmem", "untrustedcontent")
LOOKAHEAD = 64  # how far past an opener the marker's letters are looked for


def fold(text: str) -> str:
    """Drop invisible format characters, then NFKC-normalise (in this order it is idempotent:
    a dropped joiner can no longer leave a base and a combining mark to compose next time)."""
    return unicodedata.normalize("NFKC", text.translate(INVISIBLE))


def _spells_marker(text: str, start: int) -> bool:
    """True when the letters right after ``start`` spell a marker name (anything else between them ignored)."""
    letters = ""
    for ch in text[start : start + LOOKAHEAD]:
        if ch == ">" or ch in ANGLES:
            break  # the tag ended or another one starts: what follows is not this tag's name
        if ch.isalnum():
            letters += ch.casefold()
            if len(letters) == len(MARKER_NAMES[1]):
                break
    return letters.startswith(MARKER_NAMES)


def neutralise(text: str) -> str:
    """Return ``text`` with comment and clawmem markers escaped, so it carries no metadata or frame."""
    text = fold(text)
    text = text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    return OPENER.sub(lambda m: "&lt;" if _spells_marker(text, m.end()) else m.group(), text)


def readable(text: str) -> str:
    """``text`` as a person wrote it, for display only (a page escapes it once more): undoes the
    escapes ``neutralise`` adds, so a quarantined ``<!--`` is not shown as ``&lt;!--``."""
    return text.replace("&lt;", "<").replace("--&gt;", "-->")
