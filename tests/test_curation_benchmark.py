"""The curation benchmark's judges on a hand-made workspace: no replay, so the scoring itself is pinned.

Every quality figure of ``benchmarks/curation.py`` must come from the corpus's annotations, plain text
patterns or a reviewer, never from clawmem's gate; these tests fix what each judge counts.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("curation", ROOT / "benchmarks" / "curation.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["curation"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


curation = _load()

SAMPLE = {
    "sample_id": "conv-x",
    "conversation": {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a support group yesterday and it was powerful."},
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "That sounds great, I am painting a lake sunrise."},
            {"speaker": "Caroline", "dia_id": "D1:3", "text": "I want to study counseling next year."},
            {"speaker": "Melanie", "dia_id": "D1:4", "text": "Cool!"},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Caroline": [["Caroline attended a support group.", "D1:1"], ["Caroline wants to study counseling.", "D1:3"]],
            "Melanie": [["Melanie paints.", "D1:2"], ["A fact citing no real turn.", "D9:9"]],
        }
    },
    "qa": [
        {"question": "What does Melanie paint?", "answer": "a sunrise", "evidence": ["D1:2"], "category": 4},
        {"question": "What did Caroline do and plan?", "answer": "group; counseling", "evidence": ["D1:1", "D1:3"], "category": 1},
        {"question": "Did Melanie go to the group?", "adversarial_answer": "yes", "evidence": ["D1:4"], "category": 5},
    ],
}

# The labels shape as clawmem writes it from Markdown: no turn ids, so turns are found by their text.
TRANSCRIPT = """---
session: conv-x-s1
---

# Transcript conv-x-s1

- user: Caroline: I went to a support group yesterday and it was powerful. <!-- observed: 2023-05-08T13:56:00 -->
- user: Melanie: That sounds great, I am painting a lake sunrise. <!-- observed: 2023-05-08T13:56:00 -->
- user: Caroline: I want to study counseling next year. <!-- observed: 2023-05-08T13:56:00 -->
- user: Melanie: Cool! <!-- observed: 2023-05-08T13:56:00 -->
"""
T = "transcripts/conv-x-s1.md"

MEMORY = f"""# Memory

