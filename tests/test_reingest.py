"""No owner turn is ever lost on re-ingest (issue 24).

Hosts ingest the same session again and again: Claude Code on every resume, Codex after every
turn (its Stop hook), the MCP ``ingest_transcript`` tool on demand, and a fork copies an old
session's turns into a new file. Between two ingests a ``clawmem search`` may return one of the
session's own owner turns; it then sits in the recalled set, and the echo rule took the turn for
an echo of itself and deleted it. Through the real CLI: ingest a Claude Code JSONL, a Codex
rollout and clawmem's own JSONL, search (the recall log records the hit), append turns,
re-ingest, count the owner turns. The echo rule still holds for what was handed out before it
was written: the owner's recalled line pasted back in a later session stays one fact, and with
the rule off (``notes.blocked_hashes`` emptied, as ``tests/security/gates_off.py`` does) it lands.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clawmem.entries import identity
from clawmem.index.db import Index

OWNER = "We deploy the billing service on Thursdays only, never on Fridays."
SECOND = "The staging database is refreshed from production every Sunday night."
LATER = "Rotate the billing API key before the quarterly audit."
DAY = "2026-05-04"


def _cc(kind: str, text: str, n: int, at: str, session: str = "cc-1", **extra) -> dict:
    message = {"role": kind, "content": text if kind == "user" else [{"type": "text", "text": text}]}
    record = {"type": kind, "uuid": f"{session}-{n}", "parentUuid": f"{session}-{n - 1}" if n > 1 else None,
              "sessionId": session, "timestamp": f"{DAY}T{at}Z", "message": message, **extra}
    return record | ({"promptSource": "typed", "userType": "external"} if kind == "user" else {})


def claude_code(turns: list[tuple[str, str, str]], session: str = "cc-1") -> list[dict]:
    return [_cc(kind, text, n, at, session) for n, (kind, text, at) in enumerate(turns, 1)]


def codex(turns: list[tuple[str, str, str]]) -> list[dict]:
    records: list[dict] = [{"timestamp": f"{DAY}T08:59:59Z", "type": "session_meta", "payload": {"id": "cx-1", "source": "cli"}}]
    for kind, text, at in turns:
        part = "input_text" if kind == "user" else "output_text"
        records.append({"timestamp": f"{DAY}T{at}Z", "type": "response_item",
                        "payload": {"type": "message", "role": kind, "content": [{"type": part, "text": text}]}})
        if kind == "user":
            records.append({"timestamp": f"{DAY}T{at}Z", "type": "event_msg", "payload": {"type": "user_message", "message": text}})
    return records


def plain(turns: list[tuple[str, str, str]]) -> list[dict]:
    return [{"role": kind, "content": text} for kind, text, _ in turns]


FIRST = [("user", OWNER, "09:00:00"), ("assistant", "Noted: billing deploys are Thursday-only.", "09:00:05"),
         ("user", SECOND, "09:01:00"), ("assistant", "Understood.", "09:01:05")]
MORE = [("user", LATER, "11:00:00"), ("assistant", "I will add it to the audit checklist.", "11:00:05")]
FORMATS = {"claude-code": claude_code, "codex": codex, "jsonl": plain}
RULE_OFF = [sys.executable, "-c", (
    "import sys; from clawmem.commands import notes\n"
    "notes.blocked_hashes = lambda ws, hashes, **kw: notes.Blocked(set(), set())\n"
    "from clawmem.launcher import main; sys.argv[0] = 'clawmem'; main()"
)]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _ingest(clawmem, path: Path, session: str, fmt: str, now: str, command=None) -> dict:
    args = ("ingest", str(path), "--session", session, "--origin", "owner", "--format", fmt, "--json")
    if command is None:
        result = clawmem(*args, env={"CLAWMEM_NOW": f"{DAY}T{now}+00:00"})
        assert result.returncode == 0, result.stderr
        return result.json()
    proc = subprocess.run([*command, *args], capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "CLAWMEM_NOW": f"{DAY}T{now}+00:00"}, cwd=path.parent)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _search(clawmem, query: str, now: str) -> list[dict]:
    result = clawmem("search", query, "--lexical", "--json", env={"CLAWMEM_NOW": f"{DAY}T{now}+00:00"})
    assert result.returncode == 0, result.stderr
    return result.json()["results"]


def owner_lines(ws, session: str) -> list[str]:
    """The owner's lines of the session's transcript, from the index (origin as the ledger recorded it)."""
    from clawmem.index.sync import sync

    with Index.open(ws) as index:
        sync(ws, index)
        return [r["text"] for r in index.query(
            "SELECT text FROM entries WHERE path = ? AND origin = 'owner' ORDER BY line_start", (f"transcripts/{session}.md",))]


def _searched_and_logged(ws, clawmem, text: str, session: str) -> None:
    """``clawmem search`` returns the owner's turn, and the recall log records it as handed out."""
    hits = _search(clawmem, "billing service Thursdays Fridays", "10:00:00")
    assert any(OWNER in h["text"] and h["path"] == f"transcripts/{session}.md" for h in hits), hits
    with Index.open(ws) as index:
        assert index.scalar("SELECT count(*) FROM recalled WHERE text_hash = ?", (identity.text_hash(text),)) == 1
        assert index.scalar("SELECT count(*) FROM recall_events WHERE text_hash = ? AND source = 'search'", (identity.text_hash(text),)) == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_searched_owner_turn_survives_every_re_ingest(ws, clawmem, tmp_path, fmt):
    """Resume (Claude Code) and per-turn Stop (Codex) re-ingest a growing transcript: every owner turn stays."""
    make = FORMATS[fmt]
    path = _write(tmp_path / f"{fmt}.jsonl", make(FIRST))
    assert _ingest(clawmem, path, "s-1", fmt, "09:02:00")["written"] == 4
    _searched_and_logged(ws, clawmem, OWNER, "s-1")

    _write(path, make(FIRST + MORE))
    again = _ingest(clawmem, path, "s-1", fmt, "11:01:00")
    assert (again["written"], again["dropped_recalled"]) == (6, 0)
    assert [OWNER in t for t in owner_lines(ws, "s-1")] == [True, False, False]
    assert len(owner_lines(ws, "s-1")) == 3

    with Index.open(ws) as index:
        before = index.query("SELECT text, origin, observed_at FROM entries WHERE path = 'transcripts/s-1.md' ORDER BY line_start")
    unchanged = _ingest(clawmem, path, "s-1", fmt, "12:00:00")  # the same input once more: the same rows
    assert (unchanged["written"], unchanged["dropped_recalled"]) == (6, 0)
    owner_lines(ws, "s-1")  # syncs
    with Index.open(ws) as index:
        after = index.query("SELECT text, origin, observed_at FROM entries WHERE path = 'transcripts/s-1.md' ORDER BY line_start")
    assert [dict(r) for r in after] == [dict(r) for r in before]


