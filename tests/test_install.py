"""``clawmem install HOST``: merges into the hosts' real config files under a temp HOME.

HOME, XDG_CONFIG_HOME and CODEX_HOME point into tmp_path (tests/conftest.py sets HOME); the
files are the hosts' documented config files (paths and shapes cited in clawmem/hosts/*.py).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

CLAWMEM_EXE = str(Path(sys.executable).with_name("clawmem"))


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return home


def _files(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def test_claude_code_gets_four_hooks_and_the_mcp_server_next_to_existing_settings(home, clawmem, tmp_path):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    mine = {"model": "opus", "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "~/bin/lint-prompt"}]}]}}
    settings.write_text(json.dumps(mine))
    (home / ".claude.json").write_text(json.dumps({"numStartups": 7, "mcpServers": {"github": {"command": "gh-mcp"}}}))

    result = clawmem("install", "claude-code", "--json")
    assert result.returncode == 0, result.stderr
    report = result.json()
    assert report["workspace_created"] and report["executable"] == CLAWMEM_EXE
    assert [f["action"] for f in report["files"]] == ["update", "update"] and all(Path(f["backup"]).exists() for f in report["files"])

    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["UserPromptSubmit"][0] == mine["hooks"]["UserPromptSubmit"][0]
    commands = {event: groups[-1]["hooks"][0]["command"] for event, groups in data["hooks"].items()}
    assert set(commands) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"}
    workspace = str(tmp_path / "ws")
    assert shlex.split(commands["PreCompact"]) == [CLAWMEM_EXE, "hook", "pre-compact", "--host", "claude-code", "-w", workspace]
    state = json.loads((home / ".claude.json").read_text())
    assert state["numStartups"] == 7 and state["mcpServers"]["github"] == {"command": "gh-mcp"}
    # alwaysLoad: Claude Code waits for the server and lists its tools in the first request; the env
    # tells the server that the hooks already recall and ingest
    assert state["mcpServers"]["clawmem"] == {
        "command": CLAWMEM_EXE, "args": ["mcp", "-w", workspace], "env": {"CLAWMEM_HOST_HOOKS": "claude-code"}, "alwaysLoad": True,
    }
    assert (tmp_path / "ws" / ".clawmem" / "index.db").exists()
    # made as `clawmem init` makes one: nothing left for init to add
    assert (tmp_path / "ws" / ".gitignore").is_file() and (tmp_path / "ws" / ".clawmem" / "audit" / "baseline.json").is_file()
    assert "nothing changed" in clawmem("init", "-w", workspace).stdout


def test_a_second_run_changes_nothing_and_uninstall_restores_the_user_s_settings(home, clawmem):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original = {"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]}, "theme": "dark"}
    settings.write_text(json.dumps(original))
    assert clawmem("install", "claude-code").returncode == 0
    after_first = _files(home)
    second = clawmem("install", "claude-code", "--json").json()
    assert [f["action"] for f in second["files"]] == ["unchanged", "unchanged"] and _files(home) == after_first

    removed = clawmem("install", "claude-code", "--uninstall", "--json").json()
    assert [f["action"] for f in removed["files"]] == ["update", "remove"]
    assert json.loads(settings.read_text()) == original
    assert not (home / ".claude.json").exists()  # clawmem created it; nothing else was in it


def test_project_scope_writes_the_project_files(home, clawmem, tmp_path):
    project = tmp_path  # clawmem() runs in tmp_path
    assert clawmem("install", "claude-code", "--scope", "project").returncode == 0
    assert "SessionEnd" in json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    assert "clawmem" in json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert clawmem("install", "cursor", "--scope", "project").returncode == 0
    assert "clawmem" in json.loads((project / ".cursor" / "mcp.json").read_text())["mcpServers"]
    assert not (home / ".claude").exists() and not (home / ".cursor").exists()


def test_codex_config_toml_keeps_every_byte_of_the_user_s_text(home, clawmem, tmp_path):
    import tomllib

    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    text = '# my settings\nmodel = "gpt-5-codex"  # keep this comment\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'
    config.write_text(text)
    assert clawmem("install", "codex").returncode == 0
    merged = config.read_text()
    assert merged.startswith(text)
    parsed = tomllib.loads(merged)
    assert parsed["model"] == "gpt-5-codex" and parsed["mcp_servers"]["docs"] == {"command": "docs-mcp"}
    assert parsed["mcp_servers"]["clawmem"] == {"command": CLAWMEM_EXE, "args": ["mcp", "-w", str(tmp_path / "ws")], "env": {"CLAWMEM_HOST_HOOKS": "codex"}}
    hooks = json.loads((home / ".codex" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "PreCompact", "Stop"}

    assert clawmem("install", "codex").returncode == 0 and config.read_text() == merged
    assert clawmem("install", "codex", "--uninstall").returncode == 0
    assert config.read_text() == text and not (home / ".codex" / "hooks.json").exists()


def test_codex_home_is_honoured(home, clawmem, tmp_path):
    codex_home = tmp_path / "codex-home"
    assert clawmem("install", "codex", env={"CODEX_HOME": str(codex_home)}).returncode == 0
    assert (codex_home / "hooks.json").exists() and (codex_home / "config.toml").exists()


def test_claude_desktop_uses_the_per_os_config_file(home, clawmem):
    assert clawmem("install", "claude-desktop").returncode == 0
    if sys.platform == "darwin":
        path = home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    else:
        path = home / ".config" / "Claude" / "claude_desktop_config.json"
    assert set(json.loads(path.read_text())["mcpServers"]) == {"clawmem"}
    refused = clawmem("install", "claude-desktop", "--scope", "project")
    assert refused.returncode == 1 and "no project scope" in refused.stderr


@pytest.mark.parametrize(
    ("relative", "content", "reason"),
    [
        (".claude/settings.json", '{"hooks": {', "not valid JSON"),
        (".claude/settings.json", '["a list"]', "does not hold a JSON object"),
        (".claude/settings.json", '{"hooks": []}', '"hooks" is not an object'),
        (".claude/settings.json", '{"hooks": {"SessionEnd": {}}}', "hooks.SessionEnd is not a list"),
        (".claude.json", '{"mcpServers": 3}', '"mcpServers" is not an object'),
    ],
)
def test_a_malformed_config_is_an_error_and_nothing_is_written(home, clawmem, tmp_path, relative, content, reason):
    path = home / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    before = _files(home)
    result = clawmem("install", "claude-code")
    assert result.returncode == 1 and reason in result.stderr and "nothing was written" in result.stderr
    assert _files(home) == before and not (tmp_path / "ws").exists()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("model = \n", "not valid TOML"),
        ('[mcp_servers.clawmem]\ncommand = "clawmem"\n', "clawmem did not write"),
        ('mcp_servers = { docs = { command = "d" } }\n', "cannot take an [mcp_servers.clawmem] table"),
        ('[mcp_servers.clawmem]\ncommand = "/opt/clawmem"\nargs = ["serve"]\n', "clawmem did not write"),
    ],
)
def test_codex_config_toml_that_cannot_take_the_entry_is_left_alone(home, clawmem, content, reason):
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(content)
    before = _files(home)
    result = clawmem("install", "codex")
    assert result.returncode == 1 and reason in result.stderr
    assert _files(home) == before


def test_dry_run_writes_nothing(home, clawmem, tmp_path):
    result = clawmem("install", "codex", "--dry-run", "--json")
    assert result.returncode == 0
    assert result.json()["dry_run"] and {f["action"] for f in result.json()["files"]} == {"create"}
    assert _files(home) == {} and not (tmp_path / "ws").exists()


def test_the_installed_hook_commands_run(home, clawmem, tmp_path):
    import subprocess

    assert clawmem("install", "claude-code").returncode == 0
    memory = tmp_path / "ws" / "MEMORY.md"
    memory.write_text(memory.read_text() + "- The staging host is atlas.\n")

    settings = json.loads((home / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    payload = json.dumps({"session_id": "s-1", "cwd": "/", "hook_event_name": "SessionStart", "source": "startup"})
    proc = subprocess.run(command, check=False, shell=True, input=payload, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "The staging host is atlas." in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("host", ["claude-code", "codex", "cursor", "claude-desktop"])
def test_agent_integration_doc_shows_exactly_what_the_installer_writes(host, tmp_path):
    from clawmem.config import HooksConfig
    from clawmem.hosts.install import preview

    doc = (Path(__file__).resolve().parent.parent / "docs" / "agent-integration.md").read_text()
    written = preview(
        host, scope="user", exe="/home/ada/.local/bin/clawmem", workspace="/home/ada/agents/ada/memory",
        home=tmp_path / "h", project=tmp_path / "p", timeout_s=HooksConfig().timeout_s,
    )
    assert written
    for path, text in written:
        lang = "toml" if path.suffix == ".toml" else "json"
        assert f"```{lang}\n{text}```" in doc, f"docs/agent-integration.md lacks the {host} snippet for {path.name}"
