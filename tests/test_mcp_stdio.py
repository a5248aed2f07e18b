"""``clawmem mcp`` over stdio: the handshake is answered before the SDK is imported, and nothing else changes.

The front (``clawmem.mcp.stdio``) answers ``initialize`` and the list requests from the SDK
server's recorded answers; these tests run the installed command as a host would (raw JSON
lines on a pipe, and the official SDK client) and compare it with the SDK-only server.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clawmem.foundation.config import ENV_HOST_HOOKS
from clawmem.mcp.handshake import SDK_SERVER, load
from clawmem.mcp.stdio import REPLAY_ID
from tests.conftest import require_module

pytestmark = pytest.mark.e2e  # an MCP server process over stdio

mcp = require_module("mcp", "the MCP extra is not installed: pip install 'clawmem-cli[mcp]'")

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
VERSIONS, _ = load()
HEAVY = ("mcp", "mcp_types", "pydantic", "anyio", "typer", "rich", "numpy", "apsw", "sqlite_vec", "clawmem.cli", "clawmem.index", "clawmem.mcp.server")
# Run the console script's entry point with an audit hook that writes `heavy <module>` to the
# same pipe as the answers, at the moment the first heavy module starts loading: the order of
# the lines on that pipe is the order of the events.
AUDITED = """
import os, sys
wire = os.dup(1)
heavy = {heavy!r}
def hook(event, args):
    if event == "import" and (args[0].split(".")[0] in heavy or args[0] in heavy):
        name = args[0]
        if name not in seen:
            seen.add(name)
            os.write(wire, f"heavy {{name}}\\n".encode())
seen = set()
sys.addaudithook(hook)
sys.argv = ["clawmem", "mcp", "-w", {ws!r}]
from clawmem.launcher import main
main()
"""


def initialize(request_id=1, version="2025-06-18", **extra) -> dict:
    params = {"protocolVersion": version, "capabilities": {"roots": {}}, "clientInfo": {"name": "test-host", "version": "1.0"}, **extra}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def request(request_id, method, params=None) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params is not None else {})}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Server:
    """A stdio MCP server process, spoken to in raw JSON lines."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def send(self, *messages: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.proc.stdin.flush()

    def line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().decode()

    def receive(self) -> dict:
        return json.loads(self.line())

    def answers(self, count: int) -> dict:
        """The next ``count`` responses, by id (they may come in any order)."""
        found = {}
        while len(found) < count:
            message = self.receive()
            if "id" in message and "method" not in message:
                found[message["id"]] = message
        return found

    def close(self) -> tuple[int, str]:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        rest = self.proc.stdout.read().decode() if self.proc.stdout else ""
        code = self.proc.wait(timeout=120)
        assert rest == "" or all(json.loads(line) for line in rest.splitlines())
        return code, self.proc.stderr.read().decode()


def clawmem_mcp(ws_root: Path, **env: str) -> Server:
    return Server([CLAWMEM, "mcp", "-w", str(ws_root)], env={**os.environ, **env})


def sdk_only(**env: str) -> Server:
    base = {k: v for k, v in os.environ.items() if k != ENV_HOST_HOOKS}
    return Server([sys.executable, "-c", SDK_SERVER], env={**base, **env})


def test_initialize_and_tools_list_are_answered_before_any_heavy_import(ws):
    """The structural property behind the speed: nothing heavy is loaded when initialize is answered."""
    server = Server([sys.executable, "-c", AUDITED.format(heavy=HEAVY, ws=str(ws.root))])
    server.send(initialize(), INITIALIZED, request(2, "tools/list"))
    first = server.line()
    assert not first.startswith("heavy"), f"{first.strip()} was imported before initialize was answered"
    assert json.loads(first)["result"]["serverInfo"]["name"] == "clawmem"
    lines = []
    while not any(line.startswith('{"jsonrpc":"2.0","id":2') for line in lines):
        lines.append(server.line())
    assert len(json.loads(lines[-1])["result"]["tools"]) == 9
    server.send(request(3, "tools/call", {"name": "list_intents", "arguments": {}}))  # the SDK server is there for the calls
    while not (line := server.line()).startswith('{"jsonrpc":"2.0","id":3'):
        lines.append(line)
    assert "heavy mcp\n" in lines  # the hook does see the SDK load, once the answer is out
    assert json.loads(line)["result"]["structuredContent"] == {"intents": []}
    assert server.close()[0] == 0


LAUNCHER_OWN = ("argparse", "clawmem.fastlane", "clawmem.rules.output", "clawmem.rules.inputs", "clawmem.storage.workspace")


