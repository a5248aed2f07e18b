"""A recall credits the claims that answered it, scored against the best answer of its search.

A search returns a whole turn, and a turn often says more than one thing. Through the installed
CLI on real files: the owner's turn holds a fact and an aside; searches on three days find the
fact; ``dream`` promotes the fact and never the aside. Control: with every claim of a returned turn
credited (``gate.credited`` always true), the aside rides on the fact's recalls into ``MEMORY.md``.
The relative score and the stored words are checked on a real index.
"""

from __future__ import annotations

import datetime as dt

import pytest

from clawmem.dream import gate, store
from clawmem.entries import grammar
from clawmem.index.maintain import open_synced
from clawmem.index.recalls import Returned, answered, record_returned

TODAY = dt.date(2026, 11, 20)
FACT = "The Dagster UI listens on port 3070 on the build box."
ASIDES = (
    "Portuguese and German translations arrive in the spring.",
    "Élise moved the finance reports to Looker Studio last quarter.",
)
QUERIES = ("dagster ui port", "which port does dagster listen on", "dagster web interface port number")


def at(n: int, hour: int = 10) -> str:
    """``n`` days before TODAY at ``hour``."""
    return dt.datetime.combine(TODAY - dt.timedelta(days=n), dt.time(hour)).isoformat()


def active(path) -> list[str]:
    return [e.body for e in grammar.parse(path.read_text()).entries if e.status != "superseded"] if path.exists() else []


@pytest.fixture
def replay(ws, clawmem, tmp_path):
    """The turn said on day 5, looked up on days 4, 3 and 2 with ``QUERIES``, dreamt on day 1."""

    def run(aside: str) -> dict:
        source = tmp_path / "told.md"
        source.write_text(f"user: {FACT} {aside}\nassistant: Noted.\n")
        assert clawmem("ingest", str(source), "--session", "told", "--origin", "owner", env={"CLAWMEM_NOW": at(5)}).returncode == 0
        for n, query in zip((4, 3, 2), QUERIES, strict=True):
            found = clawmem("search", query, "--lexical", env={"CLAWMEM_NOW": at(n)})
            assert found.returncode == 0 and "3070" in found.stdout, found.stdout + found.stderr
        done = clawmem("dream", "--json", "--explain", env={"CLAWMEM_NOW": at(1, 23)})
        assert done.returncode == 0, done.stderr
        return done.json()

    return run


@pytest.mark.parametrize("aside", ASIDES)
def test_a_recall_of_a_turn_promotes_the_claim_that_answered_it_not_its_neighbours(ws, replay, aside):
    data = replay(aside)
    assert active(ws.memory_md) == [FACT]
    waiting = next(e for e in data["explain"] if e["text"] == aside)
    assert waiting["signals"]["recalls"] == 0, waiting


@pytest.mark.parametrize("aside", ASIDES)
def test_control_crediting_every_claim_of_the_turn_promotes_the_aside(ws, replay, aside, monkeypatch):
    monkeypatch.setattr(gate, "credited", lambda recall, claim_stems: True)
    replay(aside)
    assert sorted(active(ws.memory_md)) == sorted([FACT, aside])


def test_a_recall_scores_against_the_best_hit_of_its_search_and_keeps_the_words_it_matched(ws, tmp_path, clawmem):
    """The hybrid blend's best hit rarely scores over 0.8; relative to it, the best answer scores 1."""
    (tmp_path / "told.md").write_text(f"user: {FACT}\nassistant: {ASIDES[0]}\nuser: {ASIDES[1]}\n")
    assert clawmem("ingest", str(tmp_path / "told.md"), "--session", "told", "--origin", "owner").returncode == 0
    index, _ = open_synced(ws)
    with index:
        rows = index.query("SELECT text_hash, path, origin, text FROM entries WHERE path LIKE 'transcripts/%' ORDER BY line_start")
        query = "dagster port for the finance reports"
        hits = [Returned(r["text_hash"], r["path"], score, r["origin"], answered(query, r["text"])) for r, score in zip(rows, (0.64, 0.32, 0.16), strict=True)]
        hits.append(Returned(rows[1]["text_hash"], rows[1]["path"], 0.5, rows[1]["origin"]))  # found by meaning alone, in a search of its own
        record_returned(index, hits[:3], query=query, source="search", ws=ws)
        record_returned(index, hits[3:], query="spring languages", source="search", ws=ws)
        found = store.recalls(index, "2000-01-01")
    by_hash = {k[0]: v for k, v in found.items()}
    assert [round(r.score, 2) for r in by_hash[rows[0]["text_hash"]]] == [1.0]
    assert sorted(round(r.score, 2) for r in by_hash[rows[1]["text_hash"]]) == [0.5, 1.0]
    assert by_hash[rows[0]["text_hash"]][0].matched == {"dagst", "port"}
    assert by_hash[rows[2]["text_hash"]][0].matched == {"finan", "repor"}
    assert {r.matched for r in by_hash[rows[1]["text_hash"]]} == {None}  # shares no word: credits every claim of its turn
    assert gate.credited(by_hash[rows[1]["text_hash"]][0], frozenset({"anyth"}))
    assert not gate.credited(by_hash[rows[0]["text_hash"]][0], frozenset({"portu", "german"}))
