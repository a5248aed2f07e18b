"""Aspirations: intentions that cannot be compiled into a trigger or a time stay in Markdown.

``clawmem intent add "Read more of the codebase before refactoring" --review 2027-01-15``
appends an ordinary daily-note entry with a review date:

    - Read more of the codebase before refactoring <!-- review: 2027-01-15 -->

Any daily-note entry with a ``review`` annotation is an aspiration (hand-written ones too).
``overdue`` lists those whose review date has come; an entry marked
``<!-- status: superseded -->`` is no longer listed. Once due, an aspiration comes back:

- in ``clawmem recall`` (a short block) and ``clawmem intent due``, each at most once per
  ``intents.cooldown_hours`` per channel (``surface``), so a cron job running every minute
  does not nag;
- in dreaming (``review``): overdue by ``intents.aspiration_escalate_days`` it is escalated
  (flagged once in ``DREAMS.md`` and in ``clawmem status`` until it is acted on: edit its review
  date, mark it superseded, or forget it); overdue by ``intents.aspiration_expire_days`` it
  expires: its line gets ``<!-- status: superseded -->`` and ``DREAMS.md`` says so. Both are
  recorded in the provenance ledger (``"t": "aspiration"``), so a lost index changes nothing.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable

from clawmem.entries import grammar, identity
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import as_local, parse_when
from clawmem.index.files import MemoryFile, daily_notes
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace

DAILY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")
REVIEW_KEY = re.compile(r"review\s*:", re.IGNORECASE)  # what a ``review`` annotation needs (``grammar.KEY_VALUE``; keys in any case)


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
    # deferred: recall reads aspirations every turn, only `intent add` writes one
    from clawmem.commands import notes
    from clawmem.rules import incoming
    from clawmem.rules.inputs import decode_input
    from clawmem.storage import ledger_records
    from clawmem.trust import provenance
    from clawmem.trust.authority import check_creator

    check_creator(origin, "record an aspiration")
    provenance.check_provenance(origin, session_kind)
    if now is None:
        from clawmem.foundation.timeparse import now as current

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
    record = ledger_records.entry_record(
        ws.rel(path), identity.text_hash(text), origin=origin, session_kind=session_kind, session=session, observed=observed
    )
    rendered = grammar.render_entry(text, [("review", review.isoformat())])
    line = notes.append_entries(ws, path, [rendered], [record])
    return AspirationResult("aspiration", ws.rel(path), line, " ".join(text.split()), review, origin)


def add_for_review(
    ws: Workspace,
    text: str,
    review: str,
    *,
    origin: str,
    session: str | None,
    now: dt.datetime,
    with_trigger: bool = False,
    with_intent_options: bool = False,
) -> AspirationResult:
    """``intent add --review PHRASE``: an aspiration takes a review date and nothing of an intent's.

    ``review`` is a phrase or time read in the workspace's time zone; a trigger (``--when``,
    ``--at``) or an intent's delivery and lifetime options make the request ambiguous and are
    refused before anything is written.
    """
    from clawmem.intents import schedule  # deferred: only `intent add --review` parses a review phrase

    if with_trigger:
        raise BadInput("--review makes an aspiration; it cannot be combined with --when or --at")
    if with_intent_options:
        raise BadInput("an aspiration takes only --review (no --channel, --sender, --expires, --budget, --cooldown)")
    day = schedule.resolve_time(ws, review, now=now)
    return add_aspiration(ws, text, review=schedule.wall_clock(day, schedule.zone(ws)).date(), origin=origin, session=session, now=now)


def aspirations(ws: Workspace, notes: Iterable[MemoryFile] | None = None) -> list[Aspiration]:
    """Every live aspiration in the daily notes (quarantine is never read), by review date.

    The daily notes are the ones the index covers (``index.files.daily_notes``: none reached
    through a link), or ``notes`` when the caller has listed them already: recall lists the
    workspace once per turn, for its freshness check and for this. Recall asks on every turn,
    so a note is read again only when its listed ``stat`` changed (``_in_note``).
    """
    found: list[Aspiration] = []
    read = _READ.setdefault(str(ws.root), {})
    for note in daily_notes(ws) if notes is None else notes:
        if note.kind == "daily" and DAILY_NAME.match(note.name):
            found.extend(_in_note(read, note))
    found.sort(key=lambda a: (a.review, a.path, a.line))
    return found


_Read = dict[str, tuple[tuple[tuple[int, int], int, int], tuple[Aspiration, ...]]]  # note's workspace path -> (its stat when read, what it held)
_READ: dict[str, _Read] = {}  # per workspace root


def _in_note(read: _Read, note: MemoryFile) -> tuple[Aspiration, ...]:
    """The live aspirations of one daily note, read again whenever its size, mtime or inode changed (``read``: its workspace's in ``_READ``)."""
    seen = (note.inode, note.size, note.mtime_ns)
    kept = read.get(note.rel)
    if kept is not None and kept[0] == seen:
        return kept[1]
    with open(os.path.join(note.folder, note.name), encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    held: list[Aspiration] = []
    if "review" in text and REVIEW_KEY.search(text):  # cheap skip: most daily notes hold no aspiration, many the word
        for entry in grammar.parse(text).entries:
            raw = entry.first("review")
            when = parse_when(raw) if raw else None
            if when is None or entry.first("status") == "superseded" or not entry.body.strip():
                continue
            held.append(Aspiration(note.rel, entry.line_start, " ".join(entry.body.split()), when.date()))
    read[note.rel] = (seen, tuple(held))
    return read[note.rel][1]


def overdue(ws: Workspace, today: dt.date, notes: Iterable[MemoryFile] | None = None) -> list[Aspiration]:
    """Aspirations whose review date is ``today`` or earlier (what dreaming lists in DREAMS.md); ``notes`` as for ``aspirations``."""
    return [a for a in aspirations(ws, notes) if a.review <= today]


@dataclass(frozen=True)
class Due:
    """A due aspiration as recall, ``intent due`` and status show it."""

    kind: str  # always "aspiration"
    id: str  # stable while its file, text and review date stay the same
    path: str
    line: int
    text: str
    review: dt.date
    overdue_days: int
    state: str  # due | escalated


@dataclass(frozen=True)
class AspirationReview:
    """What a dream sweep did with due aspirations (``DreamReport.aspirations``)."""

    due: int
    escalated: tuple[Due, ...]  # newly escalated by this sweep
    expired: tuple[Due, ...]  # expired (marked superseded) by this sweep


def ident(a: Aspiration) -> str:
    return identity.text_hash(f"{a.path}\n{a.text}\n{a.review.isoformat()}")


def _recorded(ws: Workspace, state: str) -> set[str]:
    """Aspirations recorded in ``state`` by this copy or accepted by its owner: a pulled "done" never silences one."""
    from clawmem.storage import ledger  # here: status and recall read aspirations without the ledger
    from clawmem.storage.ledger_records import AspirationRecord, is_kind
    from clawmem.trust import team  # (team imports subprocess)

    records = team.counting_here(ws, ledger.read(ws).records)
    return {r["id"] for r in records if is_kind(r, AspirationRecord) and r.get("state") == state and isinstance(r.get("id"), str)}


def due(ws: Workspace, today: dt.date, notes: Iterable[MemoryFile] | None = None) -> list[Due]:
    """Aspirations whose review date has come, oldest first (cheap: no ledger read, fit for recall); ``notes`` as for ``aspirations``."""
    cfg = ws.config.intents
    out = []
    for a in overdue(ws, today, notes):
        days = (today - a.review).days
        state = "escalated" if days >= cfg.aspiration_escalate_days else "due"
        out.append(Due("aspiration", ident(a), a.path, a.line, a.text, a.review, days, state))
    return out


def surface(
    ws: Workspace, index, today: dt.date, *, channel: str, now: dt.datetime, limit: int, notes: Iterable[MemoryFile] | None = None
) -> list[Due]:
    """Due aspirations not shown on ``channel`` within the cooldown; records them as shown now (``notes`` as for ``aspirations``)."""
    cooldown = dt.timedelta(hours=ws.config.intents.cooldown_hours)
    now = as_local(now)
    shown = []
    for d in due(ws, today, notes):
        last = index.meta(f"aspiration_shown:{channel}:{d.id}")
        if last and now - as_local(dt.datetime.fromisoformat(last)) < cooldown:
            continue
        shown.append(d)
        if len(shown) == limit:
            break
    for d in shown:
        index.set_meta(f"aspiration_shown:{channel}:{d.id}", now.isoformat())
    return shown


def _expire(ws: Workspace, d: Due) -> bool:
    """Mark an expired aspiration's line superseded, if it still says what it said."""
    from clawmem.storage.durable import atomic_write

    path = ws.root / d.path
    with ws.lock_file(path):
        text = path.read_text(encoding="utf-8", errors="replace")
        entry = next((e for e in grammar.parse(text).entries if e.line_start == d.line), None)
        if entry is None or " ".join(entry.body.split()) != d.text or entry.first("status") == "superseded":
            return False
        lines = text.splitlines(keepends=True)
        first = lines[d.line - 1]
        body = first.rstrip("\r\n")
        lines[d.line - 1] = body + " <!-- status: superseded -->" + first[len(body):]
        atomic_write(path, "".join(lines).encode())
    return True


def review(ws: Workspace, today: dt.date, *, dry_run: bool) -> AspirationReview:
    """Dreaming's pass: expire long-overdue aspirations, escalate overdue ones (each once), report."""
    from clawmem.storage import ledger, ledger_records
    cfg = ws.config.intents
    marked = _recorded(ws, "escalated")
    found = due(ws, today)
    expired = [d for d in found if d.overdue_days >= cfg.aspiration_expire_days]
    escalated = [d for d in found if d.state == "escalated" and d.id not in marked and d not in expired]
    if dry_run:
        return AspirationReview(len(found), tuple(escalated), tuple(expired))
    expired = [d for d in expired if _expire(ws, d)]
    stamp = ledger_records.now_iso()
    ledger.append(ws, [
        ledger_records.aspiration_record(d.id, state, path=d.path, line=d.line, review=d.review.isoformat(), at=stamp)
        for state, group in (("escalated", escalated), ("expired", expired)) for d in group
    ])
    if escalated or expired:
        from clawmem.dream.text import excerpt
        from clawmem.storage import diary

        body = []
        if escalated:
            body.append(f"Aspirations escalated ({len(escalated)}): overdue {cfg.aspiration_escalate_days}+ days; do it, reschedule it or let it go:")
            body += [f"- {excerpt(d.text, 160)} — review was {d.review.isoformat()} ({cite(d.path, d.line)})" for d in escalated]
        if expired:
            body.append(f"Aspirations expired ({len(expired)}): overdue {cfg.aspiration_expire_days}+ days, marked superseded:")
            body += [f"- {excerpt(d.text, 160)} — review was {d.review.isoformat()} ({cite(d.path, d.line)})" for d in expired]
        diary.append(ws, "aspirations", body)
    return AspirationReview(len(found), tuple(escalated), tuple(expired))


def for_recall(
    ws: Workspace, index, now: dt.datetime | None, degraded: list[str], notes: Iterable[MemoryFile] | None = None
) -> list[Due]:
    """The recall block's due aspirations (at most ``intents.max_per_turn``); a failure costs them, not the turn.

    ``notes``: the turn's listing of the workspace (``recall.turn._open_index``), so the daily notes are not listed twice.
    """
    from clawmem.foundation.timeparse import local_now

    moment = now or local_now()
    try:
        return surface(ws, index, moment.date(), channel="recall", now=moment, limit=ws.config.intents.max_per_turn, notes=notes)
    except Exception as err:  # noqa: BLE001 -- optional context: never fail the turn
        degraded.append(f"aspirations skipped ({type(err).__name__}: {err})")
        return []
