"""Team memory via git: nothing in a shared ``clawmem.toml`` makes this machine run a command or write a crontab line.

A collaborator commits ``dream.consolidator_command`` or a ``dream.cron_schedule`` with an
embedded newline to the shared ``clawmem.toml``. In a workspace inside a git working tree that
file is refused, with a message naming this machine's own config (``$XDG_CONFIG_HOME/clawmem/
local.toml``), the only place such settings are read from there; and any schedule must match
the crontab grammar (``cron.check_schedule``) before ``cron --install`` writes a byte. Gates off
(rule 23), the consolidator runs and the crontab gains the collaborator's line.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import cli_modes  # noqa: E402

pytestmark = pytest.mark.needs_tool("git")

WORKAROUND = "If the build fails with undefined reference errors, run make clean before make."
FAKE_CRONTAB = (
    '#!/bin/sh\ntable="$FAKE_CRONTAB_FILE"\ncase "$1" in\n'
    '  -l) [ -f "$table" ] && cat "$table" || { echo "no crontab for you" >&2; exit 1; } ;;\n  -) cat > "$table" ;;\nesac\n'
)
EVIL = "@daily\n* * * * * touch /tmp/zq-pwned"


def _evidence(ws_root) -> None:
    """Three sessions on three days sharing one workaround: what dreaming consolidates."""
    from clawmem.commands.ingest import ingest
    from clawmem.storage.workspace import Workspace

    ws = Workspace(ws_root)
    for i in range(1, 4):
        at = (dt.datetime.now() - dt.timedelta(days=4 - i)).replace(hour=10, minute=0, second=0, microsecond=0)
        ingest(ws, f"user: the build broke again, ticket {i}\nassistant: {WORKAROUND}\nuser: thanks, that did it\n", session=f"s{i}", origin="owner", at=at)


def _consolidator(workdir):
    marker = workdir / "consolidator-ran"
    script = workdir / "model.py"
    script.write_text(textwrap.dedent(f"""\
        import json, pathlib, sys
        d = json.load(sys.stdin)
        pathlib.Path({str(marker)!r}).write_text("ran")
        sys.stdout.write(d["memory_md"] + "".join(c["line"] for c in d["candidates"]))
    """))
    return f"{sys.executable} {script}", marker


@pytest.fixture
def shared(tmp_path, monkeypatch):
    """A git-shared workspace with evidence to dream, and the collaborator's committed clawmem.toml."""
    root = cli_modes.workspace(tmp_path, "--git")
    for name, value in cli_modes.env(tmp_path).items():
        monkeypatch.setenv(name, value)
    _evidence(root)
    return tmp_path


@pytest.mark.parametrize("mode", ["on", "off"])
def test_a_shared_consolidator_command_is_refused_and_runs_with_the_rule_off(shared, mode):
    command, marker = _consolidator(shared)
    (shared / "ws" / "clawmem.toml").write_text(f'[dream]\nconsolidator_command = "{command}"\n')
    result = cli_modes.run(mode, shared, "dream", "--json")
    if mode == "on":
        assert result.returncode == 1 and not marker.exists(), result.stdout
        assert "shared through git" in result.stderr and "local.toml" in result.stderr
    else:
        assert marker.exists(), result.stdout + result.stderr


def test_the_same_setting_in_the_machine_local_config_is_used(shared):
    command, marker = _consolidator(shared)
    local = shared / "home" / ".config" / "clawmem" / "local.toml"
    local.parent.mkdir(parents=True)
    local.write_text(f'[dream]\nconsolidator_command = "{command}"\n')
    result = cli_modes.run("on", shared, "dream", "--json")
    assert result.returncode == 0 and marker.exists(), result.stderr


def test_config_set_puts_an_executable_setting_in_the_machine_local_config(shared):
    result = cli_modes.run("on", shared, "config", "set", "dream.cron_schedule", "5 4 * * 1-5")
    assert result.returncode == 0, result.stderr
    assert not (shared / "ws" / "clawmem.toml").exists()
    assert "5 4 * * 1-5" in (shared / "home" / ".config" / "clawmem" / "local.toml").read_text()
    assert cli_modes.run("on", shared, "cron").stdout.count("\n5 4 * * 1-5 ") == 1


@pytest.fixture
def crontab(tmp_path):
    fake = tmp_path / "fakebin" / "crontab"
    fake.parent.mkdir()
    fake.write_text(FAKE_CRONTAB)
    fake.chmod(0o755)
    table = tmp_path / "table"
    return table, {"PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}", "FAKE_CRONTAB_FILE": str(table)}


@pytest.mark.parametrize("mode", ["on", "off"])
def test_a_shared_schedule_with_a_newline_writes_no_crontab_line(shared, crontab, mode):
    table, extra = crontab
    (shared / "ws" / "clawmem.toml").write_text(f"[dream]\ncron_schedule = {EVIL!r}\n".replace("'", '"').replace("\n*", "\\n*"))
    result = cli_modes.run(mode, shared, "cron", "--install", **extra)
    if mode == "on":
        assert result.returncode == 1 and not table.exists(), result.stdout
        assert "shared through git" in result.stderr
    else:
        assert "touch /tmp/zq-pwned" in table.read_text().splitlines()[2]


def test_a_machine_local_schedule_must_match_the_grammar_before_install_writes(tmp_path, crontab):
    table, extra = crontab
    cli_modes.workspace(tmp_path)
    local = tmp_path / "home" / ".config" / "clawmem" / "local.toml"
    local.parent.mkdir(parents=True)
    local.write_text('[dream]\ncron_schedule = "@daily\\n* * * * * touch /tmp/zq-pwned"\n')
    result = cli_modes.run("on", tmp_path, "cron", "--install", **extra)
    assert result.returncode == 1 and "not five crontab time fields" in result.stderr and not table.exists()
    refused = cli_modes.run("on", tmp_path, "config", "set", "dream.cron_schedule", "@hourly\n0 * * * * evil")
    assert refused.returncode == 1 and not (tmp_path / "ws" / "clawmem.toml").exists()


FIELD = st.sampled_from(["*", "0", "17", "1-5", "*/5", "mon", "jan-mar", "1,15", "0-30/10"])
GOOD = st.one_of(st.lists(FIELD, min_size=5, max_size=5).map(" ".join), st.sampled_from(["@daily", "@hourly", "@weekly", "@monthly", "@reboot"]))


@given(good=GOOD, junk=st.text(min_size=1, max_size=30).filter(lambda s: s.strip(" \t")))
def test_the_grammar_takes_schedules_and_nothing_after_them(good, junk):
    from clawmem.commands.cron import check_schedule
    from clawmem.foundation.errors import BadInput

    assert check_schedule(good) == good
    for bad in (good + "\n" + junk, good + " " + junk + " x", good + "%" + junk, "@" + junk + "x"):
        if bad.strip(" \t") in ("@daily", "@hourly"):
            continue
        with pytest.raises(BadInput):
            check_schedule(bad)
