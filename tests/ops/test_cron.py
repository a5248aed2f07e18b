"""``clawmem cron``: the lines work under cron's bare environment, and --install is idempotent.

The user's real crontab is outside our control and must never be touched by a test, so a fake
``crontab`` executable (reading and writing a plain file, with cron's own ``-l`` / ``-``
conventions) goes first on PATH. Everything else is real: the installed ``clawmem``, a real
workspace, and the printed lines run by ``/bin/sh`` under ``env -i`` as cron runs them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE_CRONTAB = """#!/bin/sh
table="$FAKE_CRONTAB_FILE"
case "$1" in
  -l) if [ -f "$table" ]; then cat "$table"; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
  -) cat > "$table" ;;
  *) echo "fake crontab: unsupported $*" >&2; exit 2 ;;
esac
"""


@pytest.fixture
def fake_crontab(tmp_path):
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    script = bin_dir / "crontab"
    script.write_text(FAKE_CRONTAB)
    script.chmod(0o755)
    table = tmp_path / "crontab.txt"
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "FAKE_CRONTAB_FILE": str(table)}
    return table, env


def _command_part(line: str) -> str:
    """What cron hands to /bin/sh: the line after its five time fields, ``\\%`` back to ``%``."""
    return line.split(None, 5)[5].replace("\\%", "%")


def _job_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_the_printed_lines_run_under_crons_bare_environment(ws, clawmem, tmp_path):
    clawmem("note", "add", "Deploys go to the staging app first", "--origin", "owner")
    proc = clawmem("cron")
    assert proc.returncode == 0, proc.stderr
    dream_line, due_line = _job_lines(proc.stdout)
    assert re.match(r"^17 3 \* \* \* ", dream_line)
    assert due_line.startswith("* * * * * ")
    for _ in range(2):  # two nights: two records, one per line
        run = subprocess.run(
            check=False, args=["env", "-i", "PATH=/usr/bin:/bin", "/bin/sh", "-c", _command_part(dream_line)], capture_output=True, text=True, cwd="/", timeout=120
        )
        assert run.returncode == 0, run.stderr
    log = ws.state_dir / "dream.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 2 and all(r["ran"] and re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$", r["at"]) for r in records)
    run = subprocess.run(check=False, args=["env", "-i", "PATH=/usr/bin:/bin", "/bin/sh", "-c", _command_part(due_line)], capture_output=True, text=True, cwd="/", timeout=120)
    assert run.returncode == 0 and run.stdout == "", run.stderr


def test_a_bare_clawmem_on_crons_path_is_what_failed(ws):
    """The old README line: cron's PATH has no clawmem (rc 127); the printed line names it absolutely."""
    run = subprocess.run(
        check=False, args=["env", "-i", "PATH=/usr/bin:/bin", "/bin/sh", "-c", f"CLAWMEM_WORKSPACE={ws.root} clawmem dream"], capture_output=True, text=True, timeout=60
    )
    if run.returncode != 127:
        pytest.skip("clawmem is installed on the system PATH here")
    assert "not found" in run.stderr


def test_the_time_zone_of_the_workspace_goes_into_the_lines(ws, clawmem):
    assert clawmem("config", "set", "intents.timezone", "Europe/Paris").returncode == 0
    assert clawmem("config", "set", "dream.cron_schedule", "5 4 * * 1-5").returncode == 0
    dream_line, due_line = _job_lines(clawmem("cron").stdout)
    assert dream_line.startswith("5 4 * * 1-5 ")
    for line in (dream_line, due_line):
        assert "TZ=Europe/Paris" in shlex.split(_command_part(line))


def test_install_is_idempotent_and_leaves_other_lines_alone(ws, clawmem, fake_crontab):
    table, env = fake_crontab
    others_before = "MAILTO=ops@example.com\n# my backup\n0 1 * * * /usr/local/bin/backup --all\n"
    others_after = "30 2 * * * /usr/bin/true\n"
    table.write_text(others_before + others_after)
    first = clawmem("cron", "--install", env=env)
    assert first.returncode == 0, first.stderr
    assert "Installed in your crontab." in first.stdout
    installed = table.read_text()
    assert installed.startswith(others_before + others_after) and installed.count("# BEGIN clawmem") == 1
    # the user moves the block between their lines and edits a line inside it
    block = installed[len(others_before + others_after):]
    table.write_text(others_before + block.replace("17 3", "0 0") + others_after)
    second = clawmem("cron", "--install", env=env)
    assert second.returncode == 0 and "Replaced in your crontab." in second.stdout
    assert table.read_text() == others_before + block + others_after  # in place, restored, nothing doubled
    third = clawmem("cron", "--install", env=env)
    assert "nothing changed" in third.stdout and table.read_text() == others_before + block + others_after
    removed = clawmem("cron", "--remove", env=env)
    assert removed.returncode == 0 and table.read_text() == others_before + others_after


