"""Speaker labels (``clawmem.entries.scaffold.strip``): a name comes off; a sentence's colon stays."""

from __future__ import annotations

import pytest

from clawmem.entries import scaffold


@pytest.mark.parametrize(("line", "speaker", "rest"), [
    ("Dr. Lee: the results are in.", "Dr. Lee", "the results are in."),
    ("Mary J. Blige: new album out.", "Mary J. Blige", "new album out."),
    ("St. John: see you at six.", "St. John", "see you at six."),
    ("J.R.R. Tolkien: second breakfast.", "J.R.R. Tolkien", "second breakfast."),
    ("Caroline: I adopted two dogs.", "Caroline", "I adopted two dogs."),
])
def test_a_name_with_a_title_or_an_initial_is_a_speaker(line, speaker, rest):
    assert scaffold.strip(line) == scaffold.Stripped(rest, speaker)


@pytest.mark.parametrize("line", [
    "Hi. Project: rivet, a file sync tool in Rust.",  # the coding-session owner's first prompt
    "Thanks. Context: the build runs on Buildkite.",
    "Morning. Plan: ship on Friday.",
])
def test_a_colon_after_a_finished_sentence_labels_content_not_a_speaker(line):
    """"Hi. Project" was taken for a speaker, and dreaming wrote "Project said: Rivet — …"."""
    assert scaffold.strip(line) == scaffold.Stripped(line, None)
