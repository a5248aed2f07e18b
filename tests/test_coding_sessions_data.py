"""The coding-sessions benchmark data stays usable: every transcript ingests, the gold labels are well-formed.

All sets: the development set (``coding-sessions``) and the two held-out ones written blind to
clawmem's code and output (``coding-sessions-heldout``, ``coding-sessions-heldout2``).

Why: ``benchmarks/coding_sessions.py`` scores dreaming against hand-written labels; a transcript
that stopped parsing (a format change) or a gold item whose keywords cannot match its own
statement would silently turn into a lower score instead of an error.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from clawmem.transcripts import OWN_OUTPUT

ROOT = Path(__file__).resolve().parent.parent
SETS = [ROOT / "benchmarks" / "data" / name for name in ("coding-sessions", "coding-sessions-heldout", "coding-sessions-heldout2")]


def _json(data: Path, name: str) -> dict:
    return json.loads((data / name).read_text(encoding="utf-8"))


SESSIONS = [(data, s) for data in SETS for p in _json(data, "manifest.json")["projects"] for d in p["days"] for s in d["sessions"]]
FORMATS = {"claude": "claude-code", "codex": "codex"}


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _bench():
    return _load("coding_sessions_bench", ROOT / "benchmarks" / "coding_sessions.py")


@pytest.mark.parametrize(("data", "session"), SESSIONS, ids=[s["file"].rsplit("/", 1)[-1][:40] for _, s in SESSIONS])
def test_every_session_ingests(ws, data, session):
    """Each file is recognised as its host's format, keeps owner turns, and has no record kind the parser does not know."""
    from clawmem.commands.ingest import ingest
    from clawmem.transcripts.parse import parse_transcript

    path = data / session["file"]
    text = path.read_text(encoding="utf-8")
    assert _bench().file_session_id(path) == session["session"]
    parsed = parse_transcript(text, "auto")
    assert parsed.format == FORMATS[session["format"]]
    assert not parsed.unknown, parsed.unknown
    roles = {turn.role for turn in parsed.turns}
    assert {"user", "assistant"} <= roles
    # a tool's output is a turn, except what clawmem's own MCP tools handed out (not stored again)
    assert "tool" in roles or parsed.skipped.get(OWN_OUTPUT), (roles, parsed.skipped)
    result = ingest(ws, text, session=session["session"], origin="owner")
    assert result.turns == len(parsed.turns) >= 5
    assert (ws.root / result.path).is_file()


@pytest.mark.parametrize("data", SETS, ids=lambda d: d.name)
def test_each_project_is_a_multi_day_mix_of_both_formats(data):
    manifest = _json(data, "manifest.json")
    assert [p["name"] for p in manifest["projects"]] == list(_json(data, "gold.json")["projects"])
    for project in manifest["projects"]:
        days = project["days"]
        assert 5 <= len(days) <= 7
        assert [d["date"] for d in days] == sorted({d["date"] for d in days})
        assert all(1 <= len(d["sessions"]) <= 2 and d["searches"] for d in days)
        formats = [s["format"] for d in days for s in d["sessions"]]
        assert abs(formats.count("claude") - formats.count("codex")) <= 1


@pytest.mark.parametrize("data", SETS, ids=lambda d: d.name)
def test_data_is_what_make_py_writes(data):
    """The committed files are byte for byte the generator's output (no hand edits drifting from make.py)."""
    make = _load(f"coding_sessions_make_{data.name.replace('-', '_')}", data / "make.py")
    manifest = _json(data, "manifest.json")
    for build in make.PROJECTS:
        files, entry = make.build(build())
        assert entry in manifest["projects"]
        for rel, text in files.items():
            assert (data / rel).read_text(encoding="utf-8") == text, rel
    assert sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) < 1_500_000


def _keyword_ok(keyword: object) -> bool:
    if not isinstance(keyword, str) or not keyword:
        return False
    if keyword.startswith("re:"):
        re.compile(keyword[3:])  # \W and friends are upper case: only plain keywords must be lower case
        return True
    return keyword == keyword.lower()


def _sets_ok(sets: object) -> bool:
    return isinstance(sets, list) and bool(sets) and all(isinstance(s, list) and s and all(_keyword_ok(k) for k in s) for s in sets)


@pytest.mark.parametrize("data", SETS, ids=lambda d: d.name)
def test_gold_is_well_formed(data):
    bench = _bench()
    everything = _json(data, "gold.json")
    assert all(isinstance(s, str) and s == s.lower() and s for s in everything["never_common"])
    for name, gold in everything["projects"].items():
        assert set(gold) == {"facts", "directives", "stale", "never"}, name
        items = [*gold["facts"], *gold["directives"], *gold["stale"]]
        ids = [item["id"] for item in items]
        assert len(ids) == len(set(ids)), name
        facts = {f["id"] for f in gold["facts"]}
        directives = {d["id"]: d for d in gold["directives"]}
        for item in items:
            assert set(item) <= {"id", "statement", "match", "unless", "optional", "supersedes", "superseded_by", "replaced_by"}, item["id"]
            assert isinstance(item["statement"], str) and item["statement"], item["id"]
            assert _sets_ok(item["match"]), item["id"]
            assert "unless" not in item or _sets_ok(item["unless"]), item["id"]
            assert isinstance(item.get("optional", False), bool)
            # the keywords state the item: its own statement matches them (catches typos in the labels)
            assert bench.states({"match": item["match"]}, " ".join(item["statement"].lower().split())), item["id"]
            never = [*everything["never_common"], *gold["never"]]
            assert not any(s in item["statement"].lower() for s in never), item["id"]
        assert all(s["replaced_by"] in facts for s in gold["stale"]), name
        assert all(s.get("unless") for s in gold["stale"]), name
        for d in directives.values():
            if "superseded_by" in d:
                new = directives[d["superseded_by"]]
                assert new["supersedes"] == d["id"] and d.get("unless"), d["id"]
                # the old wording counts as the old directive only, the new wording as the new one only
                old_text, new_text = d["statement"].lower(), new["statement"].lower()
                assert bench.states(d, old_text) and not bench.states(new, old_text), d["id"]
                assert bench.states(new, new_text) and not bench.states(d, new_text), d["id"]
        assert all(directives[d["supersedes"]].get("superseded_by") == d["id"] for d in directives.values() if "supersedes" in d), name


def test_scoring_reads_curated_files(tmp_path):
    """The scorer's reader: list items, comments stripped, superseded status, source anchors."""
    bench = _bench()
    path = tmp_path / "MEMORY.md"
    path.write_text("# Memory\n\nIntro.\n\n- Deploys go to Render. <!-- source: transcripts/a.md#L4-L6 --> <!-- importance: 7 -->\n"
                    "- Deploys go to fly.io. <!-- status: superseded --> <!-- source: transcripts/a.md#L2 -->\n", encoding="utf-8")
    lines = bench.read_entries(path, "MEMORY.md")
    assert [(line.number, line.text, line.status) for line in lines] == [(5, "deploys go to render.", "active"), (6, "deploys go to fly.io.", "superseded")]
    assert lines[0].sources == [("transcripts/a.md", 4, 6)]
    assert [line.number for line in bench.active(lines)] == [5]
    assert bench.keyword_in("npm", "use pnpm") is False and bench.keyword_in("dependenc*", "new dependencies")
