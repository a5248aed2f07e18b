"""The real Claude Code and Codex clients, offline: a sandbox HOME, a stub model, clawmem installed.

``CLAWMEM_HOSTS_BIN`` names a directory holding the ``claude`` and ``codex`` executables
(``.ci/run`` installs the pinned npm packages and sets it). Without it the tests skip, and
under ``CLAWMEM_REQUIRE_ALL=1`` (CI) they fail.

Each host runs with a sandbox ``HOME`` (nothing of the developer's config is read), its model
API pointed at a :mod:`stubs` server on 127.0.0.1, and every proxy variable pointed at a trap
on 127.0.0.1 that records whatever tries to leave (``NO_PROXY`` exempts only loopback).
``CLAWMEM_NOW`` pins clawmem's clock for the hooks and the MCP server the host starts; the
hosts' own timestamps stay real.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socketserver
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CLAWMEM, background_done, require
from tests.hosts_real.stubs import Request, StubModel

HOSTS_BIN = os.environ.get("CLAWMEM_HOSTS_BIN", "")
RUN_TIMEOUT_S = 180  # one host invocation: start, hooks, MCP server, model turns, exit
INGEST_WAIT_S = 60  # the session-end ingestion may run after the host exits (a detached process)


def host_binary(name: str) -> str:
    """The executable of one host from ``CLAWMEM_HOSTS_BIN``; skip (CI: fail) without it."""
    path = Path(HOSTS_BIN) / name if HOSTS_BIN else None
    require(path is not None and os.access(path, os.X_OK),
            f"{name} not found: set CLAWMEM_HOSTS_BIN to a directory holding claude and codex "
            "(npm install --prefix DIR @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0; DIR/node_modules/.bin)")
    return str(path)


class ProxyTrap:
    """A listener on 127.0.0.1 that every proxy variable points at: it records and refuses."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        trap = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                line = self.rfile.readline(4096).decode("latin-1", "replace").strip()
                trap.attempts.append(line or "(connection without a request line)")
                self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _clean_environ() -> dict[str, str]:
    """The test process's environment without anything that configures the hosts or a proxy."""
    drop = ("ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "CLAWMEM_NOW")
    proxies = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}
    return {k: v for k, v in os.environ.items() if not k.startswith(drop) and k.lower() not in proxies}


