"""The entry grammar on real files: byte round-trip, metadata, malformed input."""

from __future__ import annotations

import pytest

from clawmem.entries import grammar

HAND_EDITED = (
    "---\ntitle: notes\n---\n"
    "# Memory\n\nSome prose the owner wrote.\nIt spans lines.\n\n"
    "- Keep the gateway on loopback. <!-- trigger: gateway setup, network safety --> <!-- importance: 9 -->\n"
    "* Use the release helper. <!-- project: github.com/openclaw/openclaw -->\n"
    "1. Always answer in British English. <!-- key: language --> <!-- observed: 2026-11-29 --> <!-- status: active -->\n"
    "- multi line entry\n  continues here\n    - nested item stays inside\n"
    "- bad importance <!-- importance: 11 --> <!-- mystery comment --> <!-- color: blue -->\n"
    "-not a list item\n"
    "- trailing spaces   \r\n"
    "- no newline at end"
)


def test_unchanged_file_round_trips_byte_for_byte(tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_bytes(HAND_EDITED.encode())
    text = path.read_bytes().decode()
    assert grammar.parse(text).render().encode() == path.read_bytes()


@pytest.mark.parametrize(
    "text",
    ["", "\n", "- a", "---\nunclosed frontmatter\n- x\n", "\r\n\r\n- crlf\r\n", "# only heading", "  - indented\n\tx\n", "- <!-- -->\n"],
)
def test_edge_cases_round_trip(text):
    assert grammar.parse(text).render() == text


def test_metadata_is_parsed_from_trailing_comments():
    entries = grammar.parse(HAND_EDITED).entries
    gateway = entries[0]
    assert gateway.body == "Keep the gateway on loopback."
    assert gateway.triggers == ["gateway setup", "network safety"]
    assert gateway.importance == 9
    assert entries[1].projects == ["github.com/openclaw/openclaw"]
    assert entries[1].marker == "*"
    british = entries[2]
    assert (british.key, british.observed, british.status) == ("language", "2026-11-29", "active")


def test_continuation_lines_stay_in_one_entry():
    entries = grammar.parse(HAND_EDITED).entries
    multi = entries[3]
    assert multi.body == "multi line entry\ncontinues here\n- nested item stays inside"
    assert (multi.line_start, multi.line_end) == (12, 14)


def test_malformed_annotations_are_reported_and_unknown_comments_kept():
    entry = grammar.parse(HAND_EDITED).entries[4]
    assert entry.importance is None
    assert any("importance" in p for p in entry.problems())
    assert "<!-- mystery comment -->" in entry.comments
    assert ("color", "blue") in entry.meta


def test_text_that_is_not_a_list_item_is_not_an_entry():
    bodies = [e.body for e in grammar.parse(HAND_EDITED).entries]
    assert "-not a list item" not in " ".join(bodies)


def test_project_keys_escape_semicolons():
    rendered = grammar.render_entry("x", [("project", grammar.escape_project("a/b;c"))])
    entry = grammar.parse(rendered).entries[0]
    assert entry.projects == [r"a/b\;c"]
    assert not entry.problems()
    bad = grammar.parse("- x <!-- project: a/b;c/d -->\n").entries[0]
    assert bad.projects == ["a/b", "c/d"]
    assert any("unescaped" in p for p in bad.problems())


def test_render_keeps_multiline_text_as_one_entry_and_values_inert():
    rendered = grammar.render_entry("first\n- second\n# third", [("trigger", "a --> b <!-- c")])
    doc = grammar.parse(rendered)
    assert len(doc.entries) == 1
    assert doc.entries[0].body == "first\n- second\n# third"
    assert doc.entries[0].triggers == ["a b c"]


def test_problems_cover_each_known_key():
    entry = grammar.parse("- x <!-- status: maybe --> <!-- observed: soon --> <!-- trigger: , -->\n").entries[0]
    problems = " ".join(entry.problems())
    assert "status" in problems and "observed" in problems and "trigger" in problems
