"""``clawmem recall``: the per-turn entry point. Always exits 0, within its time budget.

Agents call this on every message, so ``clawmem.launcher`` reads these options itself
(``clawmem.fastlane``) and skips Typer entirely (Typer's import and per-option validation cost
more than the recall itself); what it takes comes from this declaration
(``clawmem/fastlane/options.json``, written by ``scripts/gen_docs.py``).
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def recall(
    message: Annotated[str, typer.Argument(help="The inbound message, or - to read it from standard input.")],
    session: Annotated[Optional[str], typer.Option("--session", help="Session id (keys the active project set).")] = None,
    channel: Annotated[Optional[str], typer.Option("--channel", help="Channel the message came from (intent scope).")] = None,
    sender: Annotated[Optional[str], typer.Option("--sender", help="Who sent it (intent scope).")] = None,
    bootstrap: Annotated[bool, typer.Option("--bootstrap/--no-bootstrap", help="Include MEMORY.md and USER.md (turn off if your harness keeps them in context).")] = True,
    budget_ms: Annotated[Optional[int], typer.Option("--budget-ms", min=1, help="Time budget in milliseconds [default: recall.budget_ms].")] = None,
    include_superseded: Annotated[bool, typer.Option("--include-superseded", help="Also consider entries a newer entry with the same key replaced.")] = False,
    workspace: WorkspaceOpt = None,
    why: Annotated[bool, typer.Option("--why", help="Say on stderr why nothing was injected (the default when stderr is a terminal).")] = False,
    json_output: JsonOpt = False,
) -> None:
    """Build the hidden context for one agent turn: bootstrap, triggers, intents, projects, escalation.

    Never fails the turn: a missing, locked or corrupt index, a missing model or a slow step
    gives less context and one line on stderr, and the exit code is still 0. When it injects
    nothing, stdout stays empty (hosts read it) and, on a terminal or with --why, one stderr
    line says why (empty MEMORY.md, no trigger matched, no recall intent in the message).

    Examples:

    \b
        clawmem recall "the build fails again on arm64" --session s-42
        echo "$MESSAGE" | clawmem recall - --session s-42 --channel slack --json
        clawmem recall "the deploy failed again" --why
    """
    from clawmem.fastlane.recall import run_command

    run_command(
        message=message, session=session, channel=channel, sender=sender, bootstrap=bootstrap,
        budget_ms=budget_ms, include_superseded=include_superseded, workspace=workspace, why=why, json_output=json_output,
    )
