"""Every attack in ``attacks.py`` fails against the installed ``clawmem`` (gates on).

Each test runs its attack through the real command line, in process (``cli_modes.call``: the
console script's entry point, ``tests/inproc.py``), in its own workspace, and asserts on the
outcome; the control tests run the same attack with the gates removed (``gates_off.py``'s
table, swapped in while each command runs). ``benchmarks/poisoning.py`` runs the same catalogue
as processes with the gates on and off, for contrast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import attacks  # noqa: E402
import cli_modes  # noqa: E402

from tests.conftest import require

GATES_ON, GATES_OFF = cli_modes.IN_PROCESS["on"], cli_modes.IN_PROCESS["off"]


@pytest.fixture
def outcomes(tmp_path):
    """Attack ``id`` against the installed ``clawmem``, gates on, in this test's directory."""
    return lambda attack_id: attacks.run_attack(attacks.by_id(attack_id), tmp_path / attack_id, GATES_ON)


@pytest.fixture
def controls(tmp_path):
    """The same attack with the gates removed (``gates_off.py``): the control group."""
    return lambda attack_id: attacks.run_attack(attacks.by_id(attack_id), tmp_path / attack_id, GATES_OFF)


def test_the_catalogue_is_broad():
    assert len(attacks.ATTACKS) >= 110
    assert len({a.id for a in attacks.ATTACKS}) == len(attacks.ATTACKS)
    assert {a.hole for a in attacks.ATTACKS if a.hole} == set(range(1, 12)), "every hole class of issue 11 has attacks"
    categories = {a.category for a in attacks.ATTACKS}
    assert {"remember-me", "owner-claim", "forged-annotation", "structure", "homoglyph", "minja", "flush-taint",
            "index-reset", "intent", "traversal", "bad-input"} <= categories


@pytest.mark.parametrize("attack_id", [a.id for a in attacks.ATTACKS])
def test_attack_fails(attack_id, outcomes):
    outcome = outcomes(attack_id)
    assert not outcome.succeeded, attacks.describe(outcome)
    for step in outcome.steps:
        assert "Traceback" not in step.stderr, attacks.describe(outcome)
    if outcome.kind == "refusal":
        for step in outcome.steps:
            if step.what.startswith("recall"):
                assert step.returncode == 0, attacks.describe(outcome)  # recall never fails a turn
            elif step.returncode is not None:
                assert step.returncode in (1, 2), attacks.describe(outcome)
                assert "clawmem: error:" in step.stderr or "Usage:" in step.stderr, attacks.describe(outcome)


# framing: explicit tools must keep untrusted text inside its frame -------------------------
def test_untrusted_note_stays_framed_in_search_and_get(tmp_path):
    outcome = attacks.run_attack(attacks.by_id("A01"), tmp_path / "framed", GATES_ON)
    assert outcome.framing == [], attacks.describe(outcome)


def test_forged_untrusted_content_tag_cannot_leave_the_frame(tmp_path):
    outcome = attacks.run_attack(attacks.by_id("C08"), tmp_path / "c08", GATES_ON)
    assert not outcome.succeeded, attacks.describe(outcome)
    assert outcome.framing == [], attacks.describe(outcome)


def test_untrusted_flush_lines_stay_framed_in_get(tmp_path):
    outcome = attacks.run_attack(attacks.by_id("G01"), tmp_path / "g01", GATES_ON)
    assert not outcome.succeeded, attacks.describe(outcome)
    assert outcome.framing == [], attacks.describe(outcome)


@pytest.mark.parametrize("control_id", [a.id for a in attacks.ATTACKS if a.unobservable is None])
def test_the_attack_succeeds_with_the_gates_removed(control_id, controls):
    """The control group: without the gates the detector does see every attack land, so a pass above means something."""
    outcome = controls(control_id)
    assert outcome.succeeded or outcome.framing, attacks.describe(outcome)  # injected, or printed outside its frame


def test_every_attack_without_a_control_says_why():
    for a in attacks.ATTACKS:
        assert a.unobservable is None or len(a.unobservable.split()) >= 6, f"{a.id}: say why the control cannot observe it"


def test_rebuilding_the_index_keeps_vectors_with_their_entries(ws, clawmem):
    from clawmem.embeddings import backend_status

    require(backend_status().get("available"), "no embedding model installed: the index has no vectors")
    for text, origin in (("owner one about deploys", "owner"), ("web says pipe curl", "untrusted"), ("owner two about builds", "owner")):
        assert clawmem("note", "add", text, "--origin", origin).returncode == 0
    assert clawmem("index", "-q").returncode == 0
    assert clawmem("note", "flush", "-", "--origin", "untrusted", input="- flushed web line\n").returncode == 0
    assert clawmem("note", "add", "owner three", "--origin", "owner").returncode == 0
    assert clawmem("index", "-q").returncode == 0
    assert clawmem("index", "--rebuild", "-q").returncode == 0
    hits = clawmem("search", "owner two about builds", "--json").json()["results"]
    assert not [h for h in hits if h["untrusted"]], "a search without --include-untrusted returned untrusted content"
    assert clawmem("audit", "--ci").returncode == 0
