"""Numbers in config and flags are range-checked: a clear error, never OverflowError or RecursionError.

Huge numbers (``10**400``, ``1e309``) and deeply nested arrays in ``clawmem.toml``, in
``config set`` and in ``intent add --budget/--cooldown`` are refused with the ``ConfigError`` or
``BadValue`` exit code and a hint, before anything is written. Gates off (rule 21), each one is
an unexpected error again.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import cli_modes  # noqa: E402

from clawmem.foundation import config  # noqa: E402
from clawmem.foundation.errors import BadValue, ConfigError  # noqa: E402

NUMERIC = [row["key"] for row in config.reference() if type(row["default"]) in (int, float)]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("numbers")
    cli_modes.workspace(root)
    return root


def _refused(result, exit_code: int) -> None:
    assert result.returncode == exit_code, result.stdout + result.stderr
    assert result.stderr.startswith("clawmem: error: ") and "\nhint: " in result.stderr, result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr and len(result.stderr) < 1000


huge = st.one_of(
    st.integers(20, 5000).map(lambda digits: "1" + "0" * digits),
    st.sampled_from(["1e309", "-1e309", "inf", "nan", "-inf", "-1", "1e400", "-5"]),
    st.integers(2, 100_000).map(lambda depth: "[" * depth + "]" * depth),
)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(NUMERIC), value=huge)
def test_a_huge_or_nested_number_in_clawmem_toml_is_a_config_error(workdir, key, value):
    section, name = key.split(".")
    (workdir / "ws" / "clawmem.toml").write_text(f"[{section}]\n{name} = {value}\n")
    try:
        _refused(cli_modes.run("on", workdir, "search", "anything"), ConfigError.exit_code)
    finally:
        (workdir / "ws" / "clawmem.toml").unlink()


@pytest.mark.parametrize("value", ["1" + "0" * 400, "[" * 100_000 + "]" * 100_000, "1" + "0" * 5000])
def test_each_attack_lands_with_the_rule_off(workdir, value):
    (workdir / "ws" / "clawmem.toml").write_text(f"[search]\nlimit = {value}\n")
    try:
        result = cli_modes.run("off", workdir, "search", "anything")
    finally:
        (workdir / "ws" / "clawmem.toml").unlink()
    assert result.returncode != 0 and ("unexpected" in result.stderr or "Traceback" in result.stderr), result.stderr[-300:]


@pytest.mark.parametrize("key,value", [("search.limit", "1" + "0" * 400), ("intents.expiry_days", "99999999999"), ("recall.budget_ms", "1" + "0" * 30)])
def test_config_set_refuses_before_writing(workdir, key, value):
    toml = workdir / "ws" / "clawmem.toml"
    _refused(cli_modes.run("on", workdir, "config", "set", key, value), ConfigError.exit_code)
    assert not toml.exists()


FLAGS = st.one_of(
    st.tuples(st.just("--budget"), st.integers(20, 1000).map(lambda digits: "1" + "0" * digits)),
    st.tuples(st.just("--cooldown"), st.integers(20, 1000).map(lambda digits: "9" * digits + "d")),
    st.tuples(st.just("--cooldown"), st.sampled_from(["99999999999d", "5000000", "9" * 400 + "h", "99999999w"])),
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flag=FLAGS)
def test_intent_add_refuses_huge_budget_and_cooldown_before_writing(workdir, flag):
    ledger = workdir / "ws" / ".clawmem" / "provenance.jsonl"
    before = ledger.read_bytes()
    _refused(cli_modes.run("on", workdir, "intent", "add", "mention the changelog", "--when", "release", "--origin", "owner", *flag), BadValue.exit_code)
    assert ledger.read_bytes() == before


@pytest.mark.parametrize("flag", [("--budget", "1" + "0" * 400), ("--cooldown", "9" * 400 + "d")])
def test_intent_flags_overflow_with_the_rule_off(workdir, flag):
    result = cli_modes.run("off", workdir, "intent", "add", "mention the changelog", "--when", "release", "--origin", "owner", *flag)
    assert result.returncode == 1 and "OverflowError" in result.stderr, result.stderr


def test_the_numbers_in_range_still_work(workdir):
    assert cli_modes.run("on", workdir, "config", "set", "search.vector_weight", "1").returncode == 0  # an int for a float setting
    assert cli_modes.run("on", workdir, "intent", "add", "note it", "--when", "ship", "--origin", "owner", "--budget", "5", "--cooldown", "2d").returncode == 0
    (workdir / "ws" / "clawmem.toml").unlink()
