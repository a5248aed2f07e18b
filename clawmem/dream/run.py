"""One dream sweep as a command runs it: the phases asked for checked, one sweep at a time, timed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from collections.abc import Iterable

from clawmem.dream.results import DreamReport
from clawmem.foundation.errors import BadInput
from clawmem.foundation.timeparse import local_now
from clawmem.storage.workspace import Workspace

PHASES = ("light", "rem", "deep")


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
    from clawmem.commands.gitshare import dream_refusal  # dream.host: one machine dreams a shared workspace

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
