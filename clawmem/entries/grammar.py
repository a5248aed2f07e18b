"""Parse and render memory files: one entry per list item, metadata as trailing comments.

A parsed file keeps every line's exact bytes, so rendering an unchanged document gives the
file back byte for byte; only blocks a caller replaces are re-rendered.

    - Keep the gateway on loopback. <!-- trigger: gateway setup --> <!-- importance: 9 -->
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from clawmem.entries import lines as line_model
from clawmem.foundation import timeparse
from clawmem.foundation.records import dataclass, field

KNOWN_KEYS = ("trigger", "importance", "project", "source", "key", "observed", "status", "review")
STATUSES = ("active", "superseded")

LIST_ITEM = re.compile(r"^(?P<indent> {0,3})(?P<marker>[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
TRAILING_COMMENT = re.compile(r"[ \t]*(<!--(?:(?!-->).)*?-->)[ \t]*$", re.S)
KEY_VALUE = re.compile(r"^<!--\s*(?P<key>[A-Za-z][\w-]*)\s*:\s*(?P<value>.*?)\s*-->$", re.S)
UNESCAPED_SEMICOLON = re.compile(r"(?<!\\);")


@dataclass
class Block:
    """A run of source lines: ``frontmatter``, ``heading``, ``entry``, ``text`` or ``blank``."""

    kind: str
    line_start: int  # 1-based, inclusive
    lines: list[str]

    @property
    def line_end(self) -> int:
        return self.line_start + len(self.lines) - 1

    @property
    def raw(self) -> str:
        return "".join(self.lines)


@dataclass
class Entry(Block):
    """A list item with its body text and trailing metadata comments."""

    marker: str = "-"
    body: str = ""
    comments: list[str] = field(default_factory=list)

    @property
    def meta(self) -> list[tuple[str, str]]:
        """Every ``<!-- key: value -->`` comment in file order (unknown keys included)."""
        pairs = []
        for comment in self.comments:
            match = KEY_VALUE.match(comment)
            if match:
                pairs.append((match["key"].lower(), match["value"]))
        return pairs

    def values(self, key: str) -> list[str]:
        return [value for k, value in self.meta if k == key]

    def first(self, key: str) -> str | None:
        found = self.values(key)
        return found[0] if found else None

    @property
    def importance(self) -> int | None:
        raw = self.first("importance")
        if raw is None or not re.fullmatch(r"\d{1,2}", raw.strip()):
            return None
        value = int(raw)
        return value if 1 <= value <= 10 else None

    @property
    def triggers(self) -> list[str]:
        phrases: list[str] = []
        for raw in self.values("trigger"):
            phrases.extend(p.strip() for p in re.split(r"[,;]", raw) if p.strip())
        return phrases

    @property
    def projects(self) -> list[str]:
        keys: list[str] = []
        for raw in self.values("project"):
            keys.extend(k.strip() for k in UNESCAPED_SEMICOLON.split(raw) if k.strip())
        return keys

    @property
    def key(self) -> str | None:
        return self.first("key")

    @property
    def status(self) -> str | None:
        raw = self.first("status")
        return raw if raw in STATUSES else None

    @property
    def sources(self) -> list[str]:
        return self.values("source")

    @property
    def observed(self) -> str | None:
        return self.first("observed")

    def problems(self) -> list[str]:
        """Malformed annotations (``audit`` reports them; the index treats them as absent)."""
        found = []
        for key, value in self.meta:
            if key == "importance" and self.importance is None:
                found.append(f"importance {value!r} is not an integer from 1 to 10")
            elif key == "status" and value not in STATUSES:
                found.append(f"status {value!r} is not active or superseded")
            elif key == "project" and UNESCAPED_SEMICOLON.search(value):
                found.append(f"project {value!r} has an unescaped ';' (write \\; inside a key)")
            elif key in ("observed", "review") and timeparse.parse_when(value) is None:
                found.append(f"{key} {value!r} is not an ISO date or time")
            elif key == "trigger" and not any(p.strip() for p in re.split(r"[,;]", value)):
                found.append("trigger annotation has no phrase")
        if not self.body.strip():
            found.append("entry has no text")
        return found


@dataclass
class Document:
    blocks: list[Block]

    @property
    def entries(self) -> list[Entry]:
        return [b for b in self.blocks if isinstance(b, Entry)]

    def render(self) -> str:
        return "".join(block.raw for block in self.blocks)


def _split_comments(content: str) -> tuple[str, list[str]]:
    comments: list[str] = []
    while True:
        match = TRAILING_COMMENT.search(content)
        if not match:
            return content.rstrip(), comments
        comments.insert(0, match.group(1))
        content = content[: match.start()]


def _entry(lines: list[str], start: int) -> Entry:
    first = line_model.strip_break(lines[0])
    match = LIST_ITEM.match(first)
    assert match
    parts = [first[match.end():]]
    parts.extend(line_model.strip_break(line).strip() for line in lines[1:])
    body, comments = _split_comments("\n".join(parts))
    return Entry("entry", start, lines, marker=match["marker"], body=body.strip(), comments=comments)


def _is_blank(line: str) -> bool:
    return not line.strip()


def parse(text: str) -> Document:
    """Split a Markdown memory file into blocks; never fails, whatever the input."""
    lines = line_model.split(text, keepends=True)
    blocks: list[Block] = []
    i = 0
    if lines and line_model.strip_break(lines[0]) == "---":
        for j in range(1, len(lines)):
            if line_model.strip_break(lines[j]) in ("---", "..."):
                blocks.append(Block("frontmatter", 1, lines[: j + 1]))
                i = j + 1
                break
    while i < len(lines):
        line = lines[i]
        start = i
        if _is_blank(line):
            i += 1
            blocks.append(Block("blank", start + 1, lines[start:i]))
        elif LIST_ITEM.match(line):
            i += 1
            while i < len(lines) and not _is_blank(lines[i]) and lines[i][:1] in (" ", "\t"):
                i += 1
            blocks.append(_entry(lines[start:i], start + 1))
        elif HEADING.match(line):
            i += 1
            blocks.append(Block("heading", start + 1, lines[start:i]))
        else:
            i += 1
            while i < len(lines) and not _is_blank(lines[i]) and not LIST_ITEM.match(lines[i]) and not HEADING.match(lines[i]):
                i += 1
            blocks.append(Block("text", start + 1, lines[start:i]))
    return Document(blocks)


def clean_value(value: str) -> str:
    """Make a metadata value safe inside a comment: one line, no comment delimiters."""
    return " ".join(value.replace("<!--", " ").replace("-->", " ").split())


def escape_project(key: str) -> str:
    """Escape ``;`` so one repository key can never become several."""
    return UNESCAPED_SEMICOLON.sub(r"\\;", clean_value(key))


def render_entry(body: str, meta: Sequence[tuple[str, str]] = (), *, marker: str = "-") -> str:
    """Render one entry; extra lines of ``body`` become indented continuation lines.

    Line-break look-alikes are flattened first, so the file has exactly the lines written.
    """
    lines = [line.strip() for line in line_model.split(line_model.flatten_breaks(body.strip())) if line.strip()]
    text = "\n  ".join(lines)
    comments = "".join(f" <!-- {key}: {clean_value(value)} -->" for key, value in meta if clean_value(value))
    return f"{marker} {text}{comments}\n"
