"""The one line model of every memory file, shared by every reader and writer.

A line ends at ``\\n`` and nowhere else (a ``\\r`` just before it belongs to the break).
Python's ``str.splitlines`` also breaks at ``\\r``, ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``,
NEL, U+2028 and U+2029; if a reader split there while writers split at ``\\n``, text that a
writer kept inside one line (a tool turn, an untrusted note) could start a new line for the
reader: a forged turn label, list item or annotation. So readers split with ``split`` and
writers pass incoming text through ``flatten_breaks`` first, and both agree by construction.
"""

from __future__ import annotations

import re

from clawmem.foundation.digest import sha256_hex

# Every character ``str.splitlines`` treats as a line boundary, except "\n" itself.
LOOKALIKE_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_LOOKALIKE = re.compile(f"[{re.escape(LOOKALIKE_BREAKS)}]")


# A Markdown code fence (``` or ~~~ at any indentation: turns nest it in lists). Writers keep the
# line although it holds no word, so readers know where code starts and ends.
FENCE = re.compile(r"^\s*(?P<mark>```|~~~)")


def fence(line: str) -> str | None:
    """The fence mark a line opens or closes code with (``` or ~~~), or None."""
    m = FENCE.match(line)
    return m["mark"] if m else None


def split(text: str, *, keepends: bool = False) -> list[str]:
    """Split at ``\\n`` only; without ``keepends`` a ``\\r`` before the break is dropped too."""
    if not text:
        return []
    parts = text.split("\n")
    last = parts.pop()
    if keepends:
        return [p + "\n" for p in parts] + ([last] if last else [])
    lines = [p[:-1] if p.endswith("\r") else p for p in parts]
    return lines + ([last] if last else [])


def flatten_breaks(text: str) -> str:
    """Incoming text: ``\\r\\n`` becomes ``\\n``; every other line-boundary look-alike a space."""
    return _LOOKALIKE.sub(" ", text.replace("\r\n", "\n"))


def strip_break(line: str) -> str:
    """A line without its ``\\n`` (or ``\\r\\n``) ending."""
    if line.endswith("\n"):
        line = line[:-1]
    return line[:-1] if line.endswith("\r") else line


def line_key(line: str) -> str:
    """A stable key for one source line (its stripped text), used to mark torn lines."""
    return "line:" + sha256_hex(line.strip().encode("utf-8", "surrogatepass"))[:24]
