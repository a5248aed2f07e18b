"""The server behind ``clawmem mcp``: the tools of ``clawmem.mcp.tools`` registered from one table, and two resources.

Each tool calls the same core function as the matching command and returns the same JSON
shape as its ``--json`` output, published as the tool's ``outputSchema`` (``clawmem.mcp.schemas``).
Conventions follow the reference ``memory`` server (modelcontextprotocol/servers,
``src/memory/index.ts``: verb_noun names, a title, an ``outputSchema`` and annotations per
tool) and basic-memory's tools (basicmachines-co/basic-memory, ``src/basic_memory/mcp/tools/``:
write/read/search verbs, a project argument). The annotations say what a tool really does:
a search records recall events (they feed dreaming), so it is not read-only.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp.types import ToolAnnotations
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from clawmem import __version__
from clawmem.foundation.errors import ClawmemError
from clawmem.mcp.errors import RESOURCE_NOT_FOUND, for_model, invalid_arguments
from clawmem.mcp.instructions import instructions
from clawmem.mcp.schemas import output_schema
from clawmem.mcp.tools import intents, memory, notes

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
RECORDS_READS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
MARKS_READS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
APPENDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
REPLACES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


class Registration(NamedTuple):
    """One tool: its function (whose name, docstring and parameters the SDK publishes) and what the table adds."""

    fn: Callable[..., Any]
    title: str
    hints: ToolAnnotations
    schema: str  # docs/schemas/<schema>.json, the tool's outputSchema
    key: str | None = None  # the key a list shape is returned under
    hands_out: bool = False  # its text is memory handed out, framed as recalled


TOOLS = (  # in the order tools/list gives them
    Registration(memory.recall_context, "Recall context for a turn", RECORDS_READS, "recall", hands_out=True),
    Registration(memory.search_memory, "Search memory", RECORDS_READS, "search", hands_out=True),
    Registration(memory.read_excerpt, "Read a memory excerpt", MARKS_READS, "get", hands_out=True),
    Registration(notes.add_note, "Add a note", APPENDS, "note-add"),
    Registration(notes.flush_context, "Flush context before compaction", APPENDS, "note-flush"),
    Registration(notes.ingest_transcript, "Ingest a session transcript", REPLACES, "ingest"),
    Registration(intents.add_intent, "Add a standing intent", APPENDS, "intent-add"),
    Registration(intents.list_intents, "List standing intents", READ_ONLY, "intent-list", key="intents"),
    Registration(notes.propose_directive, "Propose a user directive", APPENDS, "note-add"),  # the proposal is a daily-note entry
)
BY_NAME = {row.fn.__name__: row for row in TOOLS}


def description(fn: Callable[..., Any]) -> str:
    """A tool's description: its docstring without the source's indentation."""
    return inspect.cleandoc(fn.__doc__ or "")


def tool(row: Registration) -> Tool:
    """The SDK's tool for one row, with the documented output shape (not one derived from ``dict``)."""
    made = Tool.from_function(
        row.fn, title=row.title, description=description(row.fn), annotations=row.hints.model_copy(update={"title": row.title}), structured_output=True
    )
    made.fn_metadata.output_schema = output_schema(row.schema, row.key)
    return made


class ClawmemServer(MCPServer):
    """``MCPServer`` for one workspace, whose failed tool calls read as advice to the model, not as a stack of wrappers."""

    def __init__(self, workspace: str | Path | None, **settings: Any) -> None:
        super().__init__(**settings)
        self.workspace = workspace  # each call opens it (``clawmem.mcp.calls.open_ws``), so config edits apply

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as err:
            raise ToolError(_phrase(name, err)) from None
        return _framed(result) if name in BY_NAME and BY_NAME[name].hands_out else result

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError as err:
            version = getattr(context, "protocol_version", None)
            if version in MODERN_PROTOCOL_VERSIONS:
                raise  # SEP-2164: from 2026-07-28 on, a missing resource is -32602 (the SDK's answer)
            raise MCPError(code=RESOURCE_NOT_FOUND, message=f"{err}: the resources are listed by resources/list", data={"uri": str(uri)}) from None


def _framed(result: Any) -> Any:
    """The text a host shows the model (and keeps in its transcript) inside clawmem's recall frame,
    as the hooks' context is: ingesting that transcript later drops what clawmem handed out
    instead of storing it as a tool's untrusted output, which would taint every later line
    that repeats a memory. ``structured_content`` stays plain JSON."""
    from clawmem.trust.framing import inert, recall_block

    for part in getattr(result, "content", None) or []:
        if getattr(part, "type", None) == "text" and not getattr(result, "is_error", False):
            part.text = recall_block(inert(part.text))
    return result


def _phrase(name: str, err: BaseException) -> str:
    cause: BaseException | None = err
    while cause is not None:
        if isinstance(cause, ClawmemError):
            return for_model(cause)
        if isinstance(cause, ValidationError):
            return invalid_arguments(name, cause.errors())
        cause = cause.__cause__
    if "Unknown tool" in str(err):
        return f"{err}. The tools are listed by tools/list."
    return f"{name} failed unexpectedly (a bug in clawmem, not in your arguments); the server's stderr has details"


def build_server(workspace: str | Path | None = None) -> ClawmemServer:
    """A server whose tools work on one workspace (resolved per call, config re-read)."""
    from clawmem.storage.workspace import Workspace

    server = ClawmemServer(
        workspace, name="clawmem", version=__version__, instructions=instructions(os.environ), log_level="WARNING", tools=[tool(row) for row in TOOLS]
    )
    _add_curated_resources(server, lambda: Workspace.open(workspace))
    return server


CURATED = {  # resource URI -> (file, what it holds)
    "clawmem://MEMORY.md": ("MEMORY.md", "Curated long-term memory (written by clawmem dream; the owner's hand edits are kept)."),
    "clawmem://USER.md": ("USER.md", "Directives about the user, one per key."),
}


def _add_curated_resources(server, open_ws: Callable[[], Any]) -> None:
    def reader(rel: str) -> Callable[[], str]:
        def read() -> str:
            from clawmem.recall.bootstrap import curated_text

            return curated_text(open_ws(), rel)

        return read

    for uri, (rel, what) in CURATED.items():
        server.resource(uri, name=rel, title=rel, description=what, mime_type="text/markdown")(reader(rel))


def serve(workspace: str | Path | None = None) -> None:
    """Run the server on stdin/stdout until the client closes the stream."""
    from clawmem.storage.workspace import Workspace

    Workspace.open(workspace)  # fail before the handshake, with clawmem's message, when there is no workspace
    build_server(workspace).run("stdio")
