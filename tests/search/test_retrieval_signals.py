"""The retrieval signals of issue 25 through the installed ``clawmem search``, on real transcripts.

Each signal is shown on one workspace twice: with the signal on the turn that answers the
question ranks first (or is found at all), and with it switched off in ``clawmem.toml`` it does
not, so each test fails without its signal. Feedback is opt-in (it did not help on the dev
sets), so its test switches it on. Lexical lane only, so the result does not depend on which
embedding model is installed.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.search.test_conversation_signals import FILLER

# a session whose two beach turns anchor a passage; the camping turn two turns on is lifted by it
BEACH_DAY = [
        ("Alice", "The kids loved the beach."),
        ("Bob", "Work has been busy with the quarterly report."),
        ("Alice", "We built a sand castle at the beach with the kids."),
        ("Bob", "My sister visited on Sunday."),
        ("Alice", "Then the kids and I went camping."),
]


def _ingest(clawmem, tmp_path, session: str, turns: list[tuple[str, str]], day: str) -> None:
    path = tmp_path / f"{session}.jsonl"
    records = [{"role": "user", "speaker": who, "content": text, "timestamp": f"{day}T10:{n:02d}:00"} for n, (who, text) in enumerate(turns)]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    result = clawmem("ingest", str(path), "--session", session, "--origin", "owner")
    assert result.returncode == 0, result.stderr


def _results(clawmem, query: str) -> list[dict]:
    result = clawmem("search", query, "--lexical", "--min-score", "0", "--limit", "10", "--json", "--explain")
    assert result.returncode == 0, result.stderr
    return result.json()["results"]


def _config(tmp_path, **settings: float) -> None:
    lines = ["[search]"] + [f"{key} = {value}" for key, value in settings.items()]
    (tmp_path / "ws" / "clawmem.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _workspace(clawmem, tmp_path) -> None:
    clawmem("init")
    _ingest(clawmem, tmp_path, "background", [("Alice" if n % 2 else "Bob", text) for n, text in enumerate(FILLER)], "2023-04-01")


def test_a_question_naming_a_date_finds_the_turn_said_that_day(clawmem, tmp_path):
    _workspace(clawmem, tmp_path)
    _ingest(clawmem, tmp_path, "may", [("Alice", "I baked a lemon cake for the party.")], "2023-05-14")
    _ingest(clawmem, tmp_path, "june", [("Alice", "I baked a lemon cake again.")], "2023-06-20")
    query = "What cake did Alice bake on 14 May, 2023?"
    top = _results(clawmem, query)[0]
    assert top["text"].startswith("Alice: I baked a lemon cake for the party")
    assert top["signals"]["boosts"]["date"] > 1.0
    _config(tmp_path, date_boost=0.0)
    assert _results(clawmem, query)[0]["text"].startswith("Alice: I baked a lemon cake again")


def test_a_relative_date_in_a_turn_is_resolved_against_its_session_day(clawmem, tmp_path):
    _workspace(clawmem, tmp_path)
    # 2023-05-20 is a Saturday: "last Sunday" is 14 May 2023
    _ingest(clawmem, tmp_path, "week-after", [("Alice", "Last Sunday I baked a lemon cake for the party.")], "2023-05-20")
    _ingest(clawmem, tmp_path, "june", [("Alice", "I baked a lemon cake again.")], "2023-06-20")
    query = "What cake did Alice bake on 14 May, 2023?"
    assert _results(clawmem, query)[0]["text"].startswith("Alice: Last Sunday I baked")
    _config(tmp_path, date_boost=0.0)
    assert _results(clawmem, query)[0]["text"].startswith("Alice: I baked a lemon cake again")


def test_feedback_finds_a_turn_with_the_answers_words_and_none_of_the_questions(clawmem, tmp_path):
    _workspace(clawmem, tmp_path)
    _ingest(clawmem, tmp_path, "band", [
        ("Calvin", "I play guitar and drums, the instruments I love most."),
        ("Bob", "Which instruments do you play with the band? The guitar?"),
    ], "2023-05-01")
    _ingest(clawmem, tmp_path, "shop", [("Bob", "That new guitar amplifier sounds loud.")], "2023-05-03")
    query = "What instruments does Calvin play?"
    assert "Bob: That new guitar amplifier sounds loud." not in {hit["text"] for hit in _results(clawmem, query)}  # off by default
    _config(tmp_path, feedback_weight=0.3)
    found = {hit["text"]: hit for hit in _results(clawmem, query)}
    amplifier = found.get("Bob: That new guitar amplifier sounds loud.")
    assert amplifier is not None and amplifier["signals"]["feedback_terms"] == ["guitar"]


def test_a_turn_near_its_sessions_best_matches_outranks_a_stray_match(clawmem, tmp_path):
    _workspace(clawmem, tmp_path)
    far = ["The weather was grey all week.", "I started reading a new novel.", "The garden needs watering.", "I bought new running shoes."]
    _ingest(clawmem, tmp_path, "kids", [
        *BEACH_DAY,
        *[("Bob", text) for text in far],
        ("Alice", "The kids are asleep now."),
    ], "2023-07-01")
    _ingest(clawmem, tmp_path, "stray", [("Alice", "The kids missed the school bus.")], "2023-07-02")
    query = "What did Alice do with her kids at the beach?"
    # context sharing is off, so only the passage relates a turn to the turns around it
    _config(tmp_path, context_weight=0.0)
    found = {hit["text"]: (rank, hit) for rank, hit in enumerate(_results(clawmem, query))}
    camping, stray, asleep = (found[f"Alice: {text}"] for text in ("Then the kids and I went camping.", "The kids missed the school bus.", "The kids are asleep now."))
    assert camping[0] < stray[0] and camping[1]["signals"]["session"] > 0
    assert asleep[1]["signals"]["session"] is None  # five turns from the passage: not lifted
    best = min(found.values(), key=lambda pair: pair[0])[1]
    assert best["text"] == "Alice: The kids loved the beach." and best["signals"]["session"] is None  # the best match keeps its own
    shown = clawmem("search", query, "--lexical", "--min-score", "0", "--limit", "10", "--explain")
    assert "moved by passage" in shown.stdout
    _config(tmp_path, context_weight=0.0, session_weight=0.0)
    found = {hit["text"]: rank for rank, hit in enumerate(_results(clawmem, query))}
    assert found["Alice: The kids missed the school bus."] < found["Alice: Then the kids and I went camping."]


def test_a_recall_records_what_a_turn_matched_not_what_its_passage_lent(clawmem, tmp_path):
    """Dreaming promotes on recalls: a turn shown because its neighbours matched was not itself useful."""
    _workspace(clawmem, tmp_path)
    _ingest(clawmem, tmp_path, "kids", BEACH_DAY, "2023-07-01")
    query = "What did Alice do with her kids at the beach?"
    camping = "Alice: Then the kids and I went camping."
    _config(tmp_path, context_weight=0.0, session_weight=0.0)
    own = {hit["text"]: hit["score"] for hit in _results(clawmem, query)}[camping]
    _config(tmp_path, context_weight=0.0)
    shown = {hit["text"]: hit for hit in _results(clawmem, query)}[camping]
    assert shown["signals"]["session"] is not None and shown["score"] > own  # the passage lifted it
    with sqlite3.connect(tmp_path / "ws" / ".clawmem" / "index.db") as db:
        recorded = [score for (score,) in db.execute(
            "SELECT r.score FROM recall_events r JOIN entries e ON e.text_hash = r.text_hash AND e.path = r.path"
            " WHERE e.text = ? ORDER BY r.id", (camping,))]
    assert len(recorded) == 2  # both searches count the turn as recalled ...
    assert recorded == pytest.approx([own, own], abs=1e-6)  # ... at the relevance it earned itself
