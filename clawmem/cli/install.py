"""``clawmem install HOST``: wire clawmem's hooks and MCP server into an agent host's config."""

from __future__ import annotations

import enum
import sys
from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt
from clawmem.hosts.names import INSTALL_HOSTS

InstallHost = enum.Enum("InstallHost", {name: name for name in INSTALL_HOSTS}, type=str)  # type: ignore[misc]  # clawmem.hosts.names


class Scope(str, enum.Enum):
    user = "user"
    project = "project"


class AutoMemory(str, enum.Enum):
    off = "off"
    keep = "keep"


def install(
    host: Annotated[InstallHost, typer.Argument(help="The agent host: claude-code, codex, cursor or claude-desktop.")],
    scope: Annotated[Scope, typer.Option("--scope", help="user: your config in HOME; project: the config files of the current directory.")] = Scope.user,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show which files would change; write nothing.")] = False,
    uninstall: Annotated[bool, typer.Option("--uninstall", help="Remove clawmem's hooks and MCP entry; leave everything else.")] = False,
    trust_hooks: Annotated[bool, typer.Option("--trust-hooks", help="Codex: trust clawmem's hooks now, as accepting them under /hooks does.")] = False,
    auto_memory: Annotated[Optional[AutoMemory], typer.Option("--auto-memory", help="Claude Code auto memory: off (uninstall restores it) or keep; asked at a terminal.")] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Merge clawmem's hooks and MCP server entry into an agent host's config files.

    Claude Code and Codex get the session-start, prompt, pre-compact and session-end (Codex:
    stop) hooks plus the MCP server; Cursor and Claude Desktop get the MCP server. Commands
    use the absolute path of this clawmem and the workspace (created when missing). Existing
    settings are kept: only clawmem's own entries change, each changed file is backed up next
    to itself, a second run changes nothing, and a malformed config file is an error with
    nothing written. Codex runs hooks only once you trust them (--trust-hooks records that);
    Claude Code's own auto memory can be switched off so the two memories do not inject twice.

    Examples:

    \b
        clawmem install claude-code -w ~/agents/ada/memory
        clawmem install codex --dry-run
        clawmem install codex --trust-hooks
        clawmem install claude-code --auto-memory off
        clawmem install cursor --scope project
        clawmem install claude-desktop --uninstall
    """
    from clawmem.hosts.install import install as run_install

    if auto_memory is None and host.value == "claude-code" and not (uninstall or dry_run or json_output) and sys.stdin.isatty() and sys.stdout.isatty():
        off = typer.confirm("Claude Code keeps its own auto memory too, so both would be injected into every session. Switch it off (uninstall restores it)?", default=False)
        auto_memory = AutoMemory.off if off else AutoMemory.keep
    report = run_install(
        host.value, scope=scope.value, workspace=workspace, uninstall=uninstall, dry_run=dry_run,
        trust_hooks=trust_hooks, auto_memory=(auto_memory or AutoMemory.keep).value,
    )
    if json_output:
        from clawmem.rules.output import emit_json

        emit_json(report)
        return

    verb = "would " if dry_run else ""
    if report.workspace_created:
        sys.stdout.write(f"{verb}create workspace {report.workspace}\n")
    for change in report.files:
        what = f" ({', '.join(change.entries)})" if change.entries else ""
        backup = f"; backup {change.backup}" if change.backup else ""
        sys.stdout.write(f"{change.action if not dry_run else verb + change.action}: {change.path}{what}{backup}\n")
    if report.hook_trust:
        sys.stdout.write(f"hook trust: {report.hook_trust} by Codex\n")
    if report.auto_memory:
        sys.stdout.write(f"Claude Code auto memory: {report.auto_memory}\n")
    for note in report.notes:
        sys.stdout.write(f"note: {note}\n")
