"""Tool errors phrased for the model: what went wrong and which tool parameter to change.

``ClawmemError`` hints are written for a person at a shell (``pass --session ID``); a model
calling a tool can only change the tool's arguments, and commands like ``clawmem init`` are
the owner's to run. Argument validation errors come from pydantic, whose text ends with a
documentation URL and repeats the rejected value: we keep the field and the reason only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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
FLAG = re.compile(r"`?(?P<flag>--[a-z][a-z-]*)(?P<placeholder> [A-Z][A-Z_]*)?`?")
WORKSPACE_FLAG = re.compile(r"\s*\(or pass --workspace DIR\)")
OWNER_ONLY = re.compile(r"\(?(?:if the owner asked for it, )?pass --origin owner\)?")
OWNER_COMMAND = re.compile(r"`clawmem [^`]+`")


def _parameter(match: re.Match) -> str:
    name = FLAG_PARAMETERS.get(match["flag"])
    if name is None:
        return match[0]
    return f"the `{name}` parameter" if match["placeholder"] else f"`{name}`"


def for_model_text(text: str) -> str:
    """Flags named in a message or hint, as the tool parameters that play their part."""
    text = WORKSPACE_FLAG.sub("", text)
    text = OWNER_ONLY.sub("only the owner can, at a terminal (an MCP client is never the owner)", text)
    return FLAG.sub(_parameter, text)


def hint_for_model(hint: str) -> str:
    """A CLI hint with flags turned into tool parameters and commands marked as the owner's."""
    hint = for_model_text(hint)
    if OWNER_COMMAND.search(hint):
        hint = f"{hint} (a command for the owner to run at a terminal; tell them)"
    return hint


def for_model(err: ClawmemError) -> str:
    """The message a model reads when a tool call fails with an expected error."""
    text = for_model_text(err.message)
    return f"{text}. Hint: {hint_for_model(err.hint)}" if err.hint else text


PARAMETER_NOTES = {"origin": "an MCP client is an agent, never the owner"}


def _location(error: Mapping[str, Any]) -> str:
    return ".".join(str(part) for part in error.get("loc", ())) or "arguments"


def invalid_arguments(tool: str, errors: Sequence[Mapping[str, Any]]) -> str:
    """Pydantic's validation errors as one sentence per parameter, without URLs or values."""
    problems = []
    for error in errors:
        where = _location(error)
        if error.get("type") == "missing":
            problems.append(f"`{where}` is required")
        else:
            note = PARAMETER_NOTES.get(where)
            problems.append(f"`{where}`: {error.get('msg', 'invalid value')}" + (f" ({note})" if note else ""))
    return f"invalid arguments for {tool}: " + "; ".join(problems) + ". Fix them and call the tool again (its inputSchema lists every parameter)."
