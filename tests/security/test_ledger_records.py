"""A malformed or deeply nested ledger record is reported once, naming its line, and skipped.

The ledger is union-merged from every clone, so any line may come from anyone. Every record is
checked on read (``ledger.parse_record``: JSON, nesting depth, ``shape_problem``); a bad one is
warned about once per process and skipped like a torn record (the files it names lose their
recorded provenance, so their unrecorded lines are untrusted). No writer fails: ``note add``,
``index``, ``search``, ``dream``, ``audit`` and ``report``. Gates off (rules 20 and 24), the
deep record is a RecursionError and the mistyped one a crash.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import cli_modes  # noqa: E402

DEEP = '{"t":"entry","path":"memory/x.md","hash":' + "[" * 100_000 + "]" * 100_000 + "}"
BAD = [
    DEEP,
    json.dumps({"t": "entry", "path": ["memory/x.md"], "hash": "ab", "origin": "owner", "kind": "interactive"}),
    json.dumps({"t": "taint", "path": "memory/y.md", "origin": {"a": 1}}),
    json.dumps({"t": "returned", "hash": ["x"], "path": "p"}),
    json.dumps({"t": "tombstone", "hash": ["x"], "path": "p"}),
    json.dumps({"t": "lift", "forget": "f", "sessions": 7}),
    json.dumps([1, 2]),
]
WRITERS = [
    ("note", "add", "the deploy key rotates monthly", "--origin", "owner"),
    ("index",), ("search", "deploy"), ("dream",), ("audit",), ("report",),
]


def _poisoned(workdir, records):
    cli_modes.workspace(workdir)
    ledger = workdir / "ws" / ".clawmem" / "provenance.jsonl"
    first = len(ledger.read_bytes().splitlines()) + 1
    with open(ledger, "a", encoding="utf-8") as handle:
        handle.write("".join(r + "\n" for r in records))
    return first


@pytest.mark.parametrize("writer", WRITERS, ids=lambda w: w[0])
def test_no_writer_fails_and_each_bad_line_is_named_once(tmp_path, writer):
    first = _poisoned(tmp_path, BAD)
    result = cli_modes.run("on", tmp_path, *writer)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    if writer[0] != "note":  # note add appends without reading the ledger
        for number in range(first, first + len(BAD)):
            assert result.stderr.count(f"provenance.jsonl line {number}:") == 1, result.stderr


def test_the_files_a_skipped_record_names_lose_their_provenance(tmp_path):
    _poisoned(tmp_path, [json.dumps({"t": "entry", "path": "memory/2026-11-20.md", "hash": 5, "origin": "owner", "kind": "interactive"})])
    (tmp_path / "ws" / "memory" / "2026-11-20.md").write_text("# 2026-11-20\n\n- zqplanted line nobody recorded\n")
    found = json.loads(cli_modes.run("on", tmp_path, "--json", "search", "zqplanted", "--include-untrusted").stdout)
    assert [r["origin"] for r in found["results"]] == ["untrusted"]


@pytest.mark.parametrize("record", [BAD[0], BAD[1]], ids=["deep", "mistyped"])
def test_with_the_rules_off_one_record_breaks_the_index(tmp_path, record):
    _poisoned(tmp_path, [record])
    result = cli_modes.run("off", tmp_path, "index")
    assert result.returncode != 0 and ("unexpected" in result.stderr or "Traceback" in result.stderr), result.stderr[-300:]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ["path", "hash", "origin", "kind", "session", "lines", "sessions", "hashes", "paths", "keywords", "records", "from", "id", "at", "op"]
# the lists of strings readers iterate, per record type (index sync, forget and undo, team, accept)
LISTS_READ = {"torn": ("lines",), "lift": ("hashes", "sessions"), "repair": ("paths",), "intent": ("keywords",),
              "accept": ("records", "lines", "from")}
KNOWN = ["init", "entry", "taint", "torn", "repair", "transcript", "tombstone", "lift", "forget", "returned", "promote", "aspiration", "intent", "accept"]


@given(kind=st.sampled_from(KNOWN), fields=st.dictionaries(st.sampled_from(FIELDS), json_values), depth=st.integers(0, 3000))
def test_a_record_read_back_is_one_a_reader_can_use(kind, fields, depth):
    """Whatever the shape or depth, parsing never raises, and an accepted record has the types readers use."""
    from clawmem.storage import ledger

    line = json.dumps({"t": kind, **fields})
    if depth:
        line = line[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    record, problem = ledger.parse_record(line.encode())
    assert (record is None) != (problem is None)
    if record is not None:
        for name in ("path", "hash", "origin", "session", "at"):
            assert record.get(name) is None or isinstance(record[name], str)
        for name in LISTS_READ.get(kind, ()):
            if name in record:
                assert isinstance(record[name], list) and all(isinstance(v, str) for v in record[name])
