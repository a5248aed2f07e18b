"""Authority: who may decide what. Decided by the caller's class and invocation, never by text.

- Owner-only operations (``promote``, ``demote``, ``accept``, ``forget --undo``) need the owner:
  a person at a terminal, or the operator's own script saying ``--yes``. The core operations
  ask ``require_owner`` themselves, with the facts the front end hands them (``Caller``), so
  no front end can reach them without the rule; the MCP server exposes none of them.
- Intents and aspirations are shaped only by trusted origins (``check_creator``).
"""

from __future__ import annotations

from clawmem.foundation.errors import Forbidden
from clawmem.foundation.records import dataclass
from clawmem.trust import provenance


@dataclass(frozen=True)
class Caller:
    """How an owner-only operation was invoked: the facts, not a verdict."""

    from_terminal: bool  # a person at a keyboard on standard input
    confirmed: bool = False  # the operator's ``--yes``


def require_owner(caller: Caller, what: str) -> None:
    """Refuse an owner-only operation unless a person at a terminal runs it, or types ``--yes``.

    The same rule that decides the default origin (``provenance.default_origin``): agents and
    scripts shell out without a terminal on standard input. ``--yes`` is for the operator's
    own scripts.
    """
    if provenance.default_origin(from_terminal=caller.from_terminal) != "owner" and not caller.confirmed:
        raise Forbidden(
            f"{what} is the owner's decision and this invocation is not at a terminal",
            hint="run it yourself in a terminal, or add --yes if you (the operator) are scripting it",
        )


def check_creator(origin: str, what: str = "create an intent") -> None:
    """Only owner or agent origin may shape intents: decided by the caller's class, never by text."""
    provenance.check_origin(origin)
    if not provenance.is_trusted(origin):
        raise Forbidden(
            f"{origin} origin may not {what}: only owner or agent may",
            hint="an instruction from external content cannot schedule actions; if the owner asked for it, pass --origin owner",
        )
