"""``docs/mcp.md``'s tool reference, rendered from the server's own tools/list and resources/list.

``scripts/gen_docs.py`` writes it between the page's generated markers and
``tests/test_mcp.py`` fails when the page and the server disagree, so the reference cannot
drift from what a client sees.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

HINTS = (("read_only_hint", "read-only"), ("destructive_hint", "destructive"), ("idempotent_hint", "idempotent"), ("open_world_hint", "open world"))


def _md(text: str) -> str:
    """Text as Markdown shows it literally: a tag such as <untrusted-content> is not swallowed as HTML."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: str) -> str:
    return _md(" ".join(str(text).split())).replace("|", "\\|")


def _type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" for v in prop["enum"])
    if "anyOf" in prop:
        return " or ".join(_type(p) for p in prop["anyOf"] if p.get("type") != "null")
    if prop.get("type") == "array":
        return f"list of {_type(prop.get('items', {}))}"
    return str(prop.get("type", "any"))


def _parameters(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = ["| parameter | type | default | description |", "| --- | --- | --- | --- |"]
    for name, prop in schema.get("properties", {}).items():
        default = "required" if name in required else f"`{json.dumps(prop['default'])}`" if prop.get("default") is not None else "none"
        rows.append(f"| `{name}` | {_type(prop)} | {default} | {_cell(prop.get('description', ''))} |")
    return rows


def tool_reference() -> str:
    """The generated part of ``docs/mcp.md``: every tool and resource the server publishes."""
    from clawmem.mcp.server import BY_NAME, build_server

    server = build_server(None)
    tools = asyncio.run(server.list_tools())
    resources = asyncio.run(server.list_resources())
    out = ["## Tools", ""]
    out += ["| tool | title | " + " | ".join(label for _, label in HINTS) + " |", "| --- | --- |" + " --- |" * len(HINTS)]
    for tool in tools:
        flags = " | ".join("yes" if getattr(tool.annotations, attr) else "no" for attr, _ in HINTS)
        out.append(f"| [`{tool.name}`](#{tool.name}) | {tool.title} | {flags} |")
    for tool in tools:
        row = BY_NAME[tool.name]
        name, key = row.schema, row.key
        shape = f"[`schemas/{name}.json`](schemas/{name}.json)" + (f" under `{key}`" if key else "")
        out += ["", f'<a id="{tool.name}"></a>', f"### `{tool.name}`: {tool.title}", "", _md(tool.description or ""), "", *_parameters(tool.input_schema), "",
                f"Returns {shape} as structured content (and the same JSON as text)."]
    out += ["", "## Resources", "", "| URI | description |", "| --- | --- |"]
    out += [f"| `{r.uri}` | {_cell(r.description or '')} |" for r in resources]
    return "\n".join(out)
