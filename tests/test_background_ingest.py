"""Stop, pre-compaction and session-end hooks hand ingestion to a detached worker (issue 24).

Claude Code gives all SessionEnd hooks 1.5 s together; Codex runs Stop after every turn. The
hook must return at once: it starts ``python -m clawmem.hosts.background`` in a new session and
leaves. Shown through the installed ``clawmem hook``: while the test holds the session's lock
the hook has returned and nothing is ingested yet, the worker is alive in its own session; once
the lock is free the transcript lands. Two Stops of one growing Codex rollout end with every
turn. A failing worker is recorded, and ``clawmem status`` (human and ``--json``) reports it.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from clawmem.hosts import jobs
from tests.conftest import background_done

SESSION = "7d0c2e1a-0000-4000-8000-0000000000aa"
TYPED = "the billing deploy goes out on Thursdays only"


def _claude(path, turns: list[tuple[str, str]]) -> None:
    records = [
        {"type": kind, "uuid": f"u{n}", "sessionId": SESSION, "timestamp": f"2026-05-04T09:00:{n:02d}Z", "userType": "external",
         "message": {"role": kind, "content": text if kind == "user" else [{"type": "text", "text": text}]}}
        for n, (kind, text) in enumerate(turns, 1)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _codex(path, prompts: list[str]) -> None:
    records: list[dict] = [{"timestamp": "2026-05-04T09:00:00Z", "type": "session_meta", "payload": {"id": SESSION, "source": "cli"}}]
    for n, prompt in enumerate(prompts, 1):
        at = f"2026-05-04T09:{n:02d}:00Z"
        records += [
            {"timestamp": at, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}},
            {"timestamp": at, "type": "event_msg", "payload": {"type": "user_message", "message": prompt}},
            {"timestamp": at, "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": f"done {n}"}]}},
        ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _hook(clawmem, event: str, host: str, transcript, **extra):
    names = {"session-end": "SessionEnd", "stop": "Stop", "pre-compact": "PreCompact"}
    payload = {"hook_event_name": names[event], "session_id": SESSION, "cwd": str(transcript.parent), "transcript_path": str(transcript), **extra}
    result = clawmem("hook", event, "--host", host, input=json.dumps(payload))
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", result.stderr
    return result


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.e2e  # the hook process must exit while its detached child runs on
def test_the_hook_returns_before_the_ingest_and_the_worker_lands_it(ws, clawmem, tmp_path):
    transcript = tmp_path / "session.jsonl"
    _claude(transcript, [("user", TYPED), ("assistant", "Noted.")])
    with ws.lock(f"ingest-session:{SESSION}"):  # the worker waits here: whatever the hook did, it did not ingest
        _hook(clawmem, "session-end", "claude-code", transcript, reason="exit")
        running = jobs.in_flight(ws)
        assert len(running) == 1 and running[0].name.startswith(SESSION)
        assert not (ws.transcripts_dir / f"{SESSION}.md").exists()
        workers = [  # this workspace's: tests running beside this one have their own
            int(p) for p in os.listdir("/proc") if p.isdigit() and b"clawmem.hosts.background" in (line := _cmdline(p)) and str(ws.root).encode() in line
        ]
        assert len(workers) == 1 and _alive(workers[0])
        assert os.getsid(workers[0]) == workers[0] != os.getsid(0)  # its own session: the host's kill of the hook's group misses it
        time.sleep(0.3)
        assert not (ws.transcripts_dir / f"{SESSION}.md").exists()
    background_done(ws.root)
    assert TYPED in (ws.transcripts_dir / f"{SESSION}.md").read_text()
    outcome = json.loads((ws.state_dir / jobs.RUNTIME / f"{SESSION}.json").read_text())
    assert outcome["exit"] == 0 and outcome["stderr"] == ""
    status = clawmem("status", "--json")
    assert status.json()["background_failure"] is None


def _cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def test_stop_after_every_turn_ends_with_every_turn(ws, clawmem, tmp_path):
    """Codex: two Stops of one growing rollout in quick succession; the lock orders them, the last ingests it whole."""
    rollout = tmp_path / "rollout.jsonl"
    prompts = ["first prompt about the billing deploy", "second prompt about the audit key", "third prompt about staging"]
    _codex(rollout, prompts[:2])
    _hook(clawmem, "stop", "codex", rollout)
    _codex(rollout, prompts)
    _hook(clawmem, "stop", "codex", rollout)
    background_done(ws.root)
    text = (ws.transcripts_dir / f"{SESSION}.md").read_text()
    assert all(p in text for p in prompts) and text.count("user: ") == 3


def test_a_failed_background_ingest_shows_in_status(ws, clawmem, tmp_path):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("this is not a Claude Code transcript\n")  # the hook sees a file; only the worker reads it
    _hook(clawmem, "session-end", "claude-code", transcript, reason="exit")
    background_done(ws.root)
    report = clawmem("status", "--json")
    assert report.returncode == 0, report.stderr
    failure = report.json()["background_failure"]
    assert failure["session"] == SESSION and failure["exit"] == 1 and failure["host"] == "claude-code"
    assert "not valid JSONL" in failure["stderr"]
    human = clawmem("status")
    assert f"the background ingest of session {SESSION} failed" in human.stdout + human.stderr

    _claude(transcript, [("user", TYPED)])  # the next hook of the session succeeds: the failure is gone
    _hook(clawmem, "session-end", "claude-code", transcript, reason="exit")
    background_done(ws.root)
    assert clawmem("status", "--json").json()["background_failure"] is None
