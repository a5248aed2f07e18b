"""Which ``DREAMS.md`` sections (dream sweeps, user-model changes) name a curated entry."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clawmem import loopguard
from clawmem.audit.results import SweepRef
from clawmem.workspace import Workspace

DIARY_SECTION = re.compile(r"^## (?P<when>.+?) — (?P<title>.+?)\s*$")
DIARY_GROUP = re.compile(r"^(?P<label>[A-Z][a-z]+) \(\d+\):\s*$")
DIARY_SOURCES = re.compile(r"\s+\(sources: [^()]*\)\s*$")


@dataclass(frozen=True)
class _DiaryItem:
    when: str
    title: str
    action: str
    line: int
    norm: str  # normalised item text (detail and sources included)
    prefix: str | None  # normalised text before "…" when the diary shortened it


def diary_items(ws: Workspace) -> list[_DiaryItem]:
    """The promoted, merged and changed lines of every ``DREAMS.md`` section."""
    try:
        lines = ws.dreams_md.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    items: list[_DiaryItem] = []
    when = title = label = None
    for number, line in enumerate(lines, 1):
        section = DIARY_SECTION.match(line)
        if section:
            when, title, label = section["when"], section["title"], None
            continue
        group = DIARY_GROUP.match(line)
        if group:
            label = group["label"].lower()
            continue
        if not line.startswith("- ") or when is None:
            continue
        body = DIARY_SOURCES.sub("", line[2:])
        if title == "dream sweep" and label in ("promoted", "merged"):
            action = label
        elif title.startswith("user model:") and body.startswith("after: "):
            action, body = "changed", body[len("after: "):]
        else:
            continue
        short = body.split("…", 1)[0] if "…" in body else None
        items.append(_DiaryItem(when, title, action, number, loopguard.normalise(body), loopguard.normalise(short) if short else None))
    return items


def _sweeps(body: str, items: list[_DiaryItem]) -> list[SweepRef]:
    norm = loopguard.normalise(body)
    if not norm:
        return []
    found = []
    for item in items:
        if item.norm.startswith(norm) or (item.prefix and len(item.prefix) >= 20 and norm.startswith(item.prefix)):
            found.append(SweepRef(item.when, item.title, item.action, item.line))
    return found
