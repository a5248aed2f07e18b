"""Questions about the value now prefer the newest observation; questions about the past do not."""

from __future__ import annotations

import pytest

from clawmem.search.current import asks_current

NOW = {"CLAWMEM_NOW": "2026-11-30T12:00:00"}


@pytest.mark.parametrize(
    ("query", "current"),
    [
        ("where do we deploy now?", True),
        ("which editor do I currently use", True),
        ("what's the latest API base URL", True),
        ("is the VPN still required", True),
        ("where do we deploy", False),
        ("the nowhere build script", False),  # a word boundary, not a substring
    ],
)
def test_current_intent_patterns(query, current):
    assert asks_current(query) is current


@pytest.fixture
def moved(clawmem):
    clawmem("init")
    old = clawmem("note", "add", "The staging server is atlas.internal", "--origin", "owner", "--at", "2026-02-10T10:00")
    new = clawmem("note", "add", "We moved staging to hermes.internal", "--origin", "owner", "--at", "2026-11-12T10:00")
    assert old.returncode == 0 and new.returncode == 0


def test_a_question_about_now_ranks_the_newer_observation_first(clawmem, moved):
    found = clawmem("search", "what is the staging server now?", "--json", "--explain", "--min-score", "0", env=NOW).json()
    assert found["decay"] == "current"
    assert "hermes" in found["results"][0]["text"]
    older = next(h for h in found["results"] if "atlas" in h["text"])
    assert older["signals"]["recency"] < 0.5  # search.current_floor lets an old value fall


def test_a_question_about_the_past_keeps_the_old_fact_reachable(clawmem, moved):
    found = clawmem("search", "what was the staging server back in february?", "--json", "--explain", "--min-score", "0", env=NOW).json()
    assert found["decay"] == "relaxed"
    older = next(h for h in found["results"] if "atlas" in h["text"])
    assert older["signals"]["recency"] > 0.5
