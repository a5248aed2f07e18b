"""A rich progress bar on stderr when it is a terminal; nothing otherwise (cron, agents)."""

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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from clawmem.output import console

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int, _label: str) -> None:
            bar.update(task, completed=done, total=total)

        yield update
