"""Claude Code session transcripts (``~/.claude/projects/<project>/<session>.jsonl``).

Format, as documented and as Claude Code writes it:

* Agent SDK, "Session management" (https://docs.claude.com/en/docs/claude-code/sdk/sdk-sessions):
  typed records ``{"type": "user" | "assistant" | ..., "uuid", "parentUuid", "timestamp",
  "sessionId", "message": {"role", "content"}}``; the hooks reference
  (https://code.claude.com/docs/en/hooks) hands this file over as ``transcript_path``.
* ``message.content`` follows the Anthropic Messages API content model
  (https://docs.anthropic.com/en/api/messages): a string, or blocks ``text``, ``thinking`` /
  ``redacted_thinking``, ``tool_use`` (assistant), ``tool_result`` (sent back in a *user*
  message), ``image``; server tools return ``web_search_tool_result`` and the like.
* Record flags seen in Claude Code's files and described by the community readers
  (github.com/daaain/claude-code-log, github.com/ryo-morimoto/claude-history
  docs/claude-code-jsonl-format.md): ``isSidechain`` (a sub-agent's turn), ``isMeta``
  (harness bookkeeping: caveats, skill bodies, hook echoes), ``isCompactSummary`` (the
  model's summary written as a user record after compaction), ``isVisibleInTranscriptOnly``,
  ``toolUseResult`` (the record carries a tool's result), ``userType: "external"`` (a
  person typed it); record types ``summary`` (``{"summary", "leafUuid"}``), ``system``,
  ``attachment``, ``file-history-snapshot``, ``progress``, ``queue-operation``…

**Owner means typed.** Claude Code 2.1 marks a prompt record with where it came from:
``promptSource`` ``typed`` (the person at the keyboard), ``sdk`` (the caller of ``claude -p`` or
the Agent SDK: the owner's own program), ``system`` (the harness), and ``origin: {"kind": …}``
on records it writes for events such as task notifications. In a file that carries
``promptSource`` at all, a user text record is the user's only with ``typed`` or ``sdk`` and no
``origin``; every other one is ``system`` (``trust.typed.host_marked_typed``). Older files have no marks, and the
shape rules below decide.

**What the host injected is skipped.** ``attachment`` records (``hook_additional_context``: the
context hooks added, clawmem's own among them, which Claude Code saves and replays on resume),
``isMeta`` and ``isVisibleInTranscriptOnly`` records, compaction summaries (``isCompactSummary``:
the harness's restatement of the turns it replaced, replayed as a user record) and the
harness's tagged blocks inside user records (``<system-reminder>``, ``<task-notification>``,
``<ide_selection>``: ``HOST_TAG``) are counted, never turns; an unflagged record that opens the
way the harness's own do (a skill's body, a continued session's summary: ``HOST_PREAMBLE``) is
``system``.

Roles: a ``user`` record is the user only when nothing says otherwise (not a sidechain, not
meta, not a compaction summary, no tool result, ``userType`` external or absent, not a
local command's output). Tool results, server-tool results and command output are ``tool``
(untrusted); a sub-agent's prompt and replies, ``summary`` records and tool calls are the assistant's
(agent-derived), and every sidechain block is recorded as a ``subagent`` session kind, which
is never promotion-eligible (a sub-agent's "learned" fact is not durable memory); thinking, images, harness metadata and attachments (hook context,
clawmem's own injections among them) are skipped and counted.
"""

from __future__ import annotations

import json
import re

from clawmem.transcripts.model import OWN_OUTPUT, Block, Parsed, own_tool, text_of
from clawmem.trust import typed

