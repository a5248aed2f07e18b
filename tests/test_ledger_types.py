"""The typed ledger (``clawmem.storage.ledger_records``): one type per record kind, the shape check derived from
the types, and the bytes on disk unchanged.

``tests/data/ledger/previous-version.jsonl`` is a ledger the clawmem before the types wrote, every
kind through its own writer (the clock pinned to ``AT``; sealed by the copy that wrote it, with a
torn record and its repair); ``previous-records.jsonl`` holds the same records unsealed, as each
writer handed them to ``ledger.append``. They must read as they did, and each constructor must
write the same bytes for the same inputs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from clawmem.foundation import config
from clawmem.intents import store
from clawmem.storage import ledger, ledger_records
from clawmem.storage.ledger_records import KIND_NAMES, SHAPES, Stamp, is_kind, shape_problem

DATA = Path(__file__).parent / "data" / "ledger"
PREVIOUS = DATA / "previous-version.jsonl"
AT = "2026-11-27T09:00:00+00:00"
E = {"origin": "agent", "session_kind": "interactive", "session": "s-1", "observed": "2026-11-27T08:59:00"}
ROW = {
    "id": 7, "kind": "event", "text": "mention the runbook", "keywords": ["deploy", "déploiement"], "channel": None, "sender": None,
    "origin": "owner", "session": None, "created_at": AT, "due_at": None, "expires_at": "2026-12-27T09:00:00+00:00", "cooldown_s": 86400,
    "budget": 3,
}
F1, F2 = "f-20261127T090000-1a2b3c", "f-20261127T090100-4d5e6f"
rec = ledger_records
# the records of previous-records.jsonl, line by line, built by the constructors from the inputs the writers had
BUILT: list[Callable[[], ledger_records.KnownRecord]] = [
    lambda: rec.entry_record("memory/2026-11-27.md", "h-plain", **E),
    lambda: rec.entry_record("MEMORY.md", "h-curated", origin="owner", session_kind="interactive", session=None, observed=None),
    lambda: rec.entry_record("memory/2026-11-27.md", "h-derived", **E, derived_from="untrusted memory/quarantine/2026-11-27.md#L3",
                           source="https://example.org/ü"),
    lambda: rec.entry_record("transcripts/s-1.md", "h-lineage", **E, lineage="tool turn 3 of transcripts/s-1.md"),
    lambda: rec.entry_record("transcripts/s-1.md", "h-lifted", **E, lifted_by="user turn 4 of transcripts/s-1.md"),
    lambda: rec.taint_record("memory/2026-11-27.md", "agent"),
    lambda: rec.torn_record("memory/2026-11-26.md", b"- a torn half li"),
    lambda: rec.transcript_record("transcripts/s-1.md", "owner", "interactive"),
    lambda: rec.transcript_record("transcripts/s-2.md", "owner", "interactive", session="s-2", host="claude-code"),
    lambda: rec.returned_record("h-returned", "memory/quarantine/2026-11-27.md"),
    lambda: rec.accept_record(["d1"], ["h2 MEMORY.md"], ["hand", "w1"]),
    lambda: rec.promote_record("MEMORY.md", "95e41b84da60fef9f0d5", source="memory/2026-11-27.md#L4", source_hash="h-src",
                             source_origin="owner", source_kind="interactive", overridden=["not owner-approved"], decided_by="owner"),
    lambda: rec.intent_add_record(ROW),
    lambda: rec.intent_op_record("fire", 7, "2026-11-27T09:30:00+00:00"),
    lambda: rec.intent_op_record("cancel", 7, "2026-11-27T10:00:00+00:00"),
    lambda: rec.forget_record(F1, mode="session", entries=2, hashes=2, session="s-1", at=AT),
    lambda: rec.session_tombstone("s-1", F1, AT),
    lambda: rec.hash_tombstone("h-a", "memory/a.md", F1, AT),
    lambda: rec.hash_tombstone("h-b", "memory/b.md", F1, AT),
    lambda: rec.forget_record(F2, mode="text", entries=1, hashes=1, session=None, at="2026-11-27T09:01:00+00:00"),
    lambda: rec.hash_tombstone("h-c", "MEMORY.md", F2, "2026-11-27T09:01:00+00:00"),
    lambda: rec.aspiration_record("a-1", "escalated", path="memory/2026-11-01.md", line=4, review="2026-11-10", at=AT),
    lambda: rec.lift_record(F1, ["h-a", "h-b"], ["s-1"]),
    lambda: rec.lift_record(F2, ["h-c"]),
    lambda: rec.taint_record("memory/2026-11-25.md", "untrusted"),
]
# older forms still in ledgers: records from before seals, tombstones from before forget ids and undo
OLDER = [
    '{"t": "tombstone", "session": "s-0", "at": "2026-10-01T09:00:00+00:00"}',
    '{"t": "tombstone", "hash": "h-0", "path": "memory/2026-10-01.md", "at": "2026-10-01T09:00:00+00:00"}',
    '{"t": "entry", "path": "memory/2026-10-01.md", "hash": "h-1", "origin": "owner", "kind": "interactive", "at": "2026-10-01T09:00:00"}',
]


@pytest.fixture
def pinned(monkeypatch):
    monkeypatch.setenv("CLAWMEM_NOW", AT)


def test_a_ledger_the_previous_version_wrote_reads_as_it_did(ws, capsys):
    lines = PREVIOUS.read_bytes().splitlines(keepends=True)
    ws.ledger_path.write_bytes(b"".join(lines) + "".join(line + "\n" for line in OLDER).encode())
    read = ledger.read(ws)
    header = json.loads(lines[0])
    whole = [json.loads(line) for line in lines[1:] if b'"h-to\n' not in line] + [json.loads(line) for line in OLDER]
    assert read.ledger_id == header["id"]
    assert read.records == whole
    assert read.damaged == (frozenset({"memory/2026-11-27.md"}),)  # the torn record, repaired by the record after it
    assert read.offset == ws.ledger_path.stat().st_size
    assert "record skipped" not in capsys.readouterr().err
    assert {r["t"] for r in read.records} | {header["t"]} == set(KIND_NAMES.values())  # every kind is in the fixture
    assert all(shape_problem(r) is None for r in [header, *whole])


def test_each_constructor_writes_the_bytes_the_previous_version_wrote(pinned):
    previous = (DATA / "previous-records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(previous) == len(BUILT)
    for line, build in zip(previous, BUILT, strict=True):
        record = build()
        assert json.dumps({**record, "at": json.loads(line)["at"]}, ensure_ascii=False) == line
        assert record["at"] in (AT, json.loads(line)["at"])


def test_the_header_and_the_repair_are_written_as_before(pinned):
    lines = PREVIOUS.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert json.dumps({**ledger_records.init_record(header["id"]), "at": header["at"]}) == lines[0]
    repair = next(line for line in lines if '"repair"' in line)
    unsealed = {k: v for k, v in json.loads(repair).items() if k not in (config.WRITER_FIELD, config.SEQ_FIELD, config.SEAL_FIELD)}
    assert json.dumps(ledger_records.repair_record(60, ["memory/2026-11-27.md"]), ensure_ascii=False) == json.dumps(unsealed, ensure_ascii=False)


def built_by_kind() -> dict[str, ledger_records.KnownRecord]:
    found: dict[str, ledger_records.KnownRecord] = {
        "init": ledger_records.init_record("0" * 32), "repair": ledger_records.repair_record(60, ["memory/2026-11-27.md"]),
    }
    for build in BUILT:
        found.setdefault(build()["t"], build())
    return found


def test_every_kind_has_a_constructor_whose_records_pass_the_check_of_their_type():
    built = built_by_kind()
    assert set(built) == set(KIND_NAMES.values()) == set(SHAPES)
    for kind, record in built.items():
        assert shape_problem(record) is None, kind
        assert [k for k, name in KIND_NAMES.items() if is_kind(record, k)] == [k for k, name in KIND_NAMES.items() if name == kind]


@pytest.mark.parametrize(("kind", "key"), [(kind, key) for kind, shape in SHAPES.items() for key, (_, required) in shape.items() if required])
def test_a_record_without_a_required_key_of_its_kind_is_named(kind, key):
    record = {k: v for k, v in built_by_kind()[kind].items() if k != key}
    assert shape_problem(record) == f"a {kind!r} record without {key}"


def test_every_kind_requires_what_readers_index_and_nothing_an_older_record_lacks():
    required = {kind: sorted(key for key, (_, needed) in shape.items() if needed) for kind, shape in SHAPES.items()}
    assert required == {
        "init": ["id"], "entry": ["hash", "kind", "origin", "path"], "taint": ["origin", "path"], "torn": ["lines", "path"], "repair": [],
        "transcript": ["origin", "path"], "tombstone": [], "lift": [], "forget": ["id"], "returned": ["hash"], "promote": ["hash", "path"],
        "aspiration": ["id", "state"], "intent": ["op"], "accept": [],
    }


@pytest.mark.parametrize(("record", "problem"), [
    ({"t": "torn", "path": "memory/a.md", "lines": [], "bytes": "16"}, "a 'torn' record whose bytes is str"),
    ({"t": "forget", "id": "f-1", "entries": "2"}, "a 'forget' record whose entries is str"),
    ({"t": "intent", "op": "add", "budget": 2.5}, "a 'intent' record whose budget is float"),
    ({"t": "aspiration", "id": "a", "state": "escalated", "line": True}, "a 'aspiration' record whose line is bool"),
    ({"t": "promote", "path": "MEMORY.md", "hash": "h", "overridden": ["ok", 3]}, "a 'promote' record whose overridden is list"),
    ({"t": "entry", "path": "p", "hash": "h", "origin": "owner", "kind": "interactive", "seq": True}, "a 'entry' record whose seq is bool"),
    ({"t": "tombstone", "forget": None}, "a 'tombstone' record whose forget is NoneType"),
    ({"t": "from-a-newer-clawmem", "path": ["p"]}, "a 'from-a-newer-clawmem' record whose path is list"),
])
def test_every_field_of_a_kind_is_checked_against_its_type(record, problem):
    assert shape_problem(record) == problem


def test_a_kind_this_version_does_not_know_passes_on_its_common_fields():
    assert shape_problem({"t": "from-a-newer-clawmem", "path": "memory/a.md", "anything": {"else": [1]}, "at": AT}) is None
    assert shape_problem({"t": "", "path": "memory/a.md"}) == "no record type (t)"


def test_the_stamp_names_the_seal_fields_of_the_team_rules():
    assert set(Stamp.__annotations__) == {"at", config.WRITER_FIELD, config.SEQ_FIELD, config.SEAL_FIELD}


def test_an_intent_add_record_mirrors_every_column_but_the_state():
    mirrored = set(store.COLUMNS) - {"state", "armed_at", "fires", "last_fired_at", "ended_at"}
    added = ledger_records.intent_add_record(ROW)
    assert mirrored <= set(added) and mirrored <= set(ledger_records.IntentRecord.__annotations__)
