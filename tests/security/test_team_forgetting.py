"""A tombstone, a lift or an aspiration's state a pull brought acts here only once accepted.

``clawmem forget`` writes ``tombstone`` records (writers never store that session or text
again) and ``forget --undo`` a ``lift``. A collaborator who appends such records to the shared
ledger must not silence this owner's facts or sessions, nor bring back what this owner forgot;
nor mark this owner's aspiration as escalated. The planted record is unsealed, or carries this
copy's public writer id copied (a seal cannot be copied), as a pull would bring it. Real ledger,
real CLI; each control switches the team rule off (``team.counts_here``, rule 26 of
``gates_off.py``) and sees the planted record act.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clawmem.commands import workspace_init
from clawmem.entries import identity
from clawmem.storage import ledger
from clawmem.storage.workspace import Workspace
from clawmem.trust import team

FACT = "zqport: the staging proxy listens on 8443"
SESSION = "standup-7"
TRANSCRIPT = json.dumps({"role": "user", "content": "zqdeploy moved to the blue cluster on Monday"}) + "\n"


def _plant(ws: Workspace, record: dict, *, copied_writer: bool) -> None:
    if copied_writer:
        record = {**record, "by": team.this_copy(ws).writer, "seq": 999, "mac": "0" * 16}
    with ws.ledger_path.open("a") as f:
        f.write(json.dumps({**record, "at": "2026-11-30T10:00:00+00:00"}) + "\n")


def _team_rule_off(monkeypatch) -> None:
    monkeypatch.setattr(team, "counts_here", lambda found, record: True)


def _ingest(clawmem):
    return clawmem("ingest", "-", "--session", SESSION, "--format", "jsonl", "--origin", "owner", input=TRANSCRIPT)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(copied_writer=st.booleans(), by=st.sampled_from(["hash", "session"]))
def test_a_pulled_tombstone_silences_nothing(tmp_path_factory, copied_writer, by):
    ws = workspace_init.create(tmp_path_factory.mktemp("tomb") / "ws")
    planted = {"t": "tombstone", "forget": "f-planted"} | ({"hash": identity.text_hash(FACT)} if by == "hash" else {"session": SESSION})
    _plant(ws, planted, copied_writer=copied_writer)
    assert ledger.tombstones(ws).hashes == frozenset()
    assert ledger.tombstones(ws).sessions == frozenset()


@pytest.mark.parametrize("channel", ["note", "ingest"])
def test_the_owner_still_writes_what_a_pulled_tombstone_names(ws, clawmem, channel):
    if channel == "note":
        _plant(ws, {"t": "tombstone", "hash": identity.text_hash(FACT), "forget": "f-planted"}, copied_writer=False)
        added = clawmem("note", "add", FACT, "--origin", "owner", "--json")
        assert added.returncode == 0, added.stderr
        assert added.json()["written"] is True
    else:
        _plant(ws, {"t": "tombstone", "session": SESSION, "forget": "f-planted"}, copied_writer=True)
        done = _ingest(clawmem)
        assert done.returncode == 0, done.stderr
        assert "blue cluster" in (ws.root / "transcripts" / f"{SESSION}.md").read_text()


def test_control_with_the_team_rule_off_a_pulled_tombstone_silences_the_owner(ws, monkeypatch):
    _plant(ws, {"t": "tombstone", "hash": identity.text_hash(FACT), "session": SESSION, "forget": "f-planted"}, copied_writer=False)
    _team_rule_off(monkeypatch)
    assert identity.text_hash(FACT) in ledger.tombstones(ws).hashes
    assert SESSION in ledger.tombstones(ws).sessions


def test_a_pulled_lift_does_not_bring_back_a_forgotten_session(ws, clawmem, monkeypatch):
    assert _ingest(clawmem).returncode == 0
    forgot = clawmem("forget", "--session", SESSION, "--yes")
    assert forgot.returncode == 0, forgot.stderr
    _plant(ws, {"t": "lift", "sessions": [SESSION], "hashes": [], "forget": "f-planted"}, copied_writer=True)
    again = _ingest(clawmem)
    assert again.returncode != 0 and "was forgotten" in again.stderr
    _team_rule_off(monkeypatch)  # control: the planted lift takes the owner's tombstone back
    assert SESSION not in ledger.tombstones(ws).sessions


def test_the_owners_own_forget_and_undo_still_act(ws, clawmem):
    assert _ingest(clawmem).returncode == 0
    forgot = clawmem("forget", "--session", SESSION, "--yes")
    assert forgot.returncode == 0, forgot.stderr
    assert SESSION in ledger.tombstones(ws).sessions
    forget_id = next(r["forget"] for r in ledger.read(ws).records if r.get("t") == "tombstone")
    undone = clawmem("forget", "--undo", forget_id, "--yes")
    assert undone.returncode == 0, undone.stderr
    assert SESSION not in ledger.tombstones(ws).sessions


def test_an_accepted_tombstone_acts(ws, clawmem):
    _plant(ws, {"t": "tombstone", "hash": identity.text_hash(FACT), "forget": "f-planted"}, copied_writer=False)
    accepted = clawmem("accept", "--all", "--yes")
    assert accepted.returncode == 0, accepted.stderr
    assert identity.text_hash(FACT) in ledger.tombstones(ws).hashes
