"""Supersession without a key: a plain-language update retires the fact it replaces.

People rarely tag an update with a supersession key; they say "we moved deploys from fly.io to
render", "we no longer use Redis", "use pnpm instead of npm". ``parse`` reads such a statement
as an ``Update``: the value it retires (``old``), the one that replaces it (``new``, when said)
and its subject (the other topic words: "deploys"). ``retires`` decides whether an older text
states the retired value of the same subject: it names ``old`` as a word, does not itself
name ``new`` (the update itself, or a line already saying both, stays), and shares a subject
word when the update has one ("deploys" ~ "deploy", by a shared prefix). A new value for a named
attribute with the old one unsaid ("we bumped MSRV to 1.80") retires a line that gives that
attribute another value of the same shape, a few words after it ("Tokio everywhere, MSRV 1.74").

Deterministic and narrow on purpose: "now" or "instead" without the old value named is not
read as an update, because guessing which fact it replaces would retire the wrong one. A key
still supersedes exactly (``consolidate.builtin``); this covers the statements without one.
Dreaming uses it twice: at the gate (a staged candidate an update retires is excluded) and in
consolidation (a ``MEMORY.md`` line it retires is removed, recorded in the diary).
"""

from __future__ import annotations

import re

from clawmem.dream.text import content_words, sentences, words
from clawmem.entries.words import STOPWORDS
from clawmem.foundation.records import dataclass

VALUE = r"[\w./:@+#-]+(?:\s+(?-i:[A-Z0-9])[\w./:@+#-]*){0,2}"  # "render", "GitHub Actions", "Postgres 16"
PATTERNS = (
    re.compile(
        r"\b(?:moved|moving|switched|switching|migrated|migrating|changed|changing|went|transitioned|upgraded|downgraded|"
        rf"ported|swapped|replaced)\b(?P<subject>.{{0,60}}?)\bfrom\s+(?P<old>{VALUE})\s+(?:to|over to|onto|for|with)\s+(?P<new>{VALUE})",
        re.IGNORECASE,
    ),
    re.compile(rf"\breplaced\s+(?P<old>{VALUE})\s+(?:with|by)\s+(?P<new>{VALUE})(?P<subject>.{{0,40}})", re.IGNORECASE),
    re.compile(rf"(?P<subject>.{{0,40}}?)\b(?P<new>[\w./:@+#-]+)\s+instead of\s+(?P<old>{VALUE})", re.IGNORECASE),
    re.compile(
        rf"(?P<subject>.{{0,40}}?)\bno longer\s+(?:use[sd]?|using|run[s]?|runs? on|on|in|at|with|deploys? (?:to|on)|goes? to|lives? (?:in|on)|"
        rf"works? (?:at|for|with)|has|have)\s+(?P<old>{VALUE})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<subject>.{{0,40}}?)\b(?:stopped|stopping|quit|quitting|dropped|dropping|ditched|ditching|got rid of|getting rid of|"
        rf"cancell?(?:ed|ing)|retir(?:ed|ing)|abandon(?:ed|ing)|"
        rf"moved (?:off|away from)|moving (?:off|away from)|(?:switch(?:ing|ed)?|turn(?:ing|ed)?|shut(?:ting)?) (?:off|down)|"
        rf"decommission(?:ing|ed)?|sunset(?:ting|ted)?)\s+(?:using\s+)?(?:(?:the|our|their|its|his|her|my)\s+)?(?:(?:old|legacy|former|previous|current)\s+)?(?P<old>{VALUE})",
        re.IGNORECASE,
    ),
)
# words of an update that say it is one, or when and how it was announced, not what it is about
UPDATE_WORDS = frozenset(
    """
    moved moving switched switching migrated migrating changed changing went transitioned upgraded downgraded ported swapped
    replaced bumped raised lowered increased decreased reduced pinned updated
    instead longer stopped stopping quit quitting dropped dropping ditched ditching rid off away down switch turn turned turning shut shutting
    cancelled canceled cancelling canceling retired retiring abandoned abandoning
    decommissioned decommissioning sunset sunsetting over onto week month year day days weeks months years ago last since
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
    october november december said user assistant weekend
    heads fyi btw quick update news morning afternoon evening tonight earlier recently lately finally officially
    """.split()  # noqa: SIM905
)
REASON = re.compile(r"\s[—–-]\s|\b(?:because|since)\b|;", re.IGNORECASE)  # why, after what changed
RESOLVED_DATE = re.compile(r"^\d{4}(?:-\d{2}){1,2}$")  # "this week (the week of 2026-11-16)": when, not what it is about
STEM = 4  # "deploys" and "deploy" share a subject when their first letters agree this far


