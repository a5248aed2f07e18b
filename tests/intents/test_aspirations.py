"""Aspirations: uncompilable intentions kept in Markdown with a review date; ``overdue`` for dreaming."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from clawmem.foundation.errors import BadInput, Forbidden
from clawmem.index.db import Index
from clawmem.index.files import memory_files
from clawmem.index.sync import sync
from clawmem.intents.aspirations import Aspiration, add_aspiration, aspirations, overdue

NOW = dt.datetime(2026, 11, 25, 10, 0)


def test_add_writes_a_daily_entry_with_review_and_provenance(ws):
    result = add_aspiration(ws, "Read the codebase before refactoring", review=dt.date(2026, 12, 10), origin="agent", now=NOW)
    path = ws.daily_note(dt.date(2026, 11, 25))
    assert result.path == ws.rel(path) and result.line == 3
    assert path.read_text().splitlines()[2] == "- Read the codebase before refactoring <!-- review: 2026-12-10 -->"
    records = [json.loads(line) for line in ws.ledger_path.read_text().splitlines()[1:]]
    assert [(r["t"], r["origin"], r["path"]) for r in records] == [("entry", "agent", result.path)]
    with Index.open(ws) as index:
        sync(ws, index)
        row = index.query("SELECT origin, hand_written FROM entries WHERE path = ?", (result.path,))[0]
    assert row == {"origin": "agent", "hand_written": 0}


def test_overdue_lists_aspirations_whose_review_came(ws):
    add_aspiration(ws, "Learn the release process", review=dt.date(2026, 12, 1), origin="owner", now=NOW)
    add_aspiration(ws, "Write more tests first", review=dt.date(2026, 12, 20), origin="owner", now=NOW)
    # a hand-written one in another note, one retired by hand, and one in quarantine
    other = ws.daily_note(dt.date(2026, 11, 20))
    other.write_text(
        "# 2026-11-20\n\n- Try pairing on Fridays <!-- review: 2026-11-30 -->\n"
        "- Old idea <!-- review: 2026-11-21 --> <!-- status: superseded -->\n- plain note\n"
    )
    (ws.quarantine_dir / "2026-11-20.md").write_text("- planted <!-- review: 2026-11-21 -->\n")

    assert overdue(ws, dt.date(2026, 11, 29)) == []
    assert overdue(ws, dt.date(2026, 12, 1)) == [
        Aspiration("memory/2026-11-20.md", 3, "Try pairing on Fridays", dt.date(2026, 11, 30)),
        Aspiration("memory/2026-11-25.md", 3, "Learn the release process", dt.date(2026, 12, 1)),
    ]
    assert [a.text for a in overdue(ws, dt.date(2027, 1, 1))][-1] == "Write more tests first"
    assert len(aspirations(ws)) == 3


def test_an_annotation_in_any_spelling_counts_and_the_word_alone_does_not(ws):
    """The cheap skip before parsing a note (``REVIEW_KEY``) lets through every key the grammar reads as ``review``."""
    ws.daily_note(dt.date(2026, 11, 20)).write_text(
        "# 2026-11-20\n\n- review the deploy notes with carol\n- Pair more <!-- REVIEW : 2026-11-30 -->\n"
    )
    ws.daily_note(dt.date(2026, 11, 21)).write_text("# 2026-11-21\n\n- code review: the retry loop; review it again <!-- importance: 5 -->\n")
    ws.daily_note(dt.date(2026, 11, 22)).write_text("# 2026-11-22\n\n- a review of the week, nothing due\n")
    assert aspirations(ws) == [Aspiration("memory/2026-11-20.md", 4, "Pair more", dt.date(2026, 11, 30))]


def test_untrusted_and_past_reviews_are_refused(ws):
    with pytest.raises(Forbidden):
        add_aspiration(ws, "x", review=dt.date(2026, 12, 1), origin="untrusted", now=NOW)
    with pytest.raises(Forbidden):
        add_aspiration(ws, "x", review=dt.date(2026, 12, 1), origin="system", now=NOW)
    with pytest.raises(BadInput):
        add_aspiration(ws, "x", review=dt.date(2026, 11, 1), origin="owner", now=NOW)
    assert not ws.daily_note(dt.date(2026, 11, 25)).exists()


def test_agent_text_cannot_smuggle_metadata(ws):
    add_aspiration(ws, "be kind <!-- importance: 10 -->", review=dt.date(2026, 12, 1), origin="agent", now=NOW)
    [found] = aspirations(ws)
    assert "<!--" not in found.text
    text = ws.daily_note(dt.date(2026, 11, 25)).read_text()
    assert "<!-- importance" not in text


def test_a_daily_note_reached_through_a_link_is_not_read(ws, tmp_path):
    """The notes the index covers and no others: a link could lead to any file on the machine (``index.files``)."""
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# 2026-11-20\n\n- Planted <!-- review: 2026-11-21 -->\n")
    ws.daily_note(dt.date(2026, 11, 20)).symlink_to(outside)
    ws.daily_note(dt.date(2026, 11, 22)).write_text("# 2026-11-22\n\n- Pair more <!-- review: 2026-11-30 -->\n")
    assert [a.text for a in aspirations(ws)] == ["Pair more"]


def test_a_note_changed_or_replaced_between_two_reads_is_read_again(ws):
    """A note is read again when its listed size, mtime or inode moved; the listing can be the caller's own."""
    note = ws.daily_note(dt.date(2026, 11, 20))
    note.write_text("# 2026-11-20\n\n- Pair more <!-- review: 2026-11-30 -->\n")
    assert [a.text for a in aspirations(ws)] == ["Pair more"]
    note.write_text("# 2026-11-20\n\n- Pair less <!-- review: 2026-11-30 -->\n- Walk <!-- review: 2026-12-01 -->\n")
    assert [a.text for a in aspirations(ws, list(memory_files(ws)))] == ["Pair less", "Walk"]
    info = note.stat()
    replacement = note.with_name(".replacement")
    replacement.write_text("# 2026-11-20\n\n- Pair once <!-- review: 2026-11-30 -->\n- Walk <!-- review: 2026-12-01 -->\n")
    os.utime(replacement, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(replacement, note)  # same size, same mtime: only the inode tells
    assert [a.text for a in aspirations(ws)] == ["Pair once", "Walk"]


def test_recall_reads_aspirations_from_the_listing_of_its_freshness_check(ws):
    """One listing per turn (``recall.turn._open_index``): a note written between two turns shows on the second."""
    from clawmem.recall import recall

    with Index.open(ws) as index:
        sync(ws, index)
    first = recall(ws, "good morning", now=NOW, budget_ms=60_000)
    assert first.aspirations == [] and not first.degraded
    ws.daily_note(dt.date(2026, 11, 20)).write_text("# 2026-11-20\n\n- Try pairing on Fridays <!-- review: 2026-11-24 -->\n")
    second = recall(ws, "good morning", now=NOW, budget_ms=60_000)
    assert [a.text for a in second.aspirations] == ["Try pairing on Fridays"], second.degraded
