"""The index connection a long-lived process keeps between requests, checked again at every use.

The worker (``clawmem.worker``) answers every turn from one process. Opening the index per
request (the connection, its PRAGMAs, the migrations check) and closing it (the last
connection checkpoints the WAL) cost about as much as a recall, and a connection that lives
on keeps what is derived from the index alone (``Index.derived``: the trigger candidates).
``keep()`` switches this on for the process; without it (every command of the CLI) ``opened``
and ``done`` open and close as before.

A kept connection holds nothing the file does not: SQLite shows each new read the commits
of every other process, and ``Index.derived`` recomputes after any change. What SQLite cannot
see is checked here, with one ``stat`` and no query, before each reuse: the file must still
be the one opened (``index --rebuild`` after damage removes it and creates another), and the
connection must hold no transaction (a request that failed mid-way); otherwise it is closed
and the index opened afresh.
"""

from __future__ import annotations

import os

from clawmem.index.db import Index
from clawmem.storage.workspace import Workspace

_kept: dict[str, tuple[tuple[int, int], Index]] = {}  # index path -> (device and inode when opened, connection)
_on = False  # set by ``keep``


def keep() -> None:
    """Keep connections open between requests in this process (the worker calls this once)."""
    global _on
    _on = True


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def _idle(index: Index) -> bool:
    """No transaction open, not even one begun without a statement yet (its first read would pin a snapshot)."""
    from apsw import SQLITE_TXN_NONE

    return not index.conn.in_transaction and index.conn.txn_state() == SQLITE_TXN_NONE


def opened(ws: Workspace, *, deadline: float | None = None) -> Index:
    """The index for one request (``Index.open``'s arguments): the kept connection when it is still the file's and idle."""
    if not _on:
        return Index.open(ws, deadline=deadline)
    path = str(ws.index_path)
    identity = _identity(path)  # before opening: a file replaced in between is noticed next time, never missed
    kept = _kept.pop(path, None)
    if kept is not None:
        if identity is not None and kept[0] == identity and _idle(kept[1]):
            kept[1].wait_until(deadline)
            _kept[path] = kept
            return kept[1]
        kept[1].close()
    index = Index.open(ws, deadline=deadline)
    if identity is not None:
        _kept[path] = (identity, index)
    return index


def done(index: Index) -> None:
    """The request is over: a kept connection stays open (closed if it was left in a transaction), any other closes."""
    for path, (_, kept) in list(_kept.items()):
        if kept is index:
            if not _idle(index):
                del _kept[path]
                index.close()
            return
    index.close()


def close_all() -> None:
    """Close every kept connection (the worker exiting)."""
    while _kept:
        _, (_, index) = _kept.popitem()
        index.close()
