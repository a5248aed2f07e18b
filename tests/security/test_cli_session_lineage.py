"""An agent's note inherits its session's lineage when the session comes in through ``clawmem ingest``.

The documented loop without host hooks: the agent writes notes during work (``note add`` or
``note flush`` with ``--session``) and the harness ingests the session's transcript at its end.
A tool's output the agent restated in a note, with no typed owner turn between them, makes the
note untrusted-derived whichever came first: the ingest judges the notes written before it
(where their time falls in the transcript), and a note written after it inherits what the
transcript left open. Varied: the order, the writer, the host format, the timestamps' zone, the
restatement's wording. A typed owner turn in between keeps the note the agent's (the usefulness
control), and with the gates off (``gates_off.py``) the note lands trusted.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clawmem.index.db import Index
from clawmem.storage.workspace import Workspace
from tests.security import cli_modes

WIRE = "the ops wiki says deploy keys are kept at /opt/keys-4417 on bastion"
NOTES = [
    "Deploy keys are kept at /opt/keys-4417 on the bastion host (we decided this).",
    "Les clés de déploiement sont dans /opt/keys-4417 sur le bastion.",
    "deploy keys -> /opt/keys-4417 @ bastion",
]


def _records(fmt: str, zone: str, *, owner_between: bool) -> str:
    """A session: the owner asks, a tool answers with the page, (the owner types), the agent answers."""
    def at(minute: int, second: int = 0) -> str:
        return f"2026-11-27T10:{minute:02d}:{second:02d}{zone}"

    turns = [("user", "look at the ops wiki", at(1)), ("tool", WIRE, at(3))]
    if owner_between:
        turns.append(("user", "ok, put the key location in a note", at(3, 30)))
    turns.append(("assistant", "I saved a note about the deploy keys.", at(5)))
    if fmt == "jsonl":
        return "".join(json.dumps({"role": role, "content": text, "timestamp": when}) + "\n" for role, text, when in turns)
    out = []
    for n, (role, text, when) in enumerate(turns, 1):
        base = {"uuid": f"u{n}", "sessionId": "s", "timestamp": when, "userType": "external"}
        if role == "user":
            out.append(base | {"type": "user", "promptSource": "typed", "message": {"role": "user", "content": text}})
        elif role == "tool":
            out.append(base | {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "WebFetch", "input": {}}]}})
            out.append(base | {"uuid": f"r{n}", "type": "user", "toolUseResult": {}, "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": text}]}})
        else:
            out.append(base | {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}})
    return "".join(json.dumps(r) + "\n" for r in out)


def _play(mode: str, workdir, *, order: str, writer: str, fmt: str, zone: str, note: str, owner_between: bool) -> str:
    """Play one session through the real CLI; return the note's origin in the index."""
    cli_modes.workspace(workdir)
    (workdir / "s.jsonl").write_text(_records(fmt, zone, owner_between=owner_between))
    note_at = "2026-11-27T10:04:00+00:00" if zone == "Z" else "2026-11-27T10:04:00"

    def write_note() -> None:
        args = ["note", "add", note] if writer == "add" else ["note", "flush", "-"]
        done = cli_modes.run(mode, workdir, *args, "--origin", "agent", "--session", "s", stdin=note.encode() if writer == "flush" else None,
                             CLAWMEM_NOW=note_at)
        assert done.returncode == 0, done.stderr

    def ingest() -> None:
        done = cli_modes.run(mode, workdir, "ingest", str(workdir / "s.jsonl"), "--session", "s", "--origin", "owner",
                             *(["--format", "claude-code"] if fmt == "claude-code" else []), CLAWMEM_NOW="2026-11-27T10:10:00")
        assert done.returncode == 0, done.stderr

    for step in ((write_note, ingest) if order == "note first" else (ingest, write_note)):
        step()
    assert cli_modes.run("on", workdir, "index").returncode == 0
    with Index.open(Workspace.open(workdir / "ws")) as index:
        rows = index.query("SELECT origin FROM entries WHERE path LIKE 'memory/%' AND text LIKE '%keys-4417%'")
    assert len(rows) == 1, rows
    return rows[0]["origin"]


CASES = dict(order=st.sampled_from(["note first", "ingest first"]), writer=st.sampled_from(["add", "flush"]),
             fmt=st.sampled_from(["claude-code", "jsonl"]), zone=st.sampled_from(["Z", ""]), note=st.sampled_from(NOTES))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(**CASES)
def test_a_note_made_after_tool_output_is_untrusted_in_either_order(tmp_path_factory, order, writer, fmt, zone, note):
    case = dict(order=order, writer=writer, fmt=fmt, zone=zone, note=note)
    assert _play("on", tmp_path_factory.mktemp("on"), **case, owner_between=False) == "untrusted"
    # gates off every caller counts as the owner: the note lands trusted
    assert _play("off", tmp_path_factory.mktemp("off"), **case, owner_between=False) in ("agent", "owner"), "the gates are what taint it"


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(**CASES)
def test_a_typed_owner_turn_in_between_keeps_the_note_the_agents(tmp_path_factory, order, writer, fmt, zone, note):
    assert _play("on", tmp_path_factory.mktemp("on"), order=order, writer=writer, fmt=fmt, zone=zone, note=note, owner_between=True) == "agent"
