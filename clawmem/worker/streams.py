"""The client's streams as the worker sees them: its stdin bytes decoded as its own would be, its terminals' ``isatty``."""

from __future__ import annotations

import io
from typing import Any


class Stdin(io.TextIOWrapper):
    """Bytes read from a client's stdin, decoded as its ``sys.stdin`` decodes them (POSIX: lines split at ``\\n``)."""

    def __init__(self, data: bytes, encoding: str, errors: str, tty: bool) -> None:
        super().__init__(io.BytesIO(data), encoding=encoding, errors=errors, newline="\n")
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


class Output(io.StringIO):
    """What a command prints to one stream, with the client's stream's ``isatty``."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def stdin_of(request: dict[str, Any], data: bytes) -> Stdin:
    """The client's stdin, its bytes ``data``, as the request describes it (the client puts the same one in place when it falls back after reading)."""
    return Stdin(data, request["stdin_encoding"], request["stdin_errors"], request["stdin_tty"])
