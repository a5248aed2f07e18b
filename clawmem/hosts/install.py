"""``clawmem install HOST``: merge clawmem's hooks and MCP server entry into a host's config files.

Every file is read and parsed, and every change computed, before the first one is written:
a malformed config is an error and nothing is written anywhere. A changed file is backed up
next to itself first and replaced atomically; a second run changes nothing; ``--uninstall``
removes only clawmem's entries (hook handlers that run ``clawmem hook``, the ``clawmem`` MCP
server) and deletes a file only when nothing else is left in it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from clawmem.foundation.config import INSTALL_BACKUP_SUFFIX
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass, field
from clawmem.hosts import configfiles, host_module
from clawmem.hosts.wiring import hook_handlers, server_entry


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
    kept: list[str] = field(default_factory=list)  # settings found among clawmem's lines and kept (moved out of its old block)
    dropped: list[str] = field(default_factory=list)  # settings of clawmem's own server entry that went with it
    hook_trust: str | None = None  # Codex: "trusted" or "untrusted" afterwards; None for other hosts and --uninstall
    auto_memory: str | None = None  # Claude Code's own auto memory afterwards: "on", "off" or "restored"; None for other hosts


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


def executable() -> str:
    """The absolute path of the running ``clawmem`` command (what the host will start)."""
    argv0 = Path(sys.argv[0])
    if argv0.name.startswith("clawmem") and argv0.exists():
        return str(argv0.absolute())
    found = shutil.which("clawmem")
    if found is None:
        raise BadInput("cannot find the clawmem executable on PATH", hint="install clawmem so `clawmem` is on PATH, then rerun")
    return str(Path(found).absolute())


def _json_plan(path: Path, role: str, edit) -> _Plan:
    before = configfiles.read_text(path)
    data = configfiles.load_json(path, before)
    entries = edit(data)
    if before is None and not data:
        return _Plan(path, role, None, None, entries)
    return _Plan(path, role, before, configfiles.dump_json(data) if data else None, entries)


@dataclass
class _Extra:
    """What the plans found on the way, for the report."""

    kept: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    trusted: bool | None = None
    auto_memory: str | None = None
    memory_state: tuple[Path, str | None] | None = None  # the state file and its new text (None: delete)


def _plans(module: ModuleType, scope: str, exe: str, workspace: str, timeout_s: int, uninstall: bool, home: Path, project: Path,
           *, trust_hooks: bool = False, auto_memory: str = "keep", extra: _Extra | None = None) -> list[_Plan]:
    extra = extra if extra is not None else _Extra()
    plans = []
    has_hooks = hasattr(module, "INSTALLED_EVENTS")
    entry = None if uninstall else server_entry(module, exe, workspace, hooks=has_hooks)
    hooks_before: dict = {}
    hooks_after: dict = {}
    hooks_path = None
    if has_hooks:
        handlers = {} if uninstall else hook_handlers(module, exe, workspace, timeout_s)
        path = hooks_path = module.hooks_file(scope, home, project)
        events = list(module.EVENT_NAMES.values())

        def edit_hooks(data: dict) -> list[str]:
            import copy

            hooks_before.update(copy.deepcopy(data))
            entries = [f"hooks.{e}" for e in configfiles.merge_hooks(data, path, handlers, events)]
            if module.NAME == "claude-code" and (auto_memory == "off" or uninstall):
                from clawmem.hosts import automemory

                extra.auto_memory, extra.memory_state = automemory.switch(data, path, off=not uninstall)
            hooks_after.update(data)
            return entries

        plans.append(_json_plan(path, "hooks", edit_hooks))
    path = module.mcp_file(scope, home, project)
    if path.suffix == ".toml":
        trust = untrust = None
        if module.NAME == "codex" and hooks_path is not None:
            ours_before, ours_after = module.clawmem_hooks(hooks_path, hooks_before), module.clawmem_hooks(hooks_path, hooks_after)
            untrust = {k: v for k, v in ours_before.items() if ours_after.get(k) != v}  # trust in clawmem hooks that are gone
            trust = ours_after if trust_hooks and not uninstall else None
        before = configfiles.read_text(path)
        merged = configfiles.merge_toml(path, before, module.NAME, entry, trust=trust, untrust=untrust)
        extra.kept, extra.dropped = merged.kept, merged.dropped
        if module.NAME == "codex" and hooks_path is not None and not uninstall:
            import tomllib

            trusted = module.trusted_hashes(tomllib.loads(merged.text))
            extra.trusted = all(trusted.get(k) == v for k, v in module.clawmem_hooks(hooks_path, hooks_after).items())
        plans.append(_Plan(path, "mcp", before, merged.text if merged.text.strip() else None, [] if uninstall else ["mcp_servers.clawmem"]))
    else:
        def edit(data: dict) -> list[str]:
            configfiles.merge_server(data, path, entry)
            return [] if uninstall else ["mcpServers.clawmem"]

        plans.append(_json_plan(path, "mcp", edit))
    return plans


def _write(plan: _Plan) -> str | None:
    """Apply one planned change; return the backup's path.

    One backup per file (``INSTALL_BACKUP_SUFFIX``), holding the file as it was just before this
    change: install and uninstall cycles leave no trail of copies of ``~/.claude.json``.
    """
    from clawmem.storage.durable import atomic_write

    backup = None
    mode = None
    if plan.before is not None:
        backup_path = plan.path.with_name(plan.path.name + INSTALL_BACKUP_SUFFIX)
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


def _check_mcp_runs() -> None:
    """Refuse to register an MCP server this clawmem cannot run: the host would show a failed server."""
    from clawmem.mcp import INSTALL_HINT
    from clawmem.mcp.stdio import sdk_installed

    if not sdk_installed():
        raise BadInput("this clawmem cannot run the MCP server it would register: the MCP SDK is not installed here",
                       hint=f"{INSTALL_HINT} (in the environment of {executable()}), then rerun the install")


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
    trust_hooks: bool = False,
    auto_memory: str = "keep",
) -> InstallReport:
    """Merge (or remove) clawmem's hooks and MCP entry for ``host``; validate everything first."""
    from clawmem.storage.workspace import STATE_DIR, Workspace, resolve_root

    module = host_module(host)
    if host == "claude-desktop" and scope == "project":
        raise BadInput("Claude Desktop has no project scope", hint="use --scope user (the default)")
    root = resolve_root(workspace)
    own_exe = exe is None
    exe = exe or executable()
    timeout_s = Workspace(root).config.hooks.timeout_s  # the defaults when there is no workspace yet
    if trust_hooks and host != "codex":
        raise BadInput("--trust-hooks is for Codex, whose hooks run only once trusted", hint="drop --trust-hooks")
    if auto_memory == "off" and host != "claude-code":
        raise BadInput("--auto-memory is for Claude Code's own auto memory", hint="drop --auto-memory")
    if not uninstall and own_exe:
        _check_mcp_runs()
    extra = _Extra()
    plans = _plans(module, scope, exe, str(root), timeout_s, uninstall, home or Path.home(), project or Path.cwd(),
                   trust_hooks=trust_hooks, auto_memory=auto_memory, extra=extra)
    create_ws = not uninstall and not (root / STATE_DIR).is_dir()
    files: list[FileChange] = []
    if create_ws and not dry_run:
        from clawmem.commands.workspace_init import initialise

        initialise(root)  # as `clawmem init` makes it: index, .gitignore, audit baseline, trusted here
    for plan in plans:
        backup = None if dry_run or plan.action == "unchanged" else _write(plan)
        files.append(FileChange(str(plan.path), plan.role, plan.action, backup, plan.entries))
    if extra.memory_state is not None and not dry_run:
        from clawmem.hosts import automemory

        automemory.save_state(*extra.memory_state)
    notes = _notes(host, uninstall, extra)
    hook_trust = None if extra.trusted is None else ("trusted" if extra.trusted else "untrusted")
    auto = extra.auto_memory or ("on" if host == "claude-code" and not uninstall else None)
    return InstallReport(host, scope, uninstall, dry_run, exe, str(root), create_ws, files, notes, extra.kept, extra.dropped, hook_trust, auto)


