"""``clawmem config show|set|path`` on a real workspace's clawmem.toml."""

from __future__ import annotations

import tomllib

from clawmem.foundation import config as config_module


def test_path_names_the_file_even_before_it_exists(clawmem, ws):
    result = clawmem("config", "path", "--json")
    assert result.returncode == 0
    assert result.json() == {"path": str(ws.root / "clawmem.toml"), "exists": False}
    assert clawmem("config", "path").stdout.strip() == str(ws.root / "clawmem.toml")


def test_show_lists_every_setting_with_its_default(clawmem, ws):
    shown = clawmem("config", "show", "--json").json()
    assert shown["exists"] is False and shown["overridden"] == []
    flat = {f"{s}.{k}": v for s, values in shown["settings"].items() for k, v in values.items()}
    assert flat == {row["key"]: row["default"] for row in config_module.reference()}
    text = clawmem("config", "show").stdout
    assert tomllib.loads(text) == shown["settings"]  # human output is valid TOML


def test_set_writes_only_the_override_and_later_commands_use_it(clawmem, ws):
    result = clawmem("config", "set", "search.limit", "9", "--json")
    assert result.returncode == 0, result.stderr
    assert result.json()["value"] == 9 and result.json()["previous"] == 6 and result.json()["default"] == 6
    assert tomllib.loads((ws.root / "clawmem.toml").read_text()) == {"search": {"limit": 9}}
    assert clawmem("config", "set", "recall.escalation_mode", "off").returncode == 0
    assert clawmem("config", "set", "search.vector_weight", "1").returncode == 0
    data = tomllib.loads((ws.root / "clawmem.toml").read_text())
    assert data == {"search": {"limit": 9, "vector_weight": 1.0}, "recall": {"escalation_mode": "off"}}
    assert config_module.load(ws.root).search.limit == 9
    assert clawmem("config", "show", "search.limit").stdout.strip() == "9"
    shown = clawmem("config", "show", "--json").json()
    assert set(shown["overridden"]) == {"search.limit", "search.vector_weight", "recall.escalation_mode"}
    assert "limit = 9  # default: 6" in clawmem("config", "show").stdout
    recall = clawmem("recall", "what did we decide last week?", "--json").json()
    assert recall["escalation"]["mode"] == "off"  # the running program reads the new value


def test_bad_values_are_refused_and_nothing_is_written(clawmem, ws):
    target = ws.root / "clawmem.toml"
    target.write_text("[search]\nlimit = 7\n")
    for args, needle in (
        (("search.limt", "3"), "did you mean search.limit"),
        (("search.limit", "1.5"), "whole number"),
        (("search.limit", "many"), "whole number"),
        (("recall.escalation_mode", "sometimes"), "must be one of always, escalate, off"),
        (("search.min_score", "nan"), "must be a number"),
        (("search.limit", "0"), "from 1"),  # no result at all: a count for which 0 means nothing works
        (("dream.frequency_saturation", "0"), "from 1"),  # a divisor
        (("nosection", "1"), "unknown setting"),
    ):
        result = clawmem("config", "set", *args)
        assert result.returncode == 1, (args, result.stderr)
        assert needle in result.stderr, (args, result.stderr)
        assert target.read_text() == "[search]\nlimit = 7\n"


def test_a_broken_file_is_reported_not_overwritten(clawmem, ws):
    target = ws.root / "clawmem.toml"
    target.write_text("[search\nlimit = ")
    for args in (("config", "show"), ("config", "set", "search.limit", "3")):
        result = clawmem(*args)
        assert result.returncode == 1 and "not valid TOML" in result.stderr
    assert target.read_text() == "[search\nlimit = "
    assert clawmem("config", "path").returncode == 0  # still tells you where to fix it


def test_set_repairs_an_invalid_value_it_would_refuse(clawmem, ws):
    """A file holding a refused value (a hand edit, an older version's range) never locks `config set` out of fixing it."""
    target = ws.root / "clawmem.toml"
    target.write_text("[search]\nlimit = 0\n")
    assert "from 1" in clawmem("search", "anything").stderr
    fixed = clawmem("config", "set", "search.limit", "5", "--json")
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.json()["previous"] is None and target.read_text() == "[search]\nlimit = 5\n"
    target.write_text("[search]\nlimit = 0\n")
    other = clawmem("config", "set", "search.min_score", "0.4")
    assert other.returncode == 1 and "search.limit" in other.stderr and target.read_text() == "[search]\nlimit = 0\n"


def test_comments_are_dropped_with_a_warning(clawmem, ws):
    (ws.root / "clawmem.toml").write_text("# tuned for the laptop\n[search]\nlimit = 7\n")
    result = clawmem("config", "set", "search.limit", "8", "--json")
    assert result.returncode == 0 and result.json()["comments_dropped"] is True
    assert "comments" in result.stderr and "not kept" in result.stderr


def test_config_needs_a_workspace(clawmem):
    result = clawmem("config", "show", "--json")
    assert result.returncode == 1 and result.json()["error"] == "workspace_not_found"
