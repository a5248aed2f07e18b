"""``clawmem status``: workspace health.

The launcher runs plain invocations without Typer (``clawmem.fastlane.status``, which does the
work for both paths); this module declares the options, for help and usage errors and for the
fast lane's parser (``clawmem/fastlane/options.json``, written by ``scripts/gen_docs.py``).
"""

from __future__ import annotations

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def status(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Show counts by tier, origin and session kind, index freshness, embeddings, and warnings.

    Also one line for each thing that keeps trusted memory out of MEMORY.md (lines in a
    tainted file, a full budget, candidates waiting on a threshold), with the fix, and one for
    aspirations past their review date.

    Examples:

    \b
        clawmem status
        clawmem status --json | jq .by_origin
    """
    from clawmem.fastlane.status import run_command

    run_command(workspace=None if workspace is None else str(workspace), json_output=json_output)
