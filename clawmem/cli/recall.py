"""``clawmem recall``: the per-turn entry point. Always exits 0, within its time budget."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def recall(
    message: Annotated[str, typer.Argument(help="The inbound message, or - to read it from standard input.")],
    session: Annotated[Optional[str], typer.Option("--session", help="Session id (keys the active project set).")] = None,
    channel: Annotated[Optional[str], typer.Option("--channel", help="Channel the message came from (intent scope).")] = None,
    sender: Annotated[Optional[str], typer.Option("--sender", help="Who sent it (intent scope).")] = None,
    bootstrap: Annotated[bool, typer.Option("--bootstrap/--no-bootstrap", help="Include MEMORY.md and USER.md (every turn, or only the first if your harness keeps them).")] = True,
    budget_ms: Annotated[Optional[int], typer.Option("--budget-ms", min=1, help="Time budget in milliseconds [default: recall.budget_ms].")] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Build the hidden context for one agent turn: bootstrap, triggers, intents, projects, escalation.

    Never fails the turn: a missing, locked or corrupt index, a missing model or a slow step
    gives less context and one line on stderr, and the exit code is still 0.

    Examples:
        clawmem recall "the build fails again on arm64" --session s-42
        echo "$MESSAGE" | clawmem recall - --session s-42 --channel slack --json
    """
    import sys

    from clawmem.output import emit_json

    try:
        from clawmem.recall import recall as run_recall
        from clawmem.recall.render import context_block
        from clawmem.workspace import Workspace

        text = sys.stdin.read() if message == "-" else message
        ws = Workspace.open(workspace)
        result = run_recall(ws, text, session=session, channel=channel, sender=sender, include_bootstrap=bootstrap, budget_ms=budget_ms)
    except Exception as err:  # recall must never cost the turn; say why and return nothing
        reason = getattr(err, "message", None) or f"{type(err).__name__}: {err}"
        sys.stderr.write(f"clawmem: recall degraded: {reason}\n")
        if json_output:
            emit_json({"context": "", "degraded": [reason], "escalation": None, "bootstrap": [], "triggers": [], "intents": [], "project_block": []})
        raise typer.Exit(0)
    for reason in result.degraded:
        sys.stderr.write(f"clawmem: recall degraded: {reason}\n")
    if json_output:
        from clawmem.output import to_jsonable

        payload = to_jsonable(result)
        for f in payload["bootstrap"]:
            f.pop("text_hashes", None)
        for t in payload["triggers"]:
            t.pop("text_hash", None)
        payload["context"] = context_block(result)
        emit_json(payload)
    else:
        block = context_block(result)
        if block:
            print(block)
    sys.stdout.flush()
    _exit_now_if_cut_off()


def _exit_now_if_cut_off() -> None:
    """A vector lane cut off by the budget may still be loading a model: do not wait for it."""
    import os

    from clawmem.recall.triggers import ABANDONED

    if ABANDONED:
        os._exit(0)
