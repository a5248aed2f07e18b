"""OpenAI conversation shapes: Chat Completions messages and Responses API items.

* Chat Completions (https://platform.openai.com/docs/api-reference/chat/create): a JSON array
  (or JSONL, or ``{"messages": [...]}``) of ``{"role": "system" | "developer" | "user" |
  "assistant" | "tool" | "function", "content": str | [parts] | null}``; parts are
  ``{"type": "text", "text"}``, ``image_url``, ``input_audio``, ``file``, ``refusal``; an
  assistant message may carry ``tool_calls: [{"id", "type": "function", "function": {"name",
  "arguments"}}]`` (or the legacy ``function_call``), answered by ``{"role": "tool",
  "tool_call_id", "content"}``.
* Responses (https://platform.openai.com/docs/api-reference/responses): items ``{"type":
  "message", "role", "content": [{"type": "input_text" | "output_text", "text"}]}``,
  ``function_call`` (``name``, ``arguments``, ``call_id``), ``function_call_output``
  (``call_id``, ``output``), ``reasoning``. Codex rollouts store the same items
  (``clawmem.transcripts.codex``), so their reading lives here once.

Roles: ``user`` is the user, ``assistant`` the assistant, ``system``/``developer`` scaffolding,
tool and function output ``tool``; tool calls are the assistant's, reasoning is skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from clawmem.transcripts.jsonl import ID_KEYS, TIME_KEYS, first
from clawmem.transcripts.model import Block, Parsed, text_of

TEXT = frozenset({"text", "input_text", "output_text"})
ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system", "tool": "tool", "function": "tool"}
TOOL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "mcp_tool_call_output", "local_shell_call_output"})
SKIPPED_ITEMS = frozenset({"reasoning", "ghost_snapshot", "compaction", "compaction_summary"})


def detect(records: list[object]) -> bool:
    """Role messages with OpenAI-only structure (typed parts, tool calls), or Responses items."""
    records = unwrap(records)
    return any(isinstance(r, dict) and (
        "tool_calls" in r or "tool_call_id" in r or "function_call" in r
        or (isinstance(r.get("content"), list) and any(isinstance(p, dict) and "type" in p for p in r["content"]))
        or (r.get("type") in ("message", "function_call", *TOOL_OUTPUTS))
    ) for r in records)


def unwrap(records: list[object]) -> list[object]:
    """A request body ``{"messages": [...]}`` (or ``{"input": [...]}``) is its list of messages."""
    if len(records) == 1 and isinstance(records[0], dict):
        for key in ("messages", "input"):
            if isinstance(records[0].get(key), list):
                return records[0][key]
    return records


def parse(records: list[object]) -> Parsed:
    parsed = Parsed()
    for number, record in enumerate(unwrap(records), 1):
        if isinstance(record, dict) and "role" in record and record.get("type", "message") == "message" and "payload" not in record:
            _chat_message(record, number, parsed)
        elif isinstance(record, dict) and "type" in record:
            responses_item(record, number, first(record, TIME_KEYS), parsed)
        else:
            parsed.unknown_kind(record.get("type") if isinstance(record, dict) else record)
    return parsed


def _chat_message(record: dict, number: int, parsed: Parsed) -> None:
    role = ROLES.get(str(record["role"]).lower())
    if role is None:
        parsed.unknown_kind(f"role {str(record['role'])[:20]}")
        return
    when, turn_id = first(record, TIME_KEYS), first(record, ID_KEYS)
    turn_id = str(turn_id) if turn_id is not None else None
    name = record.get("name")
    speaker = str(name) if isinstance(name, str) and name and role != "tool" else None
    text = text_of(record.get("content"), parsed, TEXT)
    if isinstance(record.get("refusal"), str):
        text = "\n".join(t for t in (text, record["refusal"]) if t)
    if role == "tool":
        parsed.add(Block("tool", text, f"{name or 'tool'} result", when, turn_id, number))
    else:
        parsed.add(Block(role, text, speaker, when, turn_id, number))
    tool_calls = record.get("tool_calls")
    calls = tool_calls if isinstance(tool_calls, list) else []
    if isinstance(record.get("function_call"), dict):
        calls = [*calls, {"function": record["function_call"]}]
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if role == "assistant" and isinstance(function, dict):
            parsed.add(Block("assistant", f"{function.get('name') or 'tool'} {_arguments(function.get('arguments'))}", "tool call", when, turn_id, number))
        else:
            parsed.unknown_kind("tool call")


def _arguments(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def responses_item(item: dict, number: int, when: object, parsed: Parsed, *, contextual: Callable[[str], bool] | None = None) -> None:
    """One Responses API item; ``contextual`` names user messages the harness wrote (Codex)."""
    kind = item.get("type")
    turn_id = item.get("id") or item.get("call_id")
    turn_id = str(turn_id) if isinstance(turn_id, (str, int)) and not isinstance(turn_id, bool) else None

    def add(role: str, text: str, speaker: str | None = None) -> None:
        parsed.add(Block(role, text, speaker, when, turn_id, number))

    if kind == "message":
        role = ROLES.get(str(item.get("role")).lower())
        text = text_of(item.get("content"), parsed, TEXT)
        if role is None or role == "tool":
            parsed.unknown_kind(f"message from {str(item.get('role'))[:20]}")
        elif role == "user" and contextual is not None and contextual(text):
            add("system", text, "harness context")
        else:
            add(role, text)
    elif kind == "function_call":
        add("assistant", f"{item.get('name') or 'tool'} {_arguments(item.get('arguments'))}", "tool call")
    elif kind == "custom_tool_call":
        add("assistant", f"{item.get('name') or 'tool'} {_arguments(item.get('input'))}", "tool call")
    elif kind == "local_shell_call":
        given = item.get("action")
        action = given if isinstance(given, dict) else {}
        command = action.get("command")
        add("assistant", "shell " + (" ".join(map(str, command)) if isinstance(command, list) else _arguments(command)), "tool call")
    elif kind == "web_search_call":
        add("assistant", f"web search {_arguments(item.get('action'))}", "tool call")
    elif kind in TOOL_OUTPUTS:
        add("tool", _output(item.get("output", item.get("result")), parsed), "tool result")
    elif kind in SKIPPED_ITEMS:
        parsed.skip(kind)
    else:
        parsed.unknown_kind(kind)


def _output(value: object, parsed: Parsed) -> str:
    """A tool's output: a string, content items, or ``{"content", "success"}`` (failures)."""
    if isinstance(value, dict):
        value = value.get("content", json.dumps(value, ensure_ascii=False))
    return text_of(value, parsed, TEXT) if isinstance(value, (str, list)) else _arguments(value)
