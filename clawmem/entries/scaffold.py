"""One normaliser of conversational scaffolding, applied before anything judges a text.

Real chat exports and transcripts wrap what a person said in machinery: a speaker label
(``Mel:``, ``**Jon**:``, ``<mel>``), a timestamp (``[12:03]``, ``2023-05-08 13:56``), a
bracketed message id (``[D1:3]``, ``[#482]``), quote markers (``>``). A rule that judges the
text with the machinery still on misreads it: ``Mel: Thanks!`` names "Mel", so it looked like
information. ``strip`` takes the machinery off the front (the speaker it names is kept apart,
for attribution), and ``record`` says when a text is not speech at all: a tool-call record,
JSON, or a code or configuration fragment. Those stay searchable in the episodic tier; they
are never curated unless an owner writes them into a note by hand.

Dreaming (evidence units, worth rules, trigger phrases, the curated line), the curation
benchmark and trigger derivation all read text through this module, so one prefix format
cannot fool one rule and not another.
"""

from __future__ import annotations

import re

from clawmem.foundation.records import dataclass

# Labels that look like "Name:" but introduce content rather than name a speaker.
NOT_SPEAKERS = frozenset(
    """
    note notes error errors warning warnings fix fixes fixed update updates todo reminder tip tips ps nb fyi edit answer
    question q a summary result results status step steps solution cause example examples info hint important caveat fact
    facts decision decisions context why how what when where who which tldr tl;dr re subject title problem issue symptom
    workaround outcome goal plan next output input command usage expected actual reason source sources update
    project projects stack background setup task tasks repo repository goals deadline constraints requirements scope
    priority details description overview architecture environment env config version versions release deploy bug
    feature features tests test build ci docs changelog heads-up headsup aside also btw
    """.split()  # noqa: SIM905
)
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?"
_DATE = r"\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
_STAMP = rf"(?:(?:{_DATE})(?:[ T,]+{_TIME}(?:Z|[+-]\d{{2}}:?\d{{2}})?)?|{_TIME})"
# One leading piece of machinery at a time; ``strip`` loops until nothing more comes off.
TIMESTAMP = re.compile(rf"^(?:[\[(]\s*(?:[A-Za-z]{{3}},?\s+)?{_STAMP}\s*[\])]|{_STAMP})\s*(?:[-–—|:,]\s*)?", re.IGNORECASE)
BRACKET_ID = re.compile(r"^(?:\[\s*#?(?=[\w.:/-]*\d)[\w.:/-]{1,24}\s*\]|\(\s*#?\d{1,12}\s*\)|<@[\w.-]{1,32}>|#\d{1,12}\b)\s*(?:[-–—|:,]\s*)?")
QUOTE = re.compile(r"^(?:>+|»|&gt;)\s*")  # quote markers: a quoted chat line still names its speaker
BULLET = re.compile(r"^(?:[-*•]\s|\d{1,2}[.)]\s)\s*")  # list bullets: "1. **Caching**: use …" labels an item, not a speaker
# "**Documentation:** keep it current": the colon inside the emphasis makes a section label, never
# a speaker (a chat export bolds the name only: "**Jon**: hi")
SECTION_LABEL = re.compile(r"^(\*\*|__)[^*_\n]{1,40}?[:：]\s*\1")
LABEL = re.compile(r"^(?:\*\*|__)?(?P<who>[^\W\d_][\w.'’ -]{0,38}?)(?:\*\*|__)?\s*[:：](?!//)\s*(?=\S)")
IRC = re.compile(r"^<(?P<who>[^\W\d_][\w.'-]{0,30})>\s+")
ROLES = frozenset(("user", "assistant", "system", "tool", "developer", "function", "human", "ai", "bot", "me", "you"))
LABEL_WORDS = 3  # "Mary Ann Lee:" is a name; "The build failed on arm64:" is a sentence
# words a name may end with a full stop before the next part: titles ("Dr. Lee"); initials
# ("Mary J. Blige") may too. Any other word and its stop end a sentence ("Hi. Project: rivet")
NAME_ABBREVIATIONS = frozenset(("dr", "mr", "mrs", "ms", "mx", "st", "jr", "sr", "prof", "rev", "fr", "capt", "col", "gen", "sgt", "lt"))

