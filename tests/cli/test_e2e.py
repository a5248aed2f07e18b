"""The installed ``clawmem`` command, end to end, in real subprocesses."""

from __future__ import annotations

import json


def test_help_and_version(clawmem):
    help_ = clawmem("--help")
    assert help_.returncode == 0 and "note" in help_.stdout and "status" in help_.stdout
    version = clawmem("--version")
    assert version.returncode == 0 and version.stdout.startswith("clawmem ")


def test_init_note_status_round_trip(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    added = clawmem("note", "add", "Keep the gateway on loopback", "--origin", "owner", "--importance", "9", "--trigger", "gateway setup", "--json")
    assert added.returncode == 0, added.stderr
    note = added.json()
    assert note["written"] and note["origin"] == "owner" and note["line"] == 3
    daily = tmp_path / "ws" / note["path"]
    assert "<!-- importance: 9 --> <!-- trigger: gateway setup -->" in daily.read_text()
    status = clawmem("status", "--json")
    assert status.returncode == 0, status.stderr
    report = status.json()
    assert report["files_pending"]  # the note is not indexed until a sync
    assert clawmem("index").returncode == 0
    report = clawmem("status", "--json").json()
    assert report["by_origin"] == {"owner": 1} and report["by_tier"] == {"episodic": 1}
    assert report["schema_version"] >= 1 and report["ledger_intact"] is True


def test_stdin_note_without_origin_is_untrusted_when_not_a_terminal(clawmem):
    clawmem("init")
    result = clawmem("note", "add", "-", "--json", input="piped text from a script")
    assert result.returncode == 0
    assert result.json()["origin"] == "untrusted" and result.json()["quarantined"]
    assert "untrusted" in result.stderr


def test_missing_workspace_says_how_to_create_one(clawmem):
    result = clawmem("status")
    assert result.returncode == 1
    assert "no clawmem workspace" in result.stderr and "clawmem init" in result.stderr


def test_errors_are_json_too_under_json(clawmem):
    result = clawmem("status", "--json")
    assert result.returncode == 1
    assert result.json()["error"] == "workspace_not_found"


def test_ingest_jsonl_and_markdown(clawmem, tmp_path):
    clawmem("init")
    jsonl = tmp_path / "s1.jsonl"
    jsonl.write_text("\n".join(json.dumps(t) for t in [
        {"role": "user", "content": "The build fails on arm64", "timestamp": "2026-11-20T10:00:00"},
        {"role": "assistant", "content": "Run make clean first"},
    ]))
    result = clawmem("ingest", str(jsonl), "--origin", "owner", "--json")
    assert result.returncode == 0, result.stderr
    assert result.json()["session"] == "s1" and result.json()["written"] == 2
    text = (tmp_path / "ws" / "transcripts" / "s1.md").read_text()
    assert "user: The build fails on arm64 <!-- observed: 2026-11-20T10:00:00 -->" in text
    md = tmp_path / "chat.md"
    md.write_text("user: hello there\nassistant: hi!\nsecond line of the reply\n")
    result = clawmem("ingest", str(md), "--session", "chat-1", "--origin", "owner", "--at", "2026-11-21T08:00", "--json")
    assert result.returncode == 0 and result.json()["written"] == 2


def test_index_rebuild_restores_a_corrupt_index(clawmem, tmp_path):
    clawmem("init")
    clawmem("note", "add", "survives corruption", "--origin", "agent")
    clawmem("index")
    index_path = tmp_path / "ws" / ".clawmem" / "index.db"
    index_path.write_bytes(b"garbage" * 1000)
    broken = clawmem("status")
    assert broken.returncode == 1 and "index --rebuild" in broken.stderr
    fixed = clawmem("index", "--rebuild", "--json")
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.json()["recreated"] is True
    assert clawmem("status", "--json").json()["by_origin"] == {"agent": 1}