def test_the_command_line_install_writes_is_answered_before_the_launchers_own_checks(ws):
    """``mcp -w DIR`` on a pipe goes to the front first: the fast lane's parsers and output modules load after the answer, if ever."""
    server = Server([sys.executable, "-c", AUDITED.format(heavy=LAUNCHER_OWN, ws=str(ws.root))])
    server.send(initialize())
    first = server.line()
    assert not first.startswith("heavy"), f"{first.strip()} was imported before initialize was answered"
    assert json.loads(first)["result"]["serverInfo"]["name"] == "clawmem"
    server.proc.communicate(timeout=120)  # the rest is the hook's lines as the SDK server loads, then the end
    assert server.proc.returncode == 0


@pytest.mark.parametrize("version", [*VERSIONS, "1999-01-01"])
def test_the_fast_answers_are_the_sdk_servers_answers(ws, version):
    """Byte for byte in JSON terms, at every protocol version the SDK negotiates (and an unknown one)."""
    methods = ["tools/list", "resources/list", "resources/templates/list", "prompts/list", "ping"]
    got = {}
    for name, server in (("fast", clawmem_mcp(ws.root)), ("sdk", sdk_only())):
        server.send(initialize(version=version), INITIALIZED, *(request(i, m) for i, m in enumerate(methods, 2)))
        answers = server.answers(1 + len(methods))
        assert server.close()[0] == 0
        got[name] = answers
    assert got["fast"] == got["sdk"]
    assert got["fast"][1]["result"]["protocolVersion"] == (version if version in VERSIONS else VERSIONS[-1])


def test_instructions_say_the_hooks_do_recall_and_ingestion(ws):
    """With CLAWMEM_HOST_HOOKS (install writes it beside its hooks) the model is told not to duplicate them."""
    texts = {}
    for hooks in ("", "claude-code"):
        fast, sdk = clawmem_mcp(ws.root, **{ENV_HOST_HOOKS: hooks}), sdk_only(**{ENV_HOST_HOOKS: hooks})
        for server in (fast, sdk):
            server.send(initialize())
        texts[hooks] = [server.receive()["result"]["instructions"] for server in (fast, sdk)]
        for server in (fast, sdk):
            server.close()
    assert texts[""][0] == texts[""][1] and texts["claude-code"][0] == texts["claude-code"][1]  # fast and SDK agree
    standalone, hooked = texts[""][0], texts["claude-code"][0]
    assert "Call `recall_context` with each inbound message" in standalone and "ingest_transcript" in standalone
    assert "claude-code" in hooked and "do not call `recall_context` for\neach turn" in hooked
    assert "do not `flush_context` or `ingest_transcript` this session" in hooked
    assert "Call `recall_context` with each" not in hooked


def test_a_tool_call_after_the_fast_handshake_reaches_the_sdk_server_with_the_clients_capabilities(ws, tmp_path):
    """The replayed initialize gives the SDK server the client's roots capability: it asks for roots."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:ada/atlas.git\n')
    server = clawmem_mcp(ws.root)
    server.send(initialize(), INITIALIZED)
    assert server.receive()["id"] == 1
    server.send(request(2, "tools/call", {"name": "add_note", "arguments": {"text": "The staging app is atlas"}}))
    asked = server.receive()
    assert asked["method"] == "roots/list"  # a request from the SDK server, relayed
    server.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": [{"uri": repo.as_uri()}]}})
    answer = server.receive()
    assert answer["id"] == 2 and not answer["result"]["isError"]
    noted = answer["result"]["structuredContent"]
    assert "<!-- project: github.com/ada/atlas -->" in (ws.root / noted["path"]).read_text()
    code, _ = server.close()
    assert code == 0


def test_the_replayed_initialize_never_reaches_the_client(ws):
    server = clawmem_mcp(ws.root)
    server.send(initialize(), INITIALIZED, request(2, "tools/call", {"name": "list_intents", "arguments": {}}))
    seen = [server.receive(), server.receive()]
    assert [m["id"] for m in seen] == [1, 2]
    server.send(request(3, "ping"))
    assert server.receive() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    server.close()
    assert REPLAY_ID not in json.dumps(seen)


def test_closing_stdin_ends_the_process_cleanly(ws):
    """The host may close stdin at any moment: the SDK server stops, the front too, exit 0, nothing stray on stdout."""
    server = clawmem_mcp(ws.root)
    server.send(initialize(), INITIALIZED, request(2, "tools/list"), request(3, "tools/call", {"name": "list_intents", "arguments": {}}))
    assert server.proc.stdin is not None and server.proc.stdout is not None
    server.proc.stdin.close()
    messages = [json.loads(line) for line in server.proc.stdout.read().decode().splitlines()]
    assert server.proc.wait(timeout=120) == 0
    assert [m["id"] for m in messages][:2] == [1, 2]  # what the SDK does with a call cut off by EOF is the SDK's affair
    assert REPLAY_ID not in json.dumps(messages)


def test_anything_but_a_plain_handshake_is_left_to_the_sdk(ws):
    """A malformed initialize gets the SDK's own error, exactly as without the front."""
    bad = initialize()
    del bad["params"]["clientInfo"]
    answers = []
    for server in (clawmem_mcp(ws.root), sdk_only()):
        server.send(bad)
        answers.append(server.receive())
        server.close()
    assert answers[0] == answers[1] and answers[0]["error"]["code"] == -32602


