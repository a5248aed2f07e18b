"""A MEMORY.md four times what the hosts accept, through the real Claude Code and Codex (issue 24).

Both hosts cut a hook's output past about 10,000 characters (Claude Code keeps a preview and a
file path, Codex cuts out the middle), so what reached the model is read from the stub's
request log, not from clawmem's stdout: the host did not cut the context (each marks a cut:
Claude Code "Output too large", Codex "tokens truncated"), the most important entry is in it,
the least important is not, and it ends with the count of entries left out and the MCP call
that reaches them. The control raises the cap and shows the host's cut.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.hosts_real.conftest import HOSTS, ProxyTrap, Sandbox
from tests.hosts_real.stubs import Script, StubModel

pytestmark = pytest.mark.e2e  # the real Claude Code and Codex run clawmem as hosts do

ENTRIES = 320  # about 40,000 characters of MEMORY.md
PROMPT = "what do we know about the canary checks? (cap-probe)"
# how each host marks a hook's output it cut (seen in the request log with the cap raised)
HOST_CUT = re.compile(r"Output too large \(|Warning: truncated output|tokens truncated")
LEFT_OUT = re.compile(r"\d+ more memory entries not shown, to fit the context; to reach them, call the MCP tool search_memory")


def _entry(i: int) -> str:
    return (f"- Fact quokka{i:03d}: the deploy pipeline for service {i:03d} needs its canary checked before the rollout "
            f"reaches every region. <!-- importance: {1 + i % 9} -->\n")


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_an_oversized_memory_reaches_the_model_whole_and_says_what_it_left_out(name, tmp_path, trap: ProxyTrap):
    sandbox = Sandbox(tmp_path / "sandbox", trap)
    with StubModel(HOSTS[name].api, Script(answers={"cap-probe": "The canaries are checked per region."})) as stub:
        host = HOSTS[name](sandbox, stub)
        host.install()
        memory = sandbox.ws / "MEMORY.md"
        memory.write_text("# Memory\n\n" + "".join(_entry(i) for i in range(ENTRIES)), encoding="utf-8")
        assert len(memory.read_text(encoding="utf-8")) > 4 * 10_000
        turn = host.run(PROMPT, now=dt.datetime.now(dt.UTC))
    request = turn.requests[0].text
    assert "quokka008" in request  # importance 9, the first of the most valuable
    assert "quokka000" not in request  # importance 1: left out, not cut in the middle
    assert LEFT_OUT.search(request), "the context says how many entries stayed out and how to reach them"
    assert not HOST_CUT.search(request), "the host cut clawmem's context"


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_control_without_the_cap_the_host_cuts_the_context(name, tmp_path, trap: ProxyTrap):
    """Cap raised past what the host accepts: the host itself cuts the context, so the recall
    block never arrives whole (this is what the test above would see without the cap)."""
    sandbox = Sandbox(tmp_path / "sandbox", trap)
    with StubModel(HOSTS[name].api, Script(answers={"cap-probe": "The canaries are checked per region."})) as stub:
        host = HOSTS[name](sandbox, stub)
        host.install()
        key = f"hooks.{name.replace('-', '_')}_context_chars"
        proc = sandbox.clawmem("config", "set", key, "60000", now=dt.datetime.now(dt.UTC))
        assert proc.returncode == 0, proc.stderr
        (sandbox.ws / "MEMORY.md").write_text("# Memory\n\n" + "".join(_entry(i) for i in range(ENTRIES)), encoding="utf-8")
        turn = host.run(PROMPT, now=dt.datetime.now(dt.UTC))
    request = turn.requests[0].text
    assert HOST_CUT.search(request), "the host passed a context past its own limit whole"
