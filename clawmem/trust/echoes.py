"""Recall-loop prevention: what clawmem hands out is marked, and never comes back as new memory.

What clawmem hands out is inside a recall block (``clawmem.trust.framing``); the text hash of every
returned entry is recorded in the index. Writers (note, flush, ingest) drop marked blocks and any
line whose normalised hash matches recalled content, so a fact recalled a hundred times stays
one fact; each echo raises its recall count instead.

The rule is about what was handed out, never about a session's own words: a turn a host
recorded before clawmem first returned its text (``first_handed_out``), or a turn the session's
transcript already held, is the original and is kept (``clawmem.commands.ingest``), so re-ingesting a
session after a search returned one of its turns loses nothing.

Markers are not needed for that: recall identity (``injected_copy``) also recognises a line that
restates injected text (a recalled entry, a fired intent) with a few words, a bullet, quotes or
other case and punctuation added, so a decorated or unmarked echo stays one fact too.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING

from clawmem.foundation.config import ECHO_CHANGE_WORDS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from clawmem.entries.identity import TextHash
    from clawmem.foundation.config import EchoConfig
    from clawmem.index.db import Index
    from clawmem.storage.workspace import Workspace


def injected_copy(form: str, injected: str, rules: EchoConfig) -> bool:
    """Is a written line (``form``, normalised) the injected line ``injected`` restated, not a new fact?

    Identity, not markers: the line holds every word of the injected one (or all but a typo,
    by rapidfuzz partial ratio) and adds at most a few words. Added or changed words that
    negate or correct it, or any changed number, make it a new statement ("we no longer
    deploy on Fridays", "port 8081"), so it is kept. Injected lines shorter than
    ``rules.min_words`` match only exactly: a short phrase is in too many lines.
    """
    if form == injected:
        return True
    said, given = form.split(), injected.split()
    if len(given) < rules.min_words or len(form) < len(injected):
        return False
    added = list((Counter(said) - Counter(given)).elements())  # a repeated word is added too
    changed = list((Counter(given) - Counter(said)).elements())
    if len(added) > rules.max_added_words:
        return False
    if any(w in ECHO_CHANGE_WORDS or any(ch.isdigit() for ch in w) for w in (*added, *changed)):
        return False
    if not changed:
        return True
    from rapidfuzz import fuzz  # deferred: only a near miss needs it

    return fuzz.partial_ratio(injected, form) >= rules.partial_ratio


def near_echoes(index: Index, hashes: Iterable[str], rules: EchoConfig) -> set[str]:
    """The written hashes whose line restates an injected line (``injected_copy``).

    Each is counted as an echo of the original it repeats (not a new fact). Only hashes that
    carry their line (``identity.TextHash``) can be compared; the rest keep the exact rule.
    """
    from clawmem.entries import identity
    from clawmem.index import recalls  # deferred with the index (apsw): this module's other rules need neither

    written = {h: form for h in hashes if isinstance(h, identity.TextHash) and (form := echo_form(h))}
    if not written:
        return set()
    injected = recalls.injected_lines(index)
    by_word: dict[str, list[str]] = {}
    for form in injected:
        for word in set(form.split()):
            by_word.setdefault(word, []).append(form)
    found: dict[str, str] = {}
    for text_hash, form in written.items():
        shared = Counter(f for w in set(form.split()) for f in by_word.get(w, ()) if len(f) <= len(form))
        # a copy holds all the original's words but a typo or two: the rest need not be compared
        near = [f for f, n in shared.items() if n >= len(set(f.split())) - 2]
        for candidate in sorted(near, key=len, reverse=True):  # the fullest original it repeats
            if injected_copy(form, candidate, rules):
                found[text_hash] = injected[candidate]
                break
    if found:
        recalls.count_echoes(index, found.values())
    return set(found)


def echo_form(written: TextHash) -> str:
    """The comparison form of a written line as an echo: its metadata comments left out even
    when escaped. ``get`` and ``search`` print a line's ``<!-- observed: … -->`` neutralised
    (``&lt;!-- … --&gt;``), so text an agent copies back from them carries its date as words;
    those words are clawmem's, not a new statement."""
    from clawmem.entries import identity
    from clawmem.entries.neutralise import readable

    return identity.normalise(readable(written.text)) if "&lt;!--" in written.text else written.form


def first_handed_out(ws: Workspace, hashes: Collection[str]) -> dict[str, dt.datetime]:
    """When clawmem first handed out each of ``hashes`` (the recalled set's ``first_at``), as aware times.

    A line written before that moment cannot be an echo of it: it is the original (a host's
    record of a turn typed before a search returned it, copied into a fork). Without a usable
    index nothing is known, and the caller keeps its conservative rule.
    """
    wanted = sorted(set(hashes))
    if not wanted or not ws.index_path.exists():
        return {}
    from clawmem.foundation.errors import IndexUnavailable
    from clawmem.index.db import Index, in_batches

    found: dict[str, dt.datetime] = {}
    try:
        with Index.open(ws) as index:
            for part, marks in in_batches(wanted):
                for row in index.query(f"SELECT text_hash, first_at FROM recalled WHERE text_hash IN ({marks})", part):
                    when = _aware(row["first_at"])
                    if when is not None:
                        found[row["text_hash"]] = when
    except IndexUnavailable:
        return {}
    return found


def _aware(value: object) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value)).astimezone()
    except ValueError:
        return None
