"""``clawmem demo``: a guided tour of every layer on a throwaway workspace."""

from __future__ import annotations

from typing import Annotated, Optional

import typer


def demo(
    workspace: Annotated[Optional[str], typer.Option("--workspace", "-w", help="Where to build the demo workspace (must not exist) [default: a new temporary directory].")] = None,
) -> None:
    """Run the guided demo: notes of every trust class, transcripts, index, search, dream, recall.

    Examples:

    \b
        clawmem demo
        clawmem demo -w ./clawmem-demo
    """
    import tempfile
    from pathlib import Path

    from clawmem.commands.demo import run_demo
    from clawmem.rules.output import console

    root = Path(workspace) if workspace else Path(tempfile.mkdtemp(prefix="clawmem-demo-")) / "workspace"
    out = console()

    def say(step) -> None:
        out.print(f"\n[bold]{step.title}[/bold]\n[dim]$ {step.command}[/dim]")
        for line in step.output:
            out.print(f"  {line}", markup=False)

    run_demo(root, say=say)
    out.print(f"\nThe demo workspace is at {root}; explore it with `clawmem -h` and CLAWMEM_WORKSPACE={root}", markup=False)
    if not workspace:
        out.print(f"It stays until you remove it: rm -rf {root.parent}", markup=False)
