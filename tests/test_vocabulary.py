"""The vocabularies agree everywhere they are spelled: enums, CLI choices, MCP schemas, SQL CHECKs.

The CHECK constraints are read out of a real index that the installed ``clawmem`` migrated,
so a migration that adds a class the enums lack (or the reverse) fails here, not in the field.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3

import pytest

from clawmem.foundation import vocabulary
from clawmem.trust.provenance import TRUSTED_ORIGINS
from tests.conftest import require_module

CHECK_LIST = re.compile(r"(\w+) TEXT NOT NULL CHECK \((\w+) (?:IN \(([^)]*)\)|= '(\w+)')\)")


def check_constraints(db_path) -> dict[tuple[str, str], set[str]]:
    """``{(table, column): allowed values}`` for every ``CHECK (col IN (...))`` on a TEXT column."""
    found: dict[tuple[str, str], set[str]] = {}
    with sqlite3.connect(db_path) as conn:
        for table, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL"):
            for column, checked, listed, single in CHECK_LIST.findall(sql):
                assert column == checked, f"{table}: the CHECK on {column} names {checked}"
                found[(table, column)] = set(re.findall(r"'(\w+)'", listed)) if listed else {single}
    return found


@pytest.fixture
def checks(ws, clawmem):
    assert clawmem("index").returncode == 0
    return check_constraints(ws.index_path)


def test_every_origin_check_is_the_vocabulary_or_its_trusted_part(checks):
    origins = {key: values for key, values in checks.items() if key[1] == "origin"}
    assert origins, "no CHECK on an origin column was found: the pattern no longer matches the schema"
    everything = [key for key, values in origins.items() if values == set(vocabulary.ORIGINS)]
    trusted = [key for key, values in origins.items() if values == set(TRUSTED_ORIGINS)]
    assert ("entries", "origin") in everything and ("ledger", "origin") in everything
    assert ("intents", "origin") in trusted and ("dream_evidence", "origin") in trusted
    assert sorted(everything + trusted) == sorted(origins), origins


def test_every_session_kind_check_is_the_vocabulary_or_interactive_only(checks):
    kinds = {key: values for key, values in checks.items() if key[1] == "session_kind"}
    assert kinds
    for key, values in kinds.items():
        assert values in (set(vocabulary.SESSION_KINDS), {"interactive"}), (key, values)
    assert kinds[("entries", "session_kind")] == set(vocabulary.SESSION_KINDS)


def test_the_intent_state_check_is_the_vocabulary(checks):
    assert checks[("intents", "state")] == set(vocabulary.INTENT_STATES)
    assert set(vocabulary.LIVE_STATES) | set(vocabulary.ENDED_STATES) == set(vocabulary.INTENT_STATES)
    assert not set(vocabulary.LIVE_STATES) & set(vocabulary.ENDED_STATES)
    assert set(vocabulary.STATE_FILTERS) == {"active", "all", *vocabulary.INTENT_STATES}


def test_cli_choices_come_from_the_vocabulary(clawmem):
    """The installed command offers exactly the vocabulary, in its order, and refuses anything else."""
    note_help = re.sub(r"\s+", "", clawmem("note", "add", "--help").stdout)
    assert "<" + "|".join(vocabulary.ORIGINS) + ">" in note_help
    assert "<" + "|".join(vocabulary.SESSION_KINDS) + ">" in note_help
    list_help = re.sub(r"\s+", "", clawmem("intent", "list", "--help").stdout)
    assert "<" + "|".join(vocabulary.STATE_FILTERS) + ">" in list_help
    refused = clawmem("note", "add", "x", "--origin", "root")
    assert refused.returncode == 2 and "root" in refused.stderr


def test_mcp_schemas_come_from_the_vocabulary(ws):
    require_module("mcp", "the MCP extra is not installed: pip install 'clawmem-cli[mcp]'")
    from mcp import Client

    from clawmem.mcp.server import build_server
    from clawmem.trust.provenance import MCP_ORIGINS

    async def listed():
        async with Client(build_server(ws.root)) as client:
            return {t.name: t.input_schema["properties"] for t in (await client.list_tools()).tools}

    tools = asyncio.run(listed())
    assert tools["add_note"]["origin"]["enum"] == list(MCP_ORIGINS) == [o for o in vocabulary.ORIGINS if o != "owner"]
    assert tools["add_note"]["session_kind"]["enum"] == list(vocabulary.SESSION_KINDS)
    assert tools["list_intents"]["state"]["enum"] == list(vocabulary.STATE_FILTERS)


def test_the_state_filter_expands_groups_and_keeps_single_states():
    assert vocabulary.states_for(["active"]) == set(vocabulary.LIVE_STATES)
    assert vocabulary.states_for(["all"]) == set(vocabulary.INTENT_STATES)
    assert vocabulary.states_for(["done", "expired"]) == {"done", "expired"}
    assert vocabulary.states_for(["active", "cancelled"]) == {"pending", "armed", "fired", "cancelled"}
