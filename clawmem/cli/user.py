"""``clawmem user set|list|retire``: the user model in USER.md, one active directive per key."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, OriginOpt, SessionKind, SessionKindOpt, SessionOpt, WorkspaceOpt, resolve_origin

app = typer.Typer(help="The user model: imperative directives in USER.md, superseded in place.", no_args_is_help=True)

KeyOpt = Annotated[str, typer.Option("--key", help="Supersession key: setting it again rewrites that line in place.")]



@app.command("set")
def set_(
    directive: Annotated[str, typer.Argument(help='An imperative: "Always ...", "Never ...", "Prefer ...".')],
    key: KeyOpt,
    origin: OriginOpt = None,
    session_kind: SessionKindOpt = SessionKind.interactive,
    session: SessionOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Add a directive to USER.md, or rewrite the one with the same --key in place.

    A changed preference never adds a second, contradicting line: the old text goes to the
    pre-image and DREAMS.md. Observations ("The user likes tea") are refused: say it as a
    directive. Only owner or agent origin, in an interactive session, may set one.

    Examples:

    \b
        clawmem user set "Always answer in British English" --key language --origin owner
        clawmem user set "Prefer short answers with code first" --key style --origin agent
    """
    from clawmem.commands.usermodel import set_directive
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    result = set_directive(ws, directive, key=key, origin=resolve_origin(origin), session_kind=session_kind.value, session=session)
    if json_output:
        emit_json(result)
    elif result.action == "changed":
        print(f"Changed '{result.key}' in USER.md:{result.line}: {result.text}")
        print(f"  was: {result.previous} (kept in {result.preimage} and DREAMS.md)")
    elif result.action == "added":
        print(f"Added '{result.key}' to USER.md:{result.line}: {result.text}")
    else:
        print(f"Unchanged: '{result.key}' already says so (USER.md:{result.line})")


@app.command("list")
def list_(
    all_: Annotated[bool, typer.Option("--all", help="Include superseded and unkeyed entries.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """List the directives in USER.md (active keyed ones unless --all).

    Examples:

    \b
        clawmem user list
        clawmem user list --all --json
    """
    from clawmem.commands.usermodel import directives
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    found = [d for d in directives(ws) if all_ or (d.status == "active" and d.key)]
    if json_output:
        emit_json(found)
        return
    if not found:
        print('No directives in USER.md. Add one with `clawmem user set "Always ..." --key KEY`.')
        return
    from clawmem.rules.output import print_table

    print_table(("Key", "Directive", "Observed", "Status", "Line"), [(d.key or "-", d.text, d.observed or "-", d.status, str(d.line)) for d in found])


@app.command("retire")
def retire(
    key: Annotated[str, typer.Argument(help="The key of the directive to retire.")],
    origin: OriginOpt = None,
    session_kind: SessionKindOpt = SessionKind.interactive,
    session: SessionOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Retire a directive: its line leaves USER.md (the pre-image and DREAMS.md keep it).

    Examples:

    \b
        clawmem user retire language --origin owner
    """
    from clawmem.commands.usermodel import retire as retire_core
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    result = retire_core(ws, key, origin=resolve_origin(origin), session_kind=session_kind.value, session=session)
    if json_output:
        emit_json(result)
    else:
        print(f"Retired '{result.key}': {result.text} (kept in {result.preimage} and DREAMS.md)")
