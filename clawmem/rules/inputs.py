"""Reading and validating raw input: text arguments, files and standard input."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from clawmem.entries.lines import flatten_breaks
from clawmem.foundation.errors import BadInput, BadValue

CONTROL = {chr(c) for c in range(32)} - {"\n", "\r", "\t"}
# Terminal escape sequences (CSI and OSC) as tools print them: colour codes, titles, cursor moves.
TERMINAL_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x9b[0-?]*[ -/]*[@-~]")
# C0 and C1 controls a file must not carry (tab and newline are text); shown as U+FFFD instead.
STRAY_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# DEL and the C1 controls, which json.dumps leaves raw (it escapes only C0): U+009B is the 8-bit CSI
RAW_IN_JSON = re.compile(r"[\x7f-\x9f]")
# The C1 controls: valid UTF-8, so raw input may carry them (a tool's output, a paste); stored as U+FFFD.
C1_CONTROL = re.compile(r"[\x80-\x9f]")
SURROGATE = re.compile(r"[\ud800-\udfff]")


def check_encodable(value: str, what: str) -> str:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate, e.g. from invalid bytes in argv or a JSON escape)."""
    found = SURROGATE.search(value)
    if found:
        raise BadValue(f"{what} is not valid Unicode (lone surrogate U+{ord(found.group()):04X} at character {found.start()})",
                       hint="pass valid UTF-8 text")
    return value


def clean_text(value: str, what: str) -> str:
    """Text decoded from structured input (a JSON string): writable, one line model, no terminal escapes.

    JSON escapes can spell what raw input may not contain: lone surrogates are refused,
    terminal escape sequences dropped, other control characters shown as U+FFFD, and
    line-break look-alikes flattened so they cannot open a line for any reader.
    """
    check_encodable(value, what)
    return STRAY_CONTROL.sub("\ufffd", TERMINAL_ESCAPE.sub("", flatten_breaks(value)))


def printable(text: str) -> str:
    """``text`` as it may reach a terminal: every C0 and C1 control except tab and newline shown as U+FFFD.

    Stored text can hold what no writer accepts (a hand edit, a pull, an older version), and a
    terminal obeys ESC and the 8-bit CSI (U+009B) alike; every printer passes its text through here.
    """
    return STRAY_CONTROL.sub("\ufffd", text.replace("\r\n", "\n"))


def json_printable(document: str) -> str:
    """Serialised JSON with DEL and C1 controls written as ``\\u`` escapes, as json already writes C0
    (the same value for a program, nothing a terminal obeys). Outside strings JSON is ASCII, so
    every one of them is inside a string."""
    return RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", document)


def neutral_c1(text: str) -> str:
    """``text`` with every C1 control shown as U+FFFD: what a terminal would obey never reaches a file.

    C0 controls mark input as binary and refuse it; C1 controls are valid UTF-8 that a real
    transcript can hold (JavaScript's JSON writer leaves them raw), so refusing them would lose
    a session for one character, and keeping them would store an 8-bit CSI (U+009B).
    """
    return C1_CONTROL.sub("\ufffd", text)


def decode_input(data: bytes | str, *, limit: int, what: str = "input") -> str:
    """Validate raw input: within the size limit, UTF-8, not binary, not empty; C1 controls neutralised."""
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
    return neutral_c1(text)


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


def text_or_stdin(value: str, *, limit: int, what: str, named: str | None = None) -> str:
    """A text argument as given, or standard input read and validated once when it is ``-``.

    Every command that takes ``TEXT`` or ``-`` goes through here, so a piped note, intent or
    message meets the same size, UTF-8 and binary checks before anything is written.
    ``named`` is how a decoding error names the text (default: "<what> text").
    """
    if value != "-":
        return value
    return decode_input(read_source("-", limit=limit, what=what), limit=limit, what=named or f"{what} text")


def read_transcript(path: Path, limit: int, degraded: list[str]) -> bytes | None:
    """The transcript's bytes, or None with a reason.

    Checked before it is read (a regular file no larger than ``limit``), opened without blocking
    and read at most ``limit + 1`` bytes: a 400 MB file, a pipe or a device that the hook JSON
    names never costs the host's turn its time or memory.
    """
    import os
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            degraded.append(f"transcript {path} is not a regular file: nothing ingested")
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                degraded.append(f"transcript {path} is {info.st_size:,} bytes; the limit is {limit:,}: nothing ingested")
                return None
            raw = handle.read(limit + 1)
    except (OSError, ValueError) as err:  # ValueError: a path with a NUL byte
        degraded.append(f"transcript {path} unreadable ({getattr(err, 'strerror', None) or type(err).__name__}): nothing ingested")
        return None
    if len(raw) > limit:
        degraded.append(f"transcript {path} grew past the limit of {limit:,} bytes while it was read: nothing ingested")
        return None
    return raw
