"""Reading a transcript: its format recognised, its records parsed, its turns cleaned and timed.

Markdown is read here under a strict turn grammar; JSON transcripts by one module per host
format in this package (Claude Code, Codex rollouts, OpenAI messages, clawmem's own JSONL),
recognised by content unless the caller names the format. The turns say which role produced
each one; what that means for trust is decided by ``clawmem.commands.ingest`` and ``clawmem.trust``.
"""

from __future__ import annotations

import datetime as dt
import json
import re

from clawmem.entries import lines as line_model
from clawmem.foundation.errors import BadInput, BadValue
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import check_time_range, from_epoch, parse_when
from clawmem.rules import incoming
from clawmem.rules.inputs import clean_text
from clawmem.transcripts import claude_code, codex, jsonl, markdown, openai_chat
from clawmem.transcripts.cuts import cut_oversized, cut_records
from clawmem.transcripts.model import Block

ROLES = ("user", "assistant", "system", "tool", "developer", "function")
_ROLE = "|".join(ROLES)
# The strict turn grammar of Markdown transcripts: a turn opens only at column 0, with a role
# as a whole word and a colon straight after it, optionally in bold (`user: …`,
# `**assistant:** …`, `**tool**: …`). Headings, indented lines, "username: …" or "Users …"
# open nothing, and inside a ``` or ~~~ fence (where hosts put tool output) no line does.
MD_TURN = re.compile(
    rf"^(?:(?P<plain>{_ROLE}):|\*\*(?P<bold>{_ROLE})\*\*:|\*\*(?P<boldcolon>{_ROLE}):\*\*)(?:[ \t]+(?P<text>.*))?$",
    re.IGNORECASE,
)
FENCE = markdown.FENCE
MAX_JSON_DEPTH = 64  # deeper nesting is refused before parsing (json would recurse until it crashes)
HOSTS = {"claude-code": claude_code, "codex": codex, "openai": openai_chat}  # in the order detection tries them
PARSERS = {**HOSTS, "jsonl": jsonl}  # clawmem's own JSONL: what no host format claims
FORMATS = tuple(PARSERS)


@dataclass(frozen=True)
class Turn:
    role: str
    content: str
    speaker: str | None = None
    at: dt.datetime | None = None
    turn_id: str | None = None
    subagent: bool = False  # a sub-agent's turn: recorded with the ``subagent`` session kind


@dataclass(frozen=True)
class Transcript:
    """A parsed transcript: its turns, and what the format module left out, by kind."""

    format: str
    turns: list[Turn]
    skipped: dict[str, int] = field(default_factory=dict)
    unknown: dict[str, int] = field(default_factory=dict)
    cut: dict[str, int] = field(default_factory=dict)  # oversized tool output cut (``clawmem.transcripts.cuts``)


