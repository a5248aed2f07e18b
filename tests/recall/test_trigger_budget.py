"""The trigger lane's time-budget cut-off: a vector lane that cannot answer in time is dropped.

The budget here is a ``Budget`` whose clock says "not expired, nothing left": the state at
the instant the lexical lane has used up the turn. That makes the cut-off deterministic
(no sleeping, no timing): the embedder thread cannot have answered in zero seconds.
"""

from __future__ import annotations

import pytest

from clawmem.index.maintain import open_synced
from clawmem.recall import triggers
from clawmem.recall.budget import Budget


class SpentBudget(Budget):
    """The moment the budget runs out: not yet expired, zero time left."""

    def expired(self) -> bool:
        return False

    def remaining_s(self, *, floor: float = 0.0) -> float:
        return floor


@pytest.mark.model
def test_a_vector_lane_past_the_budget_is_cut_off_and_said(ws, clawmem):
    ws.memory_md.write_text("# Memory\n\n- Keep the gateway on loopback. <!-- trigger: gateway network safety -->\n")
    assert clawmem("index").returncode == 0
    index, _ = open_synced(ws)
    degraded: list[str] = []
    with index:
        hits = triggers.match(ws, index, "is our edge router exposed to the internet?", [], SpentBudget(250), degraded)
    assert hits == []
    assert "vector trigger matching cut off by the time budget; lexical only this turn" in degraded


def test_an_expired_budget_skips_the_vector_lane_but_lexical_matches_still_inject(ws, clawmem):
    ws.memory_md.write_text("# Memory\n\n- Keep the gateway on loopback. <!-- trigger: gateway network safety -->\n")
    assert clawmem("index").returncode == 0
    index, _ = open_synced(ws)
    spent = Budget(1)
    spent.started -= 1.0  # a second ago: long expired
    degraded: list[str] = []
    with index:
        hits = triggers.match(ws, index, "check the gateway network safety first", [], spent, degraded)
    assert [h.phrase for h in hits] == ["gateway network safety"]
    assert hits[0].vector is None
