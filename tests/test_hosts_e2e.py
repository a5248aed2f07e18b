"""One host's life, end to end: install, three days of recorded hook sequences, dream, next session.

We play the host and nothing else: `clawmem install HOST` writes the host's config under a
temp HOME, and each hook invocation runs the exact command that config holds, with the JSON
the host would write on stdin (tests/data/hooks/HOST/hooks.jsonl: session start, three
prompts, a compaction, session end) while the host's transcript file (same directory) grows
where the host keeps it. Then `clawmem dream` runs, and a new session's start hook must show
what the three sessions taught.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.conftest import background_done

pytestmark = pytest.mark.e2e  # hooks as the hosts run them

DATA = Path(__file__).parent / "data" / "hooks"
WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("${" + key + "}", json.dumps(value)[1:-1])
    return text


def _hook_commands(host: str, home: Path) -> dict[str, list[str]]:
    """clawmem's installed hook commands, keyed by the `clawmem hook EVENT` they run."""
    path = home / ".claude" / "settings.json" if host == "claude-code" else home / ".codex" / "hooks.json"
    commands = {}
    for groups in json.loads(path.read_text())["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                argv = shlex.split(handler["command"])
                commands[argv[2]] = argv
    return commands


def _transcript_path(host: str, home: Path, session: str, day: dt.date) -> Path:
    if host == "claude-code":
        return home / ".claude" / "projects" / "-src-app" / f"{session}.jsonl"
    return home / ".codex" / "sessions" / f"{day:%Y/%m/%d}" / f"rollout-{day}T09-00-00-{session}.jsonl"


def _run(argv: list[str], payload: str, now: dt.datetime, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CLAWMEM_NOW": now.isoformat()}
    return subprocess.run(argv, input=payload, capture_output=True, text=True, timeout=120, env=env, cwd=cwd, check=False)


def _context(proc: subprocess.CompletedProcess) -> str:
    return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout else ""


def _live_session(host: str, home: Path, repo: Path, commands: dict[str, list[str]], session: str, day: dt.date) -> list[str]:
    """Replay one recorded session; the transcript grows turn by turn as the host writes it."""
    transcript = _transcript_path(host, home, session, day)
    transcript.parent.mkdir(parents=True, exist_ok=True)
    values = {"session_id": session, "cwd": str(repo), "transcript_path": str(transcript), "day": day.isoformat()}
    records = _fill((DATA / host / "transcript.jsonl").read_text(), values).splitlines(keepends=True)
    hooks = [json.loads(line) for line in _fill((DATA / host / "hooks.jsonl").read_text(), values).splitlines()]
    contexts, written, prompts = [], 0, 0
    for number, call in enumerate(hooks):
        if call["event"] == "prompt":
            prompts += 1
        # the host appends each turn's records before the hooks that follow it
        upto = len(records) if call["event"] in ("session-end", "stop") and number == len(hooks) - 1 else min(len(records), 4 * prompts)
        with transcript.open("a", encoding="utf-8") as handle:
            handle.writelines(records[written:upto])
        written = max(written, upto)
        now = dt.datetime.combine(day, dt.time(9, number))
        proc = _run(commands[call["event"]], json.dumps(call["input"]), now, repo)
        assert proc.returncode == 0, proc.stderr
        if call["event"] in ("session-start", "prompt"):
            contexts.append(_context(proc))
        else:
            assert proc.stdout == "" and proc.stderr == "", proc.stderr  # ingestion is silent when it works
            background_done(os.environ["CLAWMEM_WORKSPACE"])  # the hook handed it to a detached worker
    return contexts


@pytest.mark.slow
@pytest.mark.parametrize("host", ["claude-code", "codex"])
def test_three_days_of_sessions_become_memory_the_next_session_starts_with(host, clawmem, tmp_path):
    home = Path(os.environ["HOME"])
    repo = tmp_path / "src" / "app"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:ada/app.git\n')
    assert clawmem("install", host).returncode == 0
    commands = _hook_commands(host, home)
    assert {"session-start", "prompt", "pre-compact"} <= set(commands)

    today = dt.date.today()
    for days_back in (3, 2, 1):
        day = today - dt.timedelta(days=days_back)
        _live_session(host, home, repo, commands, f"5f1c2d3e-{days_back:04d}-4000-8000-000000000001", day)

    ws = tmp_path / "ws"
    transcripts = sorted(p.name for p in (ws / "transcripts").glob("*.md"))
    assert len(transcripts) == 3
    text = (ws / "transcripts" / transcripts[0]).read_text()
    assert WORKAROUND in text and "thanks, that did it for the ticket" in text  # the whole session, not the part before compaction
    assert WORKAROUND not in (ws / "MEMORY.md").read_text()

    dream = clawmem("dream", "--json")
    assert dream.returncode == 0, dream.stderr
    assert any(WORKAROUND in p["text"] for p in dream.json()["promoted"])

    start = json.loads((DATA / host / "hooks.jsonl").read_text().splitlines()[0])["input"]
    start.update(session_id="next-session", cwd=str(repo), transcript_path=None)
    proc = _run(commands["session-start"], json.dumps(start), dt.datetime.now(), repo)
    assert proc.returncode == 0, proc.stderr
    assert WORKAROUND in _context(proc)


@pytest.mark.parametrize("host", ["claude-code", "codex"])
def test_tool_output_in_a_host_transcript_is_never_owner_memory(host, clawmem, tmp_path):
    """The transcript's tool results come in as untrusted, the user's turns as the owner's."""
    home = Path(os.environ["HOME"])
    repo = tmp_path / "app"
    repo.mkdir()
    assert clawmem("install", host).returncode == 0
    commands = _hook_commands(host, home)
    _live_session(host, home, repo, commands, "5f1c2d3e-0009-4000-8000-000000000001", dt.date.today())
    from clawmem.storage import ledger
    from clawmem.storage.workspace import Workspace

    ws = Workspace(tmp_path / "ws")
    transcript = next((ws.root / "transcripts").glob("*.md")).read_text()
    origins = {}
    for record in ledger.read(ws).records:
        if record.get("t") == "entry":
            origins.setdefault(record["origin"], 0)
            origins[record["origin"]] += 1
    assert "png_create_read_struct" in transcript
    assert origins.get("owner") and origins.get("agent") and origins.get("untrusted")
