"""The parse model every host format fills: ``Block``s, skip and unknown counts, and clawmem's own tool calls."""

from __future__ import annotations

import re
from collections import Counter

from clawmem.foundation.config import MCP_SERVER
from clawmem.foundation.records import dataclass, field, replace

MAX_KINDS = 20  # distinct skip/unknown names kept per transcript; the rest are counted as "other"
MAX_KIND_CHARS = 40  # a record type is input: only its first characters name a count


OWN_TOOLS = f"mcp__{MCP_SERVER}"
OWN_OUTPUT = "clawmem tool output"  # skip count: what clawmem's own MCP tools handed out


def own_tool(name: object) -> bool:
    """A call of clawmem's own MCP server, by the name the host gives it (``mcp__clawmem__search_memory``,
    or Codex's ``mcp__clawmem`` namespace). Its output is memory clawmem handed out, like the hooks'
    context: never stored again as a tool's untrusted output (it would taint every later line that
    repeats a memory), and a search hit is already in the recall log."""
    return isinstance(name, str) and (name == OWN_TOOLS or name.startswith(OWN_TOOLS + "__"))


# The labels the format modules write for what no person said: a tool's result ("WebFetch result"),
# a tool call, a summary, a sub-agent's prompt, command output, a host record, harness context
HOST_SPEAKER = re.compile(r"(?:^|\s)(?:result|call|summary|prompt|output|record|context)$|^subagent$", re.IGNORECASE)


def host_speaker(label: str) -> bool:
    """Whether a transcript's speaker label is one a format module gave a host's record, not a person's name."""
    return HOST_SPEAKER.search(label.strip()) is not None


@dataclass(frozen=True)
class Block:
    """One turn as a host format states it, before clawmem cleans and checks it."""

    role: str  # one of ``clawmem.commands.ingest.ROLES``: the origin follows from it, never from the text
    content: str
    speaker: str | None = None  # the label written in the transcript (``summary``, ``tool call``…)
    when: object = None  # the record's raw timestamp (ISO text or epoch seconds)
    turn_id: str | None = None
    record: int = 0  # 1-based record number, for error messages
    subagent: bool = False  # a sub-agent produced it (a Claude Code sidechain): never promotion-eligible


@dataclass
class Parsed:
    """What a format module read: the blocks kept and, by kind, what it deliberately left out."""

    blocks: list[Block] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # known kinds not kept (thinking, metadata…)
    unknown: Counter = field(default_factory=Counter)  # record or block types the format does not define

    def add(self, block: Block) -> None:
        """Keep a block, merged into the previous one when the same record continues the same turn."""
        last = self.blocks[-1] if self.blocks else None
        if last and (last.record, last.role, last.speaker) == (block.record, block.role, block.speaker):
            self.blocks[-1] = replace(last, content=f"{last.content}\n{block.content}")
        elif block.content.strip():
            self.blocks.append(block)

    def skip(self, kind: object) -> None:
        _count(self.skipped, kind)

    def unknown_kind(self, kind: object) -> None:
        _count(self.unknown, kind)


def _count(counter: Counter, kind: object) -> None:
    if isinstance(kind, str):
        name = kind[:MAX_KIND_CHARS] or "untyped"
    else:
        name = "untyped" if kind is None else type(kind).__name__
    counter[name if name in counter or len(counter) < MAX_KINDS else "other"] += 1


def text_of(value: object, parsed: Parsed, text_types: frozenset[str]) -> str:
    """The text of a string or a list of typed parts; other parts are counted, not kept."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if not isinstance(value, list):
        parsed.unknown_kind(f"content {type(value).__name__}")
        return ""
    texts = []
    for part in value:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") in text_types and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict) and part.get("type") in MEDIA_PARTS:
            parsed.skip(part["type"])
        else:
            parsed.unknown_kind(part.get("type") if isinstance(part, dict) else part)
    return "\n".join(t for t in texts if t)


# Non-text parts of the Anthropic Messages and OpenAI Chat/Responses content models.
MEDIA_PARTS = frozenset({"image", "image_url", "input_image", "input_audio", "input_file", "file", "document"})
