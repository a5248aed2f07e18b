"""``clawmem hook EVENT --host HOST`` through the installed command, fed the hosts' documented JSON.

We play the host: each test writes the JSON a host writes on a hook's stdin (fields from the
hosts' docs, see tests/data/hooks/README.md) and reads stdout as the host would.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.e2e  # the hook exit contract, as a host sees it

HOSTS = ["claude-code", "codex"]
EVENT_NAMES = {"session-start": "SessionStart", "prompt": "UserPromptSubmit", "pre-compact": "PreCompact", "stop": "Stop", "session-end": "SessionEnd"}


def _context(result, event: str) -> str:
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return ""
    data = json.loads(result.stdout)
    assert set(data) == {"hookSpecificOutput"}
    assert data["hookSpecificOutput"]["hookEventName"] == EVENT_NAMES[event]
    return data["hookSpecificOutput"]["additionalContext"]


def _payload(event: str, **fields) -> str:
    base = {"session_id": "5f1c2d3e-0000-4000-8000-00000000abcd", "transcript_path": None, "cwd": "/", "hook_event_name": EVENT_NAMES[event]}
    return json.dumps({**base, **fields})


@pytest.fixture
def curated(ws, clawmem):
    ws.memory_md.write_text(
        ws.memory_md.read_text() + "- Run the release helper before tagging. <!-- trigger: release tag -->\n", encoding="utf-8"
    )
    assert clawmem("index").returncode == 0
    return ws


@pytest.mark.parametrize("host", HOSTS)
def test_session_start_prints_the_bootstrap_as_additional_context(curated, clawmem, host):
    context = _context(clawmem("hook", "session-start", "--host", host, input=_payload("session-start", source="startup")), "session-start")
    assert "## MEMORY.md" in context and "Run the release helper before tagging." in context
    assert context.startswith("<clawmem-recall id=")


@pytest.mark.parametrize("host", HOSTS)
def test_prompt_recalls_triggered_entries_without_repeating_the_bootstrap(curated, clawmem, host):
    hit = _context(clawmem("hook", "prompt", "--host", host, input=_payload("prompt", prompt="time to cut the release tag")), "prompt")
    assert "## Relevant memory" in hit and "release helper" in hit and "## MEMORY.md" not in hit
    miss = clawmem("hook", "prompt", "--host", host, input=_payload("prompt", prompt="rename this variable"))
    assert _context(miss, "prompt") == ""


def test_prompt_uses_the_cwd_repository_as_the_active_project(ws, clawmem, tmp_path):
    repo = tmp_path / "app"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:ada/app.git\n')
    ws.memory_md.write_text(
        ws.memory_md.read_text() + "- Deploy app with fly deploy. <!-- project: github.com/ada/app -->\n", encoding="utf-8"
    )
    assert clawmem("index").returncode == 0
    inside = _context(clawmem("hook", "prompt", "--host", "claude-code", input=_payload("prompt", prompt="hello", cwd=str(repo / "src"))), "prompt")
    assert "## Project memory (github.com/ada/app)" in inside and "fly deploy" in inside
    outside = clawmem("hook", "prompt", "--host", "claude-code", input=_payload("prompt", prompt="hello", cwd=str(tmp_path), session_id="other-session"))
    assert "fly deploy" not in _context(outside, "prompt")


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("not json at all", "not the host's hook JSON"),
        ("[1, 2]", "not the host's hook JSON"),
        (b"\xff\xfe{", "not the host's hook JSON"),
        ("", "not the host's hook JSON"),
        (json.dumps({"hook_event_name": "SessionStart", "session_id": "s1", "cwd": "/"}), "for SessionStart, not UserPromptSubmit"),
        (json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "/"}), "no prompt"),
    ],
)
def test_bad_hook_input_never_fails_the_turn(curated, clawmem, stdin, reason):
    result = clawmem("hook", "prompt", "--host", "claude-code", input=stdin)
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("clawmem: hook degraded:") and reason in result.stderr


@pytest.mark.parametrize("event", ["session-start", "prompt", "pre-compact", "session-end"])
def test_a_missing_workspace_degrades_to_nothing(clawmem, tmp_path, event):
    result = clawmem("hook", event, "--host", "claude-code", "-w", str(tmp_path / "nowhere"), input=_payload(event, prompt="hi"))
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no clawmem workspace" in result.stderr


@pytest.mark.parametrize("host", HOSTS)
def test_end_of_session_without_a_readable_transcript_writes_nothing(ws, clawmem, tmp_path, host):
    event = "session-end" if host == "claude-code" else "stop"
    for path in (None, str(tmp_path / "gone.jsonl"), str(tmp_path)):
        result = clawmem("hook", event, "--host", host, input=_payload(event, transcript_path=path))
        assert result.returncode == 0 and result.stdout == "" and result.stderr.count("\n") == 1
    assert list(ws.transcripts_dir.iterdir()) == []


def test_a_session_id_that_names_a_path_is_refused(ws, clawmem, tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": "hello"}) + "\n")
    result = clawmem("hook", "session-end", "--host", "claude-code", input=_payload("session-end", session_id="../../etc/x", transcript_path=str(transcript)))
    assert result.returncode == 0 and "invalid session id" in result.stderr
    assert list(ws.transcripts_dir.iterdir()) == []


def test_codex_has_no_session_end_event(ws, clawmem):
    result = clawmem("hook", "session-end", "--host", "codex", input=_payload("session-end"))
    assert result.returncode == 0 and "codex has no session-end hook event" in result.stderr


def test_unknown_host_or_event_is_a_usage_error(clawmem):
    assert clawmem("hook", "prompt", "--host", "vim", input="{}").returncode == 2
    assert clawmem("hook", "lunch", "--host", "codex", input="{}").returncode == 2


def test_the_typer_command_takes_the_registrys_names():
    """The fast lane's parser takes the Typer command's choices (tests/test_front_door.py); these come from ``hosts.names``."""
    from clawmem.cli.hook import Event, HookHost
    from clawmem.hosts.names import HOOK_EVENTS, HOOK_HOSTS

    assert tuple(e.value for e in Event) == HOOK_EVENTS and tuple(h.value for h in HookHost) == HOOK_HOSTS


def test_hook_help_and_usage_errors_still_go_through_typer(clawmem):
    assert "Examples:" in clawmem("hook", "--help").stdout
    result = clawmem("hook", "prompt", input="{}")
    assert result.returncode == 2 and result.stderr.count("Missing option") == 1
