"""``clawmem recall`` without Typer: what it does once parsed (shared by Typer; ``clawmem.fastlane`` parses).

Never fails the turn: every problem becomes a line on stderr and less context, exit code 0.
"""

from __future__ import annotations

import sys
from pathlib import Path


def run_command(**values: object) -> int:
    """Recall in this process, or in the workspace's resident worker when one answers (same bytes either way)."""
    from clawmem.worker.client import delegated

    return delegated("recall", values, lambda: answer(**values))  # type: ignore[arg-type]


def answer(
    *,
    message: str,
    session: str | None = None,
    channel: str | None = None,
    sender: str | None = None,
    bootstrap: bool = True,
    budget_ms: int | None = None,
    include_superseded: bool = False,
    workspace: str | Path | None = None,
    why: bool = False,
    json_output: bool = False,
) -> int:
    from clawmem.rules.output import emit_json

    try:
        from clawmem.recall import recall
        from clawmem.recall.render import context_block
        from clawmem.storage.workspace import Workspace

        text = sys.stdin.read() if message == "-" else message
        ws = Workspace.open(workspace)
        result = recall(
            ws, text, session=session, channel=channel, sender=sender, include_bootstrap=bootstrap, budget_ms=budget_ms,
            include_superseded=include_superseded,
        )
    except Exception as err:  # noqa: BLE001 -- recall must never cost the turn; say why and return nothing
        reason = getattr(err, "message", None) or f"{type(err).__name__}: {err}"
        sys.stderr.write(f"clawmem: recall degraded: {reason}\n")
        if json_output:
            from clawmem.recall.render import degraded_payload

            emit_json(degraded_payload(reason))
        return 0
    for reason in result.degraded:
        sys.stderr.write(f"clawmem: recall degraded: {reason}\n")
    if json_output:
        from clawmem.recall.render import payload

        emit_json(payload(result))
    else:
        block = context_block(result)
        if block:
            sys.stdout.write(block + "\n")
        elif why or sys.stderr.isatty():  # a person asking; a hook's stdout stays empty either way
            from clawmem.recall.silence import why_nothing

            sys.stderr.write(f"clawmem: recall injected nothing: {why_nothing(result)}\n")
    return 0
