"""Four days of a person's sessions in the real Claude Code and the real Codex, with clawmem installed.

Everything runs for real except the model (tests/hosts_real/stubs.py, on 127.0.0.1): the
host's CLI, its hooks (``clawmem install`` wrote them), its MCP client starting ``clawmem mcp``,
its transcript, and ``clawmem dream`` on the nights between. The story, per host:

* day 0: the owner's note, promoted into MEMORY.md (the bootstrap), and a standing intent
  ("when the staging password comes up ...", per-prompt recall).
* day 1: session A, one run: the release build fails with undefined reference errors; the
  model answers with the workaround. Session B over three runs (``--resume`` / ``exec resume``):
  a question that fires the intent; after the person's search returned that turn, a scripted
  ``search_memory`` call; a last turn where the model reads build.log with the host's own tool.
* days 2 and 3: the same failure in other words, the same workaround; ``clawmem dream`` each night.
* day 4: the failure once more in new words: the workaround must be in the model request.

What reached the model is read from the stub's request log; what memory holds, through the
``clawmem`` CLI (``search --json``) and the stored transcript Markdown.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.hosts_real.conftest import HOSTS, Host, ProxyTrap, Sandbox, Turn
from tests.hosts_real.stubs import Rule, Script, StubModel

pytestmark = [pytest.mark.slow, pytest.mark.e2e]  # the real Claude Code and Codex run clawmem as hosts do

WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."
BOOTSTRAP_FACT = "The release branch is cut from main every second Thursday."
INTENT = "Remind them the staging password lives in vault at secret/staging/db."
BUILD_LOG = "ld: build/obj/zwrap.o: undefined reference to inflateInit2_\ncollect2: error: ld returned 1 exit status\n"
FAILURES = {  # the same failure, said differently each day
    1: "the release build fails again with undefined reference errors from the linker",
    2: "linking fails: undefined reference to png_create_read_struct when building release",
    3: "ld reports undefined reference errors again on the release build",
    4: "the linker is failing with undefined symbols in the release build, what did we do last time?",
}
ROTATION_QUESTION = "when does the staging password rotate?"
ROTATION_ANSWER = "It rotates on Mondays; the password itself is in vault."
LOOKUP = "lookup-memory: what did I report about the linker on day one?"
LOOKUP_ANSWER = "You reported linker errors."
LAST_WORDS = "thanks; the full linker output is in build.log if you want it"
LAST_ANSWER = "The log shows one missing symbol, inflateInit2_."
DAY4_ANSWER = "Last time make clean before make fixed it; try that first."


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """Simulated day ``day`` at ``hour``:``minute`` UTC; day 1 is tomorrow.

    The hosts' own clocks stay real, so every turn they record is timed today, at whatever hour
    the suite runs. With day 1 today, a run after noon timed the host turns after the day-one
    search that clawmem's clock (``CLAWMEM_NOW``) had already placed at 12:00, and a run before
    noon timed them before it: the story changed with the hour of the run. Starting tomorrow,
    every host turn precedes every simulated moment, whatever the hour, as it did in the runs
    this story was written against. (With one clock for both, the agent's repeats of the fix on
    days 2 and 3 come after the day-one search handed the fix out, so the echo rule takes them
    for echoes and the fix needs recalls on more days to graduate: a known open question of the
    curation issue, not what this test is about.)
    """
    tomorrow = dt.datetime.now(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
    return tomorrow + dt.timedelta(days=day - 1, hours=hour, minutes=minute)


@dataclass
class Life:
    host: str
    sandbox: Sandbox
    stub: StubModel
    trap: ProxyTrap
    turns: dict[str, Turn] = field(default_factory=dict)
    searched: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # the person's searches on day one
    after_day1: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # owner prompt -> search results, end of day one
    dreams: list[dict[str, Any]] = field(default_factory=list)


def _script(host: str, sandbox: Sandbox) -> Script:
    """The model's part: text answers, a ``search_memory`` call, and reading build.log with the host's own tool."""
    read_log = Rule("build.log", "Read", {"file_path": str(sandbox.repo / "build.log")}, answer=LAST_ANSWER) if host == "claude-code" else \
        Rule("build.log", "exec_command", {"cmd": "cat build.log"}, answer=LAST_ANSWER)
    lookup = Rule("lookup-memory", "search_memory", {"query": "release build undefined reference errors linker"}, answer=LOOKUP_ANSWER)
    return Script(rules=[read_log, lookup], answers={FAILURES[4]: DAY4_ANSWER, "undefined": WORKAROUND, "rotate": ROTATION_ANSWER})


def _setup_memory(sandbox: Sandbox) -> None:
    """Day 0: the owner's note, promoted into MEMORY.md (the bootstrap), and a standing intent."""
    now = at(0, 18)
    proc = sandbox.clawmem("note", "add", BOOTSTRAP_FACT, "--origin", "owner", now=now)
    assert proc.returncode == 0, proc.stderr
    hit = next(r for r in sandbox.search(BOOTSTRAP_FACT, now) if BOOTSTRAP_FACT in r["text"])
    proc = sandbox.clawmem("promote", hit["citation"], "--yes", now=now)
    assert proc.returncode == 0, proc.stderr
    assert BOOTSTRAP_FACT in (sandbox.ws / "MEMORY.md").read_text(encoding="utf-8")
    proc = sandbox.clawmem("intent", "add", INTENT, "--when", "staging password", "--origin", "owner", now=now)
    assert proc.returncode == 0, proc.stderr
    (sandbox.repo / "build.log").write_text(BUILD_LOG, encoding="utf-8")


