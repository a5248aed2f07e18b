"""The compact hidden-context block an agent puts in front of its next reply."""

from __future__ import annotations

from typing import Any

from clawmem.loopguard import wrap


def context_block(result) -> str:
    """Everything recall found, as one marked block (empty string when there is nothing)."""
    parts: list[str] = []
    for f in result.bootstrap:
        if f.eligible and f.text:
            more = f"\n(… {f.omitted} more entries not shown; use `clawmem search`)" if f.omitted else ""
            parts.append(f"## {f.path}\n{f.text}{more}")
    if result.triggers:
        parts.append("## Relevant memory\n" + "\n".join(f"- {h.text} [{h.citation}]" for h in result.triggers))
    if result.project_block:
        keys = ", ".join(result.project_keys)
        parts.append(f"## Project memory ({keys})\n" + "\n".join(f"- {p.text} [{p.citation}]" for p in result.project_block))
    if result.intents:
        parts.append("## Standing intents (act on these now)\n" + "\n".join(f"- {i.text} (intent {i.id})" for i in result.intents))
    if result.escalation.escalate:
        parts.append(f"## Deep recall suggested ({result.escalation.reason})\nrun: {result.escalation.command}")
    return wrap("\n\n".join(parts)) if parts else ""


def payload(result) -> dict[str, Any]:
    """The documented JSON shape of a recall (``docs/schemas/recall.json``), for the CLI and MCP."""
    from clawmem.output import to_jsonable

    data = to_jsonable(result)
    for f in data["bootstrap"]:
        f.pop("text_hashes", None)
    for t in data["triggers"]:
        t.pop("text_hash", None)
    data["context"] = context_block(result)
    return data


def degraded_payload(reason: str) -> dict[str, Any]:
    """The recall JSON shape when nothing could be recalled at all (recall never fails the turn)."""
    return {"context": "", "degraded": [reason], "escalation": None, "bootstrap": [], "triggers": [], "intents": [], "project_keys": [], "project_block": []}
