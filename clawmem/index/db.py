"""The SQLite connection: apsw (bundles a current SQLite with FTS5 and extension loading).

The stdlib ``sqlite3`` of many Python builds (ours included) cannot load extensions, so
sqlite-vec would not load through it; apsw ships its own SQLite and works everywhere.
"""

from __future__ import annotations

import importlib.util
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from clawmem.foundation.errors import Busy, IndexUnavailable
from clawmem.storage.durable import create_private
from clawmem.storage.workspace import Workspace

BUSY_TIMEOUT_MS = 5000
# values bound in one ``IN (...)`` list: SQLite limits a statement's variables (999 before
# 3.32), and the statement's other parameters need room too
IN_LIST_MAX = 500
T = TypeVar("T")


def in_batches(values: Sequence[T]) -> Iterator[tuple[list[T], str]]:
    """``values`` in parts of at most ``IN_LIST_MAX``, each with its placeholders (``?,?,?``),
    so a query over any number of ids or hashes is a few ``IN (...)`` statements."""
    for start in range(0, len(values), IN_LIST_MAX):
        part = list(values[start : start + IN_LIST_MAX])
        yield part, ",".join("?" * len(part))


def _apsw():
    import apsw  # deferred: commands that never touch the index (--help, note add) skip it

    return apsw


def _dict_row(cursor: Any, row: tuple) -> dict[str, Any]:
    return dict(zip((d[0] for d in cursor.get_description()), row, strict=True))


class IndexLocked(IndexUnavailable):
    """Another process (a backup, VACUUM, ``BEGIN EXCLUSIVE``) held the index past the wait allowed."""


def bounded_wait(deadline: float | None) -> Callable[[int], bool] | None:
    """A busy handler that retries a locked index only until ``deadline`` (``time.monotonic()``).

    A busy timeout restarts at every statement, so a reply path that opens, sets PRAGMAs,
    migrates and queries under a foreign lock would wait it out at each step; this handler
    makes every statement share one deadline, from the first one on. ``None``: no deadline.
    """
    if deadline is None:
        return None

    def handler(attempt: int) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(left, 0.001 * 2 ** min(attempt, 5)))
        return True

    return handler