def _live(host: Host, life: Life) -> None:
    sandbox = life.sandbox
    life.turns["d1.failure"] = host.run(FAILURES[1], now=at(1, 9))  # session A: one run
    sandbox.wait_ingested(life.turns["d1.failure"].session, FAILURES[1])
    first = host.run(ROTATION_QUESTION, now=at(1, 10))  # session B: three runs
    session = first.session
    life.turns["d1.recall"] = first
    sandbox.wait_ingested(session, ROTATION_QUESTION)
    for prompt in (ROTATION_QUESTION, FAILURES[1]):  # the person looks back: the hits go to the recall log
        life.searched[prompt] = sandbox.search(prompt, at(1, 10, 5))
    life.turns["d1.lookup"] = host.run(LOOKUP, now=at(1, 10, 10), resume=session)
    life.turns["d1.log"] = host.run(LAST_WORDS, now=at(1, 10, 20), resume=session)
    sandbox.wait_ingested(session, LAST_WORDS)
    for prompt in (ROTATION_QUESTION, LOOKUP, LAST_WORDS):
        life.after_day1[prompt] = sandbox.search(prompt, at(1, 12))
    for day in (1, 2, 3):
        if day > 1:
            turn = host.run(FAILURES[day], now=at(day, 9))
            life.turns[f"d{day}.failure"] = turn
            sandbox.wait_ingested(turn.session, FAILURES[day])
        proc = sandbox.clawmem("dream", "--json", now=at(day, 23, 30))
        assert proc.returncode == 0, proc.stderr
        life.dreams.append(json.loads(proc.stdout))
    life.turns["d4.failure"] = host.run(FAILURES[4], now=at(4, 9))
    sandbox.wait_ingested(life.turns["d4.failure"].session, FAILURES[4])


@pytest.fixture(scope="module", params=sorted(HOSTS))
def life(request, tmp_path_factory, trap) -> Iterator[Life]:
    """One host's four days, run once; the tests below read what happened."""
    host_cls = HOSTS[request.param]
    sandbox = Sandbox(tmp_path_factory.mktemp(request.param), trap)
    with StubModel(host_cls.api, _script(request.param, sandbox)) as stub:
        host = host_cls(sandbox, stub)
        host.install()
        _setup_memory(sandbox)
        life = Life(request.param, sandbox, stub, trap)
        try:
            _live(host, life)
            yield life
        finally:  # the request log, for whoever reads a failure: what reached the model, in order
            with (sandbox.root / "requests.jsonl").open("w", encoding="utf-8") as log:
                log.writelines(json.dumps({"method": r.method, "path": r.path, "body": r.body}) + "\n" for r in stub.requests)
            (sandbox.root / "proxy-attempts.txt").write_text("".join(line + "\n" for line in trap.attempts), encoding="utf-8")


def _first_turn_request(turn: Turn):
    assert turn.requests, f"no model request for {turn.prompt!r}"
    return turn.requests[0]


