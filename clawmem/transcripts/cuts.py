"""Oversized tool output is cut and counted, never the reason an owner's session is lost.

One tool result (a build log, a dumped file) can be larger than everything the owner and
the agent said all session. Refusing the transcript for it loses every owner turn, so the
excess is cut instead, in two places, and each cut leaves a visible marker in the text and a
count in the ingest result:

- before parsing, a JSON record longer than ``RECORD_CUT_BYTES`` has each string literal
  longer than ``RECORD_STRING_MAX_CHARS`` shortened in place (the record stays valid JSON,
  and no escape or surrogate pair is split): parsing never holds a huge string;
- after parsing, a tool or function turn keeps its first ``TOOL_RESULT_MAX_CHARS``.

Only what is still too large after both cuts is refused.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypeVar

from clawmem.foundation.config import RECORD_CUT_BYTES, RECORD_STRING_MAX_CHARS, TOOL_RESULT_MAX_CHARS

CUT_ROLES = ("tool", "function")
PARTIAL_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{0,3})?$")  # a backslash or an unfinished \uXXXX at the end
HIGH_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}$")  # the first half of a pair: its second half is cut

T = TypeVar("T")


def marker(chars: int, what: str = "tool output") -> str:
    """The note left where text was cut."""
    return f" […clawmem: {chars:,} characters of {what} cut]"


def _safe_end(literal: str) -> str:
    """``literal`` (JSON string source) without a trailing partial escape or lone high surrogate."""
    while True:
        trimmed = HIGH_SURROGATE.sub("", PARTIAL_ESCAPE.sub("", literal))
        if trimmed == literal:
            return literal
        literal = trimmed


def _trailing_backslashes(text: str, end: int) -> int:
    count = 0
    while end - count - 1 >= 0 and text[end - count - 1] == "\\":
        count += 1
    return count


def cut_record(line: str, limit: int = RECORD_STRING_MAX_CHARS) -> tuple[str, int]:
    """``line`` with every JSON string literal over ``limit`` characters shortened; (line, strings cut).

    Finds the literals with ``str.find`` (no per-character loop over a 100 MB line).
    """
    out: list[str] = []
    cuts = 0
    pos = 0
    while True:
        start = line.find('"', pos)
        if start < 0:
            break
        end = start + 1
        while True:
            end = line.find('"', end)
            if end < 0:
                return line, 0  # an unterminated string: not JSON; the parser says so
            if _trailing_backslashes(line, end) % 2 == 0:
                break
            end += 1
        if end - start - 1 > limit:
            kept = _safe_end(line[start + 1 : start + 1 + limit])
            out.append(line[pos : start + 1] + kept + marker(end - start - 1 - len(kept), "an oversized record") + '"')
            cuts += 1
        else:
            out.append(line[pos : end + 1])
        pos = end + 1
    out.append(line[pos:])
    return ("".join(out), cuts) if cuts else (line, 0)


def cut_records(chunks: list[str]) -> tuple[list[str], int]:
    """Each JSON record over ``RECORD_CUT_BYTES`` with its long strings cut; (records, strings cut)."""
    total = 0
    out = []
    for chunk in chunks:
        if len(chunk) > RECORD_CUT_BYTES:
            chunk, cuts = cut_record(chunk)
            total += cuts
        out.append(chunk)
    return out, total


def cut_oversized(turns: list[T]) -> tuple[list[T], dict[str, int]]:
    """Tool and function turns over ``TOOL_RESULT_MAX_CHARS`` cut to it; (turns, what was cut)."""
    out: list[T] = []
    cut = {"tool results": 0, "characters": 0}
    for turn in turns:
        content: str = getattr(turn, "content")  # noqa: B009  (any dataclass with role and content)
        role: str = getattr(turn, "role")  # noqa: B009
        if role.lower() in CUT_ROLES and len(content) > TOOL_RESULT_MAX_CHARS:
            dropped = len(content) - TOOL_RESULT_MAX_CHARS
            changes: dict[str, Any] = {"content": content[:TOOL_RESULT_MAX_CHARS] + marker(dropped)}
            turn = dataclasses.replace(turn, **changes)  # type: ignore[type-var]
            cut["tool results"] += 1
            cut["characters"] += dropped
        out.append(turn)
    return out, {k: v for k, v in cut.items() if v}


def uncut(turns: list[T]) -> tuple[list[T], dict[str, int]]:
    """The rule before cuts: every turn whole, however large."""
    return turns, {}
