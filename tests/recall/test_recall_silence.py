"""An empty ``recall`` says why, on stderr, to a person; a hook's stdout stays empty and its stderr quiet."""

from __future__ import annotations

import os

import pytest

from tests.conftest import CLAWMEM
from tests.ttyrun import run_with_tty_stderr

pytestmark = pytest.mark.e2e  # a terminal (pty)

MESSAGE = "the deploy failed again"


def test_in_a_pipe_recall_stays_silent_unless_asked(clawmem):
    assert clawmem("init").returncode == 0
    quiet = clawmem("recall", MESSAGE, "--session", "s-42")
    assert (quiet.returncode, quiet.stdout) == (0, "")
    assert "injected nothing" not in quiet.stderr
    asked = clawmem("recall", MESSAGE, "--session", "s-42", "--why")
    assert (asked.returncode, asked.stdout) == (0, "")
    lines = [line for line in asked.stderr.splitlines() if "injected nothing" in line]
    assert len(lines) == 1
    assert "MEMORY.md and USER.md are empty" in lines[0] and "no recall intent in the message" in lines[0]


def test_on_a_terminal_the_reason_comes_without_a_flag(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    code, out, err = run_with_tty_stderr([CLAWMEM, "recall", MESSAGE, "--no-bootstrap"], cwd=tmp_path, env=dict(os.environ))
    assert (code, out) == (0, "")
    assert "clawmem: recall injected nothing: bootstrap off (--no-bootstrap)" in err
    assert "no curated entry's trigger matched" in err


def test_nothing_to_explain_when_something_was_injected(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    with (tmp_path / "ws" / "MEMORY.md").open("a") as f:
        f.write("- Deploys go to fly.io. <!-- trigger: deploy failed --> <!-- importance: 7 -->\n")
    result = clawmem("recall", MESSAGE, "--why")
    assert result.returncode == 0 and "Deploys go to fly.io" in result.stdout
    assert "injected nothing" not in result.stderr
