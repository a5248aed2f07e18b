"""Run a command as a person would see it: standard error on a pseudo-terminal, standard output in a pipe.

That split is the one the hints are for: a person at a terminal reads stderr, while a hook or
a script reads stdout, which must stay clean. Output is small, so reading after exit is safe.
"""

from __future__ import annotations

import os
import pty
import subprocess
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
        if answer is not None:
            os.write(master, answer.encode())
        out, _ = proc.communicate(timeout=timeout)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if slave != -1:
            os.close(slave)
        os.close(master)
    err = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return proc.returncode, out.decode("utf-8", "replace"), err


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
