"""Work on a daemon helper thread beside the caller's own, its value or error handed back on request.

The models, SQLite and numpy release the GIL in their C calls, so the caller's work runs beside
the helper's on another core: a query encoded while the lexical lane runs
(``search.lanes.vector_lane``), the vector scan's blocks shared (``index.matrix``), a long model
call that Ctrl-C must not wait for (``index.vectors.interruptible``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def in_background(work: Callable[[], T], name: str) -> Callable[[], T]:
    """Start ``work()`` on a daemon thread called ``name``; the function returned waits for it and
    gives its value, or raises its error."""
    import threading  # deferred: a lexical search starts no thread

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as err:
            box["error"] = err

    helper = threading.Thread(target=run, name=name, daemon=True)
    helper.start()

    def result() -> T:
        helper.join()
        if "error" in box:
            raise box["error"]
        return box["value"]

    return result
