"""``clawmem report``: write the HTML review report (or its data as JSON)."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def report(
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report here (FILE.html, or - for stdout) [default: .clawmem/report.html in the workspace].", show_default=False)] = None,  # noqa: E501  Typer help text kept on one line
    open_it: Annotated[bool, typer.Option("--open", help="Open the written report in the default web browser.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Write a self-contained HTML report of memory, dreaming and provenance.

    One file, no network, no script: counts and warnings; every MEMORY.md and USER.md entry
    with its sources, sweep, triggers and supersession history; the last sweeps and the staged
    candidates with their six signals and the thresholds they still miss; which entries are
    recalled and which never are; growth charts; quarantined and untrusted lines shown as
    inert text. With --json, print the gathered data instead.

    Examples:

    \b
        clawmem report
        clawmem report -o review.html --open
        clawmem report --json | jq .recall.recalled
    """
    import sys
    from pathlib import Path

    from clawmem import report as report_module
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    if json_output:
        from clawmem.report.data import gather
        from clawmem.rules.output import emit_json

        emit_json(gather(ws))
        return
    if output == "-":
        sys.stdout.write(report_module.build(ws))
        return
    path = report_module.write(ws, Path(output) if output else None)
    sys.stdout.write(f"{path}\n")
    if open_it:
        import webbrowser

        webbrowser.open(path.resolve().as_uri())
