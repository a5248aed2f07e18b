"""``clawmem index`` reports the time it took, embedding included, and its rate (issue 26).

It once printed the sync's 2.74 s while embedding took 27 minutes. These tests run the
installed command on a real workspace and check the reported times against each other and
against the wall time measured around the process; no speed target is asserted.
"""

from __future__ import annotations

import re
import time

import pytest


def _notes(clawmem, count: int) -> None:
    clawmem("init")
    for n in range(count):
        assert clawmem("note", "add", f"fact number {n} about the staging deploy", "--origin", "agent").returncode == 0


@pytest.mark.model
def test_index_json_counts_embedding_in_its_time_and_gives_the_rate(clawmem):
    _notes(clawmem, 6)
    started = time.perf_counter()
    result = clawmem("index", "--json")
    wall = time.perf_counter() - started
    assert result.returncode == 0, result.stderr
    report = result.json()
    vectors = report["vectors"]
    assert vectors["embedded"] >= 6
    assert vectors["seconds"] > 0
    assert vectors["per_second"] == pytest.approx(vectors["embedded"] / vectors["seconds"], rel=1e-6)
    # the whole run holds the sync and the embedding, and fits inside the process's own wall time
    assert report["seconds"] >= report["sync"]["seconds"] + vectors["seconds"]
    assert report["seconds"] <= wall


@pytest.mark.model
def test_index_text_names_the_total_the_sync_and_the_embedding_rate(clawmem):
    _notes(clawmem, 3)
    result = clawmem("index")
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    total, sync = re.search(r"in ([\d.]+) s \(sync ([\d.]+) s\)", first).groups()
    assert float(total) >= float(sync)
    assert re.search(r"computed in [\d.]+ s \([\d.]+ entries/s\), 0 from cache", second), second
    again = clawmem("index")  # nothing new: no rate to claim
    assert "Embeddings" in again.stdout and "entries/s" not in again.stdout


def test_index_without_embedding_reports_the_sync_as_its_time(clawmem):
    _notes(clawmem, 2)
    result = clawmem("index", "--no-embed", "--json")
    assert result.returncode == 0, result.stderr
    report = result.json()
    assert report["vectors"] is None and report["embeddings"] == "skipped (--no-embed)"
    assert report["seconds"] >= report["sync"]["seconds"] > 0
