"""``symptoms.Conflicts``, which keeps what it works out for one message across the turn's trigger entries, is the rule as stated."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clawmem.recall import symptoms

IDENTIFIERS = ["arm64", "arm32", "amd64", "__atomic_load_4", "__atomic_load_8", "__atomic_store_8", "e0425", "e0433", "5432", "5433", "17", "18", "100", "v2"]
SETS = st.frozensets(st.sampled_from(IDENTIFIERS), max_size=5)


def stated(entry: frozenset[str], message: set[str]) -> bool:
    """An identifier of the entry the message lacks is of a kind with one the message names and the entry lacks."""
    return any(symptoms._same_kind(mine, other) for mine in entry - message for other in message - entry)


@settings(max_examples=300, deadline=None)
@given(message=SETS, entries=st.lists(SETS, max_size=8))
def test_conflicts_asked_of_many_entries_is_the_rule_for_each(message, entries):
    conflicts = symptoms.Conflicts(set(message))
    assert [conflicts(entry) for entry in entries] == [stated(entry, set(message)) for entry in entries]
    assert [conflicts(entry) for entry in entries] == [stated(entry, set(message)) for entry in entries]  # asked again, from what it kept


def test_the_examples_of_the_rule():
    assert symptoms.Conflicts({"__atomic_load_4", "arm32"})(frozenset({"__atomic_load_8"}))
    assert symptoms.Conflicts({"arm32"})(frozenset({"arm64"}))
    assert not symptoms.Conflicts({"arm64"})(frozenset({"arm64"}))
    assert not symptoms.Conflicts({"2"})(frozenset({"5432"}))  # bare numbers only against one of the same length
