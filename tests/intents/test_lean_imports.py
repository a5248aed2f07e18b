"""The intent and user commands keep start-up lean; matching (run every turn) loads no parser."""

from __future__ import annotations

import pytest

from tests.conftest import modules_loaded

HEAVY = ("numpy", "tokenizers", "apsw", "sqlite_vec", "torch", "dateparser", "rapidfuzz", "rich.table")


def loaded(args):
    return modules_loaded(args, HEAVY)


@pytest.mark.parametrize("args", [["intent", "--help"], ["user", "--help"], ["intent", "add", "--help"]])
def test_help_imports_nothing_heavy(args):
    assert loaded(args) == set()


def test_matching_imports_no_date_parser_or_tables(ws):
    mods = loaded(["intent", "match", "is the release out?", "--json"])
    assert not mods & {"dateparser", "rich.table", "numpy", "torch", "sqlite_vec", "rapidfuzz"}
