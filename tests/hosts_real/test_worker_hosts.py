"""The resident worker behind the real Claude Code and Codex hooks: it answers them, over the wire.

The rest of tests/hosts_real runs with ``CLAWMEM_WORKER=off`` (tests/conftest.py) and pins a new
``CLAWMEM_NOW`` on every turn. The worker keeps the environment it started with and refuses a
client whose environment differs (``worker.ENV_PREFIXES``), so that story never reaches it. Here
the clock is pinned once for the whole session, as a real session's environment is one, and the
worker is switched on: every context hook the host runs (session start and each prompt) must be
served by the worker (its ``served`` count), and what it printed must reach the model.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.hosts_real.conftest import HOSTS, Host, ProxyTrap, Sandbox, Turn
from tests.hosts_real.stubs import Script, StubModel

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

FACT = "Deploys go out from the release branch after the Thursday freeze."
INTENT = "Remind them the staging password lives in vault at secret/staging/db."
PROMPTS = ("where is the staging password kept?", "and who rotates the staging password?")  # a run, then a resumed run
NOW = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)  # one clock for the session: one environment for every hook
WORKER_START_S = 120  # a bounded wait: the worker imports clawmem and opens the index


@dataclass
class Session:
    sandbox: Sandbox
    turns: list[Turn]
    served_before: int
    served_after: int


def _ok(proc) -> str:
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _served(sandbox: Sandbox) -> int:
    status = json.loads(_ok(sandbox.clawmem("worker", "status", "--json", now=NOW)))
    assert status["answers"], status
    return status["served"]


@pytest.fixture(scope="module", params=sorted(HOSTS))
def session(request, tmp_path_factory, trap: ProxyTrap) -> Iterator[Session]:
    """One host's session of two runs (the second resumes the first) with the worker running."""
    sandbox = Sandbox(tmp_path_factory.mktemp(f"worker-{request.param}"), trap)
    sandbox.env.pop("CLAWMEM_WORKER", None)  # the suite's switch: this test is about the worker
    with StubModel(HOSTS[request.param].api, Script(answers={"staging": "It is in vault."})) as stub:
        host: Host = HOSTS[request.param](sandbox, stub)
        host.install()
        _ok(sandbox.clawmem("note", "add", FACT, "--origin", "owner", now=NOW))
        hit = next(r for r in sandbox.search(FACT, NOW) if FACT in r["text"])
        _ok(sandbox.clawmem("promote", hit["citation"], "--yes", now=NOW))
        _ok(sandbox.clawmem("intent", "add", INTENT, "--when", "staging password", "--origin", "owner", now=NOW))
        _ok(sandbox.clawmem("worker", "start", now=NOW, timeout=WORKER_START_S))
        try:
            before = _served(sandbox)
            first = host.run(PROMPTS[0], now=NOW)
            second = host.run(PROMPTS[1], now=NOW, resume=first.session)
            yield Session(sandbox, [first, second], before, _served(sandbox))
        finally:
            sandbox.clawmem("worker", "stop", now=NOW)


def test_every_context_hook_of_the_session_is_served_by_the_worker(session: Session):
    runs = len(session.turns)
    hooks = runs * 2  # each run: its session start (startup, then resume) and its prompt
    assert session.served_after - session.served_before == hooks, (
        f"the worker served {session.served_after - session.served_before} of the {hooks} context hooks "
        "(a hook it refused ran in its own process)"
    )


def test_what_the_worker_printed_reaches_the_model(session: Session):
    for turn in session.turns:
        assert turn.requests, f"no model request for {turn.prompt!r}"
        first = turn.requests[0].text
        assert FACT in first, "the session-start bootstrap is missing from the model request"
        assert INTENT in first, "the prompt hook's recall is missing from the model request"