def test_unknown_resource_is_resource_not_found_with_the_uri(ws):
    server = clawmem_mcp(ws.root)
    server.send(initialize(), INITIALIZED, request(2, "resources/read", {"uri": "clawmem://NOPE.md"}))
    answers = server.answers(2)
    server.close()
    error = answers[2]["error"]
    assert error["code"] == -32002 and error["data"] == {"uri": "clawmem://NOPE.md"}
    assert "resources/list" in error["message"]


def test_the_official_client_works_over_the_handshake(ws):
    """The SDK's own client in legacy (initialize) mode, as Claude Code and Codex connect."""
    from mcp import Client, StdioServerParameters

    async def session():
        params = StdioServerParameters(command=CLAWMEM, args=["mcp", "-w", str(ws.root)], env={"HOME": os.environ["HOME"], "NO_COLOR": "1"})
        async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
            tools = await client.list_tools()
            resources = await client.list_resources()
            note = await client.call_tool("add_note", {"text": "Deploys go to fly.io", "project_dir": str(ws.root)})
            memory = await client.read_resource("clawmem://MEMORY.md")
            return client.protocol_version, tools, resources, note, memory

    version, tools, resources, note, memory = asyncio.run(session())
    assert version == VERSIONS[-1]
    assert len(tools.tools) == 9 and {str(r.uri) for r in resources.resources} == {"clawmem://MEMORY.md", "clawmem://USER.md"}
    assert not note.is_error and note.structured_content["origin"] == "agent"
    assert "<clawmem-recall" in memory.contents[0].text


def test_a_terminal_or_http_goes_to_the_typer_command(ws):
    """--http is not the fast lane's: the Typer command still refuses a non-loopback host."""
    result = subprocess.run([CLAWMEM, "mcp", "--http", "--host", "0.0.0.0", "-w", str(ws.root)], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "not a loopback address" in result.stderr


def test_a_missing_workspace_fails_before_the_handshake(tmp_path):
    result = subprocess.run([CLAWMEM, "mcp", "-w", str(tmp_path / "nowhere")], input="", capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "no clawmem workspace" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("args", [("mcp",), ("mcp", "--http"), ("--debug", "mcp")], ids=["fast lane", "http", "typer"])
def test_without_the_sdk_every_path_says_what_to_install(ws, tmp_path, args):
    """An ``mcp`` package without the SDK's server (an old or foreign one first on the path) is no SDK:
    the one check (``stdio.sdk_installed``) refuses before the handshake, with the extra to install."""
    (tmp_path / "mcp").mkdir()
    (tmp_path / "mcp" / "__init__.py").write_text("", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "CLAWMEM_WORKER": "off"}
    result = subprocess.run([CLAWMEM, *args, "-w", str(ws.root)], input="", capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 1 and result.stdout == ""
    assert "needs the official MCP SDK" in result.stderr and "clawmem-cli[mcp]" in result.stderr


FAILING_SDK = """
import sys
from clawmem.mcp import server
def fail(workspace):
    import threading
    threading.Thread(target=sys.stdin.buffer.read).start()  # as the SDK's transport may leave one: no daemon, reading the front's pipe
    raise RuntimeError("the SDK server could not start")
server.serve = fail
sys.argv = ["clawmem", *{before!r}, "mcp", "-w", {ws!r}]
from clawmem.launcher import main
main()
"""


@pytest.mark.parametrize("before", [(), ("--color", "never"), ("--debug",)], ids=["front", "fast lane", "typer"])
def test_a_failed_sdk_server_ends_the_process_with_1_while_the_client_keeps_stdin_open(ws, before):
    """The front cannot serve tool calls without the SDK server: it says why and the process ends, though the
    thread reading stdin still waits for the client (the launcher does not wait for it). Each way in: the
    launcher's plain ``mcp -w DIR``, the fast lane (``--color``) and the Typer command (``--debug``)."""
    server = Server([sys.executable, "-c", FAILING_SDK.format(before=before, ws=str(ws.root))])
    server.send(initialize())
    assert server.receive()["result"]["serverInfo"]["name"] == "clawmem"  # the front answered before the SDK failed
    assert server.proc.wait(timeout=120) == 1  # stdin is still open
    assert server.proc.stderr is not None and server.proc.stdin is not None
    stderr = server.proc.stderr.read().decode()
    assert "Traceback" in stderr and "RuntimeError: the SDK server could not start" in stderr
    server.proc.stdin.close()
