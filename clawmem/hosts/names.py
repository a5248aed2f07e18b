"""The agent hosts clawmem knows and the hook events it handles: every list of them is one of these.

The launcher's hook parser, the Typer commands' choices (``hook``, ``install``), the hosts'
modules (each names itself in ``NAME``), the worker and the per-host settings
(``config.HOST_CONTEXT_KEYS``) read them here; ``worker/client.py`` spells ``CONTEXT_EVENTS``
again, because importing this costs a module on every turn, and ``tests/test_front_door.py``
keeps that copy and the hosts' modules equal to these. Imports nothing: the hook's fast lane
loads it on every prompt.
"""

from __future__ import annotations

HOOK_HOSTS = ("claude-code", "codex")  # hosts that run clawmem's hooks (``clawmem hook --host``)
INSTALL_HOSTS = (*HOOK_HOSTS, "cursor", "claude-desktop")  # hosts ``clawmem install`` wires (the last two: the MCP server only)
HOOK_EVENTS = ("session-start", "prompt", "pre-compact", "stop", "session-end")  # ``clawmem hook EVENT``; each host has some
CONTEXT_EVENTS = ("session-start", "prompt")  # the events whose hook prints context (recall): what the resident worker answers
