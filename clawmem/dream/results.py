"""What a sweep did: the report ``run_sweep`` returns and ``clawmem dream --json`` prints.

Apart from ``dream/__init__.py`` so that ``sweep.py``, which builds it, and the package, which
runs the sweep, do not import each other.
"""

from __future__ import annotations

from typing import Any

from clawmem.dream.consolidate import Change
from clawmem.foundation.records import dataclass, field


@dataclass(frozen=True)
class Rejection:
    """Something that was not promoted, and why. ``text`` is withheld for untrusted or system content."""

    stage: str  # eligibility | gate | consolidation
    reasons: tuple[str, ...]
    sources: tuple[str, ...]
    text: str | None
    candidate_id: int | None = None
    score: float | None = None
    in_words: tuple[str, ...] = ()  # the reasons as a person reads them (the gate's say what it still needs)

    def __post_init__(self) -> None:
        if not self.in_words:  # eligibility and consolidation reasons are words already
            object.__setattr__(self, "in_words", self.reasons)


@dataclass(frozen=True)
class Explained:
    """``--explain``: one candidate's signals and the gates it failed (``failed`` empty = passed)."""

    candidate_id: int | None
    status: str  # passed | failed | excluded | promoted (in an earlier sweep)
    text: str | None
    sources: tuple[str, ...]
    theme: str | None
    score: float | None
    rank: int | None
    signals: dict[str, Any]
    failed: tuple[str, ...]


@dataclass(frozen=True)
class DreamReport:
    """What a sweep did (``clawmem dream --json`` prints exactly this)."""

    ran: bool  # False: another sweep holds the lock, nothing was done
    skipped: str | None
    phases: tuple[str, ...]
    dry_run: bool
    staged: int = 0  # new evidence units staged by light
    candidates: int = 0  # staged candidates after the sweep
    themes: int = 0
    excluded: dict[str, int] = field(default_factory=dict)  # light: reason -> units never staged
    promoted: tuple[Change, ...] = ()
    merged: tuple[Change, ...] = ()
    superseded: tuple[Change, ...] = ()
    displaced: tuple[Change, ...] = ()  # lines a more valuable candidate pushed out of the budget (dream.budget)
    rejected: tuple[Rejection, ...] = ()
    consolidator: str | None = None  # built-in | external (None: deep had nothing to do)
    fallback_used: bool = False
    fallback_reason: str | None = None
    memory_changed: bool = False
    preimage: str | None = None
    recovered_lock: dict[str, Any] | None = None  # the dead sweep whose lock this one took over
    explain: tuple[Explained, ...] = ()
    seconds: float = 0.0
    notices: tuple[Any, ...] = ()  # clawmem.commands.losses.Notice: what keeps trusted memory out of MEMORY.md, with the fix
    aspirations: Any = None  # clawmem.intents.aspirations.AspirationReview: due, newly escalated and expired aspirations
