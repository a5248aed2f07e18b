"""Tool errors phrased for the model: what went wrong and which tool parameter to change.

``ClawmemError`` hints are written for a person at a shell (``pass --session ID``); a model
calling a tool can only change the tool's arguments, and commands like ``clawmem init`` are
the owner's to run. Argument validation errors come from pydantic, whose text ends with a
documentation URL and repeats the rejected value: we keep the field and the reason only.
"""

from __future__ import annotations

import re
from typing import Any

from clawmem.errors import ClawmemError

# CLI flags named in clawmem's hints, and the tool parameter that plays the same part
FLAG_PARAMETERS = {
    "--session": "session",
    "--origin": "origin",
    "--session-kind": "session_kind",
    "--format": "format",
    "--importance": "importance",
    "--trigger": "triggers",
    "--project": "projects",
    "--key": "key",
    "--at": "at",
    "--when": "when",
    "--limit": "limit",
    "--tier": "tier",
    "--include-untrusted": "include_untrusted",
    "--context": "context",
    "--state": "state",
}
FLAG = re.compile(r"`?(?P<flag>--[a-z][a-z-]*)(?: [A-Z][A-Z_]*)?`?")
WORKSPACE_FLAG = re.compile(r"\s*\(or pass --workspace DIR\)")
OWNER_COMMAND = re.compile(r"`clawmem [^`]+`")


def _parameter(match: re.Match) -> str:
    name = FLAG_PARAMETERS.get(match["flag"])
    return f"the `{name}` parameter" if name else match[0]


def hint_for_model(hint: str) -> str:
    """A CLI hint with flags turned into tool parameters and commands marked as the owner's."""
    hint = WORKSPACE_FLAG.sub("", hint)
    hint = FLAG.sub(_parameter, hint)
    if OWNER_COMMAND.search(hint):
        hint = f"{hint} (a command for the owner to run at a terminal; tell them)"
    return hint


def for_model(err: ClawmemError) -> str:
    """The message a model reads when a tool call fails with an expected error."""
    text = err.message
    return f"{text}. Hint: {hint_for_model(err.hint)}" if err.hint else text


def _location(error: dict[str, Any]) -> str:
    return ".".join(str(part) for part in error.get("loc", ())) or "arguments"


def invalid_arguments(tool: str, errors: list[dict[str, Any]]) -> str:
    """Pydantic's validation errors as one sentence per parameter, without URLs or values."""
    problems = []
    for error in errors:
        where = _location(error)
        if error.get("type") == "missing":
            problems.append(f"`{where}` is required")
        else:
            problems.append(f"`{where}`: {error.get('msg', 'invalid value')}")
    return f"invalid arguments for {tool}: " + "; ".join(problems) + ". Fix them and call the tool again (its inputSchema lists every parameter)."
