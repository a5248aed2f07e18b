"""One request to the workspace's worker over its Unix socket, and the check that the socket is the user's own.

Apart from the client (which falls back in process) and the lifecycle (which probes a running
worker), so neither imports the other for it. Standard library only, imported when used.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from clawmem import worker


def ask(root: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """One request and its reply, or None when the worker cannot be reached or answers no JSON object."""
    import json
    import socket

    message = {"protocol": worker.PROTOCOL, "code": worker.code_hash(), "env": worker.env_hash(), **request}
    try:
        if not private(worker.run_dir(root)):
            return None
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(worker.CONNECT_TIMEOUT_S)
            conn.connect(str(worker.socket_path(root)))
            conn.settimeout(worker.REPLY_TIMEOUT_S)
            conn.sendall(json.dumps(message).encode() + b"\n")
            with conn.makefile("rb") as replies:
                reply = json.loads(replies.readline())
    except (OSError, ValueError, TypeError):  # unreachable, cut off, or not the protocol
        return None
    return reply if isinstance(reply, dict) else None


def private(folder: Path) -> bool:
    """The socket's folder is this user's and no one else's: a prompt is never sent to a socket another user put there."""
    info = os.lstat(folder)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