def test_control_without_the_own_turn_rule_the_searched_turn_is_lost(ws, tmp_path, clawmem):
    """The bug as the hosts met it: with the session's own turns not told apart from echoes, re-ingest deletes the owner's turn."""
    path = _write(tmp_path / "plain.jsonl", plain(FIRST))
    assert _ingest(clawmem, path, "s-1", "jsonl", "09:02:00")["written"] == 4
    _searched_and_logged(ws, clawmem, OWNER, "s-1")
    rule_off = [sys.executable, "-c", (
        "import sys; from clawmem.commands import ingest\n"
        "ingest._own_turns = lambda *args, **kwargs: set()\n"
        "from clawmem.launcher import main; sys.argv[0] = 'clawmem'; main()"
    )]
    _write(path, plain(FIRST + MORE))
    lost = _ingest(clawmem, path, "s-1", "jsonl", "11:01:00", command=rule_off)
    assert (lost["written"], lost["dropped_recalled"]) == (5, 1)
    assert not any(OWNER in t for t in owner_lines(ws, "s-1"))


def test_the_mcp_tool_re_ingesting_an_ingested_session_keeps_every_turn(ws, clawmem, tmp_path):
    """``ingest_transcript`` (an MCP client's class, its own slot) of a session the hooks already ingested wrote 0 turns."""
    from clawmem.commands.ingest import ingest

    text = "".join(json.dumps(r) + "\n" for r in plain(FIRST))
    assert ingest(ws, text, session="s-1", origin="owner", fmt="jsonl").written == 4
    _searched_and_logged(ws, clawmem, OWNER, "s-1")
    via_mcp = ingest(ws, text, session="s-1", origin="agent", fmt="jsonl", host="mcp")
    assert (via_mcp.written, via_mcp.dropped_recalled) == (4, 0)
    assert OWNER in (ws.root / via_mcp.path).read_text()


def test_a_fork_keeps_the_turns_it_copied(ws, clawmem, tmp_path):
    """A fork is a new session file holding the old one's turns (new ids, their times): none is taken for an echo."""
    parent = _write(tmp_path / "parent.jsonl", claude_code(FIRST))
    assert _ingest(clawmem, parent, "cc-1", "claude-code", "09:02:00")["written"] == 4
    _searched_and_logged(ws, clawmem, OWNER, "cc-1")
    fork = _write(tmp_path / "fork.jsonl", claude_code(FIRST + MORE, session="cc-fork"))
    forked = _ingest(clawmem, fork, "cc-fork", "claude-code", "11:01:00")
    assert (forked["written"], forked["dropped_recalled"]) == (6, 0)
    assert len(owner_lines(ws, "cc-fork")) == 3


