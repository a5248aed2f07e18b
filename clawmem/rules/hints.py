"""Hints in what the model reads: how to reach more memory, in a form that works where it runs.

A model reads clawmem's context inside a host (Claude Code, Codex, an MCP client). A hint
saying "run `clawmem search …`" fails there: the host's shell tool has its own PATH and
working directory, so the bare command is not found or finds no workspace
(``workspace_not_found``). Every hint therefore names the MCP tool and its arguments first
(the server knows its workspace) and, as the fallback, a command line with the absolute
executable and ``-w`` the absolute workspace, which runs from any directory.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

SEARCH_TOOL = "search_memory"  # the search tool of clawmem.mcp.server (a test holds the two together)


def clawmem_command() -> str:
    """How this process was started, as an absolute, shell-quoted command that needs no PATH.

    The console script when it is what runs; ``python -m clawmem`` under ``-m``; else the
    ``clawmem`` on PATH (a test runner's or another tool's argv[0] is not clawmem).
    """
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0.endswith("__main__.py") or argv0 in ("", "-c", "-m"):
        return f"{shlex.quote(sys.executable)} -m clawmem"
    path = Path(argv0)
    if path.name.startswith("clawmem") and path.exists():
        return shlex.quote(str(path.resolve()))
    import shutil

    found = shutil.which("clawmem")
    return shlex.quote(str(Path(found).resolve())) if found else f"{shlex.quote(sys.executable)} -m clawmem"


def search_arguments(query: str, **options: Any) -> dict[str, Any]:
    """The arguments of a ``search_memory`` call (only the options that differ from its defaults)."""
    return {"query": query, **options}


def search_command(workspace: str | Path, query: str, *flags: str) -> str:
    """The same search as one shell line: absolute executable, ``-w`` absolute workspace, query quoted."""
    parts = [clawmem_command(), "search", *flags, "-w", shlex.quote(str(Path(workspace).absolute())), shlex.quote(query)]
    return " ".join(parts)


def search_hint(arguments: dict[str, Any], command: str) -> str:
    """One line naming the MCP tool with its arguments, then the shell fallback."""
    return f"call the MCP tool {SEARCH_TOOL} with {json.dumps(arguments, ensure_ascii=False)}; without MCP, run: {command}"
