"""``clawmem demote``: a MEMORY.md line goes back to the episodic tier and stays there until promoted again."""

from __future__ import annotations

import datetime as dt

from clawmem.entries import grammar

FACT = "The release key is kept in the team vault under release-2026."


def promoted(clawmem, tmp_path) -> tuple[str, int, str]:
    """An owner note promoted by the owner: (its anchor, its MEMORY.md line, the note's anchor)."""
    assert clawmem("init").returncode == 0
    note = clawmem("note", "add", FACT, "--origin", "owner", "--json").json()
    source = f"{note['path']}#L{note['line']}"
    assert clawmem("promote", source, "--yes").returncode == 0
    memory = tmp_path / "ws" / "MEMORY.md"
    line = next(e.line_start for e in grammar.parse(memory.read_text()).entries if e.body == FACT)
    return f"MEMORY.md#L{line}", line, source


def test_demote_takes_the_line_out_keeps_the_evidence_and_dream_leaves_it_out(clawmem, tmp_path):
    anchor, line, source = promoted(clawmem, tmp_path)
    ws = tmp_path / "ws"
    daily = ws / source.split("#")[0]
    evidence = daily.read_bytes()
    refused = clawmem("demote", anchor)
    assert refused.returncode == 1 and "--yes" in refused.stderr and FACT in (ws / "MEMORY.md").read_text()
    dry = clawmem("demote", anchor, "--dry-run", "--json").json()
    assert (dry["line"], dry["text"], dry["sources"], dry["dry_run"]) == (line, FACT, [source], True)
    assert FACT in (ws / "MEMORY.md").read_text()
    done = clawmem("demote", anchor, "--yes")
    assert done.returncode == 0 and f"Demoted MEMORY.md#L{line}: {FACT}" in done.stdout
    assert FACT not in (ws / "MEMORY.md").read_text()
    assert daily.read_bytes() == evidence, "the evidence stays in the episodic tier"
    assert "owner demote" in (ws / "DREAMS.md").read_text()
    assert [h["text"] for h in clawmem("search", "release key vault", "--lexical", "--json").json()["results"]] == [FACT]
    assert clawmem("dream", "--json").json()["promoted"] == [], "the next sweep does not promote it again"
    assert clawmem("audit", "--ci", "--strict").returncode == 0, "the pre-image explains the removal"
    assert clawmem("promote", source, "--yes").returncode == 0 and FACT in (ws / "MEMORY.md").read_text()


def test_demote_refuses_a_hand_written_line_and_anything_outside_memory_md(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    memory = tmp_path / "ws" / "MEMORY.md"
    with memory.open("a") as handle:
        handle.write("- Typed by the owner.\n")
    line = memory.read_text().count("\n")
    hand = clawmem("demote", f"MEMORY.md#L{line}", "--yes")
    assert hand.returncode == 1 and "cites no evidence" in hand.stderr and f"clawmem forget MEMORY.md#L{line}" in hand.stderr
    daily = f"memory/{dt.date.today().isoformat()}.md#L3"
    assert clawmem("note", "add", "An episodic line", "--origin", "owner").returncode == 0
    assert "not a MEMORY.md line" in clawmem("demote", daily, "--yes").stderr
    assert "Typed by the owner." in memory.read_text()
