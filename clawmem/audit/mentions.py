"""Which ``DREAMS.md`` sections (dream sweeps, user-model changes) name a curated entry."""

from __future__ import annotations

from clawmem.audit.results import SweepRef
from clawmem.entries import identity
from clawmem.foundation.records import dataclass
from clawmem.storage import diary
from clawmem.storage.workspace import Workspace


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
    found: list[_DiaryItem] = []
    for item in diary.items(ws):
        body = item.text
        if item.title == "dream sweep" and item.label in ("promoted", "merged"):
            action = item.label
        elif item.title.startswith("user model:") and body.startswith("after: "):
            action, body = "changed", body[len("after: "):]
        else:
            continue
        short = body.split("…", 1)[0] if "…" in body else None
        found.append(_DiaryItem(item.when, item.title, action, item.line, identity.normalise(body), identity.normalise(short) if short else None))
    return found


def sweeps(body: str, items: list[_DiaryItem]) -> list[SweepRef]:
    """The diary items (dream sweeps, user-model changes) that name ``body``; public: the review report lists them too."""
    norm = identity.normalise(body)
    if not norm:
        return []
    found = []
    for item in items:
        if item.norm.startswith(norm) or (item.prefix and len(item.prefix) >= 20 and norm.startswith(item.prefix)):
            found.append(SweepRef(item.when, item.title, item.action, item.line))
    return found
