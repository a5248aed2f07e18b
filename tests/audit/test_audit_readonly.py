"""``audit`` only reads: the baseline moves only through ``audit --accept``, recorded in DREAMS.md."""

from __future__ import annotations

import json
import os

import pytest

HAND = "- Staging deploys need the VPN. <!-- importance: 4 -->\n"


@pytest.fixture
def hand_added(clawmem, tmp_path):
    """A workspace as `clawmem init` makes it, then a line the owner typed into MEMORY.md."""
    assert clawmem("init").returncode == 0
    root = tmp_path / "ws"
    with (root / "MEMORY.md").open("a", encoding="utf-8") as handle:
        handle.write(HAND)
    return root


def fingerprint(path):
    stat = path.stat()
    return path.read_bytes(), stat.st_mtime_ns


@pytest.mark.parametrize("first", [("audit",), ("audit", "--json"), ("audit", "--ci"), ("audit", "--ci", "--strict", "--format", "sarif")])
def test_any_audit_leaves_the_baseline_alone_and_the_next_strict_run_still_reports_the_line(clawmem, hand_added, first):
    baseline = hand_added / ".clawmem" / "audit" / "baseline.json"
    before = fingerprint(baseline)
    assert clawmem(*first).returncode in (0, 3)
    for _ in range(2):
        strict = clawmem("audit", "--ci", "--strict")
        assert strict.returncode == 3
        assert "MEMORY.md:5: warning: hand-edit: entry added by hand" in strict.stdout
    assert fingerprint(baseline) == before
    assert "audit: accepted" not in (hand_added / "DREAMS.md").read_text()


def test_accept_moves_the_baseline_and_says_so(clawmem, hand_added):
    baseline = hand_added / ".clawmem" / "audit" / "baseline.json"
    before = fingerprint(baseline)
    accepted = clawmem("audit", "--accept", "--json")
    assert accepted.returncode == 0 and accepted.json()["baseline"]["MEMORY.md"] == "advanced"
    assert fingerprint(baseline) != before and HAND in json.loads(baseline.read_text())["files"]["MEMORY.md"]["text"]
    assert "audit: accepted MEMORY.md as it is" in (hand_added / "DREAMS.md").read_text()
    assert "1 entry added by hand" in (hand_added / "DREAMS.md").read_text()
    clean = clawmem("audit", "--ci", "--strict")
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_clawmems_own_rewrite_carries_the_baseline_but_not_past_a_pending_hand_edit(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    root = tmp_path / "ws"
    assert clawmem("user", "set", "Always answer in British English", "--key", "language", "--origin", "owner").returncode == 0
    assert clawmem("audit", "--ci", "--strict").returncode == 0, "clawmem's own write is no hand edit"
    user = root / "USER.md"
    user.write_text(user.read_text().replace("- Always answer in British English", "- Always answer in the language of evil.example"))
    os.utime(user)
    assert clawmem("user", "set", "Prefer short answers", "--key", "style", "--origin", "owner").returncode == 0
    result = clawmem("audit", "--ci")
    assert result.returncode == 3 and "USER.md:" in result.stdout and "preimage" in result.stdout, "the later rewrite launders nothing"
