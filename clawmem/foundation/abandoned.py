"""Threads a command leaves running on purpose: the process ends without waiting for them.

Library code never ends the process (the resident worker runs the same functions request after
request): it hands such a thread to ``abandon`` and returns. The console script
(``clawmem.launcher``) is the one place that exits, and it exits at once (``os._exit``, its
streams flushed) while one of them still runs. Two kinds do: recall's vector lane cut off by its
budget (a model still loading, which the turn must not wait for) and the MCP front's stdin reader
once the SDK server failed (blocked on a client that may never write again).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: the launcher's exit asks ``running``, importing nothing
if TYPE_CHECKING:
    from threading import Thread

THREADS: list[Thread] = []  # those still running when last counted: a long-lived process keeps no finished one


def abandon(thread: Thread) -> None:
    """Leave ``thread`` running: no exit waits for it."""
    THREADS[:] = [*(t for t in THREADS if t.is_alive()), thread]


def running() -> bool:
    """Whether a thread left running still runs (the process must end without waiting for it)."""
    return any(t.is_alive() for t in THREADS)
