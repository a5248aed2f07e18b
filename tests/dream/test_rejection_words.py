"""``dream`` says in words why a candidate was not promoted; ``--explain`` shows the numbers behind it."""

from __future__ import annotations

from clawmem.dream.gate import Signals, shortfalls
from clawmem.foundation.config import DreamConfig


def signals(**counts: float) -> Signals:
    base = dict(relevance=0.5, frequency=0.5, diversity=0.5, recency=1.0, recurrence=0.0, richness=0.5,
                recalls=0, occurrences=1, encounters=1, queries=0, days=1, age_days=0.0)
    return Signals(**(base | counts))  # type: ignore[arg-type]


def test_each_missed_threshold_says_what_is_still_needed():
    cfg = DreamConfig()
    found = shortfalls(signals(age_days=cfg.max_age_days + 5), 0.4, cfg)
    numbers, words = zip(*found, strict=True)
    assert numbers[0] == f"score 0.40 < {cfg.min_score:.2f}"
    assert words[1].startswith(f"needs {cfg.min_recalls - 1} more recalls (")
    assert words[2] == f"needs {cfg.min_diversity - 1} more distinct searches or sessions"
    assert words[3] == f"last seen {cfg.max_age_days + 5} days ago; only what was seen in the last {cfg.max_age_days} days is promoted"
    assert any("encounters 1 <" in n for n in numbers) and any("diversity 1 <" in n for n in numbers)


def test_one_missing_recall_is_singular_and_an_owner_decision_needs_none():
    cfg = DreamConfig()
    near = signals(recalls=cfg.min_recalls - 2, encounters=cfg.min_recalls - 1, queries=cfg.min_diversity - 2)
    assert [w for _, w in shortfalls(near, 0.9, cfg)] == [
        "needs 1 more recall (a search that finds it, or a mention in another session or on another day)",
        "needs 1 more distinct search or session",
    ]
    assert shortfalls(signals(), 0.1, cfg, needs_recalls=False) == []


def recalled_once(clawmem) -> None:
    assert clawmem("init").returncode == 0
    assert clawmem("note", "add", "Deploys go to fly.io", "--origin", "owner", "--importance", "7").returncode == 0
    assert clawmem("search", "where do we deploy", "--lexical").returncode == 0  # one recall: two encounters of three


def test_the_human_report_explains_each_rejection_and_explain_gives_the_numbers(clawmem):
    recalled_once(clawmem)
    dream = clawmem("dream")
    assert dream.returncode == 0, dream.stderr
    lines = dream.stdout.splitlines()
    at = lines.index("Not promoted (1):")
    assert lines[at + 1].startswith("- Deploys go to fly.io  [memory/")
    assert "needs 1 more recall" in lines[at + 2] and "score 0." in lines[at + 2] and "encounters" not in lines[at + 2]
    assert "clawmem dream --explain --dry-run" in dream.stdout
    explained = clawmem("dream", "--dry-run", "--explain").stdout
    assert "encounters 2 < 3 (recalls + occurrences)" in explained


def test_json_carries_the_words_beside_the_numbers(clawmem):
    recalled_once(clawmem)
    [rejected] = clawmem("dream", "--json").json()["rejected"]
    assert rejected["stage"] == "gate" and len(rejected["in_words"]) == len(rejected["reasons"])
    assert any(r.startswith("encounters 2 < 3") for r in rejected["reasons"])
    assert any(w.startswith("needs 1 more recall") for w in rejected["in_words"])
