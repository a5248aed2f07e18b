"""``status`` and ``search --lexical`` answered by the resident worker, through the installed command.

Hosts and agents run both in a pipe, often: a running worker answers them with everything
imported and the index open, printing the bytes the command prints in its own process. What
it cannot serve exactly so (a terminal's layout, a hybrid search, ``--debug``) stays with
the client. The workspace fixture and helpers are ``tests/test_worker.py``'s.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from clawmem.worker.client import _route
from tests import test_worker
from tests.conftest import _IMPORT_PROBE, CLAWMEM
from tests.test_worker import NONCE, started, status
from tests.ttyrun import run_with_tty_stderr

pytestmark = pytest.mark.e2e  # real processes, sockets and a real worker


@pytest.fixture
def root(monkeypatch):
    """``tests/test_worker.py``'s workspace: indexed, one triggered curated entry, its worker stopped at the end."""
    yield from test_worker.root.__wrapped__(monkeypatch)

OFF = {"CLAWMEM_WORKER": "off"}
READS = [
    ["status"],
    ["status", "--json"],
    ["--json", "status"],
    ["search", "release", "--lexical"],
    ["search", "release", "--lexical", "--json", "--explain"],
    ["search", "-n", "1", "release helper", "--lexical", "--tier", "curated"],
    ["search", "nothing matches zebra", "--lexical"],
    ["search", "release", "--lexical", "--session", "../etc"],  # refused by the command itself, the same way
]


