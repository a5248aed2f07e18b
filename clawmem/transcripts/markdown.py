"""Fences in Markdown transcripts: when one opens and closes on reading, and how clawmem writes one.

Hosts put tool output inside a fenced block, and inside a fence no line opens a turn. Tool
output is the attacker's text, so a line of it that *closes* the host's fence would let the
next line open an owner turn. CommonMark closes a fence with any fence line of the same
character that is at least as long; read that way, output holding a longer run (```````` in
a ``` fence, or an unclosed ```````` of its own) closes the host's block early. So a fence
here closes only at a line of exactly its own character and length: a longer or shorter
run inside is content. A fence that never closes runs to the end (no turn opens after it);
the text stays in its turn. A fence opens only on a line of its own (a ``tool: ````` label
line opens none: one line of tool output never swallows the turns after it).

clawmem's own writer (``render``) fences every tool turn with a fence longer than any run of
backticks or tildes inside it, so nothing in the output can close it: ``fence_for``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})")
RUNS = re.compile(r"`+|~+")
UNTRUSTED_ROLES = ("tool", "function")


def opens_fence(line: str) -> str | None:
    """The fence a line opens (its run of backticks or tildes), or None."""
    opened = FENCE.match(line)
    return opened["fence"] if opened else None


def commonmark_closes(fence: str, line: str) -> bool:
    """CommonMark's rule: the same character, at least as long, nothing after it."""
    found = FENCE.match(line)
    return found is not None and found["fence"][0] == fence[0] and len(found["fence"]) >= len(fence) and not line[found.end():].strip()


def closes_fence(fence: str, line: str) -> bool:
    """Only a line of exactly the open fence (character and length, nothing after) closes it.

    A longer run is what tool output holds when it tries to end the host's block early:
    it stays content, and so the next line cannot open a turn.
    """
    found = FENCE.match(line)
    return found is not None and found["fence"] == fence and not line[found.end():].strip()


def fence_for(text: str, char: str = "`") -> str:
    """A fence of ``char`` longer than any run of backticks or tildes in ``text`` (at least three)."""
    longest = max((len(run) for run in RUNS.findall(text)), default=0)
    return char * max(3, longest + 1)


def render(turns: Iterable[tuple[str, str]]) -> str:
    """A Markdown transcript of ``(role, text)`` turns that reads back as exactly these turns.

    Tool output is always fenced (``fence_for``); other turns are fenced too when they hold
    more than one line or could open a fence, so no line of any turn opens another turn.
    """
    out: list[str] = []
    for role, text in turns:
        lines = text.split("\n")
        if role.lower() not in UNTRUSTED_ROLES and len(lines) == 1 and opens_fence(text) is None:
            out.append(f"{role}: {text}".rstrip())
            continue
        fence = fence_for(text)
        out += [f"{role}:", fence, *lines, fence]
    return "\n".join(out) + "\n"
