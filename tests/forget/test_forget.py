"""``clawmem forget``: by entry, by text, by session; files, index, tombstones, history, review."""

from __future__ import annotations

import datetime as dt

import pytest

from clawmem.entries import grammar

WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."


def days_ago(n: int) -> dt.datetime:
    return (dt.datetime.now() - dt.timedelta(days=n)).replace(hour=10, minute=0, second=0, microsecond=0)


def snapshot(ws) -> dict[str, bytes]:
    return {p.relative_to(ws.root).as_posix(): p.read_bytes() for p in ws.root.rglob("*") if p.is_file() and "locks" not in p.parts and not p.name.startswith("index.db")}


def bodies(path) -> list[str]:
    return [e.body for e in grammar.parse(path.read_text()).entries]


def search_texts(clawmem, query: str) -> list[str]:
    result = clawmem("search", query, "--lexical", "--include-untrusted", "--min-score", "0", "--json")
    assert result.returncode == 0, result.stderr
    return [r["text"] for r in result.json()["results"]]


@pytest.fixture
def daily(ws, clawmem):
    for text in ("The standup moved to 9:30.", "My bank PIN is 4711, do not share it.", "Deploys go to fly.io now."):
        assert clawmem("note", "add", text, "--origin", "owner").returncode == 0
    return ws.daily_note(dt.date.today())


@pytest.fixture
def promoted(ws, clawmem):
    from clawmem.commands.ingest import ingest

    for i in (1, 2, 3):
        ingest(ws, f"user: the linker broke again, ticket {i}\nassistant: {WORKAROUND}\nuser: thanks\n", session=f"s{i}", origin="owner", at=days_ago(4 - i))
    assert [c["text"] for c in clawmem("dream", "--json").json()["promoted"]] == [WORKAROUND]
    return WORKAROUND


def test_forget_an_entry_by_anchor(ws, clawmem, daily):
    assert search_texts(clawmem, "bank PIN")
    rel = ws.rel(daily)
    result = clawmem("forget", "--yes", f"{rel}#L4", "--json")
    assert result.returncode == 0, result.stderr
    data = result.json()
    assert [(r["path"], r["line_start"], r["why"]) for r in data["removed"]] == [(rel, 4, "target")]
    lines = daily.read_text().splitlines()
    assert lines[3] == "" and lines[2].startswith("- The standup") and lines[4].startswith("- Deploys"), "other lines keep their numbers"
    assert "4711" not in daily.read_text()
    assert search_texts(clawmem, "bank PIN") == []
    # the tombstone: the same text is not stored again by note, flush or ingest
    again = clawmem("note", "add", "My bank PIN is 4711, do not share it.", "--origin", "agent", "--json")
    assert again.returncode == 0 and again.json()["written"] is False
    flushed = clawmem("note", "flush", "-", "--origin", "agent", "--json", input="- My bank PIN is 4711, do not share it.\n- Lunch is at noon today.\n")
    assert flushed.json()["written"] == 1
    assert clawmem("ingest", "-", "--session", "later", "--origin", "owner", input="user: My bank PIN is 4711, do not share it.\nassistant: noted\n").returncode == 0
    assert "4711" not in (ws.transcripts_dir / "later.md").read_text()
    assert "4711" not in daily.read_text()
    diary = ws.dreams_md.read_text()
    assert "forget entry" in diary and f"{rel}#L4" in diary and "4711" not in diary
    assert clawmem("audit", "--ci").returncode == 0


