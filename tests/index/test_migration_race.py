"""Two processes opening a fresh index at once: only one runs each migration, neither fails."""

from __future__ import annotations

import subprocess
import sys
import time

from clawmem.index import migrations
from clawmem.index.db import Index, remove_index_files

OPENER = """
import sys, time, pathlib
from clawmem.storage.workspace import Workspace
from clawmem.index.db import Index
go = pathlib.Path(sys.argv[2])
while not go.exists():
    time.sleep(0.001)
with Index.open(Workspace(pathlib.Path(sys.argv[1]))) as index:
    print(index.scalar("SELECT count(*) FROM _clawmem_migrations"))
"""


def test_a_migration_another_process_committed_after_our_read_is_not_run_twice(ws, monkeypatch):
    """The window the race lives in, made certain: our read says pending, the other side already committed."""
    remove_index_files(ws)
    with Index.open(ws) as first:
        total = first.scalar("SELECT count(*) FROM _clawmem_migrations")
    real_applied = migrations.applied

    def read_before_the_other_process_committed(index):
        real_applied(index)
        return []

    monkeypatch.setattr(migrations, "applied", read_before_the_other_process_committed)
    second = Index(ws.index_path)
    try:
        assert migrations.apply(second) == []
        assert second.scalar("SELECT count(*) FROM _clawmem_migrations") == total == len(migrations.MIGRATIONS)
    finally:
        second.close()


def test_six_processes_opening_a_fresh_index_together_all_succeed(ws, tmp_path):
    remove_index_files(ws)
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, "-c", OPENER, str(ws.root), str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(6)
    ]
    time.sleep(1.0)  # every opener is waiting on the start file
    go.touch()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        assert int(out) == len(migrations.MIGRATIONS)