- Caroline went to a support group on 7 May 2023. <!-- source: {T}#L7 --> <!-- importance: 8 -->
- Melanie is painting a lake sunrise. <!-- source: {T}#L8 -->
- Melanie is painting a lake sunrise at home. <!-- source: {T}#L8 -->
- Old fact. <!-- source: {T}#L9 --> <!-- status: superseded -->
- Melanie: Cool! [2023-05-08 13:56] <!-- source: {T}#L10 -->
- Ran mcp__clawmem__search with {{"q": "x"}} <!-- source: memory/2023-05-08.md#L3 -->
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "transcripts").mkdir()
    (tmp_path / T).write_text(TRANSCRIPT, encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text(MEMORY, encoding="utf-8")
    return tmp_path


def _scored(workspace: Path, bootstrap: str = "") -> tuple[list[dict[str, Any]], dict[str, Any]]:
    life = curation.locomo_life({k: SAMPLE[k] for k in ("sample_id", "conversation", "qa")})  # no observation: as the replay sees it
    lines = curation.memory_lines(workspace, bootstrap, curation.transcript_turns(workspace, life))
    facts = curation.observation_facts(SAMPLE, {t.id for s in life.sessions for t in s.turns})
    return lines, curation.pool([curation.score_run(lines, life, facts, len(MEMORY))])


def test_lines_cite_turns_found_by_text(workspace: Path) -> None:
    lines, _ = _scored(workspace)
    assert [line["line"] for line in lines] == [1, 2, 3, 4, 5]  # the superseded line is not counted or numbered
    assert [line["turns"] for line in lines] == [["D1:1"], ["D1:2"], ["D1:2"], ["D1:4"], []]


def test_precision_and_coverage_from_annotations(workspace: Path) -> None:
    _, scores = _scored(workspace)
    assert scores["lines"] == 5
    assert scores["precision_obs"] == pytest.approx(3 / 5)  # D1:4 is cited by a category-5 question only, never an observation
    assert scores["precision_gold"] == pytest.approx(3 / 5)  # category 5 evidence is not gold
    assert (scores["facts"], scores["facts_covered"]) == (3, 2)  # D9:9 is no turn; D1:3 is never cited
    assert (scores["questions"], scores["questions_covered"]) == (2, 1)
    assert scores["coverage_boot"] == 0.0  # nothing in the (empty) bootstrap block
    assert scores["no_one_named"] == 1


def test_text_patterns_duplicates_and_size(workspace: Path) -> None:
    _, scores = _scored(workspace)
    assert scores["speaker_label"] == 1
    assert scores["quoted_speech"] == 0
    assert scores["stamp_or_id"] == 1
    assert scores["tool_call"] == 1
    assert scores["transcript_tag"] == 0
    assert (scores["exact_pairs"], scores["near_pairs"]) == (0, 1)  # line 2's words are all in line 3
    assert scores["memory_chars"] == [len(MEMORY)] and scores["over_budget"] == 0
    assert curation.text_flags("user: Caroline said hi") == ["transcript_tag"]
    assert curation.text_flags("[D1:3] Caroline: hi") == ["stamp_or_id"]
    assert curation.text_flags("Caroline's group meets on 7 May 2023.") == []
    assert curation.text_flags("Caroline said: I want to study counseling.") == ["quoted_speech"]


def test_bootstrap_coverage(workspace: Path) -> None:
    _, scores = _scored(workspace, bootstrap=MEMORY)
    assert scores["coverage_boot"] == pytest.approx(0.5)


def test_review_export_has_turn_text_and_no_scores(workspace: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    lines, _ = _scored(workspace)
    out = tmp_path_factory.mktemp("out")
    run = {"src": "this checkout", "corpus": "locomo", "shape": "labels", "sample_id": "conv-x", "workspace": str(workspace), "lines": lines}
    folder = curation.write_review(out, [run])
    (review,) = folder.glob("*.md")
    text = review.read_text(encoding="utf-8")
    assert "## 1\n\n> Caroline went to a support group on 7 May 2023.\n" in text
    assert "> user: Caroline: I went to a support group yesterday and it was powerful." in text
    assert "importance" not in text and "source:" not in text and "this checkout" not in text and "(file not found)" in text
    key = json.loads((out / "review-key.json").read_text(encoding="utf-8"))
    assert key == {review.stem: {"src": "this checkout", "corpus": "locomo", "shape": "labels", "conversation": "conv-x", "lines": 5}}
    shares = curation.label_shares({review.stem: {"1": "useful", "2": "useful", "3": "duplicate", "5": "junk"}}, key)
    assert "| 4 / 5 | 0.500 | 0.000 | 0.000 | 0.250 | 0.250 |" in shares
    with pytest.raises(SystemExit):
        curation.label_shares({review.stem: {"1": "great"}}, key)


def test_shapes_put_scaffolding_in_the_text() -> None:
    life = curation.locomo_life(SAMPLE)
    session = life.sessions[0]
    assert curation.transcript(session, "labels", named=True).splitlines()[0] == "user: Caroline: I went to a support group yesterday and it was powerful."
    records = [json.loads(line) for line in curation.transcript(session, "ids", named=True).splitlines()]
    assert records[2] == {"role": "user", "speaker": "Caroline", "content": "[D1:3] Caroline: I want to study counseling next year.",
                          "timestamp": "2023-05-08T13:56:00", "id": "D1:3"}
    stamped = json.loads(curation.transcript(session, "timestamps", named=True).splitlines()[0])["content"]
    assert stamped.startswith("[2023-05-08 13:56] Caroline: ")
    plain = json.loads(curation.transcript(session, "jsonl", named=True).splitlines()[0])
    assert plain["content"] == "I went to a support group yesterday and it was powerful."


def test_a_realtalk_chat_is_read_as_sessions_and_questions(tmp_path: Path) -> None:
    """REALTALK's shape (a hand-made chat): each session ingested when its last message was sent,
    empty messages skipped, question evidence kept only for turns that exist."""
    chat = {
        "name": {"speaker_1": "Emi", "speaker_2": "elise"},
        "session_1": [
            {"clean_text": "Hey! How are you?", "speaker": "Emi", "date_time": "29.12.2023, 22:42:04", "dia_id": "D1:1"},
            {"clean_text": "I went to Tulum for spring break.", "speaker": "elise", "date_time": "30.12.2023, 00:32:20", "dia_id": "D1:2"},
            {"clean_text": " ", "speaker": "Emi", "date_time": "30.12.2023, 00:33:00", "dia_id": "D1:3"},
        ],
        "session_1_date_time": "29.12.2023, 22:42:04",
        "events_session_1": {"agent_a": [], "agent_b": []},
        "qa": [
            {"question": "Where did Elise go for spring break?", "answer": "Tulum", "evidence": ["D1:2"], "category": 1},
            {"question": "Unanswerable", "answer": "-", "evidence": ["D9:9"], "category": 2},
        ],
    }
    path = tmp_path / "Chat_7_Emi_Elise.json"
    path.write_text(json.dumps(chat), encoding="utf-8")
    life = curation.realtalk_life(path)
    assert (life.corpus, life.sample_id, life.speakers) == ("realtalk", "Chat_7_Emi_Elise", ("Emi", "elise"))
    (session,) = life.sessions
    assert [t.id for t in session.turns] == ["D1:1", "D1:2"]
    assert session.when == session.turns[-1].at and session.when.day == 30
    assert [(q.text, q.evidence) for q in life.questions] == [("Where did Elise go for spring break?", ("D1:2",))]
