"""CLI fixtures: the installed command on a real terminal (a pseudo-terminal), and a workspace with dreamable memory."""

from __future__ import annotations

import datetime as dt
import errno
import fcntl
import os
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))

WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."


@pytest.fixture
def on_terminal(tmp_path):
    """Run ``clawmem`` with stdout and stderr on a pseudo-terminal of ``columns`` width; return what it showed.

    A pipe cannot show what a person sees: styling and tables are decided by ``isatty``.
    """

    def run(*args: str, columns: int = 100, env: dict | None = None, cwd=None) -> tuple[int, str]:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        full_env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm-256color", **(env or {})}
        full_env = {k: v for k, v in full_env.items() if v is not None}
        proc = subprocess.Popen([CLAWMEM, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=full_env, cwd=cwd or tmp_path)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError as err:  # EIO: the child closed the terminal
                if err.errno != errno.EIO:
                    raise
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")

    return run


@pytest.fixture
def dreamable(ws):
    """Three owner sessions on three days share one workaround: dreaming has a real candidate to explain."""
    from clawmem.commands.ingest import ingest

    for i, complaint in enumerate(["the linker is broken again", "CI went red after the bump", "release branch will not compile"], 1):
        at = (dt.datetime.now() - dt.timedelta(days=4 - i)).replace(hour=10, minute=0, second=0, microsecond=0)
        ingest(ws, f"user: {complaint}\nassistant: {WORKAROUND}\nuser: thanks, that did it for ticket {100 + i}\n", session=f"s{i}", origin="owner", at=at)
    return ws
