"""Every origin-class, eligibility and authority rule of ``clawmem.trust``, as plain function calls."""

from __future__ import annotations

import pytest

from clawmem.foundation.errors import BadInput, Forbidden
from clawmem.trust import authority, eligibility
from clawmem.trust import provenance as p


def test_least_trusted_orders_classes():
    assert p.least_trusted("owner", "agent") == "agent"
    assert p.least_trusted("agent", "system") == "system"
    assert p.least_trusted("system", "untrusted", "owner") == "untrusted"
    assert p.least_trusted(None, "owner") == "owner"


def test_automation_never_defaults_to_owner():
    assert p.default_origin(from_terminal=True) == "owner"
    assert p.default_origin(from_terminal=False) == "untrusted"


@pytest.mark.parametrize(
    "origin,kind,taint,eligible",
    [
        ("owner", "interactive", None, True),
        ("agent", "interactive", "owner", True),
        ("untrusted", "interactive", None, False),
        ("system", "interactive", None, False),
        ("owner", "cron", None, False),
        ("owner", "heartbeat", None, False),
        ("agent", "subagent", None, False),
        ("owner", "interactive", "untrusted", False),
        ("owner", "interactive", "system", False),
    ],
)
def test_promotion_eligibility(origin, kind, taint, eligible):
    result = eligibility.promotion_eligibility(origin=origin, session_kind=kind, file_taint=taint)
    assert result.eligible is eligible
    assert bool(result.reasons) is not eligible


def test_recalled_copies_are_never_eligible():
    assert not eligibility.promotion_eligibility(origin="owner", session_kind="interactive", file_taint=None, recalled_copy=True).eligible


def test_unrecorded_lines_are_classified_conservatively():
    assert p.classify_unrecorded("daily", ledger_intact=True).origin == "owner"
    assert p.classify_unrecorded("daily", ledger_intact=False).origin == "untrusted"
    assert p.classify_unrecorded("transcript", ledger_intact=True).origin == "untrusted"
    assert p.classify_unrecorded("quarantine", ledger_intact=True).origin == "untrusted"
    assert p.classify_unrecorded("memory", ledger_intact=False).origin == "owner"
    for kind in ("daily", "memory", "user"):  # a line the ledger cannot account for is never the owner's
        assert p.classify_unrecorded(kind, ledger_intact=True, torn=True).origin == "untrusted"
        assert p.classify_unrecorded(kind, ledger_intact=True, damaged=True).origin == "untrusted"
    assert p.location_floor("quarantine") == "untrusted"
    assert p.location_floor("daily") is None


@pytest.mark.parametrize(
    "origin,kind,taint,shown_untrusted",
    [
        ("owner", "daily", None, False),
        ("agent", "transcript", "owner", False),
        ("untrusted", "daily", None, True),
        ("system", "transcript", None, True),
        (None, "daily", None, True),  # unknown origin: framed
        ("owner", "quarantine", None, True),  # quarantine is never shown as trusted, whatever its rows say
        ("owner", "daily", "untrusted", True),  # a tainted file's lines, where the caller knows the taint
        ("owner", None, "system", True),
    ],
)
def test_one_rule_decides_what_is_shown_untrusted(origin, kind, taint, shown_untrusted):
    assert p.shown_untrusted(origin, kind, taint) is shown_untrusted


def test_the_sql_form_of_the_display_rule_agrees_with_the_function(tmp_path):
    import sqlite3

    conn = sqlite3.connect(tmp_path / "t.db")
    conn.execute("CREATE TABLE entries (origin TEXT NOT NULL, kind TEXT NOT NULL)")
    rows = [(o, k) for o in ("owner", "agent", "system", "untrusted") for k in ("memory", "daily", "quarantine", "transcript")]
    conn.executemany("INSERT INTO entries VALUES (?, ?)", rows)
    framed = set(conn.execute(f"SELECT origin, kind FROM entries WHERE {p.shown_untrusted_sql()}"))
    shown = set(conn.execute(f"SELECT origin, kind FROM entries WHERE NOT {p.shown_untrusted_sql()}"))
    assert framed == {r for r in rows if p.shown_untrusted(*r)}
    assert shown == {r for r in rows if not p.shown_untrusted(*r)}


