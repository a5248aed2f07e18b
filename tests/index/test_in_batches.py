"""Queries over more ids than one SQLite statement may bind run in ``IN (...)`` batches."""

from __future__ import annotations

import datetime as dt

from clawmem.commands import notes
from clawmem.index.db import IN_LIST_MAX, Index, in_batches
from clawmem.index.sync import sync
from clawmem.search import lanes


def test_batches_cover_every_value_once_with_matching_placeholders():
    values = list(range(2 * IN_LIST_MAX + 7))
    parts = list(in_batches(values))
    assert [len(part) for part, _ in parts] == [IN_LIST_MAX, IN_LIST_MAX, 7]
    assert [v for part, _ in parts for v in part] == values
    assert all(marks.count("?") == len(part) for part, marks in parts)
    assert list(in_batches([])) == []


def test_rows_by_id_reads_more_ids_than_sqlite_binds_at_once(ws):
    """``lanes.rows`` asked for more ids than the 999 variables an older SQLite binds in one
    statement: every real row comes back once, and ids with no row are left out."""
    day = dt.datetime(2026, 1, 5, 9)
    for n in range(30):
        notes.add_note(ws, f"note number {n} about the deploy", origin="owner", at=day + dt.timedelta(minutes=n))
    with Index.open(ws) as index:
        sync(ws, index)
        real = [r["id"] for r in index.query("SELECT id FROM entries")]
        asked = real + list(range(max(real) + 1, max(real) + 1 + 3 * IN_LIST_MAX))
        found = lanes.rows(index, asked)
    assert sorted(found) == sorted(real) and len(asked) > 999
