"""``clawmem project``: repository identity and the session's active project set."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt, session_option

app = typer.Typer(invoke_without_command=True)


@app.callback()
def show(
    ctx: typer.Context,
    path: Annotated[str | None, typer.Option("--path", help="Directory inside the repository [default: current].")] = None,
    json_output: JsonOpt = False,
) -> None:
    """Show the current repository's project key (normalised origin remote, else its root path).

    Examples:

    \b
        clawmem project
        clawmem project --path ~/src/app --json
    """
    if ctx.invoked_subcommand is not None:
        return
    from clawmem.commands.projects import current
    from clawmem.rules.output import emit_json

    repo = current(path)
    if json_output:
        emit_json({"key": repo.key if repo else None, "root": str(repo.root) if repo else None, "remote": repo.remote if repo else None})
    elif repo:
        print(f"{repo.key}\t({repo.root})")
    else:
        print("not inside a git repository: memory written here is not project-scoped")


@app.command("prepare")
def prepare(
    path: Annotated[str | None, typer.Argument(help="Directory inside the repository [default: current].")] = None,
    session: Annotated[str, session_option("Session whose active set to update.")] = ...,  # type: ignore[assignment]  # Typer marks a required option after optional ones with ...
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Move a repository's key to the front of the session's active set (at most 4 kept).

    Examples:

    \b
        clawmem project prepare --session s-42
        clawmem project prepare ~/src/lib --session s-42
    """
    from clawmem.commands.projects import current
    from clawmem.commands.projects import prepare as prepare_key
    from clawmem.foundation.errors import BadInput
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    repo = current(path)
    if repo is None:
        raise BadInput(f"{path or 'the current directory'} is not inside a git repository")
    ws = Workspace.open(workspace)
    keys = prepare_key(ws, session, repo.key, cap=ws.config.recall.active_projects)
    if json_output:
        emit_json({"session": session, "active": keys})
    else:
        print("\n".join(keys))


@app.command("active")
def active(
    session: Annotated[str, session_option("Session to show.")] = ...,  # type: ignore[assignment]  # Typer marks a required option after optional ones with ...
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """List the session's active project keys, most recent first (empty for a new session).

    Examples:

    \b
        clawmem project active --session s-42
    """
    from clawmem.commands.projects import active_set
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    keys = active_set(Workspace.open(workspace), session)
    if json_output:
        emit_json({"session": session, "active": keys})
    else:
        print("\n".join(keys) if keys else "(no active projects)")

