"""Nothing lost silently: when trusted memory cannot reach MEMORY.md, status and dream say why, with the fix.

Real notes, transcripts and recall events in a real workspace; ``status`` and ``dream`` are
the installed ``clawmem``.
"""

from __future__ import annotations

import datetime as dt

import pytest

from clawmem.dream.budget import size as budget_size
from tests.conftest import RUN_DAY

TODAY = RUN_DAY.isoformat()
pytestmark = pytest.mark.usefixtures("pinned_day")  # today's files stay today's if the run crosses midnight
FACT = "If the build fails with undefined reference errors, run make clean before make."


def notices(result) -> dict[str, dict]:
    return {n["kind"]: n for n in result.json()["notices"]}


def test_owner_lines_in_a_tainted_file_are_reported_with_the_fix(ws, clawmem):
    for text in ("Deploys go to fly.io; staging is atlas", "The release train leaves every second Tuesday"):
        assert clawmem("note", "add", text, "--origin", "owner", input="").returncode == 0
    assert clawmem("status", "--json", input="").json()["notices"] == []
    # an untrusted flush into the same daily note taints the whole file
    assert clawmem("note", "flush", "-", "--origin", "untrusted", input="a web page said something\n").returncode == 0
    assert clawmem("index", input="").returncode == 0  # status reads the index as it is; `index` (or any search) syncs it

    status = clawmem("status", "--json", input="")
    tainted = notices(status)["tainted"]
    assert tainted["count"] == 2 and f"memory/{TODAY}.md" in tainted["message"] and "untrusted" in tainted["message"]
    assert "clawmem promote" in tainted["message"] and "clawmem audit" in tainted["message"]
    assert f"notice: 2 owner/agent line(s) in memory/{TODAY}.md are ineligible" in clawmem("status", input="").stdout
    dream = clawmem("dream", "--json", input="")
    assert notices(dream)["tainted"]["count"] == 2
    assert "are ineligible: the file is tainted by untrusted content" in clawmem("dream", input="").stderr  # notices go to stderr


def _gated_candidate(ws):
    """The spec's 'many short sessions': one workaround in three transcripts, recalled often enough to pass the gate."""
    from clawmem.commands.ingest import ingest
    from clawmem.index.maintain import open_synced
    from clawmem.index.recalls import Returned, record_returned

    for i in range(1, 4):
        at = (dt.datetime.combine(RUN_DAY, dt.time(12)) - dt.timedelta(days=4 - i)).replace(hour=10, minute=0, second=0, microsecond=0)
        ingest(ws, f"user: the linker broke again, case {i}\nassistant: {FACT}\n", session=f"s{i}", origin="owner", at=at)
    index, _ = open_synced(ws)
    with index:
        for i in range(1, 4):
            row = index.query("SELECT text_hash, path, origin FROM entries WHERE path = ? AND text LIKE '%make clean%'", (f"transcripts/s{i}.md",))[0]
            for n in range(3):
                record_returned(index, [Returned(row["text_hash"], row["path"], 0.9, row["origin"])], query=f"linker error {i} {n}", source="search", ws=ws)


def test_a_full_memory_budget_is_reported_by_dream_and_status(ws, clawmem):
    _gated_candidate(ws)
    (ws.root / "clawmem.toml").write_text(f"[dream]\nmemory_chars = {budget_size(ws.memory_md.read_text()) + 10}\n")
    dream = clawmem("dream", "--json", input="")
    budget = notices(dream)["budget"]
    assert budget["count"] == 1 and "raise dream.memory_chars or prune MEMORY.md" in budget["message"]
    assert FACT not in ws.memory_md.read_text()
    assert notices(clawmem("status", "--json", input=""))["budget"]["count"] == 1
    assert "candidate(s) could not be added" in clawmem("status", input="").stdout


def test_candidates_waiting_on_a_threshold_are_counted(ws, clawmem):
    assert clawmem("note", "add", "The staging database is restored every Sunday night", "--origin", "owner", input="").returncode == 0
    dream = clawmem("dream", "--json", input="")
    waiting = notices(dream)["threshold"]
    assert waiting["count"] == dream.json()["candidates"] >= 1 and "clawmem dream --explain" in waiting["message"]
    assert notices(clawmem("status", "--json", input=""))["threshold"]["count"] == waiting["count"]


def test_a_healthy_sweep_says_nothing_extra(ws, clawmem):
    _gated_candidate(ws)
    dream = clawmem("dream", "--json", input="")
    assert FACT in ws.memory_md.read_text()
    assert "budget" not in notices(dream) and "tainted" not in notices(dream)
