"""``clawmem install HOST``: wire clawmem's hooks and MCP server into an agent host's config."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


class InstallHost(str, enum.Enum):
    claude_code = "claude-code"
    codex = "codex"
    cursor = "cursor"
    claude_desktop = "claude-desktop"


class Scope(str, enum.Enum):
    user = "user"
    project = "project"


def install(
    host: Annotated[InstallHost, typer.Argument(help="The agent host: claude-code, codex, cursor or claude-desktop.")],
    scope: Annotated[Scope, typer.Option("--scope", help="user: your config in HOME; project: the config files of the current directory.")] = Scope.user,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show which files would change; write nothing.")] = False,
    uninstall: Annotated[bool, typer.Option("--uninstall", help="Remove clawmem's hooks and MCP entry; leave everything else.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Merge clawmem's hooks and MCP server entry into an agent host's config files.

    Claude Code and Codex get the session-start, prompt, pre-compact and session-end (Codex:
    stop) hooks plus the MCP server; Cursor and Claude Desktop get the MCP server. Commands
    use the absolute path of this clawmem and the workspace (created when missing). Existing
    settings are kept: each changed file is backed up next to itself, a second run changes
    nothing, and a malformed config file is an error with nothing written.

    Examples:

    \b
        clawmem install claude-code -w ~/agents/ada/memory
        clawmem install codex --dry-run
        clawmem install cursor --scope project
        clawmem install claude-desktop --uninstall
    """
    from clawmem.hosts.install import install as run_install

    report = run_install(host.value, scope=scope.value, workspace=workspace, uninstall=uninstall, dry_run=dry_run)
    if json_output:
        from clawmem.output import emit_json

        emit_json(report)
        return
    import sys

    verb = "would " if dry_run else ""
    if report.workspace_created:
        sys.stdout.write(f"{verb}create workspace {report.workspace}\n")
    for change in report.files:
        what = f" ({', '.join(change.entries)})" if change.entries else ""
        backup = f"; backup {change.backup}" if change.backup else ""
        sys.stdout.write(f"{change.action if not dry_run else verb + change.action}: {change.path}{what}{backup}\n")
    for note in report.notes:
        sys.stdout.write(f"note: {note}\n")
