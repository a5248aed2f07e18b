"""Options shared by many commands, declared once (like sqlite-utils' ``output_options``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from clawmem.foundation.vocabulary import Origin, SessionKind

JSON_FLAG = "clawmem_json"
WORKSPACE_KEY = "clawmem_workspace"
DEBUG_FLAG = "clawmem_debug"


def _remember_json(ctx: typer.Context, value: bool) -> bool:
    """``--json`` before or after the command means the same; eager, so a usage error's JSON never depends on order."""
    value = bool(value or ctx.meta.get(JSON_FLAG))
    ctx.meta[JSON_FLAG] = value  # ``meta`` is shared by the whole context tree
    return value


def _remember_workspace(ctx: typer.Context, value: Path | None) -> Path | None:
    """``-w`` after the command wins; otherwise the one given before it (``clawmem -w DIR CMD``)."""
    if value is None:
        return ctx.meta.get(WORKSPACE_KEY)
    ctx.meta[WORKSPACE_KEY] = value
    return value


WorkspaceOpt = Annotated[
    Path | None,
    typer.Option(
        "--workspace", "-w", metavar="DIR", callback=_remember_workspace, show_default=False,
        help="Workspace directory [default: $CLAWMEM_WORKSPACE, else the nearest enclosing workspace, else ~/.local/share/clawmem].",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (a stable, documented shape).", callback=_remember_json, is_eager=True)]
OriginOpt = Annotated[
    Origin | None,
    typer.Option("--origin", help="Who the content comes from [default: owner at a terminal, else untrusted].", show_default=False),
]
SessionKindOpt = Annotated[SessionKind, typer.Option("--session-kind", help="Kind of session that produced it.")]


def _valid_session(value: str | None) -> str | None:
    """Refuse session ids that could name a path (they key transcripts and the ledger)."""
    if value is None:
        return None
    from clawmem.storage.workspace import validate_session_id

    return validate_session_id(value)


def session_option(help: str = "Session id (letters, digits, . _ : -).") -> Any:
    """The one ``--session`` option: every command validates the id the same way, with its own help."""
    return typer.Option("--session", help=help, callback=_valid_session, metavar="ID")


SessionOpt = Annotated[str | None, session_option()]
AtOpt = Annotated[str | None, typer.Option("--at", help="When it was observed: ISO time or a phrase like 'yesterday 3pm'.")]


def usage_error(ctx: typer.Context, message: str) -> NoReturn:
    """Refuse a combination of arguments as a usage error (exit 2, one line naming the command's help)."""
    from clawmem.foundation.errors import BadUsage

    raise BadUsage(message, command=ctx.command_path)


def resolve_origin(origin: Origin | None) -> str:
    """The caller's origin, or the default: owner when a person types at a terminal, else untrusted.

    Only standard input decides (a person at a keyboard): piping stdout or asking for
    ``--json`` never changes the class of what is written.
    """
    import sys

    from clawmem.trust import provenance

    chosen = provenance.caller_origin(None if origin is None else origin.value, from_terminal=sys.stdin.isatty())
    if origin is None and chosen != "owner":
        sys.stderr.write("clawmem: no --origin given and not at a terminal: recording as untrusted\n")
    return chosen
