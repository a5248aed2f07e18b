"""The ``clawmem dream`` command surface: JSON shape, exit codes, help."""

from __future__ import annotations

REPORT_KEYS = {
    "ran", "skipped", "phases", "dry_run", "staged", "candidates", "themes", "excluded", "promoted", "merged",
    "superseded", "displaced", "rejected", "consolidator", "fallback_used", "fallback_reason", "memory_changed", "preimage",
    "recovered_lock", "explain", "seconds", "notices", "aspirations",
}


def test_json_report_has_the_documented_keys(ws, clawmem, workaround_sessions):
    result = clawmem("dream", "--json", "--explain")
    assert result.returncode == 0
    data = result.json()
    assert set(data) == REPORT_KEYS
    assert data["phases"] == ["light", "rem", "deep"] and data["consolidator"] == "built-in"
    promoted = data["promoted"][0]
    assert set(promoted) == {"text", "sources", "candidate_id", "detail"}
    assert {"candidate_id", "status", "text", "sources", "theme", "score", "rank", "signals", "failed"} == set(data["explain"][0])
    assert clawmem("status", "--json").json()["last_dream"] is not None


def test_phase_option_and_usage_errors(ws, clawmem):
    light = clawmem("dream", "--phase", "light", "--json")
    assert light.returncode == 0 and light.json()["phases"] == ["light"]
    assert clawmem("dream", "--phase", "nap").returncode == 2
    assert "Examples:" in clawmem("dream", "--help").stdout


def test_missing_workspace_is_an_error(tmp_path, clawmem):
    result = clawmem("dream", "-w", str(tmp_path / "nowhere"))
    assert result.returncode == 1 and "clawmem init" in result.stderr


def test_quiet_prints_nothing_when_nothing_changed(clawmem):
    assert clawmem("init").returncode == 0
    quiet = clawmem("dream", "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == ""
    loud = clawmem("dream")
    assert loud.returncode == 0 and loud.stdout.strip()
