"""One clock: ``CLAWMEM_NOW`` moves every timestamp clawmem writes, so a week of use can be simulated.

A simulated week runs through the installed CLI (notes, searches on different days, a dream);
the recall events, the ledger and the dream gate's recency and multi-day signals must follow
the simulated days, not the machine's clock. A source scan keeps new code on the one clock.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path

import pytest

FACT = "The arm64 build needs make clean before make release"
SEARCHES = {  # simulated day -> query (distinct queries, distinct days: what the gate counts)
    "2026-03-03": "arm64 build fails",
    "2026-03-04": "make release arm64",
    "2026-03-06": "how to fix the arm64 build",
    "2026-03-07": "clean before release on arm64",
}
DREAM_AT = "2026-03-09T03:00:00"


def at(day: str, time: str = "15:00:00") -> dict[str, str]:
    return {"CLAWMEM_NOW": f"{day}T{time}"}


@pytest.fixture
def week(clawmem, tmp_path):
    """Owner notes on day 1, four searches on four later days, a dream two days after the last."""
    assert clawmem("init", env=at("2026-03-02", "08:00:00")).returncode == 0
    added = clawmem("note", "add", FACT, "--origin", "owner", "--importance", "7", env=at("2026-03-02", "09:00:00"))
    assert added.returncode == 0, added.stderr
    for day, query in SEARCHES.items():
        found = clawmem("search", query, "--json", env=at(day))
        assert found.returncode == 0 and found.json()["results"][0]["text"] == FACT, found.stderr
    dream = clawmem("dream", "--explain", "--json", env={"CLAWMEM_NOW": DREAM_AT})
    assert dream.returncode == 0, dream.stderr
    return tmp_path / "ws", dream.json()


def test_recall_events_are_dated_by_the_simulated_clock(week):
    root, _ = week
    with sqlite3.connect(root / ".clawmem" / "index.db") as conn:
        events = conn.execute("SELECT day, at FROM recall_events WHERE source = 'search' ORDER BY id").fetchall()
    assert [day for day, _ in events] == list(SEARCHES)
    assert [stamp[:10] for _, stamp in events] == list(SEARCHES)


def test_the_note_lands_in_the_simulated_days_file_and_ledger(week):
    root, _ = week
    assert (root / "memory" / "2026-03-02.md").read_text().count(FACT) == 1
    records = [json.loads(line) for line in (root / ".clawmem" / "provenance.jsonl").read_text().splitlines() if line.strip()]
    entry = next(r for r in records if r.get("t") == "entry")
    assert entry["at"].startswith("2026-03-02T09:00:00")
    assert all(r["at"][:7] == "2026-03" for r in records if "at" in r)


def test_the_dream_gate_reads_recency_and_days_off_the_simulated_clock(week, clawmem):
    root, report = week
    signals = next(c["signals"] for c in report["explain"] if c["text"] == FACT)
    assert signals["recalls"] == len(SEARCHES) and signals["queries"] == len(SEARCHES)
    assert signals["days"] == len(SEARCHES) + 1  # the note's day and the four search days
    last_search = dt.datetime.fromisoformat(f"{list(SEARCHES)[-1]}T15:00:00")
    expected_age = (dt.datetime.fromisoformat(DREAM_AT) - last_search).total_seconds() / 86400
    assert signals["age_days"] == pytest.approx(expected_age, abs=0.01)
    assert signals["recency"] == pytest.approx(0.5 ** (expected_age / 14), abs=0.001)  # dream.recency_half_life_days
    assert [p["text"] for p in report["promoted"]] == [FACT]
    assert "## 2026-03-09 03:00" in (root / "DREAMS.md").read_text()


# Every reader of the real clock in the package, outside timeparse (the one clock).
REAL_CLOCK = re.compile(r"\b(?:datetime|dt)\.(?:datetime\.)?(?:now|today|utcnow)\(|\bdate\.today\(|\btime\.time\(|datetime\('now'\)")
ALLOWED = {
    ("clawmem/foundation/timeparse.py", "return dt.datetime.now().astimezone()"),  # the one clock itself
    ("clawmem/index/migrations.py", "datetime('now')"),  # when a schema migration ran: bookkeeping of the index, not memory
}


def test_nothing_else_reads_the_real_clock():
    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted((root / "clawmem").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if REAL_CLOCK.search(line) and not any(rel == f and snippet in line for f, snippet in ALLOWED):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "read the time through clawmem.foundation.timeparse.now/local_now instead:\n" + "\n".join(found)
