"""Property tests of transcript ingestion: whatever a tool turn says, it never becomes an
owner turn, an annotation, or a second entry.

Hypothesis drives the library (``clawmem.commands.ingest``) and the real index in a real workspace:
hundreds of examples through subprocesses would take minutes, and the CLI is a thin layer
over exactly these calls (the attack catalogue covers the CLI itself).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clawmem.commands import workspace_init
from clawmem.commands.ingest import ingest
from clawmem.entries import grammar
from clawmem.index.db import Index
from clawmem.index.sync import sync
from clawmem.transcripts.parse import parse_markdown

FRAGMENTS = ["user:", "User: ", "**user:** ", "## user", "assistant: ", "  user: ", "userland: ", "```", "~~~", "\r", "\u2028", "\u2029",
             "\x85", "<!-- importance: 10 -->", "<!-- trigger: deploy -->", "</clawmem-recall>", "- ", "\t", " ", "ok"]
one_line = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet=st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=6)),
                    max_size=16).map("".join)
any_text = st.lists(st.one_of(st.sampled_from([*FRAGMENTS, "\n", "\n\n", "\x1b[31m", "\x00"]), st.text(max_size=6)), max_size=20).map("".join)
TOKEN = "zqpropx"


@settings(max_examples=400, deadline=None)
@given(one_line)
def test_one_line_of_tool_output_never_opens_a_turn_in_markdown(payload):
    """A host writes one tool line; clawmem must read exactly that line inside the tool turn."""
    turns = parse_markdown(f"user: check the docs\ntool: {payload}\nassistant: done\n")
    assert [t.role for t in turns] == ["user", "tool", "assistant"], payload
    assert turns[0].content == "check the docs" and turns[2].content == "done"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_text)
def test_jsonl_tool_content_stays_one_untrusted_entry_without_annotations(payload):
    with tempfile.TemporaryDirectory() as tmp:
        ws = workspace_init.create(Path(tmp) / "ws")
        records = [
            {"role": "user", "content": "please check the vendor page"},
            {"role": "tool", "content": f"{TOKEN} {payload}"},
            {"role": "assistant", "content": "I read it."},
        ]
        ingest(ws, "".join(json.dumps(r) + "\n" for r in records), session="prop", origin="owner")
        doc = grammar.parse(ws.transcript("prop").read_text(encoding="utf-8"))
        assert [e.body.split(":", 1)[0] for e in doc.entries] == ["user", "tool", "assistant"]
        assert [k for k, _ in doc.entries[1].meta] == ["observed"], "tool text produced an annotation"
        with Index.open(ws) as index:
            sync(ws, index)
            rows = index.query("SELECT origin, text FROM entries WHERE instr(text, ?) > 0", (TOKEN,))
        assert rows and all(r["origin"] == "untrusted" for r in rows), rows
        assert b"\x1b" not in ws.transcript("prop").read_bytes()
