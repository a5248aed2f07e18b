"""The client side: ask the workspace's worker to run a command, or run it here when it cannot.

Falls back to the caller's own process on any failure: no worker (it is then started in the
background for the next call), a stale socket, a timeout, a reply that is not the protocol, a
worker of another version or started with another environment. Once stdin has been read for
the request, the fallback reads the same bytes, so nothing is lost and nothing is read twice.
Imports only the standard library, and only once a socket is there.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clawmem import worker
from clawmem.worker.connection import ask


def _root(option: Any) -> Path | None:
    """The workspace root the command would use, or None (the command reports why, in process)."""
    from clawmem.workspace import resolve

    try:
        root = resolve(option).root
    except Exception:  # noqa: BLE001 -- the command itself says what is wrong with the workspace
        return None
    return root if (root / ".clawmem").is_dir() else None


def _stdin(command: str, values: dict[str, Any]) -> bytes | None:
    """The bytes of stdin the command would read (the hook: up to ``STDIN_READ_MAX``, past its own limit), or None to stay local."""
    stream = sys.stdin
    if stream is None:
        return None
    if command == "recall":
        if values.get("message") != "-":
            return b""
        return None if stream.isatty() else stream.buffer.read()
    if stream.isatty():
        return b""
    return stream.buffer.read(worker.STDIN_READ_MAX)


def delegated(command: str, values: dict[str, Any], local: Callable[[], int]) -> int:
    """``local()``'s exit code, with its output printed, by the worker when it answers, else by ``local()``."""
    root = None if worker.disabled() else _root(values.get("workspace"))
    if root is None:
        return local()
    if not os.path.exists(worker.socket_path(root)):
        from clawmem.worker.lifecycle import start_in_background

        start_in_background(root)
        return local()
    try:
        cwd = os.getcwd()
    except OSError:  # the directory was removed: the command says what that means, in process
        return local()
    data = _stdin(command, values)
    if data is None:
        return local()
    if values.get("workspace") is not None:
        values = {**values, "workspace": os.fspath(values["workspace"])}
    import base64  # here, not at the top: a process that finds no worker never needs it

    stdin = sys.stdin
    request = {
        "command": command, "args": values, "cwd": cwd, "stdin": base64.b64encode(data).decode(),
        "stdin_encoding": stdin.encoding, "stdin_errors": stdin.errors, "stdin_tty": stdin.isatty(),
        "stdout_tty": sys.stdout.isatty(), "stderr_tty": sys.stderr.isatty(),
    }
    reply = ask(root, request)
    if reply is None or not reply.get("ok") or not isinstance(reply.get("code"), int):
        return _fallback(root, request, reply, local)
    sys.stdout.write(reply["stdout"])
    sys.stderr.write(reply["stderr"])
    return reply["code"]


def _fallback(root: Path, request: dict[str, Any], reply: dict[str, Any] | None, local: Callable[[], int]) -> int:
    """Run here on the bytes already read; a refused or dead worker is replaced in the background."""
    from clawmem.worker.lifecycle import start_in_background
    from clawmem.worker.streams import stdin_of

    if reply is None or reply.get("error") == "version":
        start_in_background(root)  # a stale socket, or an old worker now exiting
    sys.stdin = stdin_of(request)
    return local()
