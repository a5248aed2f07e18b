"""Days replayed through the CLI with ``CLAWMEM_NOW`` pinned: the calendar the write-path tests share."""

from __future__ import annotations

import datetime as dt

from clawmem.entries import grammar

TODAY = dt.date(2026, 11, 20)


def at(day: dt.date, hour: int = 10) -> str:
    return dt.datetime.combine(day, dt.time(hour)).isoformat()


def day(n: int) -> dt.date:
    """``n`` days before TODAY."""
    return TODAY - dt.timedelta(days=n)


def active(path) -> list[str]:
    """The bodies of a curated file's lines that are not superseded."""
    return [e.body for e in grammar.parse(path.read_text()).entries if e.status != "superseded"]