def test_forget_by_text_reaches_every_tier_and_the_history(ws, clawmem, promoted):
    assert clawmem("note", "add", "Web page also says: make clean before make fixes undefined reference", "--origin", "untrusted").returncode == 0
    assert clawmem("audit", "--ci").returncode == 0  # the audit baseline holds the promoted line
    before_images = list(ws.preimages_dir.glob("*.md"))
    assert any(WORKAROUND in p.read_text() for p in before_images) or "make clean" in ws.dreams_md.read_text()
    dry = clawmem("forget", "--text", "undefined reference", "--dry-run", "--json").json()
    assert dry["dry_run"] and {r["path"].split("/")[0] for r in dry["removed"]} == {"MEMORY.md", "transcripts", "memory"}
    result = clawmem("forget", "--yes", "--text", "undefined reference")
    assert result.returncode == 0, result.stderr
    assert "untrusted-content" in result.stdout, "the quarantined line is shown framed"
    assert WORKAROUND not in ws.memory_md.read_text()
    for path in [*ws.transcripts_dir.glob("*.md"), *ws.quarantine_dir.glob("*.md")]:
        assert "undefined reference" not in path.read_text()
    assert "undefined reference" not in ws.dreams_md.read_text(), "earlier diary lines are redacted"
    for image in ws.preimages_dir.glob("*.md"):
        assert "undefined reference" not in image.read_text(), image.name
    assert "undefined reference" not in (ws.state_dir / "audit" / "baseline.json").read_text()
    assert search_texts(clawmem, "undefined reference") == []
    from clawmem.index.db import Index

    with Index.open(ws) as index:
        assert index.scalar("SELECT count(*) FROM dream_evidence WHERE text LIKE '%undefined reference%'") == 0
        assert index.scalar("SELECT count(*) FROM dream_candidates WHERE text LIKE '%undefined reference%'") == 0
    assert clawmem("audit", "--ci").returncode == 0
    data = clawmem("dream", "--json").json()
    assert data["promoted"] == [] and WORKAROUND not in ws.memory_md.read_text()
    assert clawmem("index", "--rebuild", "--no-embed", "-q").returncode == 0
    assert search_texts(clawmem, "undefined reference") == []


def test_forget_a_session(ws, clawmem, promoted):
    assert clawmem("note", "add", "Session s2 decided the cache lives on redis-2.", "--origin", "agent", "--session", "s2").returncode == 0
    assert clawmem("user", "set", "Always sign off with the team name", "--key", "signoff", "--origin", "owner", "--session", "s2").returncode == 0
    assert clawmem("note", "add", "Unrelated note from another session.", "--origin", "agent", "--session", "s9").returncode == 0
    result = clawmem("forget", "--yes", "--session", "s2", "--json")
    assert result.returncode == 0, result.stderr
    data = result.json()
    assert data["session_tombstoned"] == "s2" and data["deleted_files"] == ["transcripts/s2.md"]
    assert not (ws.transcripts_dir / "s2.md").exists()
    daily = ws.daily_note(dt.date.today()).read_text()
    assert "redis-2" not in daily and "Unrelated note" in daily
    assert "sign off" not in ws.user_md.read_text()
    # the promoted line merged s2 with s1 and s3: left in place, reported for review
    assert WORKAROUND in ws.memory_md.read_text()
    [review] = data["review"]
    assert review["path"] == "MEMORY.md" and "also other sources" in review["reason"]
    again = clawmem("ingest", "-", "--session", "s2", "--origin", "owner", input="user: back again\n")
    assert again.returncode == 1 and "forgotten" in again.stderr
    # the workaround survives in s1 and s3, so it is not tombstoned: new sessions may say it
    assert clawmem("ingest", "-", "--session", "s4", "--origin", "owner", input=f"user: hi\nassistant: {WORKAROUND}\n").returncode == 0
    assert WORKAROUND in (ws.transcripts_dir / "s4.md").read_text()
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0 and "stale-source" in audit.stderr


def test_a_curated_entry_promoted_only_from_forgotten_evidence_goes_too(ws, clawmem, promoted):
    for session in ("s1", "s2"):
        assert clawmem("forget", "--yes", "--session", session).returncode == 0
    assert WORKAROUND in ws.memory_md.read_text()
    result = clawmem("forget", "--yes", "--session", "s3", "--json").json()
    assert ("MEMORY.md", "every source it cites is forgotten") in {(r["path"], r["why"]) for r in result["removed"]}
    assert WORKAROUND not in ws.memory_md.read_text()
    assert clawmem("audit", "--ci").returncode == 0


