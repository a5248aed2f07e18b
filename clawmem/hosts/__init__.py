"""Agent hosts clawmem plugs into: their hook JSON, what they expect back, and their config files.

One module per host describes its documented formats (``claude_code``, ``codex``, ``cursor``,
``claude_desktop``); ``hook`` runs the memory step of one hook event, ``install`` merges
clawmem's hooks and MCP server entry into a host's config files.
"""

from __future__ import annotations

from types import ModuleType

HOOK_HOSTS = ("claude-code", "codex")
INSTALL_HOSTS = ("claude-code", "codex", "cursor", "claude-desktop")
EVENTS = ("session-start", "prompt", "pre-compact", "stop", "session-end")


def host_module(host: str) -> ModuleType:
    """The module describing a host that runs clawmem's hooks (one of ``HOOK_HOSTS``)."""
    from clawmem.hosts import claude_code, codex

    return {"claude-code": claude_code, "codex": codex}[host]
