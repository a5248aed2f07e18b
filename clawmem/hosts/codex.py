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
INSTALLED_EVENTS = tuple(EVENT_NAMES)  # every event it has (Codex has no SessionEnd: stop takes its place)


def home_dir(home: Path) -> Path:
    """``$CODEX_HOME``, else ``~/.codex`` (Codex's own override)."""
    return Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else home / ".codex"


def hooks_file(scope: str, home: Path, project: Path) -> Path:
    return home_dir(home) / "hooks.json" if scope == "user" else project / ".codex" / "hooks.json"


def mcp_file(scope: str, home: Path, project: Path) -> Path:
    return home_dir(home) / "config.toml" if scope == "user" else project / ".codex" / "config.toml"


# Hook trust (openai/codex codex-rs/hooks/src/engine/discovery.rs): a user hook runs only when
# ``[hooks.state."<key>"] trusted_hash`` in config.toml equals the hash of the handler as it is now;
# ``codex exec`` skips the others without a word. The key is ``<hooks.json path>:<event>:<group>:<handler>``
# and the hash is sha256 over the canonical JSON (sorted keys, no spaces) of the normalised handler.
EVENT_LABELS = {"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "PreCompact": "pre_compact", "Stop": "stop"}
DEFAULT_HOOK_TIMEOUT_S = 600  # what Codex assumes for a handler without "timeout" (it is part of the hash)


def hook_key(hooks_path: Path, event: str, group: int, handler: int) -> str:
    return f"{hooks_path}:{EVENT_LABELS[event]}:{group}:{handler}"


def hook_hash(event: str, handler: dict) -> str:
    """The hash Codex records when the user trusts this handler (matcher-less group, as clawmem writes)."""
    import hashlib
    import json

    timeout = max(1, int(handler.get("timeout") or DEFAULT_HOOK_TIMEOUT_S))
    normalised = {"type": "command", "command": handler["command"], "timeout": timeout, "async": bool(handler.get("async", False))}
    if handler.get("statusMessage") is not None:
        normalised["statusMessage"] = handler["statusMessage"]
    identity = {"event_name": EVENT_LABELS[event], "hooks": [normalised]}
    return "sha256:" + hashlib.sha256(json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def clawmem_hooks(hooks_path: Path, data: dict) -> dict[str, str]:
    """Trust key -> current hash of every clawmem handler in a parsed ``hooks.json``."""
    from clawmem.hosts.configfiles import is_clawmem_command

    found = {}
    for event, groups in (data.get("hooks") or {}).items():
        if event not in EVENT_LABELS or not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and is_clawmem_command(handler.get("command")) and not group.get("matcher"):
                    found[hook_key(hooks_path, event, g, h)] = hook_hash(event, handler)
    return found


def trusted_hashes(config: dict) -> dict[str, str]:
    """Key -> trusted hash from a parsed config.toml's ``[hooks.state]``."""
    states = (config.get("hooks") or {}).get("state") or {}
    return {k: v["trusted_hash"] for k, v in states.items() if isinstance(v, dict) and isinstance(v.get("trusted_hash"), str)}


def trust_line(home: Path) -> str | None:
    """One line for ``clawmem status``: are clawmem's Codex hooks trusted? None when none are installed."""
    import json

    path = hooks_file("user", home, home)
    try:
        ours = clawmem_hooks(path, json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, AttributeError):
        return None
    if not ours:
        return None
    import tomllib  # only with clawmem's hooks installed: status asks on every run

    try:
        trusted = trusted_hashes(tomllib.loads(mcp_file("user", home, home).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        trusted = {}
    ok = sum(trusted.get(key) == value for key, value in ours.items())
    if ok == len(ours):
        return f"codex: all {len(ours)} clawmem hooks in {path} are trusted by Codex"
    return (
        f"codex: {len(ours) - ok} of {len(ours)} clawmem hooks in {path} are not trusted, so Codex skips them: "
        "run `clawmem install codex --trust-hooks` or accept them under /hooks in Codex"
    )
