"""Reading and validating raw input: text arguments, files and standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from clawmem.errors import BadInput

CONTROL = {chr(c) for c in range(32)} - {"\n", "\r", "\t"}


def decode_input(data: bytes | str, *, limit: int, what: str = "input") -> str:
    """Validate raw input: within the size limit, UTF-8, not binary, not empty."""
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data
    if len(raw) > limit:
        raise BadInput(f"{what} is {len(raw):,} bytes; the limit is {limit:,}", hint="split it, or raise the limits in clawmem.toml")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadInput(f"{what} is not valid UTF-8 (byte {err.start})", hint="convert it to UTF-8 first") from err
    if any(ch in CONTROL for ch in text):
        raise BadInput(f"{what} looks binary (it contains control characters)", hint="pass text, not a binary file")
    if not text.strip():
        raise BadInput(f"{what} is empty", hint="give the text to remember")
    return text


def read_source(source: str, *, limit: int, what: str) -> bytes:
    """Read ``source``: a file path, or ``-`` for standard input; refuse more than ``limit`` bytes."""
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        path = Path(source)
        if not path.is_file():
            raise BadInput(f"no such {what} file: {source}")
        if path.stat().st_size > limit:
            raise BadInput(f"{what} {source} is {path.stat().st_size:,} bytes; the limit is {limit:,}")
        data = path.read_bytes()
    if len(data) > limit:
        raise BadInput(f"{what} is larger than the limit of {limit:,} bytes")
    return data
