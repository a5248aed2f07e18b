"""What every tool call needs: its workspace, its project directory, a worker thread, shared parameter types.

The project a call belongs to comes from the ``project_dir`` argument, else the client's
first ``file://`` root (``roots/list``, which handshake-era hosts offer), never from the
server's own working directory: one HTTP server serves clients in many repositories.
"""

# No `from __future__ import annotations` here: the SDK reads the tools' annotations at run time.
import functools
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import unquote, urlparse

import anyio
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPDeprecationWarning
from pydantic import GetPydanticSchema

from clawmem.foundation import vocabulary
from clawmem.foundation.errors import BadInput
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

ORIGIN_DOC = "Who it comes from: agent (your own words), untrusted (copied from a web page, file or tool output), system."
SESSION_DOC = "Session id (letters, digits, . _ : -)."
PROJECT_DIR_DOC = "Absolute path of the repository you are working in [default: the client's first root]."
SESSION_KINDS = Literal[vocabulary.SESSION_KINDS]  # type: ignore[valid-type]  # built from the one vocabulary
STATE_FILTERS = Literal[vocabulary.STATE_FILTERS]  # type: ignore[valid-type]


def _client_origins(source: Any, handler: Any) -> Any:
    return handler(Literal[provenance.MCP_ORIGINS])


# The origins a client may claim, read from the rule's tuple (``provenance.MCP_ORIGINS``) when a server is built, so the
# schema and ``provenance.client_origin`` agree (and the gates-off control in tests/test_mcp.py widens both in one place).
Origin = Annotated[str, GetPydanticSchema(_client_origins)]


def open_ws(ctx: Context) -> Workspace:
    """The workspace of the server the call came to, opened per call (its config re-read)."""
    return Workspace.open(ctx.mcp_server.workspace)  # type: ignore[attr-defined]  # a ClawmemServer (clawmem.mcp.server)


async def in_thread(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def file_root(uri: str) -> str | None:
    """The local directory of a ``file://`` root URI (other schemes name no directory)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    return unquote(parsed.path) or None


async def client_root(ctx: Context) -> str | None:
    """The client's first ``file://`` root, asked for once per call within a bounded time."""
    timeout = open_ws(ctx).config.mcp.roots_timeout_ms / 1000
    try:
        capabilities = ctx.client_capabilities  # raises outside a client request (a direct server.call_tool)
        if capabilities is None or capabilities.roots is None:
            return None
        with anyio.fail_after(timeout), warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)  # deprecated by the 2026-07-28 protocol; older hosts rely on roots
            result = await ctx.session.list_roots()
    except Exception:  # noqa: BLE001  (a client that cannot answer gives no project, not a failed call)
        return None
    for root in result.roots:
        found = file_root(str(root.uri))
        if found:
            return found
    return None


async def working_dir(ctx: Context, project_dir: str | None) -> str:
    """The directory whose repository is the call's project; "" when none is known."""
    if project_dir:
        if not Path(project_dir).is_absolute():
            raise BadInput(f"project_dir {project_dir!r} is not an absolute path", hint="pass the repository's absolute path as project_dir")
        return project_dir
    return await client_root(ctx) or ""


async def project_keys(ctx: Context, project_dir: str | None) -> list[str]:
    """The repository keys of the call's project (none when no project is known)."""
    from clawmem.commands.projects import keys

    return keys(await working_dir(ctx, project_dir))