def printed(args: list[str], env: dict | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([CLAWMEM, *args], capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    return proc.returncode, NONCE.sub("id=N", proc.stdout.decode()), proc.stderr.decode()


def test_piped_status_and_lexical_search_print_the_same_bytes_from_the_worker(root):
    started()
    served = status()["served"]
    for args in READS:  # each run in its own process, then by the worker: a search records what it showed, so pairs, in turn
        alone = printed(args, OFF)
        assert printed(args) == alone, args
    assert status()["served"] == served + len(READS)  # every one answered by the worker, none fell back
    assert "entries: 1" in printed(["status"])[1] and "release helper" in printed(["search", "release", "--lexical"])[1]


def test_a_terminal_a_hybrid_search_and_debug_stay_with_the_client(root):
    started()
    served = status()["served"]
    for args in (["search", "release"], ["--debug", "status"], ["status", "--debug"], ["search", "release", "--lexical", "--debug"]):
        assert printed(args) == printed(args, OFF)
    env = {**os.environ, "COLUMNS": "120"}
    assert run_with_tty_stderr([CLAWMEM, "status"], cwd=root, env=env)[:2] == run_with_tty_stderr([CLAWMEM, "status"], cwd=root, env={**env, **OFF})[:2]
    assert status()["served"] == served  # none of them reached the worker


def loaded(args: list[str], heavy: tuple[str, ...]) -> set[str]:
    """``modules_loaded`` run by the installed script's own interpreter: a worker serves only clients of its install, named by ``sys.executable``."""
    interpreter = Path(CLAWMEM).read_text(encoding="utf-8").splitlines()[0].removeprefix("#!").strip()
    proc = subprocess.run(
        [interpreter, "-c", _IMPORT_PROBE, json.dumps(args), json.dumps(heavy)], capture_output=True, text=True, timeout=60,
    )
    assert "LOADED=" in proc.stderr, proc.stderr
    return set(json.loads(proc.stderr.rsplit("LOADED=", 1)[1]))


def test_a_status_the_worker_answers_imports_nothing_of_the_command(root):
    """The client process of a served ``status`` stays at the worker client: the point of handing it over."""
    heavy = ("clawmem.commands.status", "clawmem.index", "clawmem.foundation.config", "apsw", "typer", "rich")
    assert loaded(["status"], heavy) >= {"clawmem.commands.status", "apsw"}  # control: in its own process it needs them
    started()
    served = status()["served"]
    assert loaded(["status"], heavy) == set()
    assert loaded(["search", "release", "--lexical"], heavy) == set()
    assert status()["served"] == served + 2


def index_state(folder: Path) -> tuple:
    """What a sync would change, read from the file by this process's own SQLite (not the worker's connection)."""
    with sqlite3.connect(folder / ".clawmem" / "index.db") as conn:
        files = conn.execute("SELECT path, size, mtime_ns FROM files ORDER BY path").fetchall()
        return files, conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()


def test_the_worker_s_status_reports_a_hand_edit_without_syncing_and_its_search_syncs(root):
    started()
    served = status()["served"]
    note = root / "memory" / "2026-11-30.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("- The quokka colony moved to the north shore.\n", encoding="utf-8")
    before = index_state(root)
    for _ in range(2):  # status reads: the index stays as it was, the file stays pending
        code, out, _ = printed(["status"])
        assert code == 0 and "files indexed / pending: 2 / 1" in out and "changed since the last index sync" in out
    assert index_state(root) == before
    code, out, _ = printed(["search", "quokka", "--lexical"])
    assert code == 0 and "quokka colony" in out  # search syncs first, as in its own process
    assert "files indexed / pending: 3 / 0" in printed(["status"])[1]
    assert index_state(root) != before
    assert status()["served"] == served + 4


def test_the_file_listing_a_worker_keeps_follows_every_change_to_a_note(root):
    """The worker keeps each listed file's record while its ``lstat`` stays the same (``index.files._listed``):
    an append, a same-size rewrite, a note turned into a link out and a note given a second name are each
    seen by the very next search it answers, as a search in its own process sees them."""
    started()
    served = status()["served"]
    note = root / "memory" / "2026-11-30.md"
    note.parent.mkdir(exist_ok=True)
    outside = root.parent / "outside.md"

    def found(word: str) -> bool:
        code, out, _ = printed(["search", word, "--lexical"])  # the worker first: a search in its own process syncs the index
        alone = printed(["search", word, "--lexical"], OFF)
        assert code == 0 and (word in out) == (word in alone[1]), word
        return word in out

    note.write_text("- The zqalpha colony moved north.\n", encoding="utf-8")
    assert found("zqalpha")
    with note.open("a", encoding="utf-8") as handle:  # in place: the same inode, a new size
        handle.write("- The zqbravo ferry runs at dawn.\n")
    assert found("zqbravo")
    with note.open("r+", encoding="utf-8") as handle:  # in place, to the same size: only the mtime moves
        text = handle.read()
        handle.seek(0)
        handle.write(text.replace("zqbravo", "zqcharl"))
    os.utime(note, ns=(note.stat().st_atime_ns, note.stat().st_mtime_ns + 1_000_000_000))
    assert found("zqcharl") and not found("zqbravo")
    outside.write_text("- The zqdelta vault code is 1234.\n", encoding="utf-8")
    note.unlink()
    note.symlink_to(outside)  # a link out of the workspace: never read
    assert not found("zqdelta") and not found("zqalpha")
    note.unlink()
    note.write_text("- The zqecho bridge is closed.\n", encoding="utf-8")
    assert found("zqecho")
    os.link(note, root.parent / "second-name.md")  # a hard link: the same file under another name, no longer read
    assert not found("zqecho")
    assert status()["served"] == served + 8


def test_the_client_hands_over_only_what_the_worker_may_serve():
    """The client's cheap reading: piped status, piped lexical search; nothing else of either."""
    cases = [
        (["status"], True), (["status"], False), (["-w", "ws", "status", "--json"], True),
        (["search", "q", "--lexical"], True), (["search", "q"], True), (["search", "q", "--lexical"], False),
        (["search", "q", "--", "--lexical"], True), (["worker", "status"], True),
    ]
    assert [_route(args, piped) for args, piped in cases] == [("status", ""), None, ("status", "ws"), ("search", ""), None, None, None, None]


def test_what_the_worker_shows_joins_the_clients_host_session(root):
    """A piped search the worker answers records its untrusted hits in the client's host session
    (sent with the request, set for it), not in the worker's own or in none."""
    from clawmem.foundation.config import HOST_SESSION_ENV
    from clawmem.storage.workspace import Workspace
    from clawmem.trust import sessions
    from clawmem.worker import SESSION_ENV

    assert SESSION_ENV == HOST_SESSION_ENV  # the client's copy of the names, kept equal
    test_worker.run("note", "add", "The staging vault token lives in the wiki page notes.", "--origin", "untrusted")
    started()
    served = status()["served"]
    client = {"CLAUDE_CODE_SESSION_ID": "client-session"}
    code, out, _ = printed(["search", "staging vault token", "--lexical", "--include-untrusted", "--json"], client)
    assert code == 0 and "staging vault token" in out
    assert status()["served"] == served + 1  # the worker answered it
    ws = Workspace.open(root)
    assert "returned by search" in (sessions.recorded(ws, "client-session").shown or "")
    assert sessions.recent_exposure(ws, "client-session") is None  # its own, not another caller's
    assert "to session client-session" in (sessions.recent_exposure(ws, None) or "")
    note = printed(["note", "add", "The token is on the wiki.", "--origin", "agent", "--json"], {**client, **OFF})
    assert json.loads(note[1])["origin"] == "untrusted"