def promoted_release_key(ws, clawmem) -> tuple[str, int]:
    """A fact noted on three days, recalled, promoted: (its text, its line in MEMORY.md)."""
    text = "The release key is kept in the team vault under release-2026."
    for n in (3, 2, 1):
        assert clawmem("note", "add", text, "--origin", "owner", "--at", days_ago(n).isoformat()).returncode == 0
    for q in ("release key", "team vault", "where is the release key kept"):
        clawmem("search", q, "--lexical")
    assert [c["text"] for c in clawmem("dream", "--json").json()["promoted"]] == [text]
    return text, next(e.line_start for e in grammar.parse(ws.memory_md.read_text()).entries if e.body == text)


def test_an_anchor_forgets_only_the_named_entry_and_lists_its_copies(ws, clawmem):
    text, line = promoted_release_key(ws, clawmem)
    notes = {ws.rel(ws.daily_note(days_ago(n).date())): ws.daily_note(days_ago(n).date()).read_bytes() for n in (3, 2, 1)}
    data = clawmem("forget", "--yes", f"MEMORY.md#L{line}", "--json").json()
    assert [(r["path"], r["why"]) for r in data["removed"]] == [("MEMORY.md", "target")]
    assert {r["path"] for r in data["review"]} == set(notes)
    assert all(r["reason"].endswith("kept (`forget --copies` takes it too)") for r in data["review"])
    assert text not in ws.memory_md.read_text()
    assert {rel: (ws.root / rel).read_bytes() for rel in notes} == notes, "the daily notes are untouched"


def test_copies_is_for_an_anchor_only(clawmem, ws):
    for args in (("--text", "release key"), ("--session", "s-1"), ("--list",)):
        assert clawmem("forget", *args, "--copies", "--yes").returncode == 2


def test_forgetting_a_curated_entry_with_copies_takes_its_verbatim_evidence_and_reports_richer_evidence(ws, clawmem):
    text, line = promoted_release_key(ws, clawmem)
    data = clawmem("forget", "--yes", "--copies", f"MEMORY.md#L{line}", "--json").json()
    assert {r["path"] for r in data["removed"]} == {"MEMORY.md", *(ws.rel(ws.daily_note(days_ago(n).date())) for n in (3, 2, 1))}
    assert clawmem("dream", "--json").json()["promoted"] == []
    assert text not in ws.memory_md.read_text()


def test_dry_run_changes_nothing(ws, clawmem, daily, promoted):
    before = snapshot(ws)
    for args in (("--session", "s1"), ("--text", "fly.io"), (f"{ws.rel(daily)}#L3",)):
        result = clawmem("forget", *args, "--dry-run")
        assert result.returncode == 0 and "dry run" in result.stdout
    after = snapshot(ws)
    changed = [k for k in before if before[k] != after.get(k)]
    assert changed == [] and set(after) == set(before)


@pytest.mark.parametrize(
    "args, code, message",
    [
        ((), 2, "exactly one"),  # usage errors exit 2, as the README's table says
        (("MEMORY.md#L1", "--text", "x y z"), 2, "exactly one"),
        (("../secret.md#L1",), 1, "outside the workspace"),
        (("/etc/passwd#L1",), 1, "outside the workspace"),
        ((".clawmem/provenance.jsonl#L1",), 1, "internal state"),
        (("memory/2026-01-01.md",), 1, "not an entry anchor"),
        (("MEMORY.md#L999",), 1, "no entry at MEMORY.md#L999"),
        (("--text", "a"), 1, "too short"),
        (("--text", "nothing says this sentence"), 1, "no memory entry says"),
        (("--session", "../../x"), 1, "invalid session id"),
    ],
)
def test_bad_targets_are_refused_and_change_nothing(ws, clawmem, args, code, message):
    before = snapshot(ws)
    result = clawmem("forget", "--yes", *args)
    assert result.returncode == code, result.stderr
    assert message in result.stderr
    assert snapshot(ws) == before


