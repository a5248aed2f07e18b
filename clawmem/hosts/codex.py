"""Codex CLI: hook events, hook output and config files.

Formats from the Codex docs (https://developers.openai.com/codex/hooks,
https://developers.openai.com/codex/mcp) and the generated schemas in openai/codex
``codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json``:

* hooks get JSON on stdin with ``session_id``, ``transcript_path`` (the rollout JSONL, may be
  null), ``cwd``, ``model``, ``hook_event_name`` (and ``turn_id`` for turn-scoped events);
  ``SessionStart`` adds ``source`` (startup|resume|clear), ``UserPromptSubmit`` adds
  ``prompt``, ``PreCompact`` adds ``trigger``, ``Stop`` adds ``stop_hook_active`` and
  ``last_assistant_message``;
* ``SessionStart`` and ``UserPromptSubmit`` add context with the same
  ``hookSpecificOutput.additionalContext`` shape as Claude Code;
* Codex has no session-end event: ``Stop`` runs at the end of every turn, so clawmem ingests
  the rollout there (ingesting a session again replaces its transcript);
* hooks are discovered in ``hooks.json`` next to each config layer (``~/.codex`` or
  ``$CODEX_HOME``, and ``<repo>/.codex``), same event -> matcher group -> handler shape as
  Claude Code; Codex asks the user to review and trust new command hooks before they run;
* MCP servers are ``[mcp_servers.NAME]`` tables (``command``, ``args``) in ``config.toml``.
"""

from __future__ import annotations

import os
from pathlib import Path

NAME = "codex"
EVENT_NAMES = {
    "session-start": "SessionStart",
    "prompt": "UserPromptSubmit",
    "pre-compact": "PreCompact",
    "stop": "Stop",
}
CONTEXT_EVENTS = ("session-start", "prompt")
INSTALLED_EVENTS = ("session-start", "prompt", "pre-compact", "stop")


def home_dir(home: Path) -> Path:
    """``$CODEX_HOME``, else ``~/.codex`` (Codex's own override)."""
    return Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else home / ".codex"


def hooks_file(scope: str, home: Path, project: Path) -> Path:
    return home_dir(home) / "hooks.json" if scope == "user" else project / ".codex" / "hooks.json"


def mcp_file(scope: str, home: Path, project: Path) -> Path:
    return home_dir(home) / "config.toml" if scope == "user" else project / ".codex" / "config.toml"