def _when(value: object, number: int) -> dt.datetime | None:
    """A record's time: epoch seconds or ISO text, within the range clawmem accepts."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return from_epoch(value, f"transcript record {number}: timestamp")
    when = parse_when(value.replace("Z", "+00:00")) if isinstance(value, str) else None
    return check_time_range(when, f"transcript record {number}: time") if when is not None else None


def _check_depth(line: str, number: int) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` before ``json`` recurses into it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_JSON_DEPTH:
        raise BadValue(f"transcript record {number} is nested {deepest} levels deep; the limit is {MAX_JSON_DEPTH}",
                       hint="one flat JSON object per turn with role and content")


def _records(text: str, cut: dict[str, int] | None = None) -> list[object]:
    stripped = text.lstrip()
    chunks = [stripped] if stripped.startswith("[") else [ln for ln in line_model.split(text) if ln.strip()]
    chunks, strings = cut_records(chunks)  # a huge string is cut before json holds it
    if strings and cut is not None:
        cut["oversized strings"] = strings
    records: list[object] = []
    for number, chunk in enumerate(chunks, 1):
        _check_depth(chunk, number)
        try:
            value = json.loads(chunk)
        except ValueError as err:
            raise BadInput(f"transcript is not valid JSONL (record {number}): {err}", hint="one JSON object per line with role and content") from err
        records.extend(value if stripped.startswith("[") and isinstance(value, list) else [value])
    return records


def _turn(block: Block) -> Turn:
    """A block as clawmem stores it: clean text and metadata, a checked time."""
    where = f"transcript record {block.record}"
    return Turn(
        role=block.role.lower(),
        content=clean_text(block.content, where),
        speaker=clean_text(block.speaker, f"{where} speaker") if block.speaker else None,
        at=_when(block.when, block.record),
        turn_id=clean_text(block.turn_id, f"{where} turn id") if block.turn_id is not None else None,
        subagent=block.subagent,
    )


def _detect_records(records: list[object]) -> str:
    return next((name for name, module in HOSTS.items() if module.detect(records)), "jsonl")


def parse_transcript(text: str, fmt: str = "auto") -> Transcript:
    """Parse a transcript in ``fmt`` (``auto``: recognised by its content), turns in order."""
    if fmt not in ("auto", "markdown", *FORMATS):
        raise BadInput(f"unknown transcript format {fmt!r}", hint=f"use one of auto, markdown, {', '.join(FORMATS)}")
    if fmt == "markdown" or (fmt == "auto" and not _looks_like_json(text)):
        turns, cut = cut_oversized(parse_markdown(text))
        return Transcript("markdown", turns, cut=cut)
    cut = {}
    records = _records(text, cut)
    fmt = _detect_records(records) if fmt == "auto" else fmt
    parsed = PARSERS[fmt].parse(records)
    unknown = _clean_counts(parsed.unknown)
    if not parsed.blocks and unknown:
        raise BadInput(
            f"no {fmt} turns in the transcript: {describe_counts(unknown)} of unknown type",
            hint=f"check --format (auto recognises {', '.join(FORMATS)} and markdown)",
        )
    turns, cut_turns = cut_oversized([_turn(b) for b in parsed.blocks])
    return Transcript(fmt, turns, _clean_counts(parsed.skipped), unknown, {**cut, **cut_turns})


def _clean_counts(counts: dict[str, int]) -> dict[str, int]:
    """Skip counts keyed by names read from the input: inert, one line, no control characters."""
    cleaned: dict[str, int] = {}
    for kind, count in counts.items():
        readable = kind.encode("utf-8", "replace").decode()  # a lone surrogate in a type name is not worth refusing the transcript
        name = incoming.clean_value(clean_text(readable, "transcript record type")) or "untyped"
        cleaned[name] = cleaned.get(name, 0) + count
    return cleaned


def describe_counts(counts: dict[str, int]) -> str:
    """``{"thinking": 3, "meta": 1}`` as ``3 thinking, 1 meta`` (most first)."""
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def parse_jsonl(text: str) -> list[Turn]:
    """Turns of a JSONL (or JSON array) transcript in clawmem's own shape (``role``, ``content``).

    The caller decides the session, never the content: a ``session_id`` field in tool or
    untrusted output must not choose (or replace) a transcript.
    """
    return parse_transcript(text, "jsonl").turns


def parse_markdown(text: str) -> list[Turn]:
    """Turns under the strict turn grammar (``MD_TURN``); other lines continue the open turn."""
    turns: list[Turn] = []
    role, lines, fence = None, [], None
    for line in line_model.split(text):
        opened = FENCE.match(line)
        if fence is not None:
            if markdown.closes_fence(fence, line):  # exactly the open fence: a longer run of tool output is content
                fence = None
        elif opened:
            fence = opened["fence"]
        else:
            match = MD_TURN.match(line)
            if match:
                if role:
                    turns.append(Turn(role, "\n".join(lines).strip()))
                role = (match["plain"] or match["bold"] or match["boldcolon"]).lower()
                lines = [match["text"] or ""]
                continue
        if role:
            lines.append(line)
    if role:
        turns.append(Turn(role, "\n".join(lines).strip()))
    if not turns:
        raise BadInput("no turns found in the Markdown transcript", hint="start each turn with 'user:' or 'assistant:' at the start of a line")
    return [Turn(t.role, clean_text(t.content, "transcript")) for t in turns]


def _looks_like_json(text: str) -> bool:
    return text.lstrip().startswith(("{", "["))


def detect_format(text: str) -> str:
    """The format of a transcript, by its content: ``markdown`` or one of ``FORMATS``."""
    return _detect_records(_records(text)) if _looks_like_json(text) else "markdown"
