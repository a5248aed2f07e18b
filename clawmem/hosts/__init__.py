"""Agent hosts clawmem plugs into: their hook JSON, what they expect back, and their config files.

One module per host describes its documented formats (``claude_code``, ``codex``, ``cursor``,
``claude_desktop``); ``hook`` runs the memory step of one hook event, ``install`` merges
clawmem's hooks and MCP server entry into a host's config files.
"""

from __future__ import annotations

from types import ModuleType


def host_module(host: str) -> ModuleType:
    """The module describing ``host`` (one of ``names.INSTALL_HOSTS``), found by the name it gives itself."""
    from clawmem.hosts import claude_code, claude_desktop, codex, cursor

    return {module.NAME: module for module in (claude_code, codex, cursor, claude_desktop)}[host]
