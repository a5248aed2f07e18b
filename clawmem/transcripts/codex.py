"""Codex CLI session rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``).

Format, from openai/codex: ``codex-rs/protocol/src/protocol.rs`` (``RolloutLine``: a
``timestamp`` and a flattened ``RolloutItem``, serialised ``{"type": "session_meta" |
"response_item" | "compacted" | "turn_context" | "event_msg", "payload": {...}}``) and
``codex-rs/protocol/src/models.rs`` (``ResponseItem``: ``message``, ``reasoning``,
``function_call``, ``function_call_output``, ``custom_tool_call(_output)``,
``local_shell_call``, ``web_search_call``, ``ghost_snapshot``, ``compaction``). Rollouts of
mid-2025 releases have no wrapper: a first ``{"id", "timestamp", "instructions"}`` line, then
bare response items and ``{"record_type": "state"}`` lines.

Roles: Codex writes its own context into *user* messages (``<environment_context>``,
``<user_instructions>``, ``# AGENTS.md instructions for …``, ``<turn_aborted>``, skill and
shell-command wrappers: ``codex-rs/core/src/contextual_user_message.rs`` and
``user_instructions.rs``); those are harness context (``system``), never the user, since an
``AGENTS.md`` comes from whatever repository is checked out. ``event_msg`` lines repeat the
response items for the UI and are skipped, as are ``session_meta`` and ``turn_context``;
``compacted`` carries the model's summary of the history it replaced (agent-derived).

**Owner means typed.** Codex records what the person typed a second time, as an ``event_msg``
of type ``user_message``. When a rollout has those, a user message is the user's only where it
is one of them (``trust.typed.typed_only``): a user message holding a typed prompt and harness context
together is split, and any other user message (context Codex or a plugin wrote, in whatever
shape) is ``system``. Rollouts without such events (mid-2025 releases) fall back to the list of
context shapes above. A
rollout whose ``session_meta.source`` says a sub-agent ran it (``SessionSource::SubAgent``)
is recorded as a ``subagent`` session, like a Claude Code sidechain.
"""

from __future__ import annotations

import re
from typing import Any

from clawmem.foundation.records import replace
from clawmem.transcripts.model import OWN_OUTPUT, Block, Parsed, own_tool
from clawmem.transcripts.openai_chat import responses_item
from clawmem.trust.typed import mark, typed_only

WRAPPED = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
SKIPPED = frozenset({"session_meta", "turn_context", "event_msg"})
BARE_ITEMS = frozenset({
    "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
    "custom_tool_call_output", "local_shell_call", "web_search_call", "ghost_snapshot", "compaction",
})
# a user message holding a part Codex writes (a line opening with one of its tags or AGENTS.md), or wholly one tag
CONTEXT_TAG = re.compile(r"^\s*<(?P<tag>[A-Za-z_][\w-]*)>.*</(?P=tag)>\s*$", re.DOTALL)
CONTEXT_PREFIX = re.compile(r"^\s*(?:# AGENTS\.md instructions|<(?:environment_context|user_instructions|turn_aborted|user_shell_command|skill|subagent_notification|context_update)>)", re.IGNORECASE | re.MULTILINE)  # noqa: E501


def contextual(text: str) -> bool:
    """A user-role message Codex wrote itself (its context, instructions, notices), not the user."""
    return bool(CONTEXT_PREFIX.match(text) or CONTEXT_TAG.match(text))


def detect(records: list[object]) -> bool:
    head = records[0] if records else None
    legacy = isinstance(head, dict) and "instructions" in head and "id" in head and "role" not in head
    return legacy or any(isinstance(r, dict) and r.get("type") in WRAPPED and isinstance(r.get("payload"), dict) for r in records)


def parse(records: list[object]) -> Parsed:
    parsed = Parsed()
    for number, record in enumerate(records, 1):
        kind = record.get("type") if isinstance(record, dict) else record
        if not isinstance(record, dict):
            parsed.unknown_kind(kind)
        elif kind in WRAPPED and isinstance(record.get("payload"), dict):
            _wrapped(kind, record["payload"], record.get("timestamp"), number, parsed)
        elif kind in BARE_ITEMS:
            responses_item(record, number, record.get("timestamp"), parsed, contextual=contextual)
        elif "record_type" in record or (number == 1 and "instructions" in record):
            parsed.skip("session_meta" if number == 1 else "state")
        else:
            parsed.unknown_kind(kind)
    own = _own_calls(records)
    for block in [b for b in parsed.blocks if b.role == "tool" and b.turn_id in own]:
        parsed.blocks.remove(block)
        parsed.skip(OWN_OUTPUT)
    typed = _typed(records)
    if typed:
        parsed.blocks = [part for block in parsed.blocks for part in typed_only(block, typed, rest_speaker="harness context")]
    if _spawned(records):
        parsed.blocks = [replace(b, subagent=True) for b in parsed.blocks]
    return parsed


def _own_calls(records: list[object]) -> frozenset[str]:
    """Turn ids of the outputs of clawmem's own MCP tools (``transcripts.own_tool``): they are not stored."""
    found = [r.get("payload") if isinstance(r, dict) and r.get("type") == "response_item" else r for r in records]
    items: list[dict[str, Any]] = [item for item in found if isinstance(item, dict) and item.get("call_id") is not None]
    calls = {str(item["call_id"]) for item in items
             if item.get("type") == "function_call" and (own_tool(item.get("namespace")) or own_tool(item.get("name")))}
    return frozenset(str(item.get("id") or item["call_id"]) for item in items
                     if item.get("type") == "function_call_output" and str(item["call_id"]) in calls)


def _typed(records: list[object]) -> frozenset[str]:
    """What the person typed, as Codex's ``user_message`` events repeat it (``trust.typed`` marks)."""
    found = set()
    for r in records:
        payload = r.get("payload") if isinstance(r, dict) and r.get("type") == "event_msg" else None
        message = payload.get("message") if isinstance(payload, dict) and payload.get("type") == "user_message" else None
        if isinstance(message, str) and message.strip():
            found.add(mark(message))
    return frozenset(found)


def _spawned(records: list[object]) -> bool:
    """A rollout of an agent another agent spawned: ``session_meta.source`` is ``{"subagent": ...}``."""
    meta: dict[str, Any] = next((r["payload"] for r in records if isinstance(r, dict) and r.get("type") == "session_meta" and isinstance(r.get("payload"), dict)), {})
    source = meta.get("source")
    return source == "subagent" or (isinstance(source, dict) and "subagent" in source)


def _wrapped(kind: str, payload: dict, when: object, number: int, parsed: Parsed) -> None:
    if kind == "response_item":
        responses_item(payload, number, when, parsed, contextual=contextual)
    elif kind == "compacted" and isinstance(payload.get("message"), str):
        parsed.add(Block("assistant", payload["message"], "compaction summary", when, None, number))
    elif kind in SKIPPED:
        parsed.skip(kind)
    else:
        parsed.unknown_kind(kind)
