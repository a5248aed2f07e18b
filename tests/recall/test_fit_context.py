"""Context that fits the host (issue 24), through ``clawmem hook`` on real workspaces.

Claude Code and Codex cut hook output past about 10,000 characters. We play the host: feed
the hook the JSON a host writes, read stdout as the host would, and check that the whole
output stays within the cap, that what is shown was chosen by value and never cut, that the
last line counts what stayed out, and that the hints in it work from anywhere: the CLI line
run from another directory without ``CLAWMEM_WORKSPACE``, the MCP call through the real
server. ``status`` and ``audit`` warn about the same oversized files.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from clawmem.commands import workspace_init
from clawmem.dream.budget import size as budget_size
from clawmem.foundation.config import Config
from clawmem.rules.hints import SEARCH_TOOL
from clawmem.storage.workspace import Workspace
from clawmem.trust import workspaces as trusted_workspaces
from tests import forkserver
from tests.conftest import CLAWMEM, built_once, isolate, require_module

HOSTS = ["claude-code", "codex"]
EVENTS = {"session-start": "SessionStart", "prompt": "UserPromptSubmit"}
CAPS = {"claude-code": Config().hooks.claude_code_context_chars, "codex": Config().hooks.codex_context_chars}
ENTRIES = 340  # in MEMORY.md: about 41,000 characters (importance and date repeat together only every 420)
HOST_LIMIT = 10_000  # where both hosts cut hook output (measured with the real clients)
DIRECTIVES = ["Always answer in British English.", "Never push to main without a review.", "Prefer tabs over spaces in Go files."]
LEFT_OUT = re.compile(r"\(… (\d+) more memory entries not shown, to fit the context; to reach them, call the MCP tool (\w+) with (\{.*?\}); without MCP, run: (.*)\)$")


def body(i: int) -> str:
    """Entry ``i``: all the same length, each with its own word (``quokka042``) to search for."""
    return f"Fact quokka{i:03d}: the deploy pipeline for service {i:03d} needs its canary checked before the rollout reaches every region."


def importance(i: int) -> int:
    return i % 10 + 1


def observed(i: int) -> str:
    return f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}"


def _payload(event: str, **fields) -> str:
    return json.dumps({"session_id": "5f1c2d3e-0000-4000-8000-00000000abcd", "transcript_path": None, "cwd": "/", "hook_event_name": EVENTS[event], **fields})


def _hook(clawmem, event: str, host: str, **fields) -> tuple[str, str]:
    """The hook's whole stdout and its additionalContext."""
    result = clawmem("hook", event, "--host", host, input=_payload(event, **fields))
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return "", ""
    return result.stdout, json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def _section(context: str, heading: str) -> list[str]:
    """The list lines under ``## heading`` (up to the next blank line)."""
    block = context.split(f"## {heading}\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in block.splitlines() if line.startswith("- ")]


def _build_big(folder: Path) -> None:
    """A workspace at ``folder/ws``: MEMORY.md of over 40,000 characters (ENTRIES entries of mixed
    importance and date), USER.md with three directives, indexed by the real CLI."""
    with pytest.MonkeyPatch.context() as env:
        isolate(env, folder)
        ws = workspace_init.create(folder / "ws")
        lines = [f"- {body(i)} <!-- importance: {importance(i)} --> <!-- observed: {observed(i)} -->" for i in range(ENTRIES)]
        ws.memory_md.write_text(ws.memory_md.read_text() + "\n".join(lines) + "\n", encoding="utf-8")
        ws.user_md.write_text(ws.user_md.read_text() + "".join(f"- {d}\n" for d in DIRECTIVES), encoding="utf-8")
        assert budget_size(ws.memory_md.read_text()) > 40_000
        indexed = forkserver.run([CLAWMEM, "index"], input=None, timeout=600, env=dict(os.environ), cwd=folder, spawn=False)
        assert indexed.returncode == 0, indexed.stderr


@pytest.fixture(scope="module")
def big_built(tmp_path_factory) -> Path:
    """The indexed big workspace, built once per run (embedding ENTRIES entries is most of this file's time)."""
    return built_once(tmp_path_factory, "fit-context-big", _build_big) / "ws"


@pytest.fixture
def big(big_built, tmp_path) -> Workspace:
    """This test's own copy of the big workspace, where ``ws`` would be, trusted as ``ws`` is."""
    root = tmp_path / "ws"
    shutil.copytree(big_built, root)
    trusted_workspaces.trust(root)
    return Workspace.open(root)


@pytest.mark.parametrize("host", HOSTS)
def test_session_start_fills_the_cap_by_value_and_counts_what_stayed_out(big, clawmem, host):
    stdout, context = _hook(clawmem, "session-start", host, source="startup")
    assert len(stdout) <= CAPS[host] < HOST_LIMIT  # the whole hook output, JSON and framing included
    assert _section(context, "USER.md") == [f"- {d}" for d in DIRECTIVES]
    assert context.index("## USER.md") < context.index("## MEMORY.md")
    shown = _section(context, "MEMORY.md")
    assert shown and all(line in {f"- {body(i)}" for i in range(ENTRIES)} for line in shown)  # whole entries only
    # by importance, then newest: the entries are the same length, so what fits is a prefix of that order
    ranked = sorted(range(ENTRIES), key=lambda i: (-importance(i), [-int(p) for p in observed(i).split("-")], i))
    assert shown == [f"- {body(i)}" for i in ranked[: len(shown)]]
    assert f"- {body(ranked[-1])}" not in context  # the least important and oldest stays out
    last = context.splitlines()[-2]  # the line before the closing recall marker
    found = LEFT_OUT.match(last)
    assert found, last
    assert int(found[1]) == ENTRIES - len(shown) and found[2] == SEARCH_TOOL


def test_hints_work_from_another_directory_and_through_the_mcp_server(big, clawmem, tmp_path):
    _, context = _hook(clawmem, "session-start", "claude-code", source="startup")
    found = LEFT_OUT.match(context.splitlines()[-2])
    assert found
    missing = next(i for i in range(ENTRIES) if f"quokka{i:03d}" not in context)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CLAWMEM_WORKSPACE"}  # only -w can find the workspace
    argv = shlex.split(found[4])
    assert os.path.isabs(argv[0]) and os.path.isabs(argv[argv.index("-w") + 1])
    query = json.loads(found[3])["query"]
    assert argv[-1] == query
    run = subprocess.run([*argv[:-1], f"quokka{missing:03d}"], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert f"quokka{missing:03d}" in run.stdout

    # the escalation hint, run exactly as printed
    _, hint = _hook(clawmem, "prompt", "codex", prompt="what did we decide last month about the canary?")
    command = hint.split("without MCP, run: ", 1)[1].splitlines()[0]
    exact = subprocess.run(shlex.split(command), cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert exact.returncode == 0, exact.stderr
    assert json.loads(exact.stdout)["results"]
    call = json.loads(re.search(rf"call the MCP tool {SEARCH_TOOL} with (\{{.*?\}});", hint)[1])
    assert call == {"query": "what did we decide last month about the canary?", "tier": "all", "include_untrusted": True}

    # the MCP call the left-out line names, through the real server
    require_module("mcp", "the MCP extra is not installed: pip install 'clawmem-cli[mcp]'")
    from mcp import Client

    from clawmem.mcp.server import build_server

    async def search() -> dict:
        async with Client(build_server(big.root)) as client:
            return (await client.call_tool(SEARCH_TOOL, {**json.loads(found[3]), "query": f"quokka{missing:03d}"})).structured_content

    assert any(f"quokka{missing:03d}" in r["text"] for r in asyncio.run(search())["results"])


def test_the_prompt_hook_obeys_the_same_cap(ws, clawmem):
    """Three long trigger hits and a cap of 1,500: whole hits only, the rest counted."""
    lines = [f"- {body(i)} {'and more words ' * 30}<!-- trigger: canary rollout --> <!-- importance: {9 - i} -->" for i in range(3)]
    ws.memory_md.write_text(ws.memory_md.read_text() + "\n".join(lines) + "\n", encoding="utf-8")
    (ws.root / "clawmem.toml").write_text("[hooks]\nclaude_code_context_chars = 1500\n")
    assert clawmem("index").returncode == 0
    stdout, context = _hook(clawmem, "prompt", "claude-code", prompt="the canary rollout is stuck again")
    assert 0 < len(stdout) <= 1500
    hits = _section(context, "Relevant memory")
    assert 1 <= len(hits) < 3 and all(line.endswith("]") for line in hits)  # whole hits, each with its citation
    assert int(LEFT_OUT.match(context.splitlines()[-2])[1]) == 3 - len(hits)
    uncapped = clawmem("recall", "the canary rollout is stuck again", "--no-bootstrap", "--json").json()
    assert len(uncapped["triggers"]) == 3 and uncapped["left_out"] == 0  # outside a hook nothing is cut


@pytest.mark.parametrize("host", HOSTS)
def test_a_pasted_log_as_prompt_keeps_the_escalation_within_the_cap(ws, clawmem, host):
    prompt = "what did we decide last week about this failure? " + "ERROR worker crashed at frame 0x7f3a " * 800
    stdout, context = _hook(clawmem, "prompt", host, prompt=prompt)
    assert len(stdout) <= CAPS[host] and f"call the MCP tool {SEARCH_TOOL}" in context


def test_default_budgets_fit_the_hosts(ws, clawmem):
    """MEMORY.md full to dream.memory_chars and USER.md to recall.user_chars: everything reaches the model."""
    defaults = Config()
    memory = ws.memory_md.read_text()
    i = 0
    while budget_size(memory + f"- {body(i)} <!-- importance: 5 -->\n") <= defaults.dream.memory_chars:
        memory += f"- {body(i)} <!-- importance: 5 -->\n"
        i += 1
    ws.memory_md.write_text(memory, encoding="utf-8")
    directives, used, j = [], 0, 0
    while used + len(line := f"- Always follow house rule {j:02d} exactly as written in the team handbook.") + 1 <= defaults.recall.user_chars:
        directives.append(line)
        used += len(line) + 1
        j += 1
    ws.user_md.write_text(ws.user_md.read_text() + "\n".join(directives) + "\n", encoding="utf-8")
    assert clawmem("index").returncode == 0
    for host in HOSTS:
        stdout, context = _hook(clawmem, "session-start", host, source="startup")
        assert len(stdout) <= CAPS[host]
        assert len(_section(context, "MEMORY.md")) == i and len(_section(context, "USER.md")) == j
        assert "not shown" not in context
    status = clawmem("status", "--json").json()
    assert not [w for w in status["warnings"] if w.startswith("host-context")]


def test_status_and_audit_warn_when_the_curated_files_outgrow_the_hosts(big, clawmem):
    status = clawmem("status", "--json").json()
    warning = [w for w in status["warnings"] if w.startswith("host-context:")]
    assert len(warning) == 1
    assert "claude-code and codex" in warning[0] and "MEMORY.md 4" in warning[0] and "dream.memory_chars" in warning[0]
    _, context = _hook(clawmem, "session-start", "codex", source="startup")
    left = int(LEFT_OUT.match(context.splitlines()[-2])[1])
    assert f"{left} of {ENTRIES + len(DIRECTIVES)} entries stay out" in warning[0]  # the same count the hook's last line gives
    assert "warning: host-context:" in clawmem("status").stdout
    audit = clawmem("audit", "--json").json()
    found = [w for w in audit["warnings"] if w["check"] == "host-context"]
    assert len(found) == 1 and found[0]["path"] == "MEMORY.md" and found[0]["message"] == warning[0].split(": ", 1)[1]
    sarif = json.loads(clawmem("audit", "--ci", "--format", "sarif").stdout)
    assert any(r["ruleId"] == "host-context" and r["level"] == "warning" for r in sarif["runs"][0]["results"])


def test_status_and_audit_are_quiet_on_a_small_workspace(ws, clawmem):
    ws.memory_md.write_text(ws.memory_md.read_text() + f"- {body(1)}\n", encoding="utf-8")
    assert clawmem("index").returncode == 0
    assert not [w for w in clawmem("status", "--json").json()["warnings"] if "host-context" in w]
    assert not [w for w in clawmem("audit", "--json").json()["warnings"] if w["check"] == "host-context"]


@pytest.mark.parametrize("context", ["plain", 'a "quoted" line\nand a tab\t', "é 日本 \u2028 \x01 \ud800", "a \\ back/slash"])
def test_the_count_is_the_line_the_prompt_hook_prints(context):
    """``fit.hook_chars`` counts what ``hosts.hook.context_output`` prints, escapes included."""
    from clawmem.hosts import claude_code
    from clawmem.hosts.hook import context_output
    from clawmem.recall.fit import hook_chars

    assert hook_chars(context) == len(context_output(claude_code, "prompt", context))
