"""Hole class 5, the control group: each hostile-consolidator attack lands with the gates off.

``test_attacks.py`` runs every attack of the catalogue (these included) with the gates on and
requires it to fail; here the same attacks run through ``gates_off.py`` (the real CLI with the
grounding, structure, metadata, retirement and isolation gates replaced) and must succeed, so
the gates, not the attack's own clumsiness, are what stop them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import attacks  # noqa: E402

HOLE_5 = [a.id for a in attacks.ATTACKS if a.hole == 5]


def test_hole_5_has_its_attacks():
    assert len(HOLE_5) >= 8


@pytest.mark.parametrize("attack_id", HOLE_5)
def test_the_attack_lands_with_the_gates_off(attack_id, tmp_path):
    outcome = attacks.run_attack(attacks.by_id(attack_id), tmp_path / attack_id, attacks.gates_off())
    log = "\n".join(f"[{s.returncode}] {s.what}\n  {s.stderr.strip()[:300]}\n  {s.stdout.strip()[:600]}" for s in outcome.steps)
    assert outcome.succeeded, log