def _notes(host: str, uninstall: bool, extra: _Extra) -> list[str]:
    """What the user still has to know or do in the host."""
    notes = []
    if extra.kept:
        notes.append(f"kept settings the host wrote among clawmem's lines: {', '.join(extra.kept)}")
    if extra.dropped:
        notes.append(f"removed with clawmem's server entry: {', '.join(extra.dropped)}")
    if host == "codex" and not uninstall and not extra.trusted:
        notes.append(
            "Codex runs a new hook only after you trust it (`codex exec` skips untrusted hooks silently): "
            "open Codex and accept clawmem's hooks under /hooks, or rerun with --trust-hooks to record that trust now"
        )
    if host == "claude-code" and not uninstall and extra.auto_memory is None:
        notes.append(
            "Claude Code's own auto memory is still on, so both memories are injected into every session: "
            "rerun with --auto-memory off to switch it off (uninstall restores it), and `clawmem import claude-memory` brings its notes in"
        )
    return notes


def preview(host: str, *, scope: str, exe: str, workspace: str, home: Path, project: Path, timeout_s: int) -> list[tuple[Path, str]]:
    """Each file and the text the installer writes into it when it held nothing (the documented snippets)."""
    module = host_module(host)
    return [(p.path, p.after or "") for p in _plans(module, scope, exe, workspace, timeout_s, False, home, project)]


