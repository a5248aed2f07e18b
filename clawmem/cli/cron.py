"""``clawmem cron``: the crontab lines for this workspace, printed or installed."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import WorkspaceOpt


def cron(
    install: Annotated[bool, typer.Option("--install", help="Put the lines into your crontab (replacing this workspace's earlier block; other lines untouched).")] = False,
    remove: Annotated[bool, typer.Option("--remove", help="Take this workspace's block out of your crontab.")] = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Print the crontab block that runs `dream` nightly and `intent due` every minute.

    Each line names the clawmem actually running by its absolute path and sets the
    workspace, PATH and time zone it needs, because cron has none of your shell's
    environment. `dream` appends one JSON object per line, with its time in "at", to
    .clawmem/dream.jsonl; `intent due` prints the reminders, which cron mails. The block is
    marked with the workspace path, so --install run again replaces it instead of adding
    a second one. The schedule of the nightly sweep is dream.cron_schedule.

    Exit status: 0 on success; 1 when crontab is missing or refuses the new table; 2 on bad usage.

    Examples:

    \b
        clawmem cron
        clawmem cron --install
        clawmem cron --remove -w ~/agent
    """
    from clawmem.commands import cron as core
    from clawmem.foundation.errors import BadInput
    from clawmem.storage.workspace import Workspace, resolve_root

    if install and remove:
        raise BadInput("--install and --remove cannot be combined", hint="pick one")
    if remove:  # by path: a deleted workspace's block can still be removed
        done = core.remove(resolve_root(workspace))
        print("Removed the clawmem block from your crontab." if done.changed else "No clawmem block for this workspace in your crontab; nothing changed.")
        return
    ws = Workspace.open(workspace)
    if install:
        done = core.install(ws)
        verb = "Replaced" if done.replaced else "Installed"
        print(done.block, end="")
        print(f"{verb} in your crontab." if done.changed else "Already installed in your crontab; nothing changed.")
    else:
        print(core.block(ws), end="")
