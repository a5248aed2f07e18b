"""``clawmem dream``: the consolidation sweep, the only writer of ``MEMORY.md``.

Phases, in order (``run_sweep(phases=...)`` runs any subset):

- light (``light.py``): stage eligible evidence from episodic files changed since the last
  sweep, near-duplicates grouped into candidates;
- REM (``rem.py``): themes, reinforcement and reflections with citations;
- deep: the gate (``gate.py``), consolidation (``consolidate.py``, or ``external.py``), then
  the write path (``write.py``) and a summary in ``DREAMS.md`` (``diary.py``).

One sweep at a time (``lock.py``); another sweep arriving meanwhile returns at once with
``ran=False``. The index is synced first, so notes and hand edits made since are seen.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from clawmem.dream.consolidate import Change
from clawmem.errors import BadInput
from clawmem.timeparse import local_now
from clawmem.workspace import Workspace

PHASES = ("light", "rem", "deep")
__all__ = ["PHASES", "Change", "DreamReport", "Explained", "Rejection", "run_sweep"]


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
    notices: tuple[Any, ...] = ()  # clawmem.losses.Notice: what keeps trusted memory out of MEMORY.md, with the fix
    aspirations: Any = None  # clawmem.aspirations.AspirationReview: due, newly escalated and expired aspirations


def run_sweep(
    ws: Workspace,
    *,
    phases: Iterable[str] = PHASES,
    dry_run: bool = False,
    explain: bool = False,
    now: dt.datetime | None = None,
) -> DreamReport:
    """Run one sweep: light, REM and deep by default; ``dry_run`` computes everything, writes nothing."""
    from clawmem.dream import lock, sweep

    chosen = list(phases)
    unknown = sorted(set(chosen) - set(PHASES))
    if unknown or not chosen:
        raise BadInput(f"unknown dream phase(s): {', '.join(unknown) or 'none given'}", hint="use light, rem or deep")
    ordered = tuple(p for p in PHASES if p in chosen)
    started = time.perf_counter()
    from clawmem.gitshare import dream_refusal  # dream.host: one machine dreams a shared workspace

    refusal = None if dry_run else dream_refusal(ws)
    if refusal:
        return DreamReport(ran=False, skipped=refusal, phases=ordered, dry_run=dry_run, seconds=time.perf_counter() - started)
    with lock.sweep_lock(ws) as held:
        if not held.acquired:
            who = held.holder or {}
            reason = f"another sweep is running (pid {who.get('pid', '?')} on {who.get('host', '?')} since {who.get('started', '?')})"
            return DreamReport(ran=False, skipped=reason, phases=ordered, dry_run=dry_run, seconds=time.perf_counter() - started)
        report = sweep.run(ws, phases=ordered, dry_run=dry_run, explain=explain, now=now or local_now(), recovered=held.recovered)
    return dataclasses.replace(report, seconds=time.perf_counter() - started)
