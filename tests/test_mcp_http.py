"""``clawmem mcp --http``: the installed command serving streamable HTTP on loopback.

Each test starts the real server as a subprocess on a free port of 127.0.0.1 and talks to it
with the official SDK's streamable-HTTP client or plain ``http.client`` requests; nothing is sent to any
other address. Every wait is bounded (the server's start, each request, its shutdown).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_module

pytestmark = pytest.mark.e2e  # an MCP server process over HTTP

mcp = require_module("mcp", "the MCP extra is not installed: pip install 'clawmem-cli[mcp]'")

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
URL = re.compile(r"at (http://127\.\d+\.\d+\.\d+:\d+/mcp) ")
START_TIMEOUT = 60
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _first_line(stream, timeout: float) -> str:
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    ready = selector.select(timeout)
    selector.close()
    return stream.readline() if ready else ""


@pytest.fixture
def http_server(ws, request):
    """The installed ``clawmem mcp --http --port 0``; yields its URL (read from its stderr line).

    Parametrise indirectly with a loopback address to pass ``--host``.
    """
    host = getattr(request, "param", "127.0.0.1")
    proc = subprocess.Popen(
        [CLAWMEM, "mcp", "--http", "--host", host, "--port", "0", "-w", str(ws.root)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        line = _first_line(proc.stderr, START_TIMEOUT)
        found = URL.search(line)
        assert found, f"no URL on stderr: {line!r}"
        yield found[1]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, timeout=120))


def test_the_sdk_client_uses_every_tool_over_http(ws, http_server):
    from mcp import Client

    async def session():
        async with Client(http_server) as client:
            tools = await client.list_tools()
            noted = await client.call_tool("add_note", {"text": "The VPN config lives in ops/wireguard", "importance": 5})
            found = await client.call_tool("search_memory", {"query": "where is the VPN config"})
            memory = await client.read_resource("clawmem://MEMORY.md")
            return tools, noted, found, memory

    tools, noted, found, memory = run(session())
    assert len(tools.tools) == 9 and all(t.output_schema for t in tools.tools)
    assert not noted.is_error and noted.structured_content["origin"] == "agent"
    assert found.structured_content["results"][0]["text"] == "The VPN config lives in ops/wireguard"
    assert memory.contents[0].text  # the resource answers over HTTP too
    ledger = [json.loads(line) for line in ws.ledger_path.read_text().splitlines() if line.strip()]
    assert [r["origin"] for r in ledger if r.get("t") == "entry"] == ["agent"]


def test_the_project_comes_from_the_http_clients_root(ws, http_server, tmp_path):
    """Two clients of one HTTP server, in two repositories: each note carries its own client's key."""
    from mcp import Client
    from mcp.types import ListRootsResult, Root

    def repo(name: str) -> Path:
        (tmp_path / name / ".git").mkdir(parents=True)
        (tmp_path / name / ".git" / "config").write_text(f'[remote "origin"]\n\turl = https://github.com/ada/{name}.git\n')
        return tmp_path / name

    async def note_from(directory: Path, text: str):
        async def roots(context):
            return ListRootsResult(roots=[Root(uri=directory.as_uri())])

        async with Client(http_server, mode="legacy", list_roots_callback=roots) as client:
            return await client.call_tool("add_note", {"text": text})

    first = run(note_from(repo("atlas"), "Atlas ships on Thursdays")).structured_content
    run(note_from(repo("zephyr"), "Zephyr ships on Mondays"))
    notes = (ws.root / first["path"]).read_text()
    assert "Atlas ships on Thursdays <!-- project: github.com/ada/atlas -->" in notes
    assert "Zephyr ships on Mondays <!-- project: github.com/ada/zephyr -->" in notes


def _post(url: str, headers: dict[str, str]) -> int:
    """One initialize request with these headers (http.client sends an explicit Host as given)."""
    address = url.split("/")[2]
    host, port = address.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("POST", "/mcp", body=json.dumps(INIT), headers={**HEADERS, **headers})
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.mark.parametrize("http_server", ["127.0.0.1", "127.0.0.2"], indirect=True)
def test_requests_naming_another_host_or_origin_are_refused(http_server):
    """DNS rebinding: a page at evil.example resolving to loopback must not drive the server (on any loopback address)."""
    address = http_server.split("/")[2]
    port = address.rsplit(":", 1)[1]
    assert _post(http_server, {"Host": address}) == 200
    assert _post(http_server, {"Host": f"evil.example:{port}"}) in (400, 403, 421)
    assert _post(http_server, {"Host": address, "Origin": "http://evil.example"}) == 403


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.com", "::"])
def test_non_loopback_addresses_are_refused_before_listening(ws, host):
    proc = subprocess.run(
        [CLAWMEM, "mcp", "--http", "--host", host, "--port", "0", "-w", str(ws.root)],
        check=False, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1
    assert "is not a loopback address" in proc.stderr and "SSH tunnel" in proc.stderr


def test_a_busy_port_is_a_clear_error(ws):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [CLAWMEM, "mcp", "--http", "--port", str(port), "-w", str(ws.root)],
            check=False, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
    assert proc.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in proc.stderr and "--port" in proc.stderr


def test_the_default_port_comes_from_the_workspace_config(ws):
    (ws.root / "clawmem.toml").write_text("[mcp]\nhttp_port = 0\n")  # 0: any free port, so the test never collides
    proc = subprocess.Popen(
        [CLAWMEM, "mcp", "--http", "-w", str(ws.root)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        found = URL.search(_first_line(proc.stderr, START_TIMEOUT))
        assert found and not found[1].endswith(":8765/mcp")
        assert _post(found[1], {"Host": found[1].split("/")[2]}) == 200
    finally:
        proc.terminate()
        proc.wait(timeout=15)
