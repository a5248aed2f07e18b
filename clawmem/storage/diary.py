"""The ``DREAMS.md`` format, written and read in one place.

``DREAMS.md`` is the human-readable diary of every change to curated memory (dream sweeps,
owner promotes, user-model changes, forgets, repairs). It is append-only apart from forget's
redaction, and its shape is::

    ## 2026-12-01 03:00 — dream sweep        <- a section: local time, " — ", a title

    Promoted (2):                            <- a group: a capitalised label and a count
    - Deploys go to fly.io (sources: memory/2026-11-30.md#L4)
    - [forgotten on 2026-12-01]              <- an item forget redacted

Writers compose body lines with ``group`` and ``item``; ``append`` adds a section;
``sections`` is the one parser: each section with its items and other lines (the review report
reads it), and ``items`` every item with its section and group (``audit`` traces curated lines
to the sweep that wrote them); ``redact`` rewrites items that quote forgotten text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import local_now
from clawmem.storage.durable import append_durably, atomic_write
from clawmem.storage.workspace import Workspace

SECTION = re.compile(r"^## (?P<when>.+?) — (?P<title>.+?)\s*$")
GROUP = re.compile(r"^(?P<label>[A-Z][a-z]+) \(\d+\):\s*$")
SOURCES = re.compile(r"\s+\(sources: [^()]*\)\s*$")
ITEM = "- "


def sources(anchors: Sequence[str]) -> str:
    """The `` (sources: a, b)`` suffix an item cites its evidence with (empty without any)."""
    return f" (sources: {', '.join(anchors)})" if anchors else ""


def group(label: str, count: int) -> str:
    """A group heading: ``Promoted (3):``."""
    return f"{label} ({count}):"


def append(ws: Workspace, title: str, body_lines: Iterable[str]) -> None:
    """Append a dated section under the diary's lock (durably: a crash never tears a section)."""
    stamp = local_now().strftime("%Y-%m-%d %H:%M")
    section = [f"\n## {stamp} — {title}\n\n", *(line if line.endswith("\n") else line + "\n" for line in body_lines)]
    with ws.lock_file(ws.dreams_md):
        append_durably(ws.dreams_md, "".join(section).encode())


@dataclass(frozen=True)
class Section:
    """One ``## when — title`` section as written: its items and its other lines."""

    when: str
    title: str
    items: tuple[tuple[str | None, int, str], ...]  # (group label as written, None outside a group; line number; the item after "- ")
    notes: tuple[str, ...]  # every other non-blank line outside a group, as written (an item outside a group too)

    def groups(self) -> dict[str, list[str]]:
        """The grouped items by label, as written (sources suffix kept)."""
        found: dict[str, list[str]] = {}
        for label, _, text in self.items:
            if label is not None:
                found.setdefault(label, []).append(text)
        return found


def sections(ws: Workspace) -> list[Section]:
    """Every section of the diary in file order (none when there is no diary yet): the one parser.

    A group runs from its heading to the next heading, section or line that is not an item."""
    try:
        lines = ws.dreams_md.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    found: list[tuple[str, str, list[tuple[str | None, int, str]], list[str]]] = []  # when, title, items, notes
    label: str | None = None
    for number, line in enumerate(lines, 1):
        if (head := SECTION.match(line)) is not None:
            found.append((head["when"], head["title"], [], []))
            label = None
        elif not found or not line.strip():
            continue
        elif (heading := GROUP.match(line)) is not None:
            label = heading["label"]
        elif line.startswith(ITEM):
            found[-1][2].append((label, number, line[len(ITEM):]))
            if label is None:
                found[-1][3].append(line)
        else:
            found[-1][3].append(line)
            label = None
    return [Section(when, title, tuple(items), tuple(notes)) for when, title, items, notes in found]


@dataclass(frozen=True)
class Item:
    """One ``- `` line, with the section and group it sits in."""

    when: str
    title: str
    label: str | None  # the group label, lower-cased; None outside a group
    line: int
    text: str  # without the leading "- " and the sources suffix


def items(ws: Workspace) -> list[Item]:
    """Every item of every section, in file order (``sections``)."""
    return [
        Item(s.when, s.title, label.lower() if label else None, number, SOURCES.sub("", text))
        for s in sections(ws) for label, number, text in s.items
    ]


def redact(ws: Workspace, quotes_forgotten: Callable[[str], bool], stamp: str) -> int:
    """Replace every item ``quotes_forgotten`` matches with ``- [forgotten on <stamp>]``; the count."""
    path = ws.dreams_md
    if not path.exists():
        return 0
    with ws.lock_file(path):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        count = 0
        for i, line in enumerate(lines):
            stripped = line.lstrip()
            if not stripped.startswith(ITEM) or "[forgotten" in stripped or not quotes_forgotten(stripped):
                continue
            indent = line[: len(line) - len(stripped)]
            lines[i] = f"{indent}{ITEM}[forgotten on {stamp}]" + line[len(line.rstrip("\r\n")):]
            count += 1
        if count:
            atomic_write(path, "".join(lines).encode())
    return count
