"""Output for people and for programs: JSON on stdout, rich only on a terminal, notes on stderr."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clawmem.errors import ClawmemError


def to_jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: to_jsonable(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def emit_json(value: Any) -> None:
    """Write one JSON document to stdout (the only thing on stdout under ``--json``)."""
    sys.stdout.write(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2) + "\n")


def color_allowed(stream: Any) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def console(*, stderr: bool = False):
    """A rich Console that writes plain text when not on a terminal or under NO_COLOR."""
    from rich.console import Console  # deferred: rich costs ~50 ms and only human output needs it

    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, no_color=not color_allowed(stream), highlight=False, soft_wrap=not stream.isatty())


def warn(message: str) -> None:
    """One line on stderr, prefixed like every clawmem diagnostic."""
    sys.stderr.write(f"clawmem: {message}\n")


def report_error(err: ClawmemError, *, as_json: bool) -> None:
    """``clawmem: error: …`` and ``hint: …`` on stderr; under ``--json`` also a JSON object on stdout."""
    if as_json:
        emit_json({"error": err.code, "message": err.message, "hint": err.hint or None})
    sys.stderr.write(f"clawmem: error: {err.message}\n")
    if err.hint:
        sys.stderr.write(f"hint: {err.hint}\n")


def emit_json_line(value: Any) -> None:
    """One compact JSON object on one line, its time first in ``at`` (logs appended from cron)."""
    from clawmem.timeparse import now

    record = {"at": now().astimezone().isoformat(timespec="seconds"), **to_jsonable(value)}
    sys.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