# dreaming's own attribution of a unit to its speaker (``standalone.attribute``)
ATTRIBUTION = re.compile(r"^(?P<who>[^:\n]{1,40}) said: ")
TOOL_CALL = re.compile(
    r"\bmcp__[\w-]+|\bfunctions\.\w+\s*\(|<\s*/?\s*(?:tool_use|tool_call|function_call|invoke|antml)\b|"
    r"^(?:tool (?:call|use|result)|calling tool|function call)\b|"
    r"^(?:Bash|Read|Edit|MultiEdit|Write|Grep|Glob|LS|WebFetch|WebSearch|Task|TodoWrite|NotebookEdit|shell|exec_command|apply_patch|"
    r"update_plan|container\.exec)\s*[({]",
    re.IGNORECASE,
)
JSON_START = re.compile(r"^\s*(?:\{\s*\"|\[\s*[{\"\[]|\[\s*\]|\{\s*\})")
JSON_PAIRS = re.compile(r"\"[\w$.-]{1,40}\"\s*:")
CODE_START = re.compile(
    r"^\s*(?:```|~~~|\$ |# |>>> |\.\.\. |def |class |import |from \S+ import |function |const |let |var |return |#include|"
    r"package |public |private |fn |pub fn |SELECT |INSERT |UPDATE \w+ SET|CREATE TABLE|\[[\w.-]+\]\s*$|[\w.-]+\s*=\s*[\"'\[{\d])"
)
# Output a program printed, pasted into a turn: diff lines, compiler and log lines, stack frames.
OUTPUT = re.compile(
    r"^\s*(?:[+-](?![+-]?\s*\d)\S|[+-]\s+[\w.-]+\s*[:=]\s|\*\*\* |@@ |= note:|(?:error|warning|note|help|fatal|panic|traceback|exception|caused by)(?:\[\w+\])?:|"
    r"at [\w$.<>]+\(|file \".*\", line \d+|collect2:|[\w./-]+\.\w+:\d+(?::\d+)?:|\w+(?:Error|Exception):|(?-i:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b|traceback \(most recent|"
    r"thread '.*' panicked|\d+ (?:passed|failed)\b|(?-i:[A-Z]{2,}(?: [A-Z]{2,})*):|\d+: 0x[0-9a-f]+|.*\b0x[0-9a-f]{6,}\b|aborted \(core dumped\))",
    re.IGNORECASE,
)
CODE_SYMBOLS = re.compile(r"[{}();=<>\[\]|&$\\]")
SYMBOL_SHARE = 0.08  # code and config run above this share of symbol characters; prose stays below
MIN_SYMBOLS = 4


@dataclass(frozen=True)
class Stripped:
    """``text`` without leading machinery; ``speaker`` is the name a label gave, if any."""

    text: str
    speaker: str | None = None


def _label(text: str) -> re.Match[str] | None:
    """A leading speaker label, when it names someone rather than introducing content."""
    irc = IRC.match(text)
    if irc is not None:
        return irc
    match = LABEL.match(text)
    if match is None or SECTION_LABEL.match(text):
        return None
    who = match["who"].strip()
    if len(who) > 1 and who.isupper():
        return None  # "FATAL ERROR:", "WARNING:": a program's level, not a person
    parts = who.split()
    if not parts or len(parts) > LABEL_WORDS or who.casefold() in NOT_SPEAKERS or parts[0].casefold() in NOT_SPEAKERS:
        return None
    # a name is capitalised word by word ("Mary Ann"); lower case only for a role ("user")
    if who.casefold() not in ROLES and not all(p[:1].isupper() for p in parts):
        return None
    if any(_ends_sentence(p) for p in parts[:-1]):
        return None  # a sentence ends inside it: the colon belongs to the next sentence's content
    return match


def _ends_sentence(word: str) -> bool:
    """Whether a word of a would-be name ends a sentence: a full stop after anything but a title
    or initials ("Dr.", "J.", "J.R.R.")."""
    if not word.endswith("."):
        return False
    stem = word[:-1]
    return stem.casefold() not in NAME_ABBREVIATIONS and not all(len(piece) == 1 for piece in stem.split("."))


def strip(text: str, *, labels: bool = True) -> Stripped:
    """``text`` without its leading timestamps, message ids, quote markers and speaker label.

    At most one speaker label comes off (``Mel: Jon: hi`` keeps ``Jon: hi``, a quote of Jon);
    the rest may come in any order and number. ``labels=False`` keeps a label: in a note,
    "Database: Postgres 16" is a heading of content, not a speaker; so does a list bullet, whose
    label names the item ("2. **Static Files**: serve them …")."""
    speaker = None
    previous = None
    text = text.strip()
    while text != previous:
        previous = text
        for pattern in (TIMESTAMP, BRACKET_ID, QUOTE):
            text = pattern.sub("", text, count=1)
        bare = BULLET.sub("", text, count=1)
        labels, text = labels and bare == text, bare
        if labels and speaker is None:
            match = _label(text)
            if match is not None:
                speaker, text = match["who"].strip(), text[match.end() :]
    return Stripped(text.strip(), speaker)


def record(text: str) -> str | None:
    """Why ``text`` is a record rather than speech (``None``: it reads as speech)."""
    body = text.strip()
    if not body:
        return None
    if TOOL_CALL.search(body):
        return "a tool-call record"
    if JSON_START.match(body) or len(JSON_PAIRS.findall(body)) >= 2:
        return "JSON, not speech"
    if OUTPUT.match(body):
        return "program output, not speech"
    symbols = len(CODE_SYMBOLS.findall(body))
    if CODE_START.match(body) or (symbols >= MIN_SYMBOLS and symbols / len(body) > SYMBOL_SHARE):
        return "a code or configuration fragment"
    return None


def speech(text: str) -> str:
    """What was said, machinery off (clawmem's own ``X said:`` too): the form every judgement starts from."""
    return unattributed(strip(text).text)


def unattributed(text: str) -> str:
    """``text`` without the attribution prefix dreaming adds (``Caroline said: …``)."""
    return ATTRIBUTION.sub("", text, count=1)


def attributed_to(text: str) -> str | None:
    """Who a staged unit is attributed to (None: nobody named)."""
    match = ATTRIBUTION.match(text)
    return match["who"] if match else None
