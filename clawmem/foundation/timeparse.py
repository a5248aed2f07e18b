"""Times typed by people or agents: ISO first (fast), natural phrases through dateparser."""

from __future__ import annotations

import datetime as dt
import re

from clawmem.foundation.errors import BadInput, BadValue

# Times outside these years are refused: they overflow conversions (epoch seconds, time
# zones, recency arithmetic) somewhere downstream, and no memory is observed there.
EARLIEST = dt.datetime(1900, 1, 1)
LATEST = dt.datetime(2999, 12, 31, 23, 59, 59)
TIME_RANGE_HINT = f"use a time between {EARLIEST.year} and {LATEST.year}"
DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")  # an annotation without a time (``parse_when``: noon that day); ranking parses one per candidate


def parse_when(value: str) -> dt.datetime | None:
    """Parse an ISO date or date-time annotation (``observed``, ``review``); ``None`` when it is neither."""
    try:
        if DATE_ONLY.fullmatch(value.strip()):
            return dt.datetime.combine(dt.date.fromisoformat(value.strip()), dt.time(12))
        return dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def check_time_range(when: dt.datetime, what: str) -> dt.datetime:
    """Return ``when`` if it lies within EARLIEST..LATEST (compared as local wall time), else refuse."""
    naive = when.replace(tzinfo=None)
    if not EARLIEST <= naive <= LATEST:
        raise BadValue(f"{what} {when.isoformat()} is out of range", hint=TIME_RANGE_HINT)
    return when


def from_epoch(seconds: float, what: str) -> dt.datetime:
    """Epoch seconds as a local time, refused when the platform or the range cannot hold them."""
    try:
        when = dt.datetime.fromtimestamp(seconds)
    except (OverflowError, OSError, ValueError) as err:
        raise BadValue(f"{what} {seconds!r} is out of range", hint=TIME_RANGE_HINT) from err
    return check_time_range(when, what)


def parse_time(text: str, *, timezone: str = "", prefer_future: bool = False, now: dt.datetime | None = None) -> dt.datetime:
    """Parse ``2026-11-29``, ``2026-11-29T10:00``, ``friday 9am`` or ``in 2 hours`` into a local time."""
    value = text.strip()
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        pass
    else:
        check_time_range(parsed, "time")
        return as_local(parsed)
    import dateparser  # deferred: ~0.3 s import, only needed for natural-language times

    settings: dict[str, object] = {"RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DATES_FROM": "future" if prefer_future else "past"}
    if timezone:
        settings["TIMEZONE"] = timezone
        settings["TO_TIMEZONE"] = timezone
    if now is not None:
        settings["RELATIVE_BASE"] = now
    parsed = dateparser.parse(value, settings=settings)
    if parsed is None:
        raise BadInput(f"cannot understand the time {text!r}", hint="try an ISO time (2026-11-29T09:00) or a phrase like 'friday 9am'")
    return check_time_range(parsed, "time").replace(microsecond=0)


def now() -> dt.datetime:
    """The current time, timezone-aware; ``$CLAWMEM_NOW`` (an ISO time) pins it.

    ``CLAWMEM_NOW`` is a testing and scripting aid (e.g. "what would fire on Friday?", or a
    simulated week of notes, searches and dreams); a naive value is read as system local time.
    It is read here and nowhere else, and this is the only reader of the real clock: record
    stamps (``now_iso``), recall-event days, diaries and pre-images all come from here.
    """
    import os

    pinned = os.environ.get("CLAWMEM_NOW", "").strip()
    if not pinned:
        return dt.datetime.now().astimezone()
    try:
        value = dt.datetime.fromisoformat(pinned)
    except ValueError as err:
        raise BadInput(f"CLAWMEM_NOW={pinned!r} is not an ISO time", hint="unset it, or use a time like 2026-11-27T09:00:00+00:00") from err
    return value.astimezone()


def now_iso() -> str:
    """The one clock as a record timestamp (ledger records, recall events, sweeps)."""
    return now().isoformat(timespec="seconds")


def as_local(moment: dt.datetime) -> dt.datetime:
    """``moment`` as a naive local time, so stamps written with and without a zone compare."""
    return moment.astimezone().replace(tzinfo=None) if moment.tzinfo else moment


def local_now() -> dt.datetime:
    """``now()`` as a naive local time (the form notes, search and dreaming compare against)."""
    return now().astimezone().replace(tzinfo=None)
