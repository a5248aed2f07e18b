"""Claude Code: hook events, hook output and config files.

Formats from the Claude Code hooks reference (https://code.claude.com/docs/en/hooks) and
settings docs (https://code.claude.com/docs/en/settings, https://code.claude.com/docs/en/mcp):

* every hook gets JSON on stdin with ``session_id``, ``transcript_path``, ``cwd``,
  ``permission_mode`` and ``hook_event_name``; ``SessionStart`` adds ``source``
  (startup|resume|clear|compact), ``UserPromptSubmit`` adds ``prompt``, ``PreCompact`` adds
  ``trigger`` (manual|auto) and ``custom_instructions``, ``SessionEnd`` adds ``reason``;
* ``SessionStart`` and ``UserPromptSubmit`` add context with
  ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": ...}}`` on stdout and
  exit 0; other events need no output;
* hooks live under ``"hooks"`` in ``~/.claude/settings.json`` (user) or
  ``.claude/settings.json`` (project): event -> ``[{"matcher", "hooks": [{"type": "command",
  "command", "timeout"}]}]``, ``timeout`` in seconds;
* MCP servers: ``"mcpServers"`` in ``~/.claude.json`` (user scope) or ``.mcp.json`` at the
  project root (project scope); ``"alwaysLoad": true`` on a server makes Claude Code wait for it
  at start and keep its tools in the first request instead of deferring them behind tool search;
* auto memory (https://code.claude.com/docs/en/memory): on by default, Claude writes
  ``~/.claude/projects/<project>/memory/MEMORY.md`` (loaded every session) and topic files next
  to it; ``"autoMemoryEnabled": false`` in settings switches it off.
"""

from __future__ import annotations

from pathlib import Path

NAME = "claude-code"
EVENT_NAMES = {
    "session-start": "SessionStart",
    "prompt": "UserPromptSubmit",
    "pre-compact": "PreCompact",
    "stop": "Stop",
    "session-end": "SessionEnd",
}
# SessionEnd ingests once per session; Stop (after every reply) would re-ingest on each turn
INSTALLED_EVENTS = tuple(event for event in EVENT_NAMES if event != "stop")
ALWAYS_LOAD = True  # the server's tools are in the first request (the schema in Claude Code 2.1: "alwaysLoad")


def hooks_file(scope: str, home: Path, project: Path) -> Path:
    return home / ".claude" / "settings.json" if scope == "user" else project / ".claude" / "settings.json"


def mcp_file(scope: str, home: Path, project: Path) -> Path:
    return home / ".claude.json" if scope == "user" else project / ".mcp.json"


def auto_memory_root(home: Path) -> Path:
    """Where Claude Code keeps each project's auto memory: ``~/.claude/projects/<project>/memory/``."""
    return home / ".claude" / "projects"
