"""``forget --no-undo`` reaches every copy clawmem made of a secret, and memory files are private.

The copies beside the memory files: the table of untrusted hits clawmem returned
(``returned_untrusted`` keeps their text), trigger phrases of curated entries, the cron job's
``dream.jsonl`` log and the review page ``.clawmem/report.html``. After the forget a byte grep
over the workspace and clawmem's state dirs (``$HOME`` here: the trusted list, caches) finds
the secret nowhere (``--no-undo`` keeps no undo record, the one copy the contract allows).
Gates off (``gates_off.py`` rule 15) the same forget leaves it in the index, log and report.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import subprocess
from pathlib import Path

import pytest

from clawmem.commands.ingest import ingest
from clawmem.index.db import Index
from tests.security import cli_modes

SECRET = "zqsecret4711"
# a secret no rule can tell from configuration (``clawmem.dream.credentials`` refuses one named a
# token, key or password): it is promoted, and ``forget --no-undo`` is what removes it
FIX = f"If the build fails with undefined reference errors, export LINK_FLAGS={SECRET} before make."
PLANT = f"The vendor page says the staging token is {SECRET} for now"


def _days_ago(n: int) -> dt.datetime:
    return (dt.datetime.now() - dt.timedelta(days=n)).replace(hour=10, minute=0, second=0, microsecond=0)


def _holders(root: Path, secret: bytes) -> list[str]:
    """Every file under ``root`` whose raw bytes hold ``secret`` (as someone with the disk reads them)."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and secret in p.read_bytes())


@pytest.fixture
def spread(ws, clawmem, tmp_path):
    """The secret in every place clawmem copies text to: files, index tables, the cron log, the report."""
    assert clawmem("init").returncode == 0  # the workspace as `clawmem init` leaves it (private log, .gitignore)
    for i in (1, 2, 3):
        ingest(ws, f"user: the linker broke again, ticket {i}\nassistant: {FIX}\nuser: thanks\n", session=f"s{i}", origin="owner", at=_days_ago(4 - i))
    assert clawmem("note", "add", PLANT, "--origin", "untrusted").returncode == 0
    log = ws.state_dir / "dream.jsonl"
    run = cli_modes.call("on", ["dream", "--json-lines"], timeout=300)
    assert run.returncode == 0, run.stderr
    with log.open("ab") as handle:  # what the cron line does: `clawmem dream --json-lines >> .clawmem/dream.jsonl`
        handle.write(run.stdout)
    assert SECRET in ws.memory_md.read_text(), "the fix was promoted"
    assert clawmem("search", "staging token", "--include-untrusted", "--lexical", "--json").returncode == 0
    assert clawmem("report").returncode == 0
    with Index.open(ws) as index:  # a trigger phrase dream generated that quotes the secret, as refresh_triggers stores it
        with index.transaction():
            index.execute("INSERT OR IGNORE INTO trigger_vectors(embedder, phrase, vector) VALUES ('e', ?, x'00')", (f"token {SECRET}",))
        assert index.scalar("SELECT count(*) FROM returned_untrusted WHERE instr(text, ?) > 0", (SECRET,)) == 1
    holders = _holders(tmp_path, SECRET.encode())
    assert {".clawmem/report.html", ".clawmem/dream.jsonl"} <= {h.removeprefix("ws/") for h in holders}
    return ws


def test_forget_no_undo_leaves_the_secret_nowhere(spread, clawmem, tmp_path):
    result = clawmem("forget", "--text", SECRET, "--no-undo", "--json", "--yes")
    assert result.returncode == 0, result.stderr
    assert result.json()["redacted"]["logs"] >= 1 and result.json()["redacted"]["report"] == 1
    assert _holders(tmp_path, SECRET.encode()) == []
    with Index.open(spread) as index:
        assert index.scalar("SELECT count(*) FROM returned_untrusted WHERE instr(text, ?) > 0", (SECRET,)) == 0
        assert index.scalar("SELECT count(*) FROM trigger_vectors WHERE instr(phrase, ?) > 0", (SECRET,)) == 0
    log = (spread.state_dir / "dream.jsonl").read_text()
    assert "[forgotten]" in log and '"ran"' in log, "the log keeps its records, with the quote redacted"
    assert clawmem("status").returncode == 0


def test_gates_off_the_same_forget_leaves_copies(spread, tmp_path):
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(spread.root)}
    run = cli_modes.call("off", ["forget", "--text", SECRET, "--no-undo", "--yes"], text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    left = {h.removeprefix("ws/") for h in _holders(tmp_path, SECRET.encode())}
    assert {".clawmem/report.html", ".clawmem/dream.jsonl"} <= left


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


MEMORY_FILES = ("daily note", "quarantine note", "transcript", "ledger", "index", "cron log", "report")


def _memory_files(ws) -> dict[str, Path]:
    today = dt.date.today()
    return {
        "daily note": ws.daily_note(today), "quarantine note": ws.quarantine_note(today), "transcript": ws.transcript("p1"),
        "ledger": ws.ledger_path, "index": ws.index_path, "cron log": ws.state_dir / "dream.jsonl", "report": ws.state_dir / "report.html",
    }


def _make_memory(clawmem, command_prefix=()) -> None:
    for args in (("init",), ("note", "add", "Deploys go to fly.io now.", "--origin", "owner"), ("note", "add", "A web page said hi", "--origin", "untrusted"),
                 ("ingest", "-", "--session", "p1", "--origin", "owner"), ("index", "-q"), ("report",)):
        result = clawmem(*args, input="user: hello\nassistant: hi\n" if args[0] == "ingest" else None)
        assert result.returncode == 0, (args, result.stderr)


def _files_made_under_umask_022(root, run) -> dict:
    """The memory files ``run`` (a CLI runner) makes in a fresh workspace under a permissive umask."""
    from clawmem.storage.workspace import Workspace

    old = os.umask(0o022)
    try:
        _make_memory(run)
    finally:
        os.umask(old)
    return _memory_files(Workspace.open(root / "ws"))


def test_files_holding_memory_text_are_private(tmp_path, clawmem):
    files = _files_made_under_umask_022(tmp_path, clawmem)
    assert {name: oct(_mode(p)) for name, p in files.items()} == {name: oct(0o600) for name in MEMORY_FILES}


def test_gates_off_new_memory_files_take_the_umask(tmp_path):
    env = {**os.environ}

    def gates_off(*args, input=None):
        return cli_modes.call("off", list(args), input=input, text=True, env=env, timeout=300)

    files = _files_made_under_umask_022(tmp_path, gates_off)
    assert _mode(files["daily note"]) & 0o044 and _mode(files["ledger"]) & 0o044 and _mode(files["index"]) & 0o044


@pytest.mark.needs_tool("git")
def test_the_report_and_workspace_id_are_git_ignored(tmp_path, clawmem):
    assert clawmem("init", "--git").returncode == 0
    root = tmp_path / "ws"
    for name in (".clawmem/report.html", ".clawmem/workspace-id", ".clawmem/dream.jsonl"):
        check = subprocess.run(["git", "check-ignore", "-q", name], cwd=root, check=False)
        assert check.returncode == 0, f"{name} is not ignored"
