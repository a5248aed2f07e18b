"""``clawmem forget --undo``: a forget made by mistake comes back, byte for byte, and only for the owner."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.conftest import RUN_DAY

TODAY = RUN_DAY.isoformat()
pytestmark = pytest.mark.usefixtures("pinned_day")  # today's files stay today's if the run crosses midnight
DAILY = f"memory/{TODAY}.md"
FACT = "The staging database is restored from backups every Sunday night"


@pytest.fixture
def noted(ws, clawmem):
    for text in (FACT, "Our on-call rotation is kept in the team wiki"):
        assert clawmem("note", "add", text, "--origin", "owner", "--importance", "6", input="").returncode == 0
    return ws


def test_undo_restores_the_lines_and_lifts_the_tombstones(noted, clawmem):
    daily = noted.root / DAILY
    before = daily.read_bytes()
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--json", input="").json()
    assert forgot["id"] and forgot["undo_until"] and FACT not in daily.read_text()
    assert "Not stored" in clawmem("note", "add", FACT, "--origin", "owner", input="").stdout  # tombstoned

    listed = clawmem("forget", "--list", "--json", input="").json()
    assert [(f["id"], f["undoable"]) for f in listed] == [(forgot["id"], True)]

    undone = clawmem("forget", "--undo", forgot["id"], "--yes", "--json", input="")
    assert undone.returncode == 0, undone.stderr
    report = undone.json()
    assert [(r["path"], r["line_start"]) for r in report["restored"]] == [(DAILY, 3)] and report["hashes_lifted"] >= 1
    assert daily.read_bytes() == before  # every byte back where it was
    assert "Noted" in clawmem("note", "add", FACT, "--origin", "owner", input="").stdout  # the tombstone is lifted
    hits = clawmem("search", "staging database backups", "--json", input="").json()["results"]
    assert any(h["path"] == DAILY and h["line_start"] == 3 for h in hits)
    assert f"Undid forget {forgot['id']}" in noted.dreams_md.read_text()
    lifts = [r for r in map(json.loads, noted.ledger_path.read_text().splitlines()) if r.get("t") == "lift"]
    assert lifts and lifts[-1]["forget"] == forgot["id"]
    assert clawmem("forget", "--list", "--json", input="").json()[0]["undone"] is True


def test_undo_brings_back_curated_entries_and_a_deleted_transcript(ws, clawmem, tmp_path):
    transcript = tmp_path / "t.md"
    transcript.write_text("user: where is the release checklist?\nassistant: the release checklist lives in docs/release.md\n")
    assert clawmem("ingest", str(transcript), "--session", "s-9", "--origin", "owner", input="").returncode == 0
    with open(ws.memory_md, "a", encoding="utf-8") as handle:
        handle.write("- The release checklist lives in docs/release.md <!-- source: transcripts/s-9.md#L2 -->\n")
    memory, kept = ws.memory_md.read_bytes(), (ws.root / "transcripts" / "s-9.md").read_bytes()
    forgot = clawmem("forget", "--yes", "--session", "s-9", "--json", input="").json()
    assert not (ws.root / "transcripts" / "s-9.md").exists() and b"release checklist" not in ws.memory_md.read_bytes()
    assert clawmem("ingest", str(transcript), "--session", "s-9", "--origin", "owner", input="").returncode == 1  # tombstoned

    report = clawmem("forget", "--undo", forgot["id"], "--yes", "--json", input="").json()
    assert report["recreated_files"] == ["transcripts/s-9.md"] and report["session_lifted"] == "s-9"
    assert (ws.root / "transcripts" / "s-9.md").read_bytes() == kept
    assert ws.memory_md.read_bytes() == memory
    assert clawmem("ingest", str(transcript), "--session", "s-9", "--origin", "owner", input="").returncode == 0


def test_an_agent_cannot_undo_and_a_dry_run_changes_nothing(noted, clawmem):
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--json", input="").json()
    after = (noted.root / DAILY).read_bytes(), noted.ledger_path.read_bytes()
    refused = clawmem("forget", "--undo", forgot["id"], "--json", input="")
    assert refused.returncode == 1 and refused.json()["error"] == "forbidden"
    dry = clawmem("forget", "--undo", forgot["id"], "--dry-run", "--json", input="").json()
    assert dry["dry_run"] and [r["line_start"] for r in dry["restored"]] == [3]
    assert ((noted.root / DAILY).read_bytes(), noted.ledger_path.read_bytes()) == after


def test_a_line_written_over_since_is_reported_not_overwritten(noted, clawmem):
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--json", input="").json()
    daily = noted.root / DAILY
    lines = daily.read_text().splitlines(keepends=True)
    lines[2] = "- Someone typed a new line here by hand\n"
    daily.write_text("".join(lines))
    report = clawmem("forget", "--undo", forgot["id"], "--yes", "--json", input="").json()
    assert report["restored"] == [] and "changed since the forget" in report["conflicts"][0]
    assert "typed a new line here" in daily.read_text() and FACT not in daily.read_text()


def test_no_undo_keeps_no_copy_and_cannot_be_undone(noted, clawmem):
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--no-undo", "--json", input="").json()
    assert forgot["undo_until"] is None
    state = noted.state_dir
    assert not any(FACT.encode() in p.read_bytes() for p in state.rglob("*") if p.is_file() and p.suffix != ".db")
    refused = clawmem("forget", "--undo", forgot["id"], "--yes", "--json", input="")
    assert refused.returncode == 1 and refused.json()["error"] == "not_found" and "no undo record" in refused.json()["message"]


def test_undo_records_expire_after_the_window(noted, clawmem):
    (noted.root / "clawmem.toml").write_text("[forget]\nundo_days = 1\n")
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--json", input="").json()
    record = noted.state_dir / "forgets" / f"{forgot['id']}.json"
    assert record.stat().st_mode & 0o077 == 0  # private to the owner
    data = json.loads(record.read_text())
    data["until"] = (RUN_DAY - dt.timedelta(days=1)).isoformat()  # as if the window had passed
    record.write_text(json.dumps(data))
    assert clawmem("forget", "--list", "--json", input="").json()[0]["undoable"] is False
    assert not record.exists()


@pytest.mark.parametrize("bad", ["../../etc/passwd", "f-../../x", "nonsense"])
def test_bad_forget_ids_are_refused(noted, clawmem, bad):
    result = clawmem("forget", "--undo", bad, "--yes", "--json", input="")
    assert result.returncode == 1 and result.json()["error"] in ("bad_input", "not_found")


def test_a_tampered_undo_record_writes_nothing_outside_the_workspace(noted, clawmem, tmp_path):
    forgot = clawmem("forget", "--yes", f"{DAILY}#L3", "--json", input="").json()
    record = noted.state_dir / "forgets" / f"{forgot['id']}.json"
    data = json.loads(record.read_text())
    data["files"] = {"../escaped.md": {"kind": "transcript", "lines": [], "content": "planted\n"}}
    record.write_text(json.dumps(data))
    report = clawmem("forget", "--undo", forgot["id"], "--yes", "--json", input="").json()
    assert not (tmp_path / "escaped.md").exists() and "not a memory file path" in report["conflicts"][0]
