"""``clawmem install HOST``: merges into the hosts' real config files under a temp HOME.

HOME, XDG_CONFIG_HOME and CODEX_HOME point into tmp_path (tests/conftest.py sets HOME); the
files are the hosts' documented config files (paths and shapes cited in clawmem/hosts/*.py).
"""

from __future__ import annotations

import json
import os
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


def test_install_and_uninstall_cycles_keep_one_backup_per_file(home, clawmem):
    """Each change backs up the file as it was just before; cycles leave one copy per file, not one per run."""
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"theme": "dark"}))
    (home / ".claude.json").write_text(json.dumps({"numStartups": 7}))
    os.chmod(home / ".claude.json", 0o600)
    for _ in range(3):
        assert clawmem("install", "claude-code").returncode == 0
        before_uninstall = settings.read_text()
        assert clawmem("install", "claude-code", "--uninstall").returncode == 0
    backups = sorted(p.name for p in home.rglob("*.bak"))
    assert backups == [".claude.json.clawmem.bak", "settings.json.clawmem.bak"]
    assert (settings.parent / "settings.json.clawmem.bak").read_text() == before_uninstall
    assert (home / ".claude.json.clawmem.bak").stat().st_mode & 0o777 == 0o600  # a private file's copy stays private


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
    from clawmem.foundation.config import HooksConfig
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


def test_codex_settings_written_inside_an_old_marked_block_are_kept_and_reported(home, clawmem, tmp_path):
    """An older clawmem wrapped its table in BEGIN/END comments; Codex appended its own tables inside them."""
    import tomllib

    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        'model = "m"\n\n# BEGIN clawmem (managed by `clawmem install`; remove with `clawmem install codex --uninstall`)\n'
        '[mcp_servers.clawmem]\ncommand = "/old/bin/clawmem"\nargs = ["mcp", "-w", "/old/ws"]\n\n'
        '[projects."/home/ada/src/app"]\ntrust_level = "trusted"\n\n[tui]\nnotifications = true\n# END clawmem\n'
    )
    result = clawmem("install", "codex", "--json")
    assert result.returncode == 0, result.stderr
    report = result.json()
    assert report["kept"] == ['[projects."/home/ada/src/app"]', "[tui]"]
    assert any("kept settings" in note for note in report["notes"])
    text = config.read_text()
    assert "# BEGIN clawmem" not in text and "# END clawmem" not in text
    parsed = tomllib.loads(text)
    assert parsed["projects"] == {"/home/ada/src/app": {"trust_level": "trusted"}} and parsed["tui"] == {"notifications": True}
    assert parsed["mcp_servers"]["clawmem"]["args"] == ["mcp", "-w", str(tmp_path / "ws")]  # re-pointed

    assert clawmem("install", "codex", "--uninstall").returncode == 0
    parsed = tomllib.loads(config.read_text())
    assert "mcp_servers" not in parsed and parsed["projects"]["/home/ada/src/app"] == {"trust_level": "trusted"} and parsed["tui"]["notifications"]


def test_codex_rewriting_the_file_does_not_lose_clawmem_s_table_or_the_user_s_keys(home, clawmem, tmp_path):
    """`codex mcp add` re-serialises config.toml (markers and layout gone): clawmem finds its table by what it runs."""
    import tomllib

    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '[mcp_servers.clawmem]\ncommand = "/old/bin/clawmem"\nargs = ["mcp", "-w", "/old/ws"]\n'
        'startup_timeout_sec = 20\nenv = { HTTPS_PROXY = "http://proxy:3128", CLAWMEM_HOST_HOOKS = "codex" }\n\n'
        '[mcp_servers.foo]\ncommand = "echo"\n'
    )
    assert clawmem("install", "codex").returncode == 0
    entry = tomllib.loads(config.read_text())["mcp_servers"]["clawmem"]
    assert entry == {
        "command": CLAWMEM_EXE, "args": ["mcp", "-w", str(tmp_path / "ws")], "startup_timeout_sec": 20,
        "env": {"HTTPS_PROXY": "http://proxy:3128", "CLAWMEM_HOST_HOOKS": "codex"},
    }
    removed = clawmem("install", "codex", "--uninstall", "--json").json()
    assert removed["dropped"] == ["mcp_servers.clawmem.startup_timeout_sec"]
    assert tomllib.loads(config.read_text()) == {"mcp_servers": {"foo": {"command": "echo"}}}


