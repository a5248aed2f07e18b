"""``clawmem mcp`` over stdio without Typer: the handshake must be answered before the host gives up on it.

Only the plain stdio form (``clawmem [-w DIR] mcp [-w DIR]``, stdin not a terminal, the SDK
installed, the workspace there) takes this lane; ``--http``, ``--help`` and every failure go
to the Typer command, which reports them as it always has.
"""

from __future__ import annotations

import sys

from clawmem.fastlane import Usage, parse


def run(argv: list[str], found: dict[str, str | bool]) -> int:
    if set(found) - {"workspace"}:
        raise Usage("mcp takes no --json or --debug")
    args = parse("mcp", argv)
    if args.http:
        raise Usage("the HTTP server is Typer's")
    given = args.workspace if args.workspace is not None else found.get("workspace")
    workspace = given if isinstance(given, str) else None
    if sys.stdin.isatty():
        raise Usage("Typer prints the notice for a terminal")
    from clawmem.mcp.stdio import sdk_installed, serve

    if not sdk_installed():
        raise Usage("Typer reports the missing SDK")
    from clawmem.foundation.errors import ClawmemError
    from clawmem.storage.workspace import Workspace

    try:
        Workspace.open(workspace)  # fail before the handshake, as the Typer command does
    except ClawmemError:
        raise Usage("Typer reports the workspace error") from None
    return serve(workspace)
