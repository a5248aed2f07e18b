"""The one description of what clawmem adds to a host: its hook handlers and its MCP server entry.

``clawmem install`` merges it into the host's config files and ``clawmem plugin build`` renders
it as plugin files; both take it from here, so the two cannot drift apart.
"""

from __future__ import annotations

import shlex
from types import ModuleType

from clawmem.foundation.config import ENV_HOST_HOOKS


def hook_handlers(module: ModuleType, exe: str, workspace: str, timeout_s: int) -> dict[str, dict[str, object]]:
    """Host event name -> the command handler that runs ``clawmem hook EVENT --host HOST``."""
    return {
        module.EVENT_NAMES[event]: {
            "type": "command",
            "command": shlex.join([exe, "hook", event, "--host", module.NAME, "-w", workspace]),
            "timeout": timeout_s,
        }
        for event in module.INSTALLED_EVENTS
    }


def server_entry(module: ModuleType, exe: str, workspace: str, *, hooks: bool) -> dict[str, object]:
    """The MCP server entry: ``clawmem mcp -w WORKSPACE`` by absolute path.

    With ``hooks`` (the hooks are installed too) the entry names the host in ``CLAWMEM_HOST_HOOKS``,
    so the server knows recall and ingestion already happen. Hosts that can load a server's tools
    before the first request (``ALWAYS_LOAD`` in the host module) get that switch.
    """
    entry: dict[str, object] = {"command": exe, "args": ["mcp", "-w", workspace]}
    if hooks:
        entry["env"] = {ENV_HOST_HOOKS: module.NAME}
    if getattr(module, "ALWAYS_LOAD", False):
        entry["alwaysLoad"] = True
    return entry
