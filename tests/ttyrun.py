"""Run a command as a person would see it: standard error on a pseudo-terminal, standard output in a pipe.

That split is the one the hints are for: a person at a terminal reads stderr, while a hook or
a script reads stdout, which must stay clean. The terminal is read while the command runs.
"""

from __future__ import annotations

import os
import pty
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path


def run_with_tty_stderr(
    args: Sequence[str] | str, *, cwd: Path, env: dict[str, str], shell: bool = False, timeout: float = 120,
    answer: str | None = None,
) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``args`` with stderr on a fresh pty; with ``answer``, standard
    input is that terminal too and the answer is typed into it (what the person replies to a prompt)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            args, cwd=cwd, env=env, shell=shell, stdin=slave if answer is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=slave, executable="/bin/bash" if shell else None,
        )
        os.close(slave)
        slave = -1
        chunks: list[bytes] = []
        reader = threading.Thread(target=_read_until_closed, args=(master, chunks), daemon=True)
        reader.start()
        if answer is not None:
            os.write(master, answer.encode())
        out, _ = proc.communicate(timeout=timeout)
        reader.join(timeout)
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    err = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return proc.returncode, out.decode("utf-8", "replace"), err


def _read_until_closed(master: int, chunks: list[bytes]) -> None:
    """Read the terminal while the command runs: a full terminal buffer would block its writer
    (a progress bar redrawn for minutes on a loaded machine fills it) until the timeout."""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer has closed the terminal
            return
        if not chunk:
            return
        chunks.append(chunk)


def drain(master: int) -> bytes:
    """Everything left to read from a pseudo-terminal's master side, then close it (EIO or EOF ends it)."""
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return out
