"""``clawmem mcp`` over stdio: answer the handshake at once, then hand every call to the SDK server.

Why this exists (measured, ``benchmarks/mcp_handshake.py``): importing the MCP SDK and
building the server costs 0.6-0.7 s of CPU on an idle machine and 6-13 s inside a busy
Claude Code, which lists only the tools of servers that answered before its first model
request. The SDK has no way to answer ``initialize`` before it is imported, so this front,
standard library only, answers ``initialize``, ``ping`` and the four list requests from
``handshake.json`` (the SDK server's own answers, recorded by ``clawmem.mcp.handshake``) and
starts the SDK server in a background thread at the same moment.

Everything else goes to that SDK server unchanged, in arrival order, through a pipe that
takes the place of file descriptor 0 (its ``run("stdio")`` reads and writes the process's
standard streams); the client's ``initialize`` is replayed to it first under ``REPLAY_ID``,
so it negotiates the same version and learns the same client capabilities, and its answer to
the replay is dropped. Its other output passes through unchanged. A first request that is not
a plain handshake-era ``initialize`` (a 2026-07-28 client, a malformed one) makes the front a
plain relay for the whole connection: the SDK answers everything, as if the front were absent.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from clawmem import __version__
from clawmem.mcp.handshake import load
from clawmem.mcp.instructions import instructions

REPLAY_ID = "clawmem-stdio-replayed-initialize"
REPLAY_MARK = json.dumps(REPLAY_ID).encode()
END = b"\x00clawmem-stdio-end\n"  # written after the SDK server stopped: the relay has read all it wrote
MODERN_META = "io.modelcontextprotocol/protocolVersion"  # a 2026-07-28 envelope: the SDK's to serve
ANSWERED = ("ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list")


def sdk_installed() -> bool:
    """True when the ``mcp`` package with ``MCPServer`` (2.x) is installed, found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("mcp")
    locations = spec.submodule_search_locations if spec is not None else None
    return any((Path(where) / "server" / "mcpserver").is_dir() for where in locations or ())