def test_bootstrap_and_per_prompt_recall_reach_the_model(life: Life):
    first = _first_turn_request(life.turns["d1.failure"])
    assert BOOTSTRAP_FACT in first.text  # the session-start hook's bootstrap
    assert INTENT not in first.text and WORKAROUND not in first.text  # nothing triggers them yet
    recall = _first_turn_request(life.turns["d1.recall"])
    assert INTENT in recall.text  # the prompt hook's recall: the owner's standing intent for "staging password"


def test_mcp_tools_are_listed_in_the_first_request_and_a_tool_call_returns(life: Life):
    for key in ("d1.failure", "d1.recall", "d2.failure", "d3.failure", "d4.failure"):
        tools = life.stub.view(_first_turn_request(life.turns[key])).tools
        assert any(name.endswith("search_memory") for name in tools), f"{key}: clawmem's tools missing from the session's first request: {tools}"
    lookup = life.turns["d1.lookup"]
    returned = [result for r in lookup.requests if (result := life.stub.view(r).tool_result) is not None]
    assert returned, f"the scripted search_memory call never returned to the model; the host replied {lookup.reply!r}"
    assert any(FAILURES[1] in r for r in returned), returned  # the owner's own day-one turn, found through the tool
    assert lookup.reply == LOOKUP_ANSWER


def test_the_transcript_is_ingested_with_the_right_origins(life: Life):
    def origins(session: str, query: str, marker: str) -> set[str]:
        hits = life.sandbox.search(query, at(4, 12), limit=50)
        return {r["origin"] for r in hits if r["path"] == f"transcripts/{session}.md" and marker in r["text"]}

    day4 = life.turns["d4.failure"].session  # one run, no resume: nothing but this
    assert origins(day4, FAILURES[4], FAILURES[4]) == {"owner"}  # the typed prompt
    assert origins(day4, DAY4_ANSWER, DAY4_ANSWER) == {"agent"}  # the model's text, after clawmem's own recall context
    day1 = life.turns["d1.recall"].session
    assert origins(day1, "inflateInit2_ undefined reference zwrap.o", "inflateInit2_") == {"untrusted"}  # the tool's result (build.log)
    # what the host injected (the session-start bootstrap, Codex's environment and skills blocks)
    # is never the owner's or the agent's words: system, or not stored at all
    for session in (day1, day4):
        for query, marker in ((BOOTSTRAP_FACT, "second Thursday"), ("environment_context cwd shell current_date", "<environment_context>"),
                              ("skills_instructions available skills", "<skills_instructions>")):
            assert origins(session, query, marker) <= {"system"}, (session, marker, origins(session, query, marker))


def test_no_owner_turn_is_lost_across_resume_and_per_turn_ingestion(life: Life):
    """Session B's first turn was returned by a search (so it is in the recall log), then the
    session was resumed and ingested again: every owner turn is still in the index, as the owner's."""
    session = life.turns["d1.recall"].session
    mine = f"transcripts/{session}.md"
    assert any(r["path"] == mine and ROTATION_QUESTION in r["text"] for r in life.searched[ROTATION_QUESTION]), "the search did not return the turn"
    lost = {}
    for prompt, results in life.after_day1.items():
        found = {r["origin"] for r in results if r["path"] == mine and prompt in r["text"]}
        if found != {"owner"}:
            lost[prompt] = sorted(found)
    assert not lost, f"owner turns lost or re-labelled after resume (prompt -> origins found): {lost}\n{life.sandbox.transcript(session)}"


def test_on_day_four_the_recurring_failure_brings_its_workaround(life: Life):
    promoted = [p["text"] for d in life.dreams for p in d.get("promoted", [])]
    request = _first_turn_request(life.turns["d4.failure"])
    assert WORKAROUND in request.text, f"promoted on the nights between: {promoted}"


def test_no_request_leaves_loopback(life: Life):
    assert life.trap.attempts == []  # nothing tried to use a proxy (every proxy variable points at the trap)
    for key, turn in life.turns.items():
        assert turn.requests, f"{key}: the host answered without asking the stub"
    unknown = [f"{r.method} {r.path}" for r in life.stub.requests if r not in life.stub.model_calls() and "count_tokens" not in r.path]
    assert not unknown, unknown
