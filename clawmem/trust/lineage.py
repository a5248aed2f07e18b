"""Lineage taint: agent text made after untrusted or system content entered its context.

The spec's named follow-up to content origin. Wording similarity catches an agent that quotes
a web page; it misses one that translates it, defangs its URL or swaps letters for look-alikes.
Lineage does not read the text at all: within a session, every tool result, fetched page,
system or host-injected record, and untrusted hit clawmem returned, *exposes* the agent; each
agent turn after an exposure and before the owner's next typed turn is **untrusted-derived**,
whatever its words (its ``derived_from`` names the first exposure).

The owner's next typed turn closes the window: what the agent says afterwards answers the
owner. Only the owner lifts a derived turn: a typed turn that endorses what the agent just said
(``endorses``: "that worked", "ok, after make clean it links", "yes, remember that") makes the agent's last derived text turn
before it (a statement the owner read: not a tool call, not a sub-agent's turn) the agent's own again (``Verdict.lifted_by`` names the endorsement), and
``clawmem promote`` lifts any line by hand. Thanks alone is politeness, not endorsement.

``verdicts`` is the one rule; ingestion and note writers only describe turns to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from clawmem.entries import scaffold
from clawmem.foundation.records import dataclass
from clawmem.trust import provenance

# An owner's typed affirmation of what the agent just said: a request to keep it, a verdict on
# it, or a report that it worked ("ok, after make clean it links"), in the turn's first sentence
# and without a negation there ("it still fails", "that didn't work"). Politeness alone
# ("thanks!") endorses nothing.
KEEP = re.compile(
    r"\b(?:remember|keep|save|note|write down|write)\s+(?:that|this|it)\b|"
    r"^(?:\W*(?:yes|yep|yeah|ok|okay)\W+)*(?:correct|exactly|confirmed|right|true)\b",
    re.IGNORECASE,
)
SUCCESS = re.compile(
    r"\b(?:works|worked|working|links|linked|builds|built|compiles|compiled|passe[sd]|runs|ran|fixed|solved|did it|"
    r"did the trick|green|is (?:right|correct)|that'?s (?:it|right|correct)|looks (?:good|right|correct)|lgtm)\b",
    re.IGNORECASE,
)
NEGATION = re.compile(r"\b(?:not|no|never|nothing|still|again|fails?|failed|failing|broken|n't)\b|n't\b|\?", re.IGNORECASE)
FIRST_SENTENCE = re.compile(r"^.*?(?:[.!?](?=\s|$)|$)", re.DOTALL)


@dataclass(frozen=True)
class TurnView:
    """What lineage needs of a turn: its sender class, whether the owner typed it, a name for it."""

    sender: str  # owner / agent / system / untrusted
    text: str
    anchor: str
    typed: bool = False  # owner turns: the person typed it (not a host-injected record)
    says: bool = True  # agent turns: a statement the owner reads (not a tool call or a sub-agent's turn)


@dataclass(frozen=True)
class Verdict:
    derived_from: str | None = None  # the exposure an agent turn inherits
    lifted_by: str | None = None  # the owner's endorsement that lifted it


def endorses(text: str) -> bool:
    """Does an owner's typed turn affirm what the agent just said (module doc)?"""
    first = FIRST_SENTENCE.match(scaffold.speech(text).strip())
    sentence = first[0] if first else ""
    if NEGATION.search(sentence):
        return False
    return bool(KEEP.search(sentence) or SUCCESS.search(sentence))


def verdicts(turns: Sequence[TurnView], exposed_by: str | None = None) -> list[Verdict]:
    """THE lineage rule: each turn's verdict, in order (module doc).

    ``exposed_by`` names an exposure already open when the first turn begins (an untrusted hit
    returned in this session before the transcript's first turn, say)."""
    out = [Verdict() for _ in turns]
    exposure = exposed_by
    last_derived: int | None = None
    for i, turn in enumerate(turns):
        if turn.sender == "owner" and turn.typed:
            if last_derived is not None and endorses(turn.text):
                out[last_derived] = Verdict(out[last_derived].derived_from, turn.anchor)
            exposure, last_derived = None, None
        elif provenance.untrusted_class(turn.sender):  # text the agent must not launder
            exposure = exposure or turn.anchor
        elif turn.sender == "agent" and exposure is not None:
            out[i] = Verdict(exposure)
            last_derived = i if turn.says and turn.text.strip() else last_derived
    return out


def open_exposure(turns: Sequence[TurnView]) -> str | None:
    """The exposure still open after ``turns``: what an agent write made right then inherits."""
    return verdicts([*turns, TurnView("agent", "(the write)", "then")])[-1].derived_from
