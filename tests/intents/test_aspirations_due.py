"""Aspirations come back on their review date: in recall, in ``intent due``, in status, and in dreaming.

The daily notes are written by hand (an aspiration is any daily-note entry with a review
date), with review dates relative to today, and every command is the installed ``clawmem``.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.conftest import RUN_DAY

TODAY = RUN_DAY
pytestmark = pytest.mark.usefixtures("pinned_day")  # today's files stay today's if the run crosses midnight


def day(n: int) -> str:
    return (TODAY - dt.timedelta(days=n)).isoformat()


@pytest.fixture
def aspirations(ws):
    """One due yesterday, one 20 days overdue (escalated), one 100 days overdue (expires), one in the future."""
    note = ws.daily_dir / f"{day(1)}.md"
    note.write_text(
        f"# {day(1)}\n\n"
        f"- Read the codebase before refactoring <!-- review: {day(1)} -->\n"
        f"- Write the migration guide for the plugin API <!-- review: {day(20)} -->\n"
        f"- Learn enough Rust to review the parser <!-- review: {day(100)} -->\n"
        f"- Try the new profiler on the build <!-- review: {(TODAY + dt.timedelta(days=5)).isoformat()} -->\n",
        encoding="utf-8",
    )
    return note


def test_due_aspirations_show_up_in_intent_due_once_per_cooldown(aspirations, clawmem):
    first = clawmem("intent", "due", "--json", input="").json()
    due = [x for x in first if x.get("kind") == "aspiration"]
    assert [(a["text"][:10], a["state"]) for a in due] == [("Learn enou", "escalated"), ("Write the ", "escalated"), ("Read the c", "due")]
    assert all(a["path"] == f"memory/{day(1)}.md" for a in due)
    assert not any("profiler" in a["text"] for a in due)
    assert clawmem("intent", "due", "--json", input="").json() == []  # cron runs every minute: no nagging
    assert clawmem("intent", "due", input="").stdout == ""


def test_due_aspirations_show_up_in_recall_as_a_short_block(aspirations, clawmem):
    assert clawmem("index", input="").returncode == 0  # recall without an index is degraded (and keeps no cooldown)
    # a generous budget: this test is about what recall says, not how fast
    result = clawmem("recall", "good morning", "--budget-ms", "20000", "--json", input="").json()
    assert [a["review"] for a in result["aspirations"]] == [day(100), day(20), day(1)], result["degraded"]  # at most intents.max_per_turn (3)
    assert "## Aspirations due for review" in result["context"] and "Read the codebase" in result["context"]
    again = clawmem("recall", "good morning", "--budget-ms", "20000", "--json", input="").json()
    assert again["aspirations"] == [] and "Aspirations due" not in again["context"]


def test_status_says_how_many_are_past_review(aspirations, clawmem):
    report = clawmem("status", "--json", input="").json()
    assert [(a["overdue_days"], a["state"]) for a in report["aspirations"]] == [(100, "escalated"), (20, "escalated"), (1, "due")]
    assert "3 aspiration(s) past their review date, 2 escalated" in clawmem("status", input="").stdout


def test_dreaming_expires_and_escalates_each_once(aspirations, ws, clawmem):
    report = clawmem("dream", "--json", input="").json()["aspirations"]
    assert [d["text"][:5] for d in report["expired"]] == ["Learn"]
    assert [d["text"][:5] for d in report["escalated"]] == ["Write"]
    lines = aspirations.read_text().splitlines()
    assert lines[4].endswith("<!-- status: superseded -->") and "superseded" not in lines[3]
    diary = ws.dreams_md.read_text()
    assert "Aspirations expired (1)" in diary and "Aspirations escalated (1)" in diary
    recorded = [r for r in map(json.loads, ws.ledger_path.read_text().splitlines()) if r.get("t") == "aspiration"]
    assert sorted(r["state"] for r in recorded) == ["escalated", "expired"]

    second = clawmem("dream", "--json", input="").json()["aspirations"]
    assert second["expired"] == [] and second["escalated"] == [] and second["due"] == 2
    assert ws.dreams_md.read_text().count("Aspirations escalated") == 1
    assert "Learn enough Rust" not in json.dumps(clawmem("status", "--json", input="").json()["aspirations"])


def test_a_dry_run_sweep_changes_no_note(aspirations, clawmem):
    before = aspirations.read_bytes()
    report = clawmem("dream", "--dry-run", "--json", input="").json()["aspirations"]
    assert [d["text"][:5] for d in report["expired"]] == ["Learn"]
    assert aspirations.read_bytes() == before
