"""Fixtures for dreaming tests: real notes, transcripts and recall events in a real workspace."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

CLAWMEM = str(Path(sys.executable).with_name("clawmem"))
WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."


def _days_ago(n: int, hour: int = 10) -> dt.datetime:
    """``n`` whole days before today at ``hour`` (today: an hour ago), inside the gate's window."""
    if n == 0:
        return dt.datetime.now().replace(microsecond=0) - dt.timedelta(hours=1)
    return (dt.datetime.now() - dt.timedelta(days=n)).replace(hour=hour, minute=0, second=0, microsecond=0)


@pytest.fixture
def days_ago():
    return _days_ago


@pytest.fixture
def ingest_session(ws):
    """Ingest a Markdown transcript (``user: …`` / ``assistant: …``) as the owner's interactive session."""
    from clawmem.commands.ingest import ingest

    def run(session: str, turns: str, at: dt.datetime, **kw):
        return ingest(ws, turns, session=session, origin=kw.pop("origin", "owner"), at=at, **kw)

    return run


@pytest.fixture
def workaround_sessions(ingest_session):
    """The spec's 'many short sessions': three transcripts on three days share one build workaround."""
    complaints = [
        "the linker is broken again on my laptop, no idea why",
        "CI went red this morning after the dependency bump",
        "release branch will not compile, same linker mess as before",
    ]
    for i, complaint in enumerate(complaints, 1):
        ingest_session(f"s{i}", f"user: {complaint}\nassistant: {WORKAROUND}\nuser: thanks, that did it for ticket {100 + i}\n", _days_ago(4 - i))
    return WORKAROUND


@pytest.fixture
def recall_hits(ws):
    """Log real recall events (``record_returned``, what search and recall call) for one indexed line."""
    from clawmem.index.maintain import open_synced
    from clawmem.index.recalls import Returned, record_returned

    def run(path: str, line: int, times: int, *, score: float = 0.9, query: str = "query") -> str:
        index, _ = open_synced(ws)
        with index:
            row = index.query("SELECT text_hash, path, origin FROM entries WHERE path = ? AND line_start = ?", (path, line))[0]
            hit = Returned(row["text_hash"], row["path"], score, row["origin"])
            for i in range(times):
                record_returned(index, [hit], query=f"{query} {i}", source="search", ws=ws)
        return row["text_hash"]

    return run


@pytest.fixture
def configure(ws):
    """Write ``[dream]`` settings to clawmem.toml and return a fresh Workspace that reads them."""
    from clawmem.storage.workspace import Workspace

    def run(**settings) -> Workspace:
        import tomli_w

        (ws.root / "clawmem.toml").write_bytes(tomli_w.dumps({"dream": settings}).encode())
        return Workspace(ws.root)

    return run


class PausedSweep:
    """A real ``clawmem dream --json`` process stopped at a test hook point (clawmem/dream/testhook.py)."""

    def __init__(self, tmp_path: Path, point: str, *args: str) -> None:
        env = {**os.environ, "CLAWMEM_TEST_PAUSE_AT": point}
        self.proc = subprocess.Popen(
            [CLAWMEM, "dream", "--json", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=tmp_path,
        )
        line = self.proc.stderr.readline().decode()
        assert f"test pause at {point}" in line, line + self.proc.stderr.read().decode()

    def resume(self) -> tuple[int, str, str]:
        out, err = self.proc.communicate(b"\n", timeout=120)
        return self.proc.returncode, out.decode(), err.decode()

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@pytest.fixture
def paused_sweep(tmp_path):
    started: list[PausedSweep] = []

    def run(point: str, *args: str) -> PausedSweep:
        sweep = PausedSweep(tmp_path, point, *args)
        started.append(sweep)
        return sweep

    yield run
    for sweep in started:
        if sweep.proc.poll() is None:
            sweep.kill9()


@pytest.fixture
def say(clawmem, tmp_path):
    """Ingest a Markdown transcript (``user: …`` / ``assistant: …``) through the CLI as a session on ``when``."""
    from tests.dream.replay import at

    def run(session: str, turns: str, when: dt.date, *, origin: str = "owner") -> None:
        source = tmp_path / f"{session}.md"
        source.write_text(turns)
        done = clawmem("ingest", str(source), "--session", session, "--origin", origin, env={"CLAWMEM_NOW": at(when)})
        assert done.returncode == 0, done.stderr

    return run


@pytest.fixture
def dream(clawmem):
    """Run ``clawmem dream --json --explain`` at 23:00 on a day; its report."""
    from tests.dream.replay import at

    def run(when: dt.date) -> dict:
        done = clawmem("dream", "--json", "--explain", env={"CLAWMEM_NOW": at(when, 23)})
        assert done.returncode == 0, done.stderr
        return done.json()

    return run
