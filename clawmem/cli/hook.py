"""``clawmem hook EVENT --host HOST``: the memory step of one agent-host hook. Always exits 0.

``clawmem.launcher`` parses these options without Typer (hooks run on every prompt), with a
parser built from this declaration (``clawmem/fastlane/options.json``, written by ``scripts/gen_docs.py``).
"""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from clawmem.cli.options import WorkspaceOpt
from clawmem.hosts.names import HOOK_EVENTS, HOOK_HOSTS

# Typer's choices, named in clawmem.hosts.names (the fast lane's parser is built from these)
Event = enum.Enum("Event", {name: name for name in HOOK_EVENTS}, type=str)  # type: ignore[misc]
HookHost = enum.Enum("HookHost", {name: name for name in HOOK_HOSTS}, type=str)  # type: ignore[misc]


def hook(
    event: Annotated[Event, typer.Argument(help="The host's event: session-start, prompt, pre-compact, stop or session-end.")],
    host: Annotated[HookHost, typer.Option("--host", help="The agent host whose hook JSON arrives on stdin.")],
    budget_ms: Annotated[int | None, typer.Option("--budget-ms", min=1, help="Recall time budget in milliseconds [default: recall.budget_ms].")] = None,
    workspace: WorkspaceOpt = None,
) -> None:
    """Read an agent host's hook JSON on stdin and do that event's memory step.

    session-start prints the bootstrap and the project block of the hook's cwd; prompt prints
    the per-turn recall for the prompt (session id, host and cwd project from the JSON); both
    in the host's hookSpecificOutput.additionalContext shape. pre-compact, stop and
    session-end hand the transcript at transcript_path to a detached background ingest and
    return at once, printing nothing; `clawmem status` reports a background ingest that
    failed. Never fails the host's turn: a bad JSON, a missing workspace or transcript gives
    one stderr line, exit 0.
    `clawmem install HOST` writes these hooks into the host's config.

    Examples:

    \b
        echo '{"session_id":"s1","cwd":"/src/app","prompt":"why does CI fail?"}' | clawmem hook prompt --host claude-code
        clawmem hook stop --host codex -w ~/agents/ada/memory < hook.json
    """
    from clawmem.hosts.command import run_command

    run_command(event=event.value, host=host.value, workspace=workspace, budget_ms=budget_ms)
