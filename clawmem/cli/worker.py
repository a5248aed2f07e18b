"""``clawmem worker``: see, start and stop the workspace's resident worker (``clawmem.worker``)."""

from __future__ import annotations

from typing import Any

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt

app = typer.Typer(help="The resident worker: recall and the hooks answered by a process that keeps clawmem loaded (never required).", no_args_is_help=True)


def _show(info: dict[str, Any], json_output: bool) -> None:
    from clawmem.rules.output import emit_json

    if json_output:
        emit_json(info)
    elif info["answers"]:
        print(f"worker running: pid {info['pid']}, {info['served']} requests served, socket {info['socket']}, exits after {info['idle_s']} s idle")
    elif info["running"]:
        print(f"worker running (pid {info['pid']}) but not answering: {info['reason']}")
    else:
        print("no worker running: recall and the hooks do the work in their own process" + (f" ({info['reason']})" if info["reason"] else ""))


@app.command("status")
def status(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Say whether the workspace's worker runs and answers this clawmem.

    Exit status: 0 whether or not one runs; 1 when there is no workspace.

    Examples:

    \b
        clawmem worker status
        clawmem worker status --json
    """
    from clawmem.storage.workspace import Workspace
    from clawmem.worker.lifecycle import status as worker_status

    _show(worker_status(Workspace.open(workspace).root), json_output)


@app.command("start")
def start(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Start the workspace's worker unless one runs, and wait until it answers.

    recall and the prompt and session-start hooks start it themselves in the background
    on first use (worker.autostart); it exits after worker.idle_s seconds without a request.

    Exit status: 0 when a worker answers; 1 when none could be started.

    Examples:

    \b
        clawmem worker start
    """
    from clawmem.foundation.config import WORKER_START_WAIT_S
    from clawmem.foundation.errors import ClawmemError
    from clawmem.storage.workspace import Workspace
    from clawmem.worker.lifecycle import start as start_worker
    from clawmem.worker.lifecycle import unsupported

    root = Workspace.open(workspace).root
    reason = unsupported(root)
    if reason is not None:
        raise ClawmemError(f"no worker for this workspace: {reason}", hint="recall and the hooks work without one")
    info = start_worker(root, WORKER_START_WAIT_S)
    _show(info, json_output)
    if not info["answers"]:
        raise typer.Exit(1)


@app.command("stop")
def stop(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Stop the workspace's worker (nothing is lost: it holds nothing the files and the index do not).

    Exit status: 0 whether or not one was running.

    Examples:

    \b
        clawmem worker stop
    """
    from clawmem.foundation.config import WORKER_START_WAIT_S
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.worker.lifecycle import stop as stop_worker

    stopped = stop_worker(Workspace.open(workspace).root, WORKER_START_WAIT_S)
    if json_output:
        emit_json({"stopped": stopped})
    else:
        print("worker stopped" if stopped else "no worker was running")
