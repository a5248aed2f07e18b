"""The ``DREAMS.md`` format, written and read in one place.

``DREAMS.md`` is the human-readable diary of every change to curated memory (dream sweeps,
owner promotes, user-model changes, forgets, repairs). It is append-only apart from forget's
redaction, and its shape is::

    ## 2026-12-01 03:00 — dream sweep        <- a section: local time, " — ", a title

    Promoted (2):                            <- a group: a capitalised label and a count
    - Deploys go to fly.io (sources: memory/2026-11-30.md#L4)
    - [forgotten on 2026-12-01]              <- an item forget redacted

Writers compose body lines with ``group`` and ``item``; ``append`` adds a section;
``items`` parses every item back with its section and group (``audit`` traces curated
lines to the sweep that wrote them); ``redact`` rewrites items that quote forgotten text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

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
class Item:
    """One ``- `` line, with the section and group it sits in."""

    when: str
    title: str
    label: str | None  # the group label, lower-cased; None before any group
    line: int
    text: str  # without the leading "- " and the sources suffix


def items(ws: Workspace) -> list[Item]:
    """Every item of every section, in file order (none when there is no diary yet)."""
    try:
        lines = ws.dreams_md.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    found: list[Item] = []
    when: str | None = None
    title = ""
    label: str | None = None
    for number, line in enumerate(lines, 1):
        section = SECTION.match(line)
        if section:
            when, title, label = section["when"], section["title"], None
            continue
        heading = GROUP.match(line)
        if heading:
            label = heading["label"].lower()
            continue
        if line.startswith(ITEM) and when is not None:
            found.append(Item(when, title, label, number, SOURCES.sub("", line[len(ITEM):])))
    return found


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
