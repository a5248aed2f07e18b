"""The compact hidden-context block an agent puts in front of its next reply."""

from __future__ import annotations

from typing import Any

from clawmem.framing import inert, recall_block


def _line(text: str) -> str:
    """One value on one line, inert: content can neither spell a marker nor start a section."""
    return inert(" ".join(str(text).split()))


def context_block(result) -> str:
    """Everything recall found, as one recall block (empty string when there is nothing).

    Every value is printed through ``inert``: entry text, paths, citations, project keys,
    intent text and the suggested command (which quotes the inbound message) alike.
    """
    parts: list[str] = []
    for f in result.bootstrap:
        if f.eligible and f.text:
            more = f"\n(… {f.omitted} more entries not shown; use `clawmem search`)" if f.omitted else ""
            parts.append(f"## {_line(f.path)}\n{inert(f.text)}{more}")
    if result.triggers:
        parts.append("## Relevant memory\n" + "\n".join(f"- {_line(h.text)} [{_line(h.citation)}]" for h in result.triggers))
    if result.project_block:
        keys = _line(", ".join(result.project_keys))
        lines = (f"- {_line(p.text)} [{_line(p.citation)}]" for p in result.project_block)
        parts.append(f"## Project memory ({keys})\n" + "\n".join(lines))
    if result.intents:
        parts.append("## Standing intents (act on these now)\n" + "\n".join(f"- {_line(i.text)} (intent {i.id})" for i in result.intents))
    if result.aspirations:
        parts.append("## Aspirations due for review\n" + "\n".join(f"- {_line(a.text)} (review was {a.review.isoformat()}) [{_line(f'{a.path}#L{a.line}')}]" for a in result.aspirations))  # noqa: E501
    if result.escalation.escalate:
        parts.append(f"## Deep recall suggested ({_line(result.escalation.reason)})\nrun: {_line(result.escalation.command)}")
    return recall_block("\n\n".join(parts)) if parts else ""


def payload(result) -> dict[str, Any]:
    """The documented JSON shape of a recall (``docs/schemas/recall.json``), for the CLI and MCP."""
    from clawmem.output import to_jsonable

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
    return {"context": "", "degraded": [reason], "escalation": None, "bootstrap": [], "triggers": [], "intents": [], "project_keys": [], "project_block": [], "aspirations": []}
