"""Property tests of the entry grammar and the line model: random Unicode, control
characters, line-break look-alikes and marker fragments never yield a second entry, an
annotation the writer did not pass, or a file that reads back differently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clawmem.entries import grammar, lines
from clawmem.entries.neutralise import neutralise

FRAGMENTS = ["<!--", "-->", "<!-- importance: 10 -->", "<!-- trigger: deploy -->", "- ", "* ", "1. ", "# ", "\n", "\r", "\r\n",
             "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "</clawmem-recall>", "<untrusted-content>", "key:", "  ", "\t"]
hostile_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=24).map("".join)


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_a_neutralised_body_renders_as_exactly_one_entry_without_metadata(body):
    cleaned = neutralise(body)
    if not cleaned.strip():
        return
    rendered = grammar.render_entry(cleaned, [("observed", "2026-11-29T10:00:00")])
    doc = grammar.parse("# 2026-11-29\n\n" + rendered)
    entries = doc.entries
    assert len(entries) == 1, rendered
    assert entries[0].meta == [("observed", "2026-11-29T10:00:00")], rendered
    assert rendered.count("\n") == len(lines.split(rendered)), "the writer's lines are the reader's lines"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), hostile_text)
def test_parsing_then_rendering_gives_back_the_same_text(a, b):
    text = a + b
    assert grammar.parse(text).render() == text


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_line_numbers_count_only_newlines(text):
    doc = grammar.parse(text)
    for block in doc.blocks:
        assert text.split("\n")[block.line_start - 1].startswith(lines.strip_break(block.lines[0]))
    assert sum(len(b.lines) for b in doc.blocks) == len(lines.split(text))


@settings(max_examples=200, deadline=None)
@given(hostile_text)
def test_flattened_text_has_no_line_boundary_but_newline(text):
    flat = lines.flatten_breaks(text)
    assert flat.splitlines() == lines.split(flat)
    assert not any(ch in flat for ch in lines.LOOKALIKE_BREAKS)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_metadata_values_never_open_or_close_a_comment(value):
    cleaned = grammar.clean_value(value)
    assert "<!--" not in cleaned and "-->" not in cleaned and "\n" not in cleaned
