"""Tools' ``outputSchema``: the JSON Schemas of the CLI's ``--json`` output, loaded, not copied.

``docs/schemas/*.json`` is the one definition of each shape (``docs/json.md`` is generated
from it and ``tests/test_json_contracts.py`` holds the CLI to it). MCP asks for an object at
the root of an ``outputSchema``: a list-shaped schema is published under the key the tool
returns it in, and a ``oneOf`` of objects gets ``"type": "object"`` beside it.
"""

from __future__ import annotations

import json
import site
import sys
from functools import cache
from pathlib import Path
from typing import Any

from clawmem.foundation.errors import ClawmemError

CANDIDATES = (
    Path(__file__).resolve().parents[2] / "docs" / "schemas",  # a source checkout or an editable install
    Path(sys.prefix) / "share" / "clawmem" / "schemas",  # a wheel (pyproject's data-files)
    Path(site.getuserbase()) / "share" / "clawmem" / "schemas",  # a wheel installed with --user
)


def schema_dir() -> Path:
    for candidate in CANDIDATES:
        if (candidate / "search.json").is_file():
            return candidate
    raise ClawmemError(
        "the JSON Schemas of clawmem's output (docs/schemas) are not installed",
        hint="reinstall clawmem from its source tree: pip install '.[mcp]'",
    )


@cache
def load(name: str) -> dict[str, Any]:
    return json.loads((schema_dir() / f"{name}.json").read_text(encoding="utf-8"))


def output_schema(name: str, key: str | None = None) -> dict[str, Any]:
    """The ``outputSchema`` of a tool returning the shape ``docs/schemas/<name>.json``.

    ``key``: the tool returns that (list) shape as ``{key: [...]}``.
    """
    schema = load(name)
    if key is not None:
        inner = {k: v for k, v in schema.items() if k != "$schema"}
        return {
            "$schema": schema["$schema"],
            "type": "object",
            "properties": {key: inner},
            "required": [key],
            "additionalProperties": False,
        }
    if "type" not in schema and all(branch.get("type") == "object" for branch in schema.get("oneOf", [])):
        return {**schema, "type": "object"}
    return schema
