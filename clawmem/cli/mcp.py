"""``clawmem mcp``: serve the memory tools to MCP-speaking agents (stdio, or HTTP on loopback)."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import WorkspaceOpt


def mcp(
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP on the loopback interface instead of stdio.")] = False,
    host: Annotated[str, typer.Option("--host", help="Loopback address to listen on with --http (other addresses are refused).")] = "127.0.0.1",
    port: Annotated[int | None, typer.Option("--port", min=0, max=65535, help="Port for --http [default: mcp.http_port; 0: any free port].", show_default=False)] = None,
    workspace: WorkspaceOpt = None,
) -> None:
    """Run an MCP server: recall_context, search_memory, read_excerpt, add_note, flush_context, ingest_transcript, add_intent, list_intents, propose_directive.

    Your agent host starts it and speaks JSON-RPC to it on stdin/stdout (nothing else is printed
    there); with --http it listens on http://127.0.0.1:PORT/mcp instead and prints that URL on
    stderr. The client is treated as automation, never as the owner: notes, flushes and
    transcripts are recorded as agent (or untrusted/system when the call says so), untrusted
    hits come framed, and no tool deletes, promotes, consolidates or reconfigures memory.
    MEMORY.md and USER.md are resources. Tool reference: docs/mcp.md. Needs the extra:
    pip install 'clawmem-cli[mcp]'.

    Examples:

    \b
        clawmem mcp -w ~/agents/ada/memory
        clawmem mcp --http --port 8765 -w ~/agents/ada/memory
    """
    from clawmem.foundation.errors import ClawmemError
    from clawmem.mcp import INSTALL_HINT
    from clawmem.mcp.stdio import sdk_installed

    if not sdk_installed():
        raise ClawmemError("the MCP server needs the official MCP SDK, which is not installed", hint=INSTALL_HINT)
    if http:
        from clawmem.mcp.http import loopback_host, serve_http
        from clawmem.storage.workspace import Workspace

        loopback_host(host)  # refuse a non-loopback address before anything else
        chosen = port if port is not None else Workspace.open(workspace).config.mcp.http_port
        serve_http(workspace, host, chosen)
        return
    import sys

    from clawmem.mcp.stdio import serve
    from clawmem.storage.workspace import Workspace

    Workspace.open(workspace)  # fail before the handshake, with clawmem's message, when there is no workspace
    if sys.stdin.isatty():
        sys.stderr.write("clawmem: mcp speaks JSON-RPC on stdin/stdout; start it from your agent host (Ctrl-C stops it)\n")
    code = serve(workspace)
    if code:  # the SDK server failed (its traceback is on stderr)
        raise typer.Exit(code)
