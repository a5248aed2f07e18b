"""Time for intents: ``--at``/``--expires``/``--cooldown`` values, ``intent due`` and its crontab line.

Phrases ("friday 9am", "in 2 hours", "tomorrow") are read in the user's time zone
(``intents.timezone``, else the system zone) relative to now; an ISO time with an offset means
exactly that instant. Stored times are UTC, so cron's own zone never matters.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import shlex

from clawmem.foundation.config import DURATION_MAX_S, shown
from clawmem.foundation.errors import BadInput, BadValue, ConfigError
from clawmem.foundation.records import dataclass
from clawmem.index.db import Index
from clawmem.intents import store
from clawmem.intents.model import aware, stamp, unstamp
from clawmem.rules.hints import clawmem_command
from clawmem.storage.workspace import Workspace

UNITS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
    "w": 604800, "week": 604800, "weeks": 604800,
}
DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
DURATION = re.compile(r"^\s*(?:\d+(?:\.\d+)?\s*[a-z]+\s*)+$")


def zone(ws: Workspace) -> dt.tzinfo | None:
    """The user's zone from ``intents.timezone``; ``None`` means the system zone."""
    name = ws.config.intents.timezone
    if not name:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ConfigError(f"intents.timezone {name!r} is not a known IANA time zone", hint="use a name like Europe/London") from err


def wall_clock(moment: dt.datetime, tz: dt.tzinfo | None) -> dt.datetime:
    """``moment`` as naive wall-clock time in ``tz`` (the system zone when ``None``)."""
    local = aware(moment).astimezone(tz) if tz is not None else aware(moment).astimezone()
    return local.replace(tzinfo=None)


def localize(naive: dt.datetime, tz: dt.tzinfo | None) -> dt.datetime:
    """Attach ``tz`` to a wall-clock time (the system zone, DST included, when ``None``)."""
    return naive.replace(tzinfo=tz) if tz is not None else naive.astimezone()


def parse_duration(text: str, *, bare_unit: int | None = 3600) -> int:
    """``30m``, ``24h``, ``2d``, ``1h30m`` (or a bare number of hours) -> seconds."""
    value = text.strip().lower()
    if bare_unit is not None and re.fullmatch(r"\d+(?:\.\d+)?", value):
        return checked_duration(float(value) * bare_unit, text)
    if not DURATION.match(value):
        raise BadInput(f"cannot read the duration {shown(text)}", hint="use e.g. 30m, 24h, 2d or 1h30m")
    total = 0.0
    for number, unit in DURATION_PART.findall(value):
        if unit not in UNITS:
            raise BadInput(f"unknown time unit {shown(unit)} in {shown(text)}", hint="use s, m, h, d or w")
        total += float(number) * UNITS[unit]
    return checked_duration(total, text)


def checked_duration(seconds: float, text: str) -> int:
    """``seconds`` as a whole number, refused past ``DURATION_MAX_S`` (a 400-digit number reads as
    infinity, and any time that far away overflows the moment it is added to now)."""
    if not math.isfinite(seconds) or seconds > DURATION_MAX_S:
        raise BadValue(f"the duration {shown(text)} is longer than {DURATION_MAX_S // 86400:,} days", hint="use e.g. 30m, 24h, 2d or 1h30m")
    return round(seconds)


def resolve_time(ws: Workspace, text: str, *, now: dt.datetime) -> dt.datetime:
    """A time typed by a person or agent -> an aware instant (future-leaning for phrases)."""
    value = text.strip()
    if not value:
        raise BadInput("empty time", hint="give a time like 'friday 9am', 'in 2 hours' or 2026-11-27T09:00")
    tz = zone(ws)
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        parsed = None
    if parsed is not None:
        return parsed if parsed.tzinfo is not None else localize(parsed, tz)
    from clawmem.foundation.timeparse import parse_time

    # The phrase is read against the user's wall clock with no zone of its own: dateparser's
    # zone settings shift a naive relative base inconsistently, the wall clock does not.
    naive = parse_time(value, prefer_future=True, now=wall_clock(now, tz))
    return localize(naive.replace(tzinfo=None), tz)


def resolve_expiry(ws: Workspace, text: str, *, now: dt.datetime) -> dt.datetime:
    """``--expires``: a duration from now (``30d``, ``2w``) or a time (``2027-01-31``, ``next friday``)."""
    value = text.strip().lower()
    if DURATION.match(value) and all(unit in UNITS for _, unit in DURATION_PART.findall(value)):
        return aware(now) + dt.timedelta(seconds=parse_duration(value, bare_unit=None))
    return resolve_time(ws, text, now=now)


def display(stamped: str | None, ws: Workspace) -> str:
    """A stored UTC time in the user's zone, for people: ``Fri 2026-11-27 09:00``."""
    if not stamped:
        return ""
    return wall_clock(unstamp(stamped), zone(ws)).strftime("%a %Y-%m-%d %H:%M")


# intent due ------------------------------------------------------------------------------
@dataclass(frozen=True)
class FiredIntent:
    """A reminder ``intent due`` fired, for the caller to deliver (``--json`` shape)."""

    id: int
    text: str
    due_at: str  # UTC ISO 8601
    fired_at: str
    late_s: int  # how long after its due time it fired (cron was down, or every minute)
    channel: str | None  # where to deliver, when the intent named one
    sender: str | None
    origin: str
    session: str | None


def fire_due(ws: Workspace, index: Index, *, now: dt.datetime | None = None) -> list[FiredIntent]:
    """Fire every armed time intent that is due, exactly once, even under overlapping runs.

    Selecting and marking happen in one ``BEGIN IMMEDIATE`` transaction, so a second ``due``
    running at the same moment waits and then finds them done. Expired ones are stored as such.
    """
    moment = aware(now) if now is not None else store.current_time()
    current = stamp(moment)
    store.ensure_restored(ws, index)
    with index.transaction():
        store.sweep(index, current)
        rows = index.query(
            "SELECT * FROM intents WHERE kind = 'time' AND state = 'armed' AND due_at <= ? ORDER BY due_at, id", (current,)
        )
        store.record_fires(ws, index, [(row["id"], current) for row in rows])
    return [
        FiredIntent(
            id=row["id"],
            text=row["text"],
            due_at=row["due_at"],
            fired_at=current,
            late_s=max(0, int((moment - unstamp(row["due_at"])).total_seconds())),
            channel=row["channel"],
            sender=row["sender"],
            origin=row["origin"],
            session=row["session"],
        )
        for row in rows
    ]


def cron_line(ws: Workspace, *, command: str | None = None) -> str:
    """The crontab line running ``intent due`` every minute for this workspace.

    Its output (the reminders) is what cron mails; pipe ``--json`` into your own delivery
    command instead if you prefer. ``%`` is escaped because cron turns it into a newline.
    """
    exe = command or clawmem_command()
    line = f"* * * * * {exe} intent due --workspace {shlex.quote(str(ws.root))}"
    return line.replace("%", "\\%")
