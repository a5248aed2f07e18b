"""A kept index connection and what is derived from it: recomputed after any change, kept across recall's own records only.

Real SQLite files; "another process" is a second connection to the same file, which SQLite
treats the same way (``tests/test_worker.py`` does it with the CLI and the worker).
"""

from __future__ import annotations

import os

import pytest

from clawmem.index import resident
from clawmem.index.db import Index, remove_index_files

READS = frozenset({"meta"})


@pytest.fixture
def index(ws):
    with Index.open(ws) as opened:
        yield opened


def counter(index: Index) -> tuple[list[int], object]:
    """A derived value that reads ``meta`` and counts how often it was computed."""
    calls: list[int] = []

    def read():
        return index.derived("test.meta", READS, lambda: calls.append(1) or index.meta("k"))

    return calls, read


def test_a_derived_value_is_kept_while_nothing_changes(index):
    calls, read = counter(index)
    index.set_meta("k", "1")
    assert read() == "1" and read() == "1"
    assert len(calls) == 1


def test_another_connections_commit_recomputes_it(ws, index):
    calls, read = counter(index)
    index.set_meta("k", "1")
    assert read() == "1"
    with Index.open(ws) as other:
        other.set_meta("k", "2")
    assert read() == "2"
    assert len(calls) == 2


def test_this_connections_own_write_recomputes_it(index):
    calls, read = counter(index)
    assert read() is None
    index.set_meta("k", "3")
    assert read() == "3"
    index.execute("INSERT INTO recalled(text_hash, first_at, last_at, times) VALUES ('h', 'a', 'a', 0)")  # outside ``writes_apart``
    assert read() == "3"
    assert len(calls) == 3


def test_writes_apart_keep_it_only_when_they_touch_none_of_its_tables(index):
    calls, read = counter(index)
    index.set_meta("k", "1")
    assert read() == "1"
    with index.writes_apart():
        index.execute("INSERT INTO recalled(text_hash, first_at, last_at, times) VALUES ('h', 'a', 'a', 0)")
    assert read() == "1" and len(calls) == 1  # recall's own record: kept
    with index.writes_apart():
        index.set_meta("k", "2")
    assert read() == "2" and len(calls) == 2
    with index.writes_apart():
        index.execute("DELETE FROM meta")  # no WHERE: SQLite may truncate without naming the rows to the hook
    assert read() is None and len(calls) == 3


def test_a_kept_connection_is_reused_and_a_replaced_file_opened_afresh(ws, monkeypatch):
    monkeypatch.setattr(resident, "_on", True)
    monkeypatch.setattr(resident, "_kept", {})
    Index.open(ws).close()  # a connection is kept only to a file that was there before it opened
    first = resident.opened(ws)
    resident.done(first)
    again = resident.opened(ws)
    assert again is first
    resident.done(again)
    remove_index_files(ws)
    Index.open(ws).close()  # another process makes a new file
    fresh = resident.opened(ws)
    assert fresh is not first
    assert fresh.scalar("SELECT count(*) FROM pragma_database_list WHERE file = ?", (os.fspath(ws.index_path),)) == 1
    fresh.execute("BEGIN")  # a request that failed mid-transaction
    resident.done(fresh)
    assert resident.opened(ws) is not fresh
    resident.close_all()


def test_without_keep_every_request_opens_and_closes(ws):
    first = resident.opened(ws)
    resident.done(first)
    with pytest.raises(Exception, match="closed"):
        first.scalar("SELECT 1")
