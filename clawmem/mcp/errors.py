"""Tool errors phrased for the model: what went wrong and which tool parameter to change.

``ClawmemError`` hints are written for a person at a shell (``pass --session ID``); a model
calling a tool can only change the tool's arguments, and commands like ``clawmem init`` are
the owner's to run. Argument validation errors come from pydantic, whose text ends with a
documentation URL and repeats the rejected value: we keep the field and the reason only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from clawmem.foundation.errors import ClawmemError

RESOURCE_NOT_FOUND = -32002  # the handshake-era specs' code for resources/read of an unknown URI (2026-07-28: -32602, SEP-2164)

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
OWNER_COMMAND = re.compile(r"`clawmem [^`]+`")
OWNER_ONLY = re.compile(r"\(?(?:if the owner asked for it, )?pass --origin owner\)?")
# phrases about options a tool call cannot set (the server's workspace is the host's to choose): dropped or reworded
NO_PARAMETER = (
    (re.compile(r"\s*\(or pass --workspace DIR\)"), ""),
    (re.compile(r",? or pass --workspace DIR"), ""),
    (re.compile(r",? or name a workspace with --workspace"), ""),
    (re.compile(r"point --workspace or \$CLAWMEM_WORKSPACE at a directory"), "the owner sets the workspace where the host starts the server (`clawmem mcp -w DIR`)"),
    (re.compile(r",? or --review DATE \(an aspiration\)"), ""),
)


def _get(match: re.Match) -> str:
    context = f" and `context` {match['context']}" if match["context"] else ""
    return f"`read_excerpt` with `anchor` \"{match['anchor']}\"{context}"


def _intents(match: re.Match) -> str:
    return f"`list_intents` with `state` \"{match['state']}\"" if match["state"] else "`list_intents`"


# the owner's commands that a tool does as well: the model is told to call the tool
TOOL_FOR_COMMAND: tuple[tuple[re.Pattern[str], Callable[[re.Match], str]], ...] = (
    (re.compile(r"`clawmem get (?P<anchor>[^`\s]+)(?: -C (?P<context>\d+))?`"), _get),
    (re.compile(r"`clawmem intent list(?: --state (?P<state>[a-z]+))?`"), _intents),
    (re.compile(r"`clawmem search [^`]*`"), lambda _: "`search_memory`"),
    (re.compile(r"`clawmem user list`"), lambda _: "the resource clawmem://USER.md"),
)


def _parameter(match: re.Match) -> str:
    name = FLAG_PARAMETERS.get(match["flag"])
    if name is None:  # an option no tool has: the owner's, at the command line
        return f"the owner's `{match['flag']}{match['placeholder'] or ''}` option"
    return f"the `{name}` parameter" if match["placeholder"] else f"`{name}`"


def for_model_text(text: str) -> str:
    """Flags named in a message or hint, as the tool parameters (or tools) that play their part.

    A command left for the owner (`` `clawmem index --rebuild` ``) is kept whole, flags and all.
    """
    for pattern, replacement in NO_PARAMETER:
        text = pattern.sub(replacement, text)
    text = OWNER_ONLY.sub("only the owner can, at a terminal (an MCP client is never the owner)", text)
    for command, tool in TOOL_FOR_COMMAND:
        text = command.sub(tool, text)
    parts = re.split(f"({OWNER_COMMAND.pattern})", text)
    return "".join(part if OWNER_COMMAND.fullmatch(part) else FLAG.sub(_parameter, part) for part in parts)


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
