"""Two real processes writing at once lose nothing and leave no half-written line."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest

from clawmem.entries import grammar
from clawmem.index.db import Index
from clawmem.index.sync import sync

pytestmark = pytest.mark.e2e  # concurrent processes

WRITER = """
import sys
from clawmem.storage.workspace import Workspace
from clawmem.commands.notes import add_note, flush
ws = Workspace.open(sys.argv[1])
name, count = sys.argv[2], int(sys.argv[3])
for n in range(count):
    if n % 50 == 49:
        flush(ws, f"- {name} flushed {n}", origin="agent")
    else:
        add_note(ws, f"{name} note {n}\\nsecond line {n}", origin="agent", importance=1 + n % 10)
"""


def test_two_processes_appending_500_notes_each_lose_nothing(ws):
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(ws.root), name, "500"], stderr=subprocess.PIPE)
        for name in ("alpha", "beta")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    entries = grammar.parse(ws.daily_note(dt.date.today()).read_text()).entries
    bodies = [e.body.split("\n")[0] for e in entries]
    for name in ("alpha", "beta"):
        expected = {f"{name} note {n}" for n in range(500) if n % 50 != 49} | {f"{name} flushed {n}" for n in range(49, 500, 50)}
        assert expected <= set(bodies)
    assert len(entries) == 1000
    assert all(e.body.startswith(("alpha", "beta")) for e in entries)
    with Index.open(ws) as index:
        sync(ws, index)
        assert index.scalar("SELECT count(*) FROM entries WHERE kind = 'daily'") == 1000
        assert index.scalar("SELECT count(*) FROM entries WHERE kind = 'daily' AND hand_written = 1") == 0
