"""The compact hidden-context block an agent puts in front of its next reply."""

from __future__ import annotations

from typing import Any

from clawmem.rules import hints
from clawmem.storage.anchors import cite
from clawmem.trust.framing import inert, recall_block

TOPIC = "what you need"  # the query a left-out hint leaves for the model to fill in


def _line(text: str) -> str:
    """One value on one line, inert: content can neither spell a marker nor start a section."""
    return inert(" ".join(str(text).split()))


def trigger_line(hit) -> str:
    return f"- {_line(hit.text)} [{_line(hit.citation)}]"


def project_line(entry) -> str:
    return f"- {_line(entry.text)} [{_line(entry.citation)}]"


def intent_line(intent) -> str:
    return f"- {_line(intent.text)} (intent {intent.id})"


def aspiration_line(due) -> str:
    return f"- {_line(due.text)} (review was {due.review.isoformat()}) [{_line(cite(due.path, due.line))}]"


def project_heading(result) -> str:
    return f"## Project memory ({_line(', '.join(result.project_keys))})"


TRIGGERS_HEADING = "## Relevant memory"
INTENTS_HEADING = "## Standing intents (act on these now)"
ASPIRATIONS_HEADING = "## Aspirations due for review"


def left_out_line(result) -> str:
    """The closing line when entries stayed out: how many, and how to reach them from where the model is."""
    arguments = hints.search_arguments(TOPIC)
    command = hints.search_command(result.workspace, TOPIC)
    return f"(… {result.left_out} more memory entries not shown, to fit the context; to reach them, {_line(hints.search_hint(arguments, command))})"


def context_block(result) -> str:
    """Everything recall found, as one recall block (empty string when there is nothing).

    ``USER.md`` comes first (the owner's directives), then ``MEMORY.md``; the last line says
    how many entries were left out and how to reach them. Every value is printed through
    ``inert``: entry text, paths, citations, project keys, intent text and the suggested
    command (which quotes the inbound message) alike.
    """
    parts: list[str] = []
    for f in sorted(result.bootstrap, key=lambda f: f.path != "USER.md"):
        if f.eligible and f.text:
            parts.append(f"## {_line(f.path)}\n{inert(f.text)}")
    if result.triggers:
        parts.append(TRIGGERS_HEADING + "\n" + "\n".join(trigger_line(h) for h in result.triggers))
    if result.project_block:
        parts.append(project_heading(result) + "\n" + "\n".join(project_line(p) for p in result.project_block))
    if result.intents:
        parts.append(INTENTS_HEADING + "\n" + "\n".join(intent_line(i) for i in result.intents))
    if result.aspirations:
        parts.append(ASPIRATIONS_HEADING + "\n" + "\n".join(aspiration_line(a) for a in result.aspirations))
    if result.escalation.escalate:
        found = result.escalation
        parts.append(f"## Deep recall suggested ({_line(found.reason)})\n{_line(hints.search_hint(found.tool['arguments'], found.command))}")
    if result.left_out:  # even alone: the hint is how the model reaches what did not fit
        parts.append(left_out_line(result))
    return recall_block("\n\n".join(parts)) if parts else ""


def payload(result) -> dict[str, Any]:
    """The documented JSON shape of a recall (``docs/schemas/recall.json``), for the CLI and MCP."""
    from clawmem.rules.output import to_jsonable

    data = to_jsonable(result)
    for f in data["bootstrap"]:
        f.pop("text_hashes", None)
    for t in data["triggers"]:
        t.pop("text_hash", None)
    for item in [*data["bootstrap"], *data["triggers"], *data["project_block"], *data["intents"], *data["aspirations"]]:
        item["text"] = inert(item["text"])  # the same text the context shows, should a caller inject it
    data["context"] = context_block(result)
    return data


def degraded_payload(reason: str) -> dict[str, Any]:
    """The recall JSON shape when nothing could be recalled at all (recall never fails the turn)."""
    return {
        "context": "", "degraded": [reason], "escalation": None, "bootstrap": [], "triggers": [], "intents": [], "project_keys": [],
        "project_block": [], "aspirations": [], "left_out": 0, "workspace": None,
    }