@dataclass
class Sandbox:
    """A HOME, a repository, a clawmem workspace, and the environment every process gets."""

    root: Path
    trap: ProxyTrap
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.repo = self.root / "src" / "app"
        self.ws = self.root / "ws"
        self.home.mkdir(parents=True)
        self.repo.mkdir(parents=True)
        proxy = {name: self.trap.url for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")}
        self.env = {
            **_clean_environ(), **proxy, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
            "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / ".config"), "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"), "XDG_RUNTIME_DIR": str(self.root / "run"),
            "CLAWMEM_WORKSPACE": str(self.ws), "NO_COLOR": "1", "COLUMNS": "100",
        }

    def clawmem(self, *args: str, now: dt.datetime, timeout: float = 180) -> subprocess.CompletedProcess:
        """The real ``clawmem`` CLI on this sandbox's workspace at the simulated time ``now``."""
        env = {**self.env, "CLAWMEM_NOW": now.isoformat()}
        return subprocess.run([CLAWMEM, *args, "-w", str(self.ws)], capture_output=True, text=True, timeout=timeout, env=env, cwd=self.repo)

    def search(self, query: str, now: dt.datetime, limit: int = 20) -> list[dict[str, Any]]:
        """``clawmem search --json`` over every origin (untrusted and system too): its results."""
        proc = self.clawmem("search", query, "--json", "--limit", str(limit), "--include-untrusted", now=now)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["results"]

    def transcript(self, session: str) -> str:
        path = self.ws / "transcripts" / f"{session}.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def wait_ingested(self, session: str, text: str) -> None:
        """Until the session's stored transcript holds ``text`` and no hook's background ingest is
        under way (the Stop hook's worker stores the reply after the host exits)."""
        deadline = time.monotonic() + INGEST_WAIT_S
        while text not in self.transcript(session):
            if time.monotonic() > deadline:
                raise AssertionError(f"session {session} was not ingested with {text!r} within {INGEST_WAIT_S}s:\n{self.transcript(session)}")
            time.sleep(0.25)
        background_done(self.ws, timeout=INGEST_WAIT_S)


@dataclass
class Turn:
    """One prompt run through the real host, and every model request it caused."""

    session: str
    prompt: str
    reply: str
    requests: list[Request]


class Host:
    """One real host, installed into a sandbox, talking to a stub model."""

    name: str
    api: str

    def __init__(self, sandbox: Sandbox, stub: StubModel) -> None:
        self.sandbox = sandbox
        self.stub = stub

    def install(self) -> None:
        proc = self.sandbox.clawmem("install", self.name, now=dt.datetime.now(dt.UTC))
        assert proc.returncode == 0, proc.stderr

    def run(self, prompt: str, *, now: dt.datetime, resume: str | None = None) -> Turn:
        before = len(self.stub.requests)
        self.stub.script.prompt = prompt
        env = {**self.sandbox.env, **self.host_env(), "CLAWMEM_NOW": now.isoformat()}
        proc = subprocess.run(self.argv(prompt, resume), capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env,
                              cwd=self.sandbox.repo, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"{self.name} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        session, reply = self.parse(proc.stdout)
        assert session, proc.stdout[-3000:]
        requests = [r for r in self.stub.requests[before:] if r in self.stub.model_calls()]
        return Turn(session, prompt, reply, requests)

    def host_env(self) -> dict[str, str]:
        raise NotImplementedError

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        raise NotImplementedError

    def parse(self, stdout: str) -> tuple[str, str]:
        raise NotImplementedError


class ClaudeCode(Host):
    """``claude -p``: one prompt per run, ``--resume SESSION`` to continue; SessionEnd at exit."""

    name = "claude-code"
    api = "anthropic"

    def host_env(self) -> dict[str, str]:
        return {"ANTHROPIC_BASE_URL": self.stub.url, "ANTHROPIC_API_KEY": "sk-ant-stub-not-a-key", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1"}

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        # clawmem's MCP tools and reading files are allowed, the way a user allows them
        argv = [host_binary("claude"), "-p", prompt, "--output-format", "json", "--allowedTools", "mcp__clawmem", "Read"]
        return [*argv, "--resume", resume] if resume else argv

    def parse(self, stdout: str) -> tuple[str, str]:
        result = json.loads(stdout)
        return result["session_id"], result.get("result", "")


class Codex(Host):
    """``codex exec``: one turn per run, ``exec resume SESSION``; Stop (ingestion) after every turn."""

    name = "codex"
    api = "openai"

    def install(self) -> None:
        # the provider first: Codex reads top-level keys only before the first table, and
        # `clawmem install` appends its block at the end
        codex_home = self.sandbox.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(
            'model_provider = "stub"\nmodel = "gpt-stub"\n\n'
            f'[model_providers.stub]\nname = "stub"\nbase_url = "{self.stub.url}/v1"\nwire_api = "responses"\nenv_key = "STUB_MODEL_API_KEY"\n\n'
            "[features]\nplugins = false  # else Codex syncs plugins from the network at start\n\n"
            "[analytics]\nenabled = false  # else Codex posts events to ab.chatgpt.com, custom provider or not\n",
            encoding="utf-8",
        )
        super().install()
        trust_codex_hooks(self.sandbox, host_binary("codex"))

    def host_env(self) -> dict[str, str]:
        return {"STUB_MODEL_API_KEY": "stub-not-a-key"}

    def argv(self, prompt: str, resume: str | None) -> list[str]:
        codex = host_binary("codex")
        if resume:
            return [codex, "exec", "resume", "--json", "--skip-git-repo-check", resume, prompt]
        return [codex, "exec", "--json", "--skip-git-repo-check", prompt]

    def parse(self, stdout: str) -> tuple[str, str]:
        session, reply = "", ""
        for line in stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("type") == "thread.started":
                session = event.get("thread_id", "")
            item = event.get("item") or {}
            if event.get("type") == "item.completed" and item.get("type") == "agent_message":
                reply = item.get("text", "")
        return session, reply


class _AppServer:
    """``codex app-server`` over stdio (JSON-RPC, one message a line): what Codex's own UI talks to."""

    def __init__(self, codex: str, sandbox: Sandbox) -> None:
        self.proc = subprocess.Popen([codex, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env={**sandbox.env, "STUB_MODEL_API_KEY": "stub-not-a-key"}, cwd=sandbox.repo)
        self.ids = iter(range(1, 1000))
        self.call("initialize", {"clientInfo": {"name": "clawmem-tests", "version": "0"}})
        self._send({"method": "initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> Any:
        number = next(self.ids)
        self._send({"method": method, "id": number, "params": params})
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            if message.get("id") == number:
                assert "error" not in message, message
                return message["result"]
        raise AssertionError(f"codex app-server exited before answering {method}")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _codex_hooks(codex: str, sandbox: Sandbox) -> list[dict[str, Any]]:
    server = _AppServer(codex, sandbox)
    try:
        return server.call("hooks/list", {"cwds": [str(sandbox.repo)]})["data"][0]["hooks"]
    finally:
        server.close()


def trust_codex_hooks(sandbox: Sandbox, codex: str) -> None:
    """Trust clawmem's hooks as Codex's ``/hooks`` review screen does, without a terminal.

    Codex runs a user hook only when ``config.toml`` holds ``[hooks.state."KEY"]`` with
    ``trusted_hash`` equal to the hook's current hash; ``codex exec`` skips any other hook
    without a word. KEY (``<hooks.json path>:<event>:<group>:<handler>``) and the hash are
    Codex's own: we read them from ``codex app-server``'s ``hooks/list`` (never compute them),
    write the entries after clawmem's block, and ask again to see every hook ``trusted``.
    """
    hooks = [h for h in _codex_hooks(codex, sandbox) if " hook " in h.get("command", "")]
    assert len(hooks) == 4, hooks  # session start, prompt, pre-compact, stop
    with (sandbox.home / ".codex" / "config.toml").open("a", encoding="utf-8") as config:
        for hook in hooks:
            config.write(f"\n[hooks.state.{json.dumps(hook['key'])}]\ntrusted_hash = {json.dumps(hook['currentHash'])}\n")
    states = {h["key"]: h["trustStatus"] for h in _codex_hooks(codex, sandbox) if " hook " in h.get("command", "")}
    assert set(states.values()) == {"trusted"}, states


HOSTS = {"claude-code": ClaudeCode, "codex": Codex}


@pytest.fixture(scope="module")
def trap() -> Iterator[ProxyTrap]:
    """One proxy trap for the module's hosts: what it records tried to leave 127.0.0.1."""
    trap = ProxyTrap()
    yield trap
    trap.close()
