"""Hand-written bytes of ``MEMORY.md`` survive a rewrite exactly (docs/design.md section 11).

Consolidation works on text: the file decoded with U+FFFD for bytes that are not UTF-8, and
an external model may also normalise what it copies (CRLF to LF, trailing spaces, NFC, the
byte-order mark). ``restore`` encodes a rewrite back to bytes so that every line the rewrite
kept comes back as the original bytes, odd ones included; only added or changed lines are new
bytes, and they take the file's own line ending.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict, deque

from clawmem.entries import lines as line_model

BOM = "\ufeff"


def _split(line: str) -> tuple[str, str]:
    """(content, terminator) by the one line model of every reader and writer (``entries.lines``)."""
    content = line_model.strip_break(line)
    return content, line[len(content) :]


def loose(line: str) -> str:
    """A line as far as meaning goes: no terminator, trailing spaces or BOM; NFC."""
    content, _ = _split(line)
    return unicodedata.normalize("NFC", content.lstrip(BOM)).rstrip()


def _dominant_ending(lines: list[str]) -> str:
    crlf = sum(line.endswith("\r\n") for line in lines)
    return "\r\n" if crlf and crlf * 2 >= len(lines) else "\n"


def restore(original: bytes, new_text: str) -> bytes:
    """``new_text`` as bytes, with every line it kept from ``original`` exactly as it was there."""
    raw_lines = line_model.split(original.decode("utf-8", "surrogateescape"), keepends=True)
    exact: dict[str, deque[int]] = defaultdict(deque)
    similar: dict[str, deque[int]] = defaultdict(deque)
    views = []
    for i, raw in enumerate(raw_lines):
        view = raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        views.append(view)
        exact[view].append(i)
        similar[loose(view)].append(i)
    used: set[int] = set()
    ending = _dominant_ending(views)
    out = []
    for line in line_model.split(new_text, keepends=True):
        kept = _take(exact[line], used) if line in exact else None
        if kept is None and loose(line) in similar:
            kept = _take(similar[loose(line)], used)
        if kept is None:
            content, terminator = _split(line)
            out.append((content + (ending if terminator == "\n" else terminator)).encode())
            continue
        used.add(kept)
        content, terminator = _split(raw_lines[kept])
        if not terminator and _split(line)[1]:
            terminator = ending  # the old last line, now followed by more
        out.append((content + terminator).encode("utf-8", "surrogateescape"))
    return b"".join(out)


def _take(queue: deque[int], used: set[int]) -> int | None:
    while queue and queue[0] in used:
        queue.popleft()
    return queue.popleft() if queue else None
