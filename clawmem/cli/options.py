"""Options shared by many commands, declared once (like sqlite-utils' ``output_options``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from clawmem.vocabulary import Origin, SessionKind

JSON_FLAG = "clawmem_json"


def _remember_json(ctx: typer.Context, value: bool) -> bool:
    ctx.find_root().meta[JSON_FLAG] = value
    return value


WorkspaceOpt = Annotated[
    Optional[Path],
    typer.Option("--workspace", "-w", help="Workspace directory [default: $CLAWMEM_WORKSPACE, else ~/.local/share/clawmem].", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (a stable, documented shape).", callback=_remember_json)]
OriginOpt = Annotated[
    Optional[Origin],
    typer.Option("--origin", help="Who the content comes from [default: owner at a terminal, else untrusted].", show_default=False),
]
SessionKindOpt = Annotated[SessionKind, typer.Option("--session-kind", help="Kind of session that produced it.")]
def _valid_session(value: str | None) -> str | None:
    """Refuse session ids that could name a path (they key transcripts and the ledger)."""
    if value is None:
        return None
    from clawmem.workspace import validate_session_id

    return validate_session_id(value)


SessionOpt = Annotated[Optional[str], typer.Option("--session", help="Session id (letters, digits, . _ : -).", callback=_valid_session)]
AtOpt = Annotated[Optional[str], typer.Option("--at", help="When it was observed: ISO time or a phrase like 'yesterday 3pm'.")]


def resolve_origin(origin: Origin | None) -> str:
    """The caller's origin, or the default: owner when a person types at a terminal, else untrusted.

    Only standard input decides (a person at a keyboard): piping stdout or asking for
    ``--json`` never changes the class of what is written.
    """
    import sys

    from clawmem.provenance import default_origin

    if origin is not None:
        return origin.value
    chosen = default_origin(from_terminal=sys.stdin.isatty())
    if chosen != "owner":
        sys.stderr.write("clawmem: no --origin given and not at a terminal: recording as untrusted\n")
    return chosen
