"""A rich progress bar on stderr when it is a terminal; nothing otherwise (cron, agents).

It names the phase it is in (reading, indexing, loading the embedder, embedding), counts in that
phase's units and gives an ETA once the phase has a total, so a long index never sits at a
finished-looking count while the next phase runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Optional

Callback = Callable[[int, int, str], None]


@contextmanager
def progress_bar(description: str, *, quiet: bool = False) -> Iterator[Optional[Callback]]:
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from clawmem.rules.output import console

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("eta"), TimeRemainingColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)
        shown = ""

        def update(done: int, total: int, phase: str) -> None:
            nonlocal shown
            if phase != shown:  # a new phase: its own count and its own ETA
                shown = phase
                bar.reset(task, total=total or None, description=f"{description}: {phase}")
            bar.update(task, completed=done, total=total or None)

        yield update