CONVERSATION = frozenset({"user", "assistant"})
SKIPPED_TYPES = frozenset({
    "system", "attachment", "file-history-snapshot", "progress", "queue-operation",
    "permission-mode", "custom-title", "checkpoint",
})
TEXT = frozenset({"text"})
THINKING = frozenset({"thinking", "redacted_thinking"})
# local commands the user ran (``/clear``, ``!ls``): their output is a tool's, their invocation is bookkeeping
COMMAND_OUTPUT = re.compile(r"^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>")
COMMAND_INPUT = re.compile(r"^\s*<(command-name|command-message|command-args|local-command-caveat)>")
# What the harness puts in a user record for the model: a block under a tag of its own, named with
# a hyphen or an underscore (``<system-reminder>`` file-change notices and hook context,
# ``<task-notification>``, ``<ide_selection>``, …), in any case and with any attributes, opening a
# line. A person does not type those; HTML does not name tags that way, and a tag the person
# mentions inside a sentence ("why does <my-widget> not render?") is no block; ``<system-reminder>``,
# the harness's own, is one wherever it opens. The block runs to its tag's *last*
# closing tag, or to the end of the record when it is never closed, so a file quoted inside it
# that closes the tag early cannot bring the rest out as the person's words (nor can a block of the
# same tag opened after that last close and left open). Local commands' tags (``COMMAND_OUTPUT``,
# ``COMMAND_INPUT``) and clawmem's own frames (recognised by identity, ``framing``) are judged apart.
HOST_TAG = re.compile(
    r"(?:^[ \t]*|(?=<system-reminder\b))"
    r"<(?!(?:local-command-|bash-|command-|clawmem-|untrusted-content\b))"
    r"(?P<tag>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?:\s[^<>]*)?>",
    re.IGNORECASE | re.MULTILINE,
)
# the one block the harness appends to a tool's result; the rest of a result is the tool's, tags and all
TOOL_REMINDER = "system-reminder"
# Text the harness writes as a user record without a flag in older files: a skill's body, the
# summary a compacted session continues from, the caveat before local commands' output
HOST_PREAMBLE = re.compile(
    r"^\s*(?:Base directory for this skill:|This session is being continued from a previous conversation|"
    r"Caveat: The messages below were generated by the user while running local commands)",
    re.IGNORECASE,
)


def detect(records: list[object]) -> bool:
    """Typed records with a message (or a summary) and Claude Code's ids."""
    return any(
        isinstance(r, dict) and (
            (r.get("type") in CONVERSATION and isinstance(r.get("message"), dict) and ("uuid" in r or "sessionId" in r))
            or (r.get("type") == "summary" and "leafUuid" in r)
        )
        for r in records
    )


def parse(records: list[object]) -> Parsed:
    parsed = Parsed()
    tools: dict[str, str] = {}  # tool_use id -> tool name, to label its result
    marked = any(isinstance(r, dict) and "promptSource" in r for r in records)
    for number, record in enumerate(records, 1):
        kind = record.get("type") if isinstance(record, dict) else record
        if not isinstance(record, dict):
            parsed.unknown_kind(kind)
        elif kind == "summary" and isinstance(record.get("summary"), str):
            parsed.add(Block("assistant", record["summary"], "summary", record.get("timestamp"), _id(record.get("leafUuid")), number))
        elif kind in CONVERSATION and isinstance(record.get("message"), dict):
            _message(record, number, parsed, tools, marked)
        elif kind in SKIPPED_TYPES:
            parsed.skip(kind)
        else:
            parsed.unknown_kind(kind)
    return parsed


