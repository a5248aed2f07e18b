"""Content origin: text derived from untrusted text is never more trusted than its source.

The spec's follow-up ("Trust boundaries and limits"): the sender class of a turn says who
typed it, not where its substance came from. An assistant turn or an agent note that
restates untrusted text — a tool or untrusted turn earlier in the same transcript, or an
untrusted hit clawmem returned — is recorded as ``untrusted`` (with ``derived_from`` in the
ledger), so quoting a web page cannot turn it into agent evidence that dreaming promotes.

Only the agent class is ever re-classified: owner text is never downgraded or dropped
because of untrusted content (an attacker who plants text cannot veto the owner's facts).

``restates`` is the one rule; everything else only gathers sources and applies it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from clawmem.entries import identity
from clawmem.entries.words import STOPWORDS
from clawmem.foundation.config import TaintConfig
from clawmem.foundation.records import dataclass

URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'`)\]]+", re.IGNORECASE)
SEGMENT_BREAK = re.compile(r"\n+|(?<=[.!?;:])\s+|\s[-–—]\s")
RECALLED = "recalled untrusted hit"


@dataclass(frozen=True)
class Source:
    """Untrusted text a writer may have seen: ``text`` None when only its hash is known."""

    anchor: str
    text: str | None
    text_hash: str | None = None


def recalled(path: str | None, text: str | None, text_hash: str) -> Source:
    """An untrusted hit clawmem handed out, as a source (``text`` None when only its hash is known)."""
    return Source(f"{RECALLED} ({path or 'unknown path'})", text, text_hash)


def _urls(text: str) -> set[str]:
    return {u.rstrip(".,;:!?").casefold().removeprefix("https://").removeprefix("http://") for u in URL.findall(text)}


def _segments(text: str) -> list[str]:
    """The whole text, its lines, sentences and clauses after a colon or dash: a quote hides in one of them."""
    parts = [p.strip() for p in SEGMENT_BREAK.split(text) if p.strip()]
    return [text, *parts] if len(parts) > 1 else [text]


def _common_run(a: list[str], b: list[str]) -> int:
    """Length of the longest run of consecutive words the two share (a quote inside other words)."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size


def _aligned(shorter: list[str], longer: list[str], cfg: TaintConfig) -> bool:
    """The shorter word run is (nearly) a substring of the longer one, and long enough to mean it."""
    from rapidfuzz import fuzz


    if len(shorter) < cfg.min_words:
        return False
    content = [w for w in shorter if w not in STOPWORDS] or shorter
    present = set(longer)
    if sum(w in present for w in content) < cfg.containment * len(content):
        return False
    return fuzz.partial_ratio(" ".join(shorter), " ".join(longer), score_cutoff=cfg.partial_ratio) > 0


def restates(text: str, source: Source, cfg: TaintConfig = TaintConfig()) -> bool:
    """THE content-origin rule: does ``text`` restate the untrusted ``source``?

    Yes when both carry the same URL (a link is the payload of most injected instructions);
    when some segment of ``text`` and ``source`` align: the shorter word run — at least
    ``min_words`` long, so common short phrases never count — has ``containment`` of its
    content words in the other and a rapidfuzz partial ratio of at least ``partial_ratio``
    over normalised text; or when they share a run of ``min_run`` consecutive words. That
    catches verbatim echoes, quoted passages and prefixed restatements ("Vendor says: …");
    a paraphrase in the writer's own words is not caught. A segment that is an exact copy of
    the whole source counts at any length (an echo of a short planted line is still a copy).
    A source known only by its hash matches the same normalised text.
    """
    if source.text is None:
        return source.text_hash is not None and identity.text_hash(text) == source.text_hash
    if _urls(text) & _urls(source.text):
        return True
    theirs = identity.normalise(source.text).split()
    for segment in _segments(text):
        mine = identity.normalise(segment).split()
        if mine == theirs and mine:
            return True  # an exact copy, however short
        shorter, longer = sorted((mine, theirs), key=len)
        if _aligned(shorter, longer, cfg):
            return True
    return _common_run(identity.normalise(text).split(), theirs) >= cfg.min_run


def derived_from(text: str, sources: Iterable[Source], cfg: TaintConfig = TaintConfig()) -> str | None:
    """The anchor of the first untrusted source that ``text`` restates, or None (its own words)."""
    for source in sources:
        if restates(text, source, cfg):
            return source.anchor
    return None


def classify(origin: str, text: str, sources: Iterable[Source], cfg: TaintConfig = TaintConfig()) -> tuple[str, str | None]:
    """The origin to record for ``text`` written as ``origin``, and what it was derived from.

    Only agent text can be untrusted-derived: owner text keeps its class whatever it quotes,
    and untrusted or system text is already excluded from curated memory.
    """
    if origin != "agent":
        return origin, None
    anchor = derived_from(text, sources, cfg)
    return ("untrusted", anchor) if anchor is not None else (origin, None)
