"""``clawmem plugin build DIR``: a Claude Code plugin and a Codex plugin in one local marketplace.

The plugins carry the same hooks and MCP server entry as ``clawmem install`` (``clawmem.hosts.wiring``)
rendered in the hosts' plugin formats:

* Claude Code (https://code.claude.com/docs/en/plugins-reference): ``.claude-plugin/plugin.json``,
  ``hooks/hooks.json``, ``.mcp.json`` in the plugin; the marketplace is
  ``DIR/.claude-plugin/marketplace.json``;
* Codex: ``.codex-plugin/plugin.json`` naming ``hooks`` and ``mcpServers`` files in the plugin; the
  marketplace is ``DIR/.agents/plugins/marketplace.json``.

Python: the commands name the absolute path of the clawmem that built the plugin and the
workspace, as ``install`` does. Peers launch Python through ``uvx`` (basic-memory) or scripts under
``${CLAUDE_PLUGIN_ROOT}`` (claude-mem); a hook runs on every prompt, and ``uvx`` resolves the
package (and, the first time, downloads it) before clawmem starts, so a local marketplace built
by the clawmem you installed is both faster and offline. Rebuild after moving that clawmem.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from clawmem import __version__
from clawmem.foundation.config import PLUGIN_MARKETPLACE, PLUGIN_NAME
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass

DESCRIPTION = "Trustworthy long-term memory: recall before every prompt, transcripts kept with provenance, MCP tools to search and note."
PLUGIN_DIR = Path("plugins") / PLUGIN_NAME


@dataclass(frozen=True)
class PluginReport:
    directory: str
    executable: str
    workspace: str
    marketplace: str
    files: list[str]
    install: list[str]  # the commands that install the plugins from this marketplace


def _json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def render(exe: str, workspace: str, timeout_s: int) -> dict[str, str]:
    """Relative path -> text of every file of the marketplace (both hosts' plugins, one directory)."""
    from clawmem.hosts import claude_code, codex
    from clawmem.hosts.wiring import hook_handlers, server_entry

    author = {"name": "clawmem"}
    manifest = {"name": PLUGIN_NAME, "version": __version__, "description": DESCRIPTION, "author": author}

    def hooks(module) -> str:
        return _json({"hooks": {event: [{"hooks": [handler]}] for event, handler in hook_handlers(module, exe, workspace, timeout_s).items()}})

    files = {
        ".claude-plugin/marketplace.json": _json({
            "name": PLUGIN_MARKETPLACE, "owner": author, "description": "clawmem, built on this machine",
            "plugins": [{"name": PLUGIN_NAME, "source": f"./{PLUGIN_DIR.as_posix()}", "description": DESCRIPTION, "version": __version__}],
        }),
        ".agents/plugins/marketplace.json": _json({
            "name": PLUGIN_MARKETPLACE,
            "plugins": [{"name": PLUGIN_NAME, "source": {"source": "local", "path": f"./{PLUGIN_DIR.as_posix()}"},
                         "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}, "category": "Productivity"}],
        }),
        f"{PLUGIN_DIR.as_posix()}/.claude-plugin/plugin.json": _json(manifest),
        f"{PLUGIN_DIR.as_posix()}/hooks/hooks.json": hooks(claude_code),
        f"{PLUGIN_DIR.as_posix()}/.mcp.json": _json({"mcpServers": {PLUGIN_NAME: server_entry(claude_code, exe, workspace, hooks=True)}}),
        f"{PLUGIN_DIR.as_posix()}/.codex-plugin/plugin.json": _json({**manifest, "hooks": "./hooks/codex-hooks.json", "mcpServers": "./codex-mcp.json"}),
        f"{PLUGIN_DIR.as_posix()}/hooks/codex-hooks.json": hooks(codex),
        f"{PLUGIN_DIR.as_posix()}/codex-mcp.json": _json({"mcpServers": {PLUGIN_NAME: server_entry(codex, exe, workspace, hooks=True)}}),
    }
    return files


def build(directory: Path, *, workspace: str | os.PathLike[str] | None = None, exe: str | None = None, force: bool = False) -> PluginReport:
    """Write the marketplace and both plugins into ``directory``; refuse to overwrite other files."""
    from clawmem.hosts.install import executable
    from clawmem.storage.durable import atomic_write
    from clawmem.storage.workspace import STATE_DIR, Workspace, resolve_root

    root = resolve_root(workspace)
    exe = exe or executable()
    files = render(exe, str(root), Workspace(root).config.hooks.timeout_s)
    directory = directory.absolute()
    if directory.exists() and not directory.is_dir():
        raise BadInput(f"{directory} is not a directory; nothing was written")
    if not force:
        clash = [name for name, text in files.items() if (directory / name).exists() and (directory / name).read_text(encoding="utf-8", errors="replace") != text]
        if clash:
            raise BadInput(f"{directory} already holds different {', '.join(clash)}; nothing was written", hint="pass --force to replace them, or pick an empty directory")
    if not (root / STATE_DIR).is_dir():
        from clawmem.commands.workspace_init import initialise

        initialise(root)  # as install does: the hooks need a workspace to remember into
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
    install = [
        f"claude plugin marketplace add {directory}",
        f"claude plugin install {PLUGIN_NAME}@{PLUGIN_MARKETPLACE}",
        f"codex plugin marketplace add {directory}",
        f"codex plugin add {PLUGIN_NAME}@{PLUGIN_MARKETPLACE}",
    ]
    return PluginReport(str(directory), exe, str(root), PLUGIN_MARKETPLACE, sorted(files), install)
