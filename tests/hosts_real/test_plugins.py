"""clawmem's install and plugins inside the real Claude Code and Codex CLIs (config and plugin commands only, no model).

The binaries come from ``CLAWMEM_HOSTS_BIN`` (a directory with ``claude`` and ``codex``; .ci/run
installs pinned versions from npm); without it these tests skip, or fail under CLAWMEM_REQUIRE_ALL=1.
Every client runs under a sandbox HOME with telemetry and updates off; nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require

pytestmark = pytest.mark.e2e  # the real Claude Code and Codex run clawmem as hosts do

CLAWMEM_EXE = str(Path(sys.executable).with_name("clawmem"))


@pytest.fixture
def hosts_bin() -> Path:
    value = os.environ.get("CLAWMEM_HOSTS_BIN")
    found = Path(value) if value else None
    require(found and (found / "claude").exists() and (found / "codex").exists(), "CLAWMEM_HOSTS_BIN names no directory with claude and codex")
    assert found is not None
    return found


@pytest.fixture
def host_env(tmp_path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text("[features]\nplugins = false\n")  # no plugin sync from the network at start
    return {
        **os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1",
    }


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{argv}: {proc.stdout}\n{proc.stderr}"
    return proc


def _codex_hooks(codex: Path, env: dict[str, str], cwd: Path) -> list[dict]:
    """What Codex itself reports about its hooks: ``hooks/list`` over its app-server's stdio JSON-RPC."""
    proc = subprocess.Popen([str(codex), "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "clawmem-tests", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
        ):
            proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            reply = json.loads(line)
            if reply.get("id") == 2:
                return reply["result"]["data"][0]["hooks"]
        raise AssertionError("codex app-server closed without answering hooks/list")
    finally:
        proc.kill()
        proc.wait()


def test_codex_trusts_exactly_the_hooks_install_trusted_and_keeps_what_it_writes(hosts_bin, host_env, tmp_path):
    import tomllib

    home = Path(host_env["HOME"])
    _run([CLAWMEM_EXE, "install", "codex"], host_env, tmp_path)
    untrusted = [h for h in _codex_hooks(hosts_bin / "codex", host_env, tmp_path) if "clawmem" in (h.get("command") or "")]
    assert len(untrusted) == 4 and {h["trustStatus"] for h in untrusted} == {"untrusted"}
    status = _run([CLAWMEM_EXE, "status"], host_env, tmp_path).stdout
    assert "not trusted, so Codex skips them" in status

    _run([CLAWMEM_EXE, "install", "codex", "--trust-hooks"], host_env, tmp_path)
    listed = [h for h in _codex_hooks(hosts_bin / "codex", host_env, tmp_path) if "clawmem" in (h.get("command") or "")]
    assert {h["trustStatus"] for h in listed} == {"trusted"}  # Codex computes the same keys and hashes
    assert "trusted by Codex" in _run([CLAWMEM_EXE, "status"], host_env, tmp_path).stdout

    # Codex writes into config.toml itself; re-pointing and uninstalling keep every key it wrote
    _run([str(hosts_bin / "codex"), "features", "enable", "memories"], host_env, tmp_path)
    _run([str(hosts_bin / "codex"), "mcp", "add", "docs", "--", "docs-mcp"], host_env, tmp_path)
    _run([CLAWMEM_EXE, "install", "codex", "-w", str(tmp_path / "ws2")], host_env, tmp_path)
    config = tomllib.loads((home / ".codex" / "config.toml").read_text())
    assert config["features"] == {"plugins": False, "memories": True} and config["mcp_servers"]["docs"]["command"] == "docs-mcp"
    assert config["mcp_servers"]["clawmem"]["args"] == ["mcp", "-w", str(tmp_path / "ws2")]
    _run([CLAWMEM_EXE, "install", "codex", "--uninstall", "-w", str(tmp_path / "ws2")], host_env, tmp_path)
    config = tomllib.loads((home / ".codex" / "config.toml").read_text())
    # the trust records of the replaced and then removed clawmem hooks went with them
    assert config == {"features": {"plugins": False, "memories": True}, "mcp_servers": {"docs": {"command": "docs-mcp"}}}


def test_both_clients_install_the_plugins_from_the_local_marketplace(hosts_bin, host_env, tmp_path):
    home = Path(host_env["HOME"])
    market = tmp_path / "market"
    built = json.loads(_run([CLAWMEM_EXE, "plugin", "build", str(market), "--json"], host_env, tmp_path).stdout)
    assert built["marketplace"] == "clawmem-local"
    for name in built["files"]:
        json.loads((market / name).read_text())  # every file is JSON
    manifest = json.loads((market / "plugins/clawmem/.claude-plugin/plugin.json").read_text())
    assert manifest["name"] == "clawmem" and manifest["version"]
    hooks = json.loads((market / "plugins/clawmem/hooks/hooks.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    assert json.loads((market / "plugins/clawmem/.mcp.json").read_text())["mcpServers"]["clawmem"]["alwaysLoad"] is True
    codex_manifest = json.loads((market / "plugins/clawmem/.codex-plugin/plugin.json").read_text())
    assert set(json.loads((market / "plugins/clawmem" / codex_manifest["hooks"]).read_text())["hooks"]) == {"SessionStart", "UserPromptSubmit", "PreCompact", "Stop"}

    claude = str(hosts_bin / "claude")
    assert "Validation passed" in _run([claude, "plugin", "validate", str(market)], host_env, tmp_path).stdout
    _run([claude, "plugin", "marketplace", "add", str(market)], host_env, tmp_path)
    _run([claude, "plugin", "install", "clawmem@clawmem-local"], host_env, tmp_path)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"clawmem@clawmem-local": True}
    installed = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    (entry,) = installed["plugins"]["clawmem@clawmem-local"]
    cached = Path(entry["installPath"])
    assert json.loads((cached / "hooks" / "hooks.json").read_text())["hooks"] == hooks

    codex = [str(hosts_bin / "codex"), "plugin", "--enable", "plugins"]  # on for these commands only: they read local files
    _run([*codex, "marketplace", "add", str(market)], host_env, tmp_path)
    _run([*codex, "add", "clawmem@clawmem-local"], host_env, tmp_path)
    listed = _run([*codex, "list"], host_env, tmp_path).stdout
    assert "clawmem@clawmem-local" in listed and "installed, enabled" in listed
    cached = home / ".codex" / "plugins" / "cache" / "clawmem-local" / "clawmem" / manifest["version"]
    assert json.loads((cached / "codex-mcp.json").read_text())["mcpServers"]["clawmem"]["env"] == {"CLAWMEM_HOST_HOOKS": "codex"}