def test_codex_hook_trust_is_recorded_on_request_and_removed_with_the_hooks(home, clawmem, tmp_path):
    import tomllib

    from clawmem.hosts import codex

    plain = clawmem("install", "codex", "--json").json()
    assert plain["hook_trust"] == "untrusted" and any("/hooks" in note and "--trust-hooks" in note for note in plain["notes"])
    config = home / ".codex" / "config.toml"
    assert "hooks" not in tomllib.loads(config.read_text())

    trusted = clawmem("install", "codex", "--trust-hooks", "--json").json()
    assert trusted["hook_trust"] == "trusted"
    hooks_path = home / ".codex" / "hooks.json"
    ours = codex.clawmem_hooks(hooks_path, json.loads(hooks_path.read_text()))
    assert len(ours) == 4 and codex.trusted_hashes(tomllib.loads(config.read_text())) == ours
    assert "trusted by Codex" in (codex.trust_line(home) or "")

    assert clawmem("install", "codex", "--uninstall").returncode == 0
    assert not config.exists() and codex.trust_line(home) is None


def test_claude_code_auto_memory_is_switched_off_and_restored(home, clawmem):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"autoMemoryEnabled": True, "theme": "dark"}))
    kept = clawmem("install", "claude-code", "--json").json()
    assert kept["auto_memory"] == "on" and any("--auto-memory off" in note for note in kept["notes"])
    assert json.loads(settings.read_text())["autoMemoryEnabled"] is True

    off = clawmem("install", "claude-code", "--auto-memory", "off", "--json").json()
    assert off["auto_memory"] == "off" and json.loads(settings.read_text())["autoMemoryEnabled"] is False
    assert clawmem("install", "claude-code", "--auto-memory", "off").returncode == 0  # a second run keeps the first value on record
    restored = clawmem("install", "claude-code", "--uninstall", "--json").json()
    assert restored["auto_memory"] == "restored"
    assert json.loads(settings.read_text()) == {"autoMemoryEnabled": True, "theme": "dark"}

    refused = clawmem("install", "codex", "--auto-memory", "off")
    assert refused.returncode == 1 and "Claude Code" in refused.stderr


def test_import_claude_memory_brings_topic_files_in_as_owner_notes_with_their_source(home, clawmem, tmp_path):
    memory = home / ".claude" / "projects" / "-home-ada-src-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Build](build.md) — how to build\n")
    topic = memory / "build.md"
    topic.write_text(
        "---\nname: build\ndescription: build notes\ntype: project\n---\n# Build\n\n"
        "- Use pnpm, never npm.\n- The CI image is\n  node:22-slim.\n\nRelease tags are signed.\n"
    )
    assert clawmem("init").returncode == 0
    first = clawmem("import", "claude-memory", "--json").json()
    assert first["imported"] == 3 and first["files"] == [str(topic)]
    assert [n["text"] for n in first["notes"]] == ["Use pnpm, never npm.", "The CI image is node:22-slim.", "Release tags are signed."]
    daily = tmp_path / "ws" / first["notes"][0]["path"]
    assert f"<!-- source: {topic} -->" in daily.read_text()
    records = [json.loads(line) for line in (tmp_path / "ws" / ".clawmem" / "provenance.jsonl").read_text().splitlines()]
    imported = [r for r in records if r.get("source") == str(topic)]
    assert len(imported) == 3 and {r["origin"] for r in imported} == {"owner"}
    again = clawmem("import", "claude-memory", str(memory), "--json").json()
    assert again["imported"] == 0 and again["skipped"] == 3
    missing = clawmem("import", "claude-memory", str(tmp_path / "nope"))
    assert missing.returncode == 1 and "neither a file nor a directory" in missing.stderr


@pytest.mark.parametrize("host", ["claude-code", "codex"])
def test_install_refuses_an_mcp_server_this_clawmem_cannot_run(home, tmp_path, host):
    """Without the MCP SDK the host would start a server that fails: install says how to fix it and writes nothing."""
    import subprocess

    probe = (
        "import sys; sys.modules['mcp'] = None\n"
        f"sys.argv = [{CLAWMEM_EXE!r}, 'install', {host!r}, '-w', {str(tmp_path / 'ws')!r}]\n"
        "from clawmem.launcher import main\nmain()\n"
    )
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    proc = subprocess.run([sys.executable, "-c", probe], check=False, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode != 0
    assert "MCP SDK is not installed" in proc.stderr and "pip install 'clawmem-cli[mcp]'" in proc.stderr
    assert not home.exists() or _files(home) == {}
    assert not (tmp_path / "ws").exists()
    control = subprocess.run([sys.executable, "-c", probe.replace("sys.modules['mcp'] = None", "pass")],
                             check=False, capture_output=True, text=True, timeout=120, env=env)
    assert control.returncode == 0, control.stderr  # with the SDK the same install goes through