@pytest.mark.parametrize(
    ("origin", "untrusted"),
    [("owner", False), ("agent", False), ("system", True), ("untrusted", True), (None, False), ("bogus", False), (["untrusted"], False), (3, False)],
)
def test_a_known_untrusted_class_is_named_by_one_rule(origin, untrusted):
    """What a record says it came from: only the known classes that are not trusted (the bootstrap, audit
    and lineage checks ask this; a missing or unknown class is the display rule's business)."""
    assert p.untrusted_class(origin) is untrusted


def test_the_sql_form_of_the_untrusted_classes_agrees_with_the_function(tmp_path):
    import sqlite3

    conn = sqlite3.connect(tmp_path / "t.db")
    conn.execute("CREATE TABLE entries (origin TEXT)")
    values = ["owner", "agent", "system", "untrusted", "bogus", None]
    conn.executemany("INSERT INTO entries VALUES (?)", [(v,) for v in values])
    found = {r[0] for r in conn.execute(f"SELECT origin FROM entries WHERE {p.untrusted_class_sql()}")}
    assert found == {v for v in values if p.untrusted_class(v)} == {"system", "untrusted"}


def test_a_span_is_framed_by_location_taint_or_any_line():
    assert p.span_shown_untrusted("memory/quarantine/2026-11-28.md", ["owner"], None)
    assert p.span_shown_untrusted("transcripts/s1.md", [], None)
    assert p.span_shown_untrusted("memory/2026-11-28.md", [], "untrusted")
    assert p.span_shown_untrusted("memory/2026-11-28.md", ["owner", "system"], None)
    assert not p.span_shown_untrusted("memory/2026-11-28.md", ["owner", "agent"], "owner")


def test_an_unknown_origin_or_session_kind_is_refused():
    with pytest.raises(BadInput, match="unknown origin 'admin'"):
        p.check_origin("admin")
    with pytest.raises(BadInput, match="unknown session kind 'batch'"):
        p.check_provenance("owner", "batch")
    with pytest.raises(BadInput, match="unknown origin"):
        p.caller_origin("root", from_terminal=True)
    assert p.caller_origin("agent", from_terminal=False) == "agent"
    assert p.caller_origin(None, from_terminal=False) == "untrusted"


def test_turn_roles_map_to_origin_classes():
    assert p.role_origin("user", p.HOST_SENDER_ORIGIN) == "owner"
    assert p.role_origin("Assistant", "owner") == "agent"
    assert p.role_origin("assistant", "untrusted") == "untrusted"
    assert p.role_origin("developer", "owner") == "system"
    assert p.role_origin("tool", "owner") == "untrusted"
    assert p.role_origin("something-new", "owner") == "untrusted"


def test_entry_reasons_add_location_structure_and_status_to_eligibility():
    row = {"kind": "quarantine", "block": "prose", "status": "superseded", "origin": "untrusted", "session_kind": "cron"}
    assert eligibility.entry_reasons(row, "system", True) == [
        "in quarantine (derived from untrusted content)", "prose, not a list entry", "marked superseded",
        "origin is untrusted", "session kind is cron", "file is tainted by system content", "content is a recalled copy",
    ]
    ok = {"kind": "daily", "block": "entry", "status": None, "origin": "owner", "session_kind": "interactive"}
    assert eligibility.entry_reasons(ok, None, False) == []


def test_owner_only_operations_need_a_terminal_or_the_operators_yes():
    authority.require_owner(authority.Caller(from_terminal=True), "promoting")
    authority.require_owner(authority.Caller(from_terminal=False, confirmed=True), "promoting")
    with pytest.raises(Forbidden, match="promoting is the owner's decision"):
        authority.require_owner(authority.Caller(from_terminal=False), "promoting")


def test_only_trusted_origins_shape_intents():
    authority.check_creator("agent")
    with pytest.raises(Forbidden, match="untrusted origin may not create an intent"):
        authority.check_creator("untrusted")
    with pytest.raises(BadInput, match="unknown origin"):
        authority.check_creator("nobody")
