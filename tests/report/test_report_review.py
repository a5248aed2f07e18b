"""What the page asks the owner to act on: the gate's real verdict, the commands, duplicates, the budget."""

from __future__ import annotations

import re
import shlex
from html import unescape

from tests.report.conftest import WORKAROUND, _days_ago
from tests.report.htmlcheck import Page


def _gated_ws(ws, clawmem) -> tuple[str, ...]:
    """A workaround seen in three sessions and searched for three ways: it passes the gate."""
    w = ("-w", str(ws.root))
    for i in range(1, 4):
        turns = f"user: the linker broke again\nassistant: {WORKAROUND}\n"
        assert clawmem("ingest", "-", "--session", f"s{i}", "--origin", "owner", "--format", "markdown", "--at", _days_ago(4 - i).isoformat(), *w, input=turns).returncode == 0
    for query in ("linker undefined reference", "make clean build", "build fails"):
        assert clawmem("search", query, *w).returncode == 0
    return w


def test_a_candidate_the_sweep_refused_is_not_shown_as_passing(clawmem, ws):
    w = _gated_ws(ws, clawmem)
    assert clawmem("config", "set", "dream.memory_chars", "20", *w).returncode == 0  # the budget has no room for it
    dreamt = clawmem("dream", *w)
    assert dreamt.returncode == 0 and "budget" in dreamt.stdout, dreamt.stdout
    data = clawmem("report", "--json", *w).json()
    refused = [c for c in data["dreaming"]["candidates"]["items"] if c["last_sweep"]]
    assert refused and all(not c["failed"] and "budget" in c["last_sweep"] for c in refused)
    text = Page(clawmem("report", "-o", "-", *w).stdout).text
    assert "the last sweep rejected it" in text and "passes every threshold" not in text


def test_the_commands_beside_entries_run_as_shown(clawmem, attacked_ws):
    w = ("-w", str(attacked_ws))
    html = clawmem("report", "-o", "-", *w).stdout
    commands = {unescape(c) for c in re.findall(r'<code class="cmd">(.*?)</code>', html)}
    assert {c.split()[1] for c in commands} == {"demote", "forget", "promote"}, commands
    assert any(c.startswith("clawmem demote MEMORY.md#L") for c in commands)
    for command in sorted(c for c in commands if not c.startswith("clawmem forget")):  # every demote and promote shown
        result = clawmem(*shlex.split(command)[1:], "--dry-run", *w)
        assert result.returncode == 0, (command, result.stderr)


def test_near_duplicates_and_the_budget_are_warned(clawmem, ws):
    w = ("-w", str(ws.root))
    ws.memory_md.write_text(
        "- The staging app is called atlas and deploys go to fly.io\n"
        "- Deploys go to fly.io; the staging app is called atlas\n"
        "- Releases are cut on Thursdays\n" + "".join(f"- Filler fact number {i} about the build system\n" for i in range(12)),
        encoding="utf-8",
    )
    assert clawmem("config", "set", "dream.memory_chars", "300", *w).returncode == 0
    data = clawmem("report", "--json", *w).json()
    duplicates = [x for x in data["warnings"] if x.startswith("near-duplicate")]
    assert len(duplicates) == 1 and "MEMORY.md#L1 and MEMORY.md#L2" in duplicates[0]
    assert any("over its budget of 300" in x for x in data["warnings"])
    assert data["overview"]["memory_budget"] == 300 and data["overview"]["memory_chars"] > 300
    text = unescape(Page(clawmem("report", "-o", "-", *w).stdout).text)
    assert "near-duplicate curated lines" in text and "of 300 characters" in text
