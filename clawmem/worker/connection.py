"""One conversation with the workspace's worker over its Unix socket, and the check that the socket is the user's own.

Apart from the client (which falls back in process) and the lifecycle (which probes a running
worker), so neither imports the other for it. The client runs this on every turn, so it uses
the standard library at its lowest: ``_socket`` rather than ``socket`` (the wrapper module and
what it imports cost more than the whole exchange), and ``marshal`` on the wire (``wire``).
"""

from __future__ import annotations

import os
import stat

from clawmem import worker
from clawmem.worker import wire

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: the client imports this module on every turn
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


class Conversation:
    """Messages (``wire``) each way on a connected socket (``OSError`` when cut off, timed out or refused)."""

    def __init__(self, path: str) -> None:
        import _socket

        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            self.sock.settimeout(worker.CONNECT_TIMEOUT_S)
            self.sock.connect(path)
            self.sock.settimeout(worker.REPLY_TIMEOUT_S)
        except BaseException:
            self.sock.close()
            raise

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(wire.pack(message))

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None when the other end hung up (``ValueError``: not the protocol)."""
        return wire.unpack(self.sock.recv, worker.MESSAGE_MAX_BYTES)

    def close(self) -> None:
        self.sock.close()


def opened(root: str | os.PathLike[str]) -> Conversation | None:
    """A conversation with the worker of ``root``, or None when there is none this user may talk to."""
    folder = os.path.join(root, ".clawmem", worker.RUN_DIR)
    try:
        if not private(folder):
            return None
        return Conversation(os.path.join(folder, worker.SOCKET_NAME))
    except OSError:
        return None


def greeting() -> dict[str, Any]:
    """What every request starts with: the protocol, this install and the environment the answers depend on."""
    return {"protocol": worker.PROTOCOL, "code": worker.identity(), "env": worker.env_chosen(), "session_env": worker.session_env()}


def ask(root: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """One request and its reply, or None when the worker cannot be reached or does not speak the protocol."""
    conversation = opened(root)
    if conversation is None:
        return None
    try:
        conversation.send({**greeting(), **request})
        return conversation.receive()
    except (OSError, *wire.NOT_THE_PROTOCOL):  # cut off, or not the protocol
        return None
    finally:
        conversation.close()


def private(folder: str | os.PathLike[str]) -> bool:
    """The socket's folder is this user's and no one else's: a prompt is never sent to a socket another user put there."""
    info = os.lstat(folder)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