# "we bumped MSRV to 1.80", "moved the nightly report to 23:30", "upgraded Postgres to 16": a new
# value for a named attribute, the old one unsaid. Narrow on purpose: the new value has a digit
# (a version, a port, a time, a duration), so the value it replaces can be recognised by its shape.
NEW_VALUE = re.compile(
    r"\b(?:bumped|raised|lowered|upgraded|downgraded|changed|moved|increased|decreased|reduced|pinned|updated)\s+"
    r"(?:(?:the|our|its|their)\s+)?(?P<attribute>[a-z][\w.-]*(?:\s+[a-z][\w.-]*)?)\s+to\s+(?P<new>v?\d[\w.:+-]*)",
    re.IGNORECASE,
)
# "we bumped to Go 1.24", "upgraded everything to Postgres 17": the thing named after "to", then
# its new value (not a count of time: "moved to Berlin 3 weeks ago" gives Berlin no value)
NAMED_NEW_VALUE = re.compile(
    r"\b(?:bumped|upgraded|downgraded|moved|updated|switched|migrated|went)\s+(?:(?:up|over|everything|it|us|all)\s+)?to\s+"
    r"(?P<attribute>[a-z][\w+#-]*)\s+(?P<new>v?\d[\w.+-]*)(?!\s*(?:days?|weeks?|months?|years?|hours?|minutes?|mins?|am|pm|%|x|times)\b)",
    re.IGNORECASE,
)
# words that name no attribute on their own: "bumped the port to 8081" does not say which port
GENERIC_ATTRIBUTE = frozenset(
    ("version", "number", "value", "setting", "default", "minimum", "maximum", "limit", "port", "timeout", "interval", "time", "schedule", "size")
)
VALUE_NEAR = 4  # words between an attribute and its value in an older line ("the report runs at 23:00")
SHAPE = re.compile(r"\d+")
TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Update:
    """A statement that a value was replaced: ``old`` is retired for ``subject``; with no ``old``
    said, any other value of the same shape given to ``attribute`` is."""

    old: str | None
    new: str | None
    subject: frozenset[str]
    attribute: frozenset[str] = frozenset()


VALUE_EDGE = " .,;:!?\"'()[]"  # what surrounds a value in a sentence, not part of it


def _value(text: str) -> str:
    return text.strip(VALUE_EDGE).casefold()


def _subject(text: str, values: set[str]) -> frozenset[str]:
    """What the update is about: its content words, without the update's own, its values, and the
    reason given after it ("we cancelled Codemagic — too pricey for two people" is about Codemagic)."""
    value_words = {w for v in values for w in words(v)}
    said = REASON.split(text, maxsplit=1)[0]
    return frozenset(w for w in content_words(said) - STOPWORDS - UPDATE_WORDS - value_words if not w.isdigit() and not RESOLVED_DATE.match(w))


def parse(text: str) -> Update | None:
    """The update ``text`` states, if it states one: the first of its sentences that states one
    (a value never runs on into the next sentence: "… switching off the SFTP. As of today …")."""
    return next((u for u in map(_parse_sentence, sentences(text)) if u is not None), None)


def _parse_sentence(text: str) -> Update | None:
    """What changed is said before the reason: "We bumped MSRV to 1.80 — we want LazyLock instead
    of once_cell" bumps the MSRV (the reason's own change is read only when nothing before it is one)."""
    said = REASON.split(text, maxsplit=1)[0]
    return _parse_clause(said) or (_parse_clause(text) if said != text else None)


def _parse_clause(text: str) -> Update | None:
    for pattern in PATTERNS:
        match = pattern.search(text)
        if match is None:
            continue
        old = _value(match["old"])
        new = _value(match["new"]) if "new" in match.groupdict() and match["new"] else None
        if not old or old in STOPWORDS or old == new:
            continue
        return Update(old, new, _subject(text, {old, new or ""}))
    match = NEW_VALUE.search(text) or NAMED_NEW_VALUE.search(text)
    if match is None:
        return None
    attribute = frozenset(w for w in words(match["attribute"]) if w not in STOPWORDS and w not in GENERIC_ATTRIBUTE and w not in UPDATE_WORDS)
    new = _value(match["new"]).removeprefix("v")
    return Update(None, new, _subject(text, {new}), attribute) if attribute else None


def _names(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` as a word or as a part of an identifier (``VELONET_SFTP_USER``
    names "sftp"), never inside a longer word ("npm" is not in "pnpm") or a dotted name."""
    return re.search(rf"(?<![^\W_]|[.-]){re.escape(value)}(?![^\W_]|-|\.[^\W_])", text.casefold()) is not None


def _shares_subject(update: Update, text: str) -> bool:
    if not update.subject:
        return True
    theirs = {w[:STEM] for w in content_words(text)}
    return any(w[:STEM] in theirs for w in update.subject)


def retires(update: Update, text: str) -> bool:
    """True when ``text`` states the value ``update`` retires, for the same subject."""
    if update.new and _names(text, update.new):
        return False
    if update.old is None:
        return _old_value(update, text) is not None
    return _names(text, update.old) and _shares_subject(update, text)


def _old_value(update: Update, text: str) -> re.Match[str] | None:
    """Where ``text`` gives an attribute of ``update`` another value shaped like its new one ("MSRV
    1.74" for "bumped MSRV to 1.80", "runs at 23:00" for "moved the report to 23:30")."""
    shape = SHAPE.sub("9", update.new or "")
    tokens = list(TOKEN.finditer(text))
    for i, token in enumerate(tokens):
        if any(w in update.attribute for w in words(token[0])):
            for near in tokens[i + 1 : i + 2 + VALUE_NEAR]:
                value = _value(near[0]).removeprefix("v")
                if SHAPE.search(value) and SHAPE.sub("9", value) == shape and value != update.new:
                    return near
    return None


def restated(update: Update, text: str) -> str | None:
    """``text`` with the value an attribute update retires replaced by the new one ("Go 1.23, chi
    for routing, …" becomes "Go 1.24, chi for routing, …"), so a line holding other facts keeps
    them; None when the update names the old value (that line is retired whole) or ``text``
    gives the attribute no other value."""
    if update.old is not None or not update.new or (found := _old_value(update, text)) is None:
        return None
    token = found[0]
    core = token.strip(VALUE_EDGE)  # as written: a casefolded copy may differ in length ("ß" is "ss")
    start = found.start() + len(token) - len(token.lstrip(VALUE_EDGE))
    prefix = core[:1] if core[:1] in ("v", "V") else ""
    return text[:start] + prefix + update.new + text[start + len(core) :]
