"""The closed vocabularies every layer shares: origin classes, session kinds, intent states.

Each is declared once, here, as an enum; the tuples the core checks against, the Typer
choices, the MCP tools' ``Literal`` types and the SQL lists are all derived from these, so a
new class cannot reach one front end and miss another. The migrations' CHECK constraints are
frozen history and spell the lists out; ``tests/test_vocabulary.py`` reads them from a real
migrated index and fails when they and these enums disagree. Imports nothing heavy: the CLI's
start-up path loads it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class Origin(str, enum.Enum):
    """Who content comes from (trust is decided from this class in ``provenance.is_trusted``)."""

    owner = "owner"
    agent = "agent"
    untrusted = "untrusted"
    system = "system"


class SessionKind(str, enum.Enum):
    """What kind of session produced content (only interactive sessions make durable memory)."""

    interactive = "interactive"
    cron = "cron"
    heartbeat = "heartbeat"
    subagent = "subagent"


class IntentState(str, enum.Enum):
    """Where a standing intent is in its life: three live states, then one of three endings."""

    pending = "pending"
    armed = "armed"
    fired = "fired"
    done = "done"
    cancelled = "cancelled"
    expired = "expired"


class IntentStateFilter(str, enum.Enum):
    """What ``intent list --state`` and the MCP ``list_intents`` tool accept: a state or a group."""

    active = "active"
    all = "all"
    pending = "pending"
    armed = "armed"
    fired = "fired"
    done = "done"
    cancelled = "cancelled"
    expired = "expired"


ORIGINS: tuple[str, ...] = tuple(o.value for o in Origin)
SESSION_KINDS: tuple[str, ...] = tuple(k.value for k in SessionKind)
INTENT_STATES: tuple[str, ...] = tuple(s.value for s in IntentState)
LIVE_STATES: tuple[str, ...] = ("pending", "armed", "fired")
ENDED_STATES: tuple[str, ...] = tuple(s for s in INTENT_STATES if s not in LIVE_STATES)
STATE_FILTERS: tuple[str, ...] = tuple(f.value for f in IntentStateFilter)


def states_for(filters: Iterable[str]) -> set[str]:
    """The intent states a list of filters names: ``active`` is the live ones, ``all`` every one."""
    states: set[str] = set()
    for value in filters:
        states |= set(LIVE_STATES) if value == "active" else set(INTENT_STATES) if value == "all" else {value}
    return states
