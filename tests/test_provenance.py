"""Every provenance rule, as plain function calls."""

from __future__ import annotations

import pytest

from clawmem import provenance as p


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
    result = p.promotion_eligibility(origin=origin, session_kind=kind, file_taint=taint)
    assert result.eligible is eligible
    assert bool(result.reasons) is not eligible


def test_recalled_copies_are_never_eligible():
    assert not p.promotion_eligibility(origin="owner", session_kind="interactive", file_taint=None, recalled_copy=True).eligible


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
