"""Cursor: MCP servers only (https://cursor.com/docs/context/mcp).

``{"mcpServers": {"NAME": {"command", "args"}}}`` in ``~/.cursor/mcp.json`` (user, every
project) or ``.cursor/mcp.json`` in the project (project scope).
"""

from __future__ import annotations

from pathlib import Path

NAME = "cursor"


def mcp_file(scope: str, home: Path, project: Path) -> Path:
    return home / ".cursor" / "mcp.json" if scope == "user" else project / ".cursor" / "mcp.json"