PASTED = [("user", OWNER, "12:00:00"), ("assistant", "Yes, Thursdays.", "12:00:05"), ("user", "thanks", "12:01:00")]


def _pasted_back(ws, clawmem, tmp_path, command=None) -> dict:
    parent = _write(tmp_path / "parent.jsonl", claude_code(FIRST))
    assert _ingest(clawmem, parent, "cc-1", "claude-code", "09:02:00")["written"] == 4
    _searched_and_logged(ws, clawmem, OWNER, "cc-1")
    later = _write(tmp_path / "later.jsonl", claude_code(PASTED, session="cc-2"))
    return _ingest(clawmem, later, "cc-2", "claude-code", "12:02:00", command=command)


def test_a_recalled_turn_pasted_back_in_a_later_session_stays_one_fact(ws, clawmem, tmp_path):
    result = _pasted_back(ws, clawmem, tmp_path)
    assert (result["written"], result["dropped_recalled"]) == (2, 1)
    assert owner_lines(ws, "cc-2") == ["user: thanks"]
    assert len(owner_lines(ws, "cc-1")) == 2  # the original stays where it was said


def test_control_with_the_echo_rule_off_the_pasted_line_lands(ws, clawmem, tmp_path):
    result = _pasted_back(ws, clawmem, tmp_path, command=RULE_OFF)
    assert (result["written"], result["dropped_recalled"]) == (3, 0)
    assert any(OWNER in t for t in owner_lines(ws, "cc-2"))


def _entry_records(ws) -> list[dict]:
    from clawmem.storage import ledger

    return [r for r in ledger.read(ws).records if r.get("t") == "entry"]


def test_per_turn_re_ingest_records_each_line_once(ws, clawmem, tmp_path):
    """A host re-sends its growing transcript every turn: the ledger grows with the lines, not their square."""
    turns: list[tuple[str, str, str]] = []
    path = tmp_path / "grow.jsonl"
    for n in range(8):
        turns += [("user", f"The zq{n} service listens on port {8000 + n}.", f"09:{n:02d}:00"), ("assistant", f"Noted zq{n}.", f"09:{n:02d}:05")]
        _write(path, plain(turns))
        _ingest(clawmem, path, "s-1", "jsonl", f"09:{n:02d}:30")
    records = _entry_records(ws)
    assert len(records) == len({(r["path"], r["hash"]) for r in records}) == 16  # not 2 + 4 + ... + 16 = 72
    assert len(owner_lines(ws, "s-1")) == 8


def test_a_changed_verdict_is_still_recorded_on_re_ingest(ws, clawmem, tmp_path):
    """A line re-ingested with a different record (here: another observed time) is recorded again."""
    path = _write(tmp_path / "s.jsonl", [{"role": "user", "content": OWNER, "timestamp": f"{DAY}T09:00:00Z"}])
    _ingest(clawmem, path, "s-1", "jsonl", "09:01:00")
    _write(path, [{"role": "user", "content": OWNER, "timestamp": f"{DAY}T09:30:00Z"}])
    _ingest(clawmem, path, "s-1", "jsonl", "09:31:00")
    assert [r["observed"][11:16] for r in _entry_records(ws)] == ["09:00", "09:30"]


def test_a_pulled_copy_of_the_record_does_not_hold_back_this_copys_own(ws, clawmem, tmp_path):
    """Only this copy's own records count as said: the same record from another copy is no reason to skip ours."""
    from clawmem.trust import team

    path = _write(tmp_path / "s.jsonl", [{"role": "user", "content": OWNER, "timestamp": f"{DAY}T09:00:00Z"}])
    _ingest(clawmem, path, "s-1", "jsonl", "09:01:00")
    own = _entry_records(ws)[0]
    assert team.written_here(team.this_copy(ws), own)
    with ws.ledger_path.open("a") as f:  # as a pull brings another copy's (unsealed) record of the same line
        f.write(json.dumps({k: v for k, v in own.items() if k not in ("by", "seq", "mac")} | {"path": "transcripts/s-2.md", "session": "s-2"}) + "\n")
    _ingest(clawmem, path, "s-2", "jsonl", "09:02:00")
    sealed = [r for r in _entry_records(ws) if r["path"] == "transcripts/s-2.md" and team.written_here(team.this_copy(ws), r)]
    assert len(sealed) == 1
