"""``clawmem plugin build DIR``: clawmem as a Claude Code plugin and a Codex plugin, in a local marketplace."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt

app = typer.Typer(help="Build clawmem's plugins for Claude Code and Codex.", no_args_is_help=True)


@app.command("build")
def build(
    directory: Annotated[Path, typer.Argument(help="Where to write the marketplace (created when missing).", metavar="DIR")],
    force: Annotated[bool, typer.Option("--force", help="Replace plugin files that differ from what this clawmem writes.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Write a local marketplace with clawmem's Claude Code and Codex plugins.

    The plugins carry the hooks and MCP server that `clawmem install` writes (the same
    description, rendered as plugin files), with the absolute path of this clawmem and the
    workspace (created when missing). Install them with the commands it prints; `install`
    stays for those who prefer one command.

    Examples:

    \b
        clawmem plugin build ~/.local/share/clawmem/marketplace -w ~/agents/ada/memory
        claude plugin marketplace add ~/.local/share/clawmem/marketplace
        claude plugin install clawmem@clawmem-local
    """
    from clawmem.hosts.plugin import build as run_build

    report = run_build(directory, workspace=workspace, force=force)
    if json_output:
        from clawmem.rules.output import emit_json

        emit_json(report)
        return
    import sys

    sys.stdout.write(f"wrote {len(report.files)} files into {report.directory}\n")
    for command in report.install:
        sys.stdout.write(f"  {command}\n")
