"""``clawmem mcp --http``: the same server over streamable HTTP, on the loopback interface only.

clawmem has no authentication: whoever reaches the port can write notes as an agent and read
memory. So the server binds a loopback address and refuses any other, with no override: a
host on another machine reaches it through an SSH tunnel, which brings its own authentication.
The SDK's DNS-rebinding protection (Host and Origin must name a loopback address) stays on, so
a web page in the user's browser cannot drive it either.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path

from clawmem.foundation.errors import BadInput

LOOPBACK_NAMES = ("localhost",)
PATH = "/mcp"


def loopback_host(host: str) -> str:
    """``host`` when it names the loopback interface; anything else is refused before binding."""
    if host in LOOPBACK_NAMES:
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise BadInput(
            f"--host {host!r} is not a loopback address: clawmem's MCP server has no authentication",
            hint="use 127.0.0.1 or ::1 (reach it from elsewhere through an SSH tunnel)",
        )
    return str(address)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one, reported by the caller)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise BadInput(f"cannot listen on {host}:{port}: {err.strerror}", hint="pick another port with --port N (0: any free port)") from None
    sock.listen(64)
    return sock


def allowed_names(address: str) -> list[str]:
    """Host names a request may carry for ``address``: the loopback names, and the address itself."""
    named = f"[{address}]" if ":" in address else address
    return sorted({named, "127.0.0.1", "localhost", "[::1]"})


def url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}{PATH}"


def serve_http(workspace: str | Path | None, host: str, port: int) -> None:
    """Serve until interrupted; the URL goes to stderr once the socket is listening."""
    import anyio
    import uvicorn  # comes with the SDK
    from mcp.server.transport_security import TransportSecuritySettings

    from clawmem.mcp.server import build_server
    from clawmem.storage.workspace import Workspace

    Workspace.open(workspace)  # fail before listening when there is no workspace
    address = loopback_host(host)
    server = build_server(workspace)
    sock = bind(address, port)
    names = allowed_names(address)
    security = TransportSecuritySettings(  # explicit: the SDK turns it on by itself only for three spellings of loopback
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[f"http://{name}:*" for name in names],
    )
    app = server.streamable_http_app(streamable_http_path=PATH, host=address, transport_security=security)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    sys.stderr.write(f"clawmem: MCP over streamable HTTP at {url(sock)} (loopback only; Ctrl-C stops it)\n")
    sys.stderr.flush()
    anyio.run(lambda: uvicorn.Server(config).serve(sockets=[sock]))
