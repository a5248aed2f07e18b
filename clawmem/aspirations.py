"""Aspirations: intentions that cannot be compiled into a trigger or a time stay in Markdown.

``clawmem intent add "Read more of the codebase before refactoring" --review 2027-01-15``
appends an ordinary daily-note entry with a review date:

    - Read more of the codebase before refactoring <!-- review: 2027-01-15 -->

Any daily-note entry with a ``review`` annotation is an aspiration (hand-written ones too).
``overdue`` lists those whose review date has come, for dreaming to put in ``DREAMS.md``
(expire or escalate); an entry marked ``<!-- status: superseded -->`` is no longer listed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from clawmem import incoming, ledger, loopguard, notes
from clawmem.entries import grammar
from clawmem.errors import BadInput
from clawmem.inputs import decode_input
from clawmem.workspace import Workspace

DAILY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")


@dataclass(frozen=True)
class Aspiration:
    """An aspiration entry in a daily note (``path`` is workspace-relative, ``line`` 1-based)."""

    path: str
    line: int
    text: str
    review: dt.date


@dataclass(frozen=True)
class AspirationResult:
    """What ``intent add --review`` wrote (its ``--json`` shape)."""

    kind: str  # always "aspiration"
    path: str
    line: int
    text: str
    review: dt.date
    origin: str


def add_aspiration(
    ws: Workspace,
    text: str,
    *,
    review: dt.date,
    origin: str,
    session_kind: str = "interactive",
    session: str | None = None,
    now: dt.datetime | None = None,
) -> AspirationResult:
    """Append an aspiration to today's daily note, ledger first, like ``note add``.

    Only owner or agent origin may record one (it is an intent); the review date must not be
    in the past.
    """
    from clawmem.intents.store import check_creator

    check_creator(origin, "record an aspiration")
    notes.check_provenance(origin, session_kind)
    if now is None:
        from clawmem.timeparse import now as current

        now = current()
    today = now.astimezone().date()
    if review < today:
        raise BadInput(f"review date {review.isoformat()} is in the past", hint="give a date from today on, e.g. --review 'in 2 weeks'")
    text = decode_input(text, limit=ws.config.limits.max_note_bytes, what="aspiration text")
    text, _ = incoming.clean(text, typed_by_owner=origin == "owner")
    if not text.strip():
        raise BadInput("aspiration text is empty once recalled blocks are removed")
    path = ws.daily_note(today)
    observed = now.astimezone().replace(tzinfo=None, microsecond=0).isoformat()
    record = ledger.entry_record(
        ws.rel(path), loopguard.text_hash(text), origin=origin, session_kind=session_kind, session=session, observed=observed
    )
    rendered = grammar.render_entry(text, [("review", review.isoformat())])
    line = notes.append_entries(ws, path, [rendered], [record])
    return AspirationResult("aspiration", ws.rel(path), line, " ".join(text.split()), review, origin)


def aspirations(ws: Workspace) -> list[Aspiration]:
    """Every live aspiration in the daily notes (quarantine is never read), by review date."""
    found: list[Aspiration] = []
    if not ws.daily_dir.is_dir():
        return found
    for path in sorted(ws.daily_dir.glob("*.md")):
        if not DAILY_NAME.match(path.name) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "review" not in text:
            continue  # cheap skip: most daily notes hold no aspiration
        for entry in grammar.parse(text).entries:
            raw = entry.first("review")
            when = grammar.parse_when(raw) if raw else None
            if when is None or entry.first("status") == "superseded" or not entry.body.strip():
                continue
            found.append(Aspiration(ws.rel(path), entry.line_start, " ".join(entry.body.split()), when.date()))
    found.sort(key=lambda a: (a.review, a.path, a.line))
    return found


def overdue(ws: Workspace, today: dt.date) -> list[Aspiration]:
    """Aspirations whose review date is ``today`` or earlier (what dreaming lists in DREAMS.md)."""
    return [a for a in aspirations(ws) if a.review <= today]
