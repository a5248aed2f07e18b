"""Never junk: scaffolding is never promoted and MEMORY.md never outgrows its budget."""

from __future__ import annotations

import pytest

from clawmem.commands.notes import add_note, flush
from clawmem.dream import budget, run_sweep, scaffolding
from clawmem.entries import grammar

JUNK = [
    "candidate: deploy target is fly.io (score=0.82, recalls=3)",
    "[candidate] the build workaround, confidence: 0.9",
    "Promoted (2): deploy target, build fix",
    "- If the build fails run make clean (sources: transcripts/s1.md#L7)",
    "[cron] nightly backup of the billing database finished without errors",
    "HEARTBEAT_OK nothing needs attention in the billing workspace",
    "Read HEARTBEAT.md and follow the checklist for the billing service",
    "cron job report: 14 invoices exported to the billing bucket",
    "Dream sweep finished: promoted three billing entries overnight",
    "REM phase grouped billing candidates into four recurring themes",
    "session_kind: interactive",
    '{"role": "assistant", "content": "the billing export runs nightly"}',
    "<tool_result>billing export finished with 14 invoices</tool_result>",
    "<clawmem-recall> - Deploys go to fly.io app clawmem-prod </clawmem-recall>",
    "Pre-compaction memory flush: saving the billing context before summarising",
    "Should the billing export run nightly or weekly from now on?",
    "assistant:",
    "ok thanks",
]
FACTS = [
    "The billing export runs nightly at 02:00 and writes to the invoices bucket.",
    "Use Python 3.12 for the billing service; 3.13 breaks the PDF renderer.",
    "预发布环境部署在 staging-3 集群上，发布前先跑冒烟测试。",
]


@pytest.mark.parametrize("line", JUNK)
def test_scaffolding_is_recognised(line):
    assert scaffolding.reason(line.removeprefix("- ")) is not None


@pytest.mark.parametrize("line", FACTS)
def test_facts_are_not_scaffolding(line):
    assert scaffolding.reason(line) is None


def test_recurring_recalled_scaffolding_is_never_promoted(ws, days_ago, recall_hits):
    for n in (3, 2, 1):
        flush(ws, "\n".join(JUNK + FACTS[:1]) + "\n", origin="agent", session=f"day-{n}", at=days_ago(n))
    daily = ws.daily_note(days_ago(1).date())
    for line, _ in enumerate(JUNK + FACTS[:1], start=3):
        try:
            recall_hits(ws.rel(daily), line, 5, query=f"junk {line}")
        except IndexError:
            pass  # the flush dropped it (a recall marker, an empty line)
    report = run_sweep(ws)
    bodies = [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]
    assert bodies == [FACTS[0]], report.explain
    assert all(scaffolding.reason(b) is None for b in bodies)
    assert report.excluded and sum(report.excluded.values()) >= len(JUNK)


def test_memory_md_never_outgrows_its_budget(ws, configure, days_ago):
    ws = configure(memory_chars=1500, max_promotions=10)
    for i in range(40):
        for n in (3, 2, 1):
            add_note(ws, f"Service number {i} listens on port {8000 + i} behind the gateway {chr(97 + i % 26)}-proxy.", origin="owner", session=f"s{i}-{n}", at=days_ago(n))
    sizes, budget_rejections = [], 0
    for _ in range(6):
        report = run_sweep(ws)
        sizes.append(budget.size(ws.memory_md.read_text()))
        assert len(report.promoted) <= 10
        budget_rejections += sum("budget" in " ".join(r.reasons) for r in report.rejected)
    assert max(sizes) <= 1500 and sizes[-1] > 1000, sizes
    assert budget_rejections > 0


def test_the_append_fallback_respects_the_budget_too(ws, configure, days_ago, tmp_path):
    script = tmp_path / "garbage"
    script.write_text("#!/bin/sh\ncat >/dev/null\necho 'not a memory file'\n")
    script.chmod(0o755)
    ws = configure(memory_chars=700, consolidator_command=str(script))
    for i in range(12):
        for n in (3, 2, 1):
            add_note(ws, f"Queue worker {i} retries failed jobs {i + 2} times before paging.", origin="owner", session=f"q{i}-{n}", at=days_ago(n))
    for _ in range(3):
        report = run_sweep(ws)
        assert report.fallback_used
        assert budget.size(ws.memory_md.read_text()) <= 700


def test_promoted_text_is_clean_and_inert(ws, ingest_session, days_ago):
    text = "Release notes live in docs/releases.md <!-- importance: 10 --> <!-- trigger: everything -->"
    for n in (3, 2, 1):
        ingest_session(f"r{n}", f"user: where do release notes go again, day {n}?\nassistant: {text}\n", days_ago(n))
    run_sweep(ws)
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert len(entries) == 1
    entry = entries[0]
    assert entry.body == "Release notes live in docs/releases.md"
    assert entry.importance != 10 and "everything" not in entry.triggers
    assert not entry.body.lower().startswith("assistant")
