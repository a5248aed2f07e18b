"""The intent row: kinds, lifecycle states, UTC time stamps and the effective state at a moment.

Lifecycle (explicit state, never inferred from prose):

    pending ──(arm time reached)──► armed ──(fires)──► fired ──(budget used)──► done
       │                              │                  │
       └──────────────────────────────┴──────────────────┴──► cancelled (explicit) | expired

* An **event** intent (``--when``) is armed at once, or ``pending`` until its ``--at`` time.
  Each match fires it; it is ``fired`` while budget is left and ``done`` when it is used up.
* A **time** intent (``--at`` only) is armed until due; ``intent due`` fires it once: ``done``.
* A live intent past its expiry reads as ``expired`` everywhere, and is stored as such by the
  next writer.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from clawmem.foundation.records import dataclass
from clawmem.foundation.vocabulary import ENDED_STATES, INTENT_STATES, LIVE_STATES

__all__ = ["ENDED_STATES", "KINDS", "LIVE_STATES", "STATES", "Intent"]


KINDS = ("event", "time")
STATES = INTENT_STATES
# Only these origins may create (or cancel) an intent; a CHECK constraint repeats the rule.

STAMP = "%Y-%m-%dT%H:%M:%SZ"


def aware(moment: dt.datetime) -> dt.datetime:
    """``moment`` with a time zone (a naive value is read as system local time)."""
    return moment.astimezone() if moment.tzinfo is None else moment


def stamp(moment: dt.datetime) -> str:
    """The stored form of a time: UTC, second precision, fixed width (compares as text)."""
    return aware(moment).astimezone(dt.UTC).strftime(STAMP)


def unstamp(text: str) -> dt.datetime:
    """Read a stored time back (aware, UTC)."""
    return dt.datetime.strptime(text, STAMP).replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Intent:
    """One standing intent as ``intent list --json`` shows it (times are UTC ISO 8601).

    ``state`` is the effective state when it was read: a live intent past its expiry reads as
    ``expired`` and a pending one past its arm time as ``armed``, even before a writer stores it.
    """

    id: int
    kind: str  # event | time
    state: str  # pending | armed | fired | done | cancelled | expired
    text: str
    keywords: tuple[str, ...]  # trigger phrases (event intents)
    channel: str | None
    sender: str | None
    origin: str  # owner | agent
    session: str | None
    created_at: str
    armed_at: str | None
    due_at: str | None  # time intents: when due; event intents: when they arm (pending until then)
    expires_at: str
    cooldown_s: int
    budget: int
    fires: int
    last_fired_at: str | None
    ended_at: str | None


def effective_state(row: dict[str, Any], now: str) -> str:
    """The state of a stored row at ``now`` (a stamp), applying expiry and arming lazily."""
    state = row["state"]
    if state not in LIVE_STATES:
        return state
    if row["expires_at"] <= now:
        return "expired"
    if state == "pending" and row["due_at"] is not None and row["due_at"] <= now:
        return "armed"
    return state


def from_row(row: dict[str, Any], now: str) -> Intent:
    state = effective_state(row, now)
    armed_at = row["armed_at"]
    if armed_at is None and state == "armed":  # a pending row whose arm time has passed
        armed_at = row["due_at"]
    ended_at = row["ended_at"]
    if ended_at is None and state == "expired":  # a live row past expiry, not yet stored as such
        ended_at = row["expires_at"]
    return Intent(
        id=row["id"],
        kind=row["kind"],
        state=state,
        text=row["text"],
        keywords=tuple(json.loads(row["keywords"] or "[]")),
        channel=row["channel"],
        sender=row["sender"],
        origin=row["origin"],
        session=row["session"],
        created_at=row["created_at"],
        armed_at=armed_at,
        due_at=row["due_at"],
        expires_at=row["expires_at"],
        cooldown_s=row["cooldown_s"],
        budget=row["budget"],
        fires=row["fires"],
        last_fired_at=row["last_fired_at"],
        ended_at=ended_at,
    )