class Index:
    """One open connection to ``.clawmem/index.db`` with helpers that return dict rows."""

    def __init__(self, path: Path, *, create: bool = True, deadline: float | None = None) -> None:
        apsw = _apsw()
        self.path = path
        if not create and not path.exists():
            raise IndexUnavailable(f"the index {path} does not exist")
        flags = apsw.SQLITE_OPEN_READWRITE | (apsw.SQLITE_OPEN_CREATE if create else 0)
        if create and path.parent.is_dir() and not path.exists():
            create_private(path)  # SQLite makes the WAL and shm files with the database's mode: all private
        try:
            self.conn = apsw.Connection(str(path), flags=flags)
        except apsw.Error as err:
            raise IndexUnavailable(f"the index {path} cannot be opened: {err}") from err
        try:
            self.wait_until(deadline)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        except apsw.BusyError as err:
            self.conn.close()
            raise IndexLocked(f"the index {path} is locked by another process: {err}") from err
        except apsw.Error as err:
            self.conn.close()
            raise IndexUnavailable(f"the index {path} cannot be opened: {err}") from err
        self._vec_loaded = False
        self._derived: dict[str, tuple[tuple[int, int, int], frozenset[str], Any]] = {}  # key -> (state, tables read, value)

    @classmethod
    def open(cls, ws: Workspace, *, migrate: bool = True, deadline: float | None = None) -> Index:
        """Open (creating if needed) and bring the schema up to date.

        With a ``deadline`` (``time.monotonic()`` seconds) no statement, from the first PRAGMA
        on, waits for a lock past it: the reply path's budget holds whatever locks the index.
        """
        index = cls(ws.index_path, deadline=deadline)
        if migrate:
            from clawmem.index import migrations

            try:
                migrations.apply(index)
            except _apsw().BusyError as err:
                index.close()
                raise IndexLocked(f"the index {ws.index_path} is locked by another process: {err}") from err
            except _apsw().Error as err:
                index.close()
                raise IndexUnavailable(f"the index {ws.index_path} is damaged: {err}") from err
        return index

    def wait_until(self, deadline: float | None) -> None:
        """Wait for another process's lock at most until ``deadline``; without one, the busy timeout."""
        handler = bounded_wait(deadline)
        if handler is None:
            self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        else:
            self.conn.set_busy_handler(handler)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def execute(self, sql: str, params: Any = ()) -> None:
        self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Any) -> None:
        self.conn.executemany(sql, rows)

    def query(self, sql: str, params: Any = ()) -> list[dict[str, Any]]:
        cursor = self.conn.cursor()
        cursor.row_trace = _dict_row
        return cursor.execute(sql, params).fetchall()

    def scalar(self, sql: str, params: Any = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """The one write transaction helper (a savepoint when nested); rolled back on any exception.

        The outermost one is ``BEGIN IMMEDIATE``: it takes the write lock up front (waiting up to
        the busy timeout), so a transaction that reads and then writes can never fail midway
        because another writer moved the WAL on under its read snapshot, and what is read inside
        is what gets written (two overlapping ``intent due`` runs cannot both fire one intent).
        A lock still held when the wait runs out is ``errors.Busy``, with nothing written.
        """
        if self.conn.in_transaction:
            with self.conn:
                yield
            return
        apsw = _apsw()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except apsw.BusyError as err:
            raise Busy("the index is locked by another clawmem process") from err
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # SQLite may already have rolled back on its own
                self.conn.execute("ROLLBACK")
            raise

    def meta(self, key: str, default: str | None = None) -> str | None:
        value = self.scalar("SELECT value FROM meta WHERE key = ?", (key,))
        return default if value is None else value

    def set_meta(self, key: str, value: str | None) -> None:
        self.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def state(self) -> tuple[int, int, int]:
        """What moves whenever the database may have changed: another connection committed
        (``PRAGMA data_version``), the schema changed, or this connection wrote (its change count)."""
        return self.scalar("PRAGMA data_version"), self.scalar("PRAGMA schema_version"), self.conn.total_changes()

    def derived(self, key: str, tables: frozenset[str], compute: Callable[[], T]) -> T:
        """``compute()``, a value read from ``tables`` only, kept on this connection while ``state`` stays the same.

        A process that keeps one connection for many requests (the worker, ``clawmem.index.resident``)
        computes it again only after a change; one that opens the index per command computes it once.
        The value is shared: callers must not change it.
        """
        state = self.state()
        kept = self._derived.get(key)
        if kept is not None and kept[0] == state:
            return kept[2]
        value = compute()
        self._derived[key] = (state, tables, value)
        return value

    @contextmanager
    def writes_apart(self) -> Iterator[None]:
        """Writes (the recall bookkeeping) after which a derived value stays valid when none of them touched its tables.

        SQLite's update hook names the table of every row written inside; a value is kept only when
        nothing else changed meanwhile (no other connection, no schema change) and every change this
        connection counted was one the hook named, so a write it cannot see (the truncate
        optimisation, a table without rowid) invalidates everything, as any other change does.
        """
        before = self.state()
        touched: Counter[str] = Counter()
        self.conn.set_update_hook(lambda _op, _db, table, _rowid: touched.update((table,)))
        try:
            yield
        finally:
            self.conn.set_update_hook(None)
            after = self.state()
            if after[:2] == before[:2] and after[2] - before[2] == sum(touched.values()):
                for key, (state, tables, value) in list(self._derived.items()):
                    if state == before and not tables & touched.keys():
                        self._derived[key] = (after, tables, value)

    def load_vec(self) -> bool:
        """Load sqlite-vec; False when it is not installed or cannot load (lexical-only then)."""
        if self._vec_loaded:
            return True
        spec = importlib.util.find_spec("sqlite_vec")  # locate without importing (it pulls numpy)
        if spec is None or not spec.submodule_search_locations:
            return False
        folder = Path(next(iter(spec.submodule_search_locations)))
        candidates = sorted(folder.glob("vec0.*"))
        if not candidates:
            return False
        try:
            self.conn.enable_load_extension(True)
            self.conn.load_extension(str(candidates[0].with_suffix("")))
        except _apsw().Error:
            return False
        finally:
            self.conn.enable_load_extension(False)
        self._vec_loaded = True
        return True


def remove_index_files(ws: Workspace) -> None:
    """Delete the index and its WAL side files (for a rebuild after corruption)."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(ws.index_path) + suffix).unlink(missing_ok=True)