def test_forgetting_an_unknown_session_still_blocks_it(ws, clawmem):
    result = clawmem("forget", "--yes", "--session", "never-seen", "--json")
    assert result.returncode == 0 and result.json()["removed"] == []
    again = clawmem("ingest", "-", "--session", "never-seen", "--origin", "owner", input="user: hello\n")
    assert again.returncode == 1 and "forgotten" in again.stderr


def test_forgetting_an_untrusted_flush_line_leaves_a_consistent_index(ws, clawmem):
    assert clawmem("note", "add", "The standup moved to 9:30.", "--origin", "owner").returncode == 0
    assert clawmem("note", "flush", "-", "--origin", "untrusted", input="- planted line from a web page zqplant\n").returncode == 0
    assert clawmem("note", "add", "Deploys go to fly.io now.", "--origin", "owner").returncode == 0
    assert clawmem("index", "-q").returncode == 0  # with vectors when a model is installed
    assert clawmem("forget", "--yes", "--text", "zqplant").returncode == 0
    assert clawmem("index", "-q").returncode == 0
    result = clawmem("audit", "--ci")
    assert result.returncode == 0, result.stdout


def _cached_code_rows(cache) -> list[bytes]:
    import numpy as np

    return [row.tobytes() for codes in cache.rglob("codes.npy") for row in np.load(codes)]


@pytest.mark.model
def test_forgotten_text_leaves_no_vector_in_the_search_cache(ws, clawmem):
    """An embedding is the text in another form: after a forget, nothing on disk may still hold it."""
    import numpy as np

    for text in ("My bank PIN is 4711, do not share it.", "The standup moved to 9:30.", "Deploys go to fly.io now."):
        assert clawmem("note", "add", text, "--origin", "owner").returncode == 0
    assert clawmem("index", "-q").returncode == 0
    assert clawmem("search", "bank PIN", "--json").returncode == 0  # the vector lane builds its int8 matrix under .clawmem/cache
    cache = ws.root / ".clawmem" / "cache"
    from clawmem.index.db import Index

    with Index.open(ws) as index:
        pin_id = index.scalar("SELECT id FROM entries WHERE text LIKE '%4711%'")
    (folder,) = [p.parent for p in cache.rglob("ids.npy")]
    ids = list(np.load(folder / "ids.npy"))
    pin_code = np.load(folder / "codes.npy")[ids.index(pin_id)].tobytes()
    assert pin_code in _cached_code_rows(cache)

    assert clawmem("forget", "--yes", "--text", "4711").returncode == 0
    assert pin_code not in _cached_code_rows(cache)
    assert clawmem("search", "bank PIN", "--json").returncode == 0  # the next search rebuilds a matrix without it
    assert _cached_code_rows(cache) and pin_code not in _cached_code_rows(cache)


def test_no_file_on_disk_keeps_the_forgotten_text_but_the_undo_record(ws, clawmem, daily):
    """Deleted rows linger in SQLite's free pages and WAL; read the raw bytes as someone with the disk would."""
    assert clawmem("index", "-q").returncode == 0
    assert clawmem("search", "bank PIN", "--lexical").returncode == 0
    secret = b"4711"
    assert any(secret in p.read_bytes() for p in (ws.root / ".clawmem").glob("index.db*"))
    assert clawmem("forget", "--yes", "--text", "PIN is 4711").returncode == 0
    holders = [p.relative_to(ws.root).as_posix() for p in ws.root.rglob("*") if p.is_file() and secret in p.read_bytes()]
    assert [h for h in holders if not h.startswith(".clawmem/forgets/")] == []