def test_install_into_an_empty_crontab_and_two_workspaces_keep_their_own_blocks(ws, clawmem, fake_crontab, tmp_path):
    table, env = fake_crontab
    assert clawmem("cron", "--install", env=env).returncode == 0
    other = tmp_path / "other"
    assert clawmem("init", "-w", str(other)).returncode == 0
    assert clawmem("cron", "--install", "-w", str(other), env=env).returncode == 0
    text = table.read_text()
    assert text.count("# BEGIN clawmem") == 2 and f"# BEGIN clawmem {ws.root} " in text and f"# BEGIN clawmem {other} " in text
    assert clawmem("cron", "--remove", "-w", str(other), env=env).returncode == 0
    assert table.read_text().count("# BEGIN clawmem") == 1 and str(other) not in table.read_text()


def test_the_block_of_a_deleted_workspace_can_still_be_removed(ws, clawmem, fake_crontab, tmp_path):
    table, env = fake_crontab
    gone = tmp_path / "gone"
    assert clawmem("init", "-w", str(gone)).returncode == 0
    assert clawmem("cron", "--install", "-w", str(gone), env=env).returncode == 0
    shutil.rmtree(gone)
    assert clawmem("cron", "-w", str(gone), env=env).returncode != 0  # printing the lines still needs the workspace
    removed = clawmem("cron", "--remove", "-w", str(gone), env=env)
    assert removed.returncode == 0, removed.stderr
    assert "Removed" in removed.stdout and str(gone) not in table.read_text()


def test_a_crontab_that_refuses_loses_nothing_and_says_why(ws, clawmem, fake_crontab, tmp_path):
    table, env = fake_crontab
    table.write_text("0 1 * * * /usr/local/bin/backup\n")
    refusing = tmp_path / "fakebin" / "crontab"
    refusing.write_text(FAKE_CRONTAB.replace('-) cat > "$table" ;;', '-) echo "crontab: bad minute" >&2; exit 1 ;;'))
    proc = clawmem("cron", "--install", env=env)
    assert proc.returncode == 1 and "bad minute" in proc.stderr
    assert table.read_text() == "0 1 * * * /usr/local/bin/backup\n"


def test_a_broken_schedule_is_refused_before_anything_is_written(ws, clawmem, fake_crontab):
    table, env = fake_crontab
    (ws.root / "clawmem.toml").write_text('[dream]\ncron_schedule = "every night"\n')
    proc = clawmem("cron", "--install", env=env)
    assert proc.returncode == 1 and "five crontab time fields" in proc.stderr
    assert not table.exists()


def test_readme_cron_lines_name_no_bare_clawmem():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Running it from cron", 1)[1].split("\n## ", 1)[0]
    jobs = [line for line in section.splitlines() if re.match(r"^(\S+\s+){5}\S", line) and re.match(r"^[\d*@]", line)]
    for line in jobs:
        assert not re.match(r"^(?:\S+=\S+\s+)*clawmem\b", _command_part(line)), f"cron cannot find a bare `clawmem`: {line}"


def test_lock_files_do_not_pile_up(ws, clawmem):
    for day in ("2026-11-01", "2026-11-02", "2026-11-03"):
        assert clawmem("note", "add", f"note for {day}", "--origin", "owner", env={"CLAWMEM_NOW": f"{day}T09:00:00"}).returncode == 0
    assert clawmem("index").returncode == 0
    assert clawmem("dream").returncode == 0
    per_file = [p.name for p in ws.locks_dir.glob("*.lock") if re.fullmatch(r"[0-9a-f]{16}\.lock", p.name)]
    assert per_file == []  # only the sweep's one named lock (dream.lock, it records its holder) stays
