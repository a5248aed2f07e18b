"""Claude Desktop: MCP servers only (https://modelcontextprotocol.io/quickstart/user).

``{"mcpServers": {"NAME": {"command", "args"}}}`` in ``claude_desktop_config.json``:
``~/Library/Application Support/Claude/`` on macOS, ``%APPDATA%\\Claude\\`` on Windows and
``$XDG_CONFIG_HOME/Claude/`` (``~/.config/Claude/``) on Linux. There is no project scope.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

NAME = "claude-desktop"
FILE = "claude_desktop_config.json"


def mcp_file(scope: str, home: Path, project: Path) -> Path:
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / FILE
    if sys.platform.startswith("win"):
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "Claude" / FILE
    return Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "Claude" / FILE
