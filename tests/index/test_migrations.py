"""Migrations on a real index file: what an upgrade does to rows written before it."""

from __future__ import annotations

from clawmem.entries.words import stem
from clawmem.index import migrations
from clawmem.index.db import Index


def test_recall_events_with_stems_the_stemmer_now_reads_otherwise_credit_every_claim(ws):
    """Before ``m010`` "games" was stored as "game" and "running" as "runn"; the new stemmer
    reads them "gam" and "run", so those events could credit no claim. They credit every claim
    (NULL, as before ``m009``); an event whose stems read the same is left as it was."""
    assert (stem("games"), stem("running"), stem("tournament")) == ("gam", "run", "tourn")
    rows = {"old-game": "board game", "old-run": "runn", "unchanged": "board tourn", "none": None}
    with Index.open(ws) as index:
        for path, matched in rows.items():
            index.execute(
                "INSERT INTO recall_events(text_hash, path, query_hash, score, day, at, source, matched) VALUES (?,?,?,?,?,?,?,?)",
                ("h", path, "q", 1.0, "2026-01-01", "2026-01-01T09:00:00", "search", matched),
            )
        index.execute("DELETE FROM _clawmem_migrations WHERE name = 'm010_recall_matched_restemmed'")
        assert migrations.apply(index) == ["m010_recall_matched_restemmed"]
        after = {r["path"]: r["matched"] for r in index.query("SELECT path, matched FROM recall_events")}
    assert after == {"old-game": None, "old-run": None, "unchanged": "board tourn", "none": None}