def _is_id(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _plain_meta(params: Mapping[str, Any]) -> bool:
    meta = params.get("_meta", {})
    return isinstance(meta, dict) and MODERN_META not in meta


class Front:
    """The answers given before (and beside) the SDK server; one per connection."""

    def __init__(self, wire: IO[bytes], environ: Mapping[str, str]) -> None:
        self.versions, self.answers = load()
        self.environ = environ
        self.wire = wire
        self.lock = threading.Lock()
        self.version: str | None = None  # negotiated by the initialize the front answered
        self.decided = False  # the first request came: the front answers its share, or none at all

    def write(self, line: bytes) -> None:
        with self.lock:
            self.wire.write(line)
            self.wire.flush()

    def respond(self, request_id: str | int, result: dict[str, Any]) -> None:
        self.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}, separators=(",", ":")).encode() + b"\n")

    def handshake(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The ``initialize`` result for a well-formed handshake-era request, else None (the SDK answers)."""
        params = message.get("params")
        if message.get("method") != "initialize" or not _is_id(message.get("id")) or not isinstance(params, dict):
            return None
        info = params.get("clientInfo")
        if not (isinstance(params.get("protocolVersion"), str) and isinstance(params.get("capabilities"), dict) and _plain_meta(params)):
            return None
        if not (isinstance(info, dict) and isinstance(info.get("name"), str) and isinstance(info.get("version"), str)):
            return None
        requested = params["protocolVersion"]
        self.version = requested if requested in self.versions else self.versions[-1]  # the SDK's rule
        result = json.loads(json.dumps(self.answers[self.version]["initialize"]))
        result["protocolVersion"] = self.version
        result["serverInfo"]["version"] = __version__
        result["instructions"] = instructions(self.environ)
        return result

    def handle(self, line: bytes) -> bytes | None:
        """Answer ``line`` here, or return what to pass to the SDK server (the line itself, or the replay)."""
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.decided = self.decided or message is not None
            return line
        if not self.decided and "id" in message and "method" in message:
            self.decided = True
            result = self.handshake(message)
            if result is not None:
                self.respond(message["id"], result)
                return json.dumps({**message, "id": REPLAY_ID}).encode() + b"\n"
        params = message.get("params")
        plain = params is None or (isinstance(params, dict) and set(params) <= {"_meta"} and _plain_meta(params))
        if self.version is not None and message.get("method") in ANSWERED and _is_id(message.get("id")) and plain:
            self.respond(message["id"], {} if message["method"] == "ping" else self.answers[self.version][message["method"]])
            return None
        return line

    def relay(self, sdk_output: IO[bytes]) -> None:
        """Pass the SDK server's messages on, without its answer to the replayed ``initialize``."""
        for line in iter(sdk_output.readline, b""):
            if line == END:
                return
            if REPLAY_MARK in line and json.loads(line).get("id") == REPLAY_ID:
                continue
            if line.lstrip()[:1] in (b"{", b"["):
                self.write(line)
            else:  # stray output that reached the descriptor before the SDK took it over: keep it off the wire
                sys.stderr.buffer.write(line)
                sys.stderr.flush()


def _run_sdk(workspace: str | Path | None, ended: queue.SimpleQueue[int]) -> None:
    """The SDK server on the process's standard streams (now the front's pipes); a failure ends the connection (1 on ``ended``)."""
    try:
        from clawmem.mcp.server import serve

        serve(workspace)
    except BaseException:  # noqa: BLE001  (the front cannot serve tool calls without it: say why and stop)
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        ended.put(1)


def _read(wire_in: IO[bytes], front: Front, to_sdk: IO[bytes], started: tuple[threading.Thread, ...], ended: queue.SimpleQueue[int]) -> None:
    """Answer or forward every line the client sends until it closes stdin (then 0 on ``ended``); the first starts the SDK."""
    for line in iter(wire_in.readline, b""):
        forward = front.handle(line)
        if started[-1].ident is None:  # the first message is answered (or passed on): warm the SDK up now
            for thread in started:
                thread.start()
        if forward is not None:
            to_sdk.write(forward if forward.endswith(b"\n") else forward + b"\n")
            to_sdk.flush()
    ended.put(0)


def serve(workspace: str | Path | None) -> int:
    """Serve one connection on stdin/stdout: 0 once the client closed stdin, 1 when the SDK server failed (its traceback on stderr).

    Stdin is read on a thread of its own, so a failed SDK server ends the connection at once; that
    thread is then left blocked on a client that may never write again (``clawmem.foundation.abandoned``).
    """
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb")
    to_sdk_read, to_sdk_write = os.pipe()
    from_sdk_read, from_sdk_write = os.pipe()
    os.dup2(to_sdk_read, 0)  # the SDK's stdio transport reads fd 0 and writes fd 1: both are the front's pipes now
    os.dup2(from_sdk_write, 1)
    os.close(to_sdk_read)
    front = Front(wire_out, os.environ)
    to_sdk = os.fdopen(to_sdk_write, "wb")
    ended: queue.SimpleQueue[int] = queue.SimpleQueue()
    relay = threading.Thread(target=front.relay, args=(os.fdopen(from_sdk_read, "rb"),), name="clawmem-mcp-relay", daemon=True)
    sdk = threading.Thread(target=_run_sdk, args=(workspace, ended), name="clawmem-mcp-sdk", daemon=True)
    reader = threading.Thread(target=_read, args=(wire_in, front, to_sdk, (relay, sdk), ended), name="clawmem-mcp-reader", daemon=True)
    reader.start()
    try:
        code = ended.get()
        if code == 0:
            to_sdk.close()  # end of input for the SDK server: it finishes what it has, then returns
        if sdk.ident is not None:
            sdk.join()
            os.write(from_sdk_write, END)
            relay.join()
        return 1 if code or not ended.empty() else 0  # the SDK server may also fail while it finishes
    finally:
        if reader.is_alive():
            from clawmem.foundation.abandoned import abandon

            abandon(reader)