def _id(value: object) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _message(record: dict, number: int, parsed: Parsed, tools: dict[str, str], marked: bool) -> None:
    if record.get("isCompactSummary") is True:  # the harness replays it after compaction: a restatement, not a turn
        parsed.skip("compaction summary")
        return
    if record.get("isMeta") is True or record.get("isVisibleInTranscriptOnly") is True:
        parsed.skip("meta")
        return
    content = record["message"].get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(blocks, list):
        parsed.unknown_kind(f"{record['type']} content")
        return
    sidechain = record.get("isSidechain") is True
    when, turn_id = record.get("timestamp"), _id(record.get("uuid"))

    def add(role: str, text: str, speaker: str | None) -> None:
        parsed.add(Block(role, text, speaker, when, turn_id, number, subagent=sidechain))

    if record["type"] == "assistant":
        for block in blocks:
            _assistant_block(block, add, parsed, tools, "subagent" if sidechain else None)
        return
    carries_result = record.get("toolUseResult") is not None or any(
        isinstance(b, dict) and str(b.get("type", "")).endswith("tool_result") for b in blocks)
    if carries_result:
        for block in blocks:  # everything in a record that carries a tool result is the tool's
            if isinstance(block, dict) and str(block.get("type", "")).endswith("tool_result"):
                name = tools.get(str(block.get("tool_use_id")), "tool")
                if own_tool(name):
                    parsed.skip(OWN_OUTPUT)
                    continue
                add("tool", _unhosted(text_of(block.get("content"), parsed, TEXT), parsed, only=TOOL_REMINDER), f"{name} result")
            else:
                add("tool", _unhosted(text_of([block], parsed, TEXT), parsed, only=TOOL_REMINDER), "tool result")
    elif sidechain:
        add("assistant", text_of(blocks, parsed, TEXT), "subagent prompt")
    elif record.get("userType", "external") != "external":
        parsed.unknown_kind(f"user from {str(record.get('userType'))[:20]}")
    else:
        preambled = [b for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str) and HOST_PREAMBLE.match(b["text"])]
        for block in preambled:  # the harness's own text block; what the person typed beside it stays theirs
            add("system", _unhosted(block["text"], parsed), "host record")
        text = _unhosted(text_of([b for b in blocks if b not in preambled], parsed, TEXT), parsed)
        if COMMAND_OUTPUT.match(text):
            add("tool", text, "command output")
        elif COMMAND_INPUT.match(text):
            parsed.skip("command")
        elif not typed.host_marked_typed(record.get("origin"), record.get("promptSource"), marked=marked):
            add("system", text, "host record")
        else:
            add("user", text, None)


def _unhosted(text: str, parsed: Parsed, *, only: str | None = None) -> str:
    """``text`` without the harness's tagged blocks (``HOST_TAG``, or only the tag ``only``; each
    counted as skipped under its tag's name): they are never the user's."""
    cut = False
    start = 0
    while opening := HOST_TAG.search(text, start):
        tag = opening["tag"].lower()
        if only is not None and tag != only:
            start = opening.end()
            continue
        closings = list(re.finditer(rf"</\s*{re.escape(tag)}\s*>", text[opening.end() :], re.IGNORECASE))
        end = opening.end() + closings[-1].end() if closings else len(text)
        if any(later["tag"].lower() == tag for later in HOST_TAG.finditer(text, end)):
            end = len(text)  # opened again after its last close and never closed
        text = text[: opening.start()] + text[end:]
        parsed.skip(tag)
        cut = True
    return text.strip() if cut else text


def _assistant_block(block: object, add, parsed: Parsed, tools: dict[str, str], speaker: str | None) -> None:
    kind = block.get("type") if isinstance(block, dict) else block
    if not isinstance(block, dict):
        parsed.unknown_kind(kind)
    elif kind == "text" and isinstance(block.get("text"), str):
        add("assistant", block["text"], speaker)
    elif kind in THINKING:
        parsed.skip("thinking")
    elif kind in ("tool_use", "server_tool_use"):
        name = str(block.get("name") or "tool")
        tools[str(block.get("id"))] = name
        add("assistant", f"{name} {json.dumps(block.get('input'), ensure_ascii=False)}", f"{speaker or 'assistant'} tool call")
    elif str(kind).endswith("tool_result"):  # a server tool (web search, fetch) answered inside the message
        result = block.get("content")
        add("tool", result if isinstance(result, str) else json.dumps(result, ensure_ascii=False), str(kind))
    else:
        parsed.unknown_kind(kind)
