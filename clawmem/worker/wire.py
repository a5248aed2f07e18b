"""The worker's messages on the wire: a line feed, a 4-byte length, then the message in ``marshal`` form.

The client runs on every agent turn, and ``json`` (with ``re``'s scanner and the encoder) cost it
about 2 ms to import, more than the worker's whole answer; ``marshal`` is built into the
interpreter and carries the bytes of a hook's stdin as they are, with no base64. Its format is
the interpreter's own, and both ends are one install of one interpreter (``worker.identity``):
a message of another version fails to load and the client does the work itself. It is not a
format for strangers, and none can reach it: the socket's folder is the user's alone
(``connection.private``) and the worker serves only its own user (``server.peer_uid``).

The line feed first is for a worker of protocol 2, still running after an upgrade, which read
JSON lines: it reads an empty line, refuses at once and the client does the work itself, where
without it the worker would wait for a line feed until the reply timeout. It exits when idle.
"""

from __future__ import annotations

import marshal

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: the client imports this module on every turn
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

START = b"\n"  # before each message (module doc)
HEADER = 4  # bytes of the big-endian length after it
CHUNK = 1 << 16  # read at most this much at a time: a socket's ``recv(n)`` allocates ``n`` bytes
# The exceptions a message that is not the protocol raises while loading (the callers fall back on them)
NOT_THE_PROTOCOL = (ValueError, TypeError, EOFError)


def pack(message: dict[str, Any]) -> bytes:
    """``message`` framed for the socket."""
    body = marshal.dumps(message)
    return START + len(body).to_bytes(HEADER, "big") + body


def unpack(read: Callable[[int], bytes], limit: int) -> dict[str, Any] | None:
    """The next message, read with ``read(n)`` (up to ``n`` bytes, ``b""`` at the end); None when the
    other end hung up. A message longer than ``limit`` bytes, or one that is no dict, raises ``ValueError``."""
    head = _exactly(read, len(START) + HEADER)
    if head is None:
        return None
    if not head.startswith(START):
        raise ValueError("not the protocol")
    size = int.from_bytes(head[len(START) :], "big")
    if size > limit:
        raise ValueError(f"a message of {size} bytes (at most {limit})")
    body = _exactly(read, size)
    if body is None:
        raise ValueError("cut off inside a message")
    message = marshal.loads(body)
    if not isinstance(message, dict):
        raise ValueError("not one message")
    return message


def _exactly(read: Callable[[int], bytes], size: int) -> bytes | None:
    """``size`` bytes, or None when the stream ends first."""
    chunks: list[bytes] = []
    missing = size
    while missing:
        chunk = read(min(missing, CHUNK))
        if not chunk:
            return None
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)
