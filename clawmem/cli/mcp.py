"""``clawmem mcp``: serve the memory tools to MCP-speaking agents over stdio."""

from __future__ import annotations

from clawmem.cli.options import WorkspaceOpt


def mcp(workspace: WorkspaceOpt = None) -> None:
    """Run an MCP server on stdin/stdout: memory_search, memory_get, note, recall, intent_add, intent_list.

    Your agent host starts it and speaks JSON-RPC to it; nothing else is printed on stdout.
    The client is treated as automation, never as the owner: notes are recorded as agent (or
    untrusted/system when the tool call says so), untrusted hits come framed, and no tool
    deletes, consolidates or reconfigures memory. Needs the extra: pip install 'clawmem[mcp]'.

    Examples:

    \b
        clawmem mcp -w ~/agents/ada/memory
        CLAWMEM_WORKSPACE=~/agents/ada/memory clawmem mcp
    """
    from clawmem.errors import ClawmemError
    from clawmem.mcp_server import INSTALL_HINT, sdk_available, serve

    if not sdk_available():
        raise ClawmemError("the MCP server needs the official MCP SDK, which is not installed", hint=INSTALL_HINT)
    import sys

    if sys.stdin.isatty():
        sys.stderr.write("clawmem: mcp speaks JSON-RPC on stdin/stdout; start it from your agent host (Ctrl-C stops it)\n")
    serve(workspace)
