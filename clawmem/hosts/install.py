"""``clawmem install HOST``: merge clawmem's hooks and MCP server entry into a host's config files.

Every file is read and parsed, and every change computed, before the first one is written:
a malformed config is an error and nothing is written anywhere. A changed file is backed up
next to itself first and replaced atomically; a second run changes nothing; ``--uninstall``
removes only clawmem's entries (hook handlers that run ``clawmem hook``, the ``clawmem`` MCP
server) and deletes a file only when nothing else is left in it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from clawmem.errors import BadInput
from clawmem.hosts import configfiles
from clawmem.timeparse import local_now


@dataclass(frozen=True)
class FileChange:
    path: str
    role: str  # hooks or mcp
    action: str  # create, update, unchanged or remove
    backup: str | None = None
    entries: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class InstallReport:
    host: str
    scope: str
    uninstall: bool
    dry_run: bool
    executable: str
    workspace: str
    workspace_created: bool
    files: list[FileChange]
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Plan:
    path: Path
    role: str
    before: str | None
    after: str | None  # None: delete the file
    entries: list[str]

    @property
    def action(self) -> str:
        if self.before == self.after or (self.before is None and self.after is None):
            return "unchanged"
        if self.after is None:
            return "remove"
        return "create" if self.before is None else "update"


def host_module(host: str) -> ModuleType:
    from clawmem.hosts import claude_code, claude_desktop, codex, cursor

    return {"claude-code": claude_code, "codex": codex, "cursor": cursor, "claude-desktop": claude_desktop}[host]


def executable() -> str:
    """The absolute path of the running ``clawmem`` command (what the host will start)."""
    argv0 = Path(sys.argv[0])
    if argv0.name.startswith("clawmem") and argv0.exists():
        return str(argv0.absolute())
    found = shutil.which("clawmem")
    if found is None:
        raise BadInput("cannot find the clawmem executable on PATH", hint="install clawmem so `clawmem` is on PATH, then rerun")
    return str(Path(found).absolute())


def server_entry(exe: str, workspace: str) -> dict[str, object]:
    """The MCP server entry every host gets: ``clawmem mcp -w WORKSPACE``, by absolute path."""
    return {"command": exe, "args": ["mcp", "-w", workspace]}


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


def _json_plan(path: Path, role: str, edit) -> _Plan:
    before = configfiles.read_text(path)
    data = configfiles.load_json(path, before)
    entries = edit(data)
    if before is None and not data:
        return _Plan(path, role, None, None, entries)
    return _Plan(path, role, before, configfiles.dump_json(data) if data else None, entries)


def _plans(module: ModuleType, scope: str, exe: str, workspace: str, timeout_s: int, uninstall: bool, home: Path, project: Path) -> list[_Plan]:
    plans = []
    entry = None if uninstall else server_entry(exe, workspace)
    if hasattr(module, "INSTALLED_EVENTS"):
        handlers = {} if uninstall else hook_handlers(module, exe, workspace, timeout_s)
        path = module.hooks_file(scope, home, project)
        events = list(module.EVENT_NAMES.values())
        plans.append(_json_plan(path, "hooks", lambda d: [f"hooks.{e}" for e in configfiles.merge_hooks(d, path, handlers, events)]))
    path = module.mcp_file(scope, home, project)
    if path.suffix == ".toml":
        before = configfiles.read_text(path)
        after = configfiles.merge_toml(path, before, module.NAME, entry)
        plans.append(_Plan(path, "mcp", before, after if after.strip() else None, [] if uninstall else ["mcp_servers.clawmem"]))
    else:
        def edit(data: dict) -> list[str]:
            configfiles.merge_server(data, path, entry)
            return [] if uninstall else ["mcpServers.clawmem"]

        plans.append(_json_plan(path, "mcp", edit))
    return plans


def _write(plan: _Plan, stamp: str) -> str | None:
    """Apply one planned change; return the backup's path."""
    from clawmem.workspace import atomic_write

    backup = None
    mode = None
    if plan.before is not None:
        backup_path = plan.path.with_name(f"{plan.path.name}.clawmem-{stamp}.bak")
        shutil.copy2(plan.path, backup_path)
        backup = str(backup_path)
        mode = plan.path.stat().st_mode & 0o777
    if plan.after is None:
        plan.path.unlink()
        return backup
    atomic_write(plan.path, plan.after.encode("utf-8"))
    if mode is not None:
        os.chmod(plan.path, mode)  # ~/.claude.json and friends may be private: keep their mode
    return backup


def install(
    host: str,
    *,
    scope: str = "user",
    workspace: str | os.PathLike[str] | None = None,
    uninstall: bool = False,
    dry_run: bool = False,
    exe: str | None = None,
    home: Path | None = None,
    project: Path | None = None,
) -> InstallReport:
    """Merge (or remove) clawmem's hooks and MCP entry for ``host``; validate everything first."""
    from clawmem.workspace import STATE_DIR, Workspace, resolve_root

    module = host_module(host)
    if host == "claude-desktop" and scope == "project":
        raise BadInput("Claude Desktop has no project scope", hint="use --scope user (the default)")
    root = resolve_root(workspace)
    exe = exe or executable()
    timeout_s = Workspace(root).config.hooks.timeout_s  # the defaults when there is no workspace yet
    plans = _plans(module, scope, exe, str(root), timeout_s, uninstall, home or Path.home(), project or Path.cwd())
    create_ws = not uninstall and not (root / STATE_DIR).is_dir()
    files: list[FileChange] = []
    stamp = local_now().strftime("%Y%m%dT%H%M%S")
    if create_ws and not dry_run:
        from clawmem.workspace_init import initialise

        initialise(root)  # as `clawmem init` makes it: index, .gitignore, audit baseline, trusted here
    for plan in plans:
        backup = None if dry_run or plan.action == "unchanged" else _write(plan, stamp)
        files.append(FileChange(str(plan.path), plan.role, plan.action, backup, plan.entries))
    notes = []
    if host == "codex" and not uninstall:
        notes.append("Codex asks you to review and trust new hooks before they run: open /hooks in Codex once")
    return InstallReport(host, scope, uninstall, dry_run, exe, str(root), create_ws, files, notes)


def preview(host: str, *, scope: str, exe: str, workspace: str, home: Path, project: Path, timeout_s: int) -> list[tuple[Path, str]]:
    """Each file and the text the installer writes into it when it held nothing (the documented snippets)."""
    module = host_module(host)
    return [(p.path, p.after or "") for p in _plans(module, scope, exe, workspace, timeout_s, False, home, project)]
