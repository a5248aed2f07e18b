"""``clawmem index`` tells the truth while it works and after it is stopped (issue 27).

A real ``clawmem index`` on a real workspace, its stderr on a pseudo-terminal (where the
progress bar is drawn): the bar names its phase and gives an ETA; Ctrl-C in the embedding
phase (SIGINT to the process, as a terminal sends it) ends it with exit 130, the index is
consistent afterwards (SQLite's integrity check, every vector belongs to an entry) and
``status`` says how many entries are still unembedded, until the next ``index`` embeds them.
The only time bound is a generous one: the exit must not wait for the embedding to finish.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import time

import pytest

from tests.conftest import CLAWMEM
from tests.ttyrun import drain

pytestmark = pytest.mark.e2e  # a terminal (pty) and an interrupt

FILES, ENTRIES_PER_FILE = 12, 25


def _memory(ws) -> None:
    """Daily notes written as a person would, enough entries for many embedding batches."""
    for day in range(1, FILES + 1):
        lines = [f"- Fact {day}.{n}: the staging deploy of service {n} needs a {day + n}s health check grace period"
                 for n in range(ENTRIES_PER_FILE)]
        (ws.daily_dir / f"2026-11-{day:02d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _index_until(marker: str, cwd) -> tuple[subprocess.Popen, bytes, int]:
    """Start ``clawmem index`` with stderr on a terminal; return once ``marker`` was drawn (and the pty)."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm-256color"}
    # Ctrl-C as at a terminal: a suite started as a background job inherits SIGINT ignored
    proc = subprocess.Popen([CLAWMEM, "index"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env, cwd=cwd,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 300
    while marker.encode() not in seen and proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return proc, seen, master


@pytest.mark.model
def test_ctrl_c_while_embedding_stops_at_once_and_leaves_a_consistent_index_that_status_describes(ws, clawmem, tmp_path):
    import apsw

    _memory(ws)
    proc, seen, master = _index_until("embedding", tmp_path)
    assert proc.poll() is None, f"index ended before embedding: {seen!r}"
    shown = seen.decode("utf-8", "replace")
    assert "Indexing: embedding" in shown and "eta" in shown, shown
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    took = time.monotonic() - sent
    err = (seen + drain(master)).decode("utf-8", "replace")
    assert proc.returncode == 130, (proc.returncode, err)
    assert "clawmem: interrupted" in err and "Traceback" not in err
    assert took < 15, f"Ctrl-C took {took:.1f} s: the embedding batch ran to its end first"  # generous: one batch takes minutes on a loaded machine

    db = apsw.Connection(str(ws.root / ".clawmem" / "index.db"))
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    entries = db.execute("SELECT count(*) FROM entries").fetchall()[0][0]
    vectors = db.execute("SELECT count(*) FROM entry_vectors_rowids").fetchall()[0][0]
    strays = db.execute("SELECT count(*) FROM entry_vectors_rowids WHERE rowid NOT IN (SELECT id FROM entries)").fetchall()[0][0]
    db.close()
    assert entries == FILES * ENTRIES_PER_FILE and strays == 0 and vectors < entries  # the sync committed; the embedding stopped midway

    status = clawmem("status", "--json")
    assert status.returncode == 0, status.stderr
    report = status.json()
    assert report["entries"] == entries and report["embeddings"]["unembedded"] == entries - vectors
    assert any(f"{entries - vectors} of {entries} entries not embedded yet" in w for w in report["warnings"]), report["warnings"]
    assert f"embeddings: {report['embeddings']['backend']} (available; {entries - vectors} of {entries} entries not embedded)" in clawmem("status").stdout

    finished = clawmem("index", timeout=1800)
    assert finished.returncode == 0, finished.stderr
    again = clawmem("status", "--json").json()
    assert again["embeddings"]["unembedded"] == 0 and not [w for w in again["warnings"] if "not embedded" in w]
    assert "(available; every entry embedded)" in clawmem("status").stdout


def test_status_counts_every_entry_as_unembedded_after_a_no_embed_index(ws, clawmem):
    _memory(ws)
    assert clawmem("index", "--no-embed").returncode == 0
    report = clawmem("status", "--json").json()
    if report["embeddings"]["available"]:
        assert report["embeddings"]["unembedded"] == report["entries"] == FILES * ENTRIES_PER_FILE
    else:  # no embedder: search is lexical and status says that instead
        assert "unembedded" not in report["embeddings"] and any("vector search is off" in w for w in report["warnings"])
