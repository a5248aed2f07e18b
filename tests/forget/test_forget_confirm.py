"""``forget`` asks at a terminal and needs ``--yes`` without one, as ``promote`` does."""

from __future__ import annotations

import os

import pytest

from tests.conftest import CLAWMEM
from tests.ttyrun import run_with_tty_stderr

pytestmark = pytest.mark.e2e  # a terminal (pty)

TEXT = "The staging VPN password is hunter2 for now"


@pytest.fixture
def noted(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    note = clawmem("note", "add", TEXT, "--origin", "owner", "--json").json()
    return tmp_path / "ws" / note["path"], f"{note['path']}#L{note['line']}"


def test_without_a_terminal_it_needs_yes_and_changes_nothing(clawmem, noted):
    path, anchor = noted
    before = path.read_bytes()
    refused = clawmem("forget", anchor)
    assert refused.returncode == 1
    assert "forgetting is the owner's decision" in refused.stderr and "--yes" in refused.stderr
    assert path.read_bytes() == before
    assert clawmem("forget", anchor, "--dry-run").returncode == 0, "a dry run changes nothing, so it needs no --yes"
    assert clawmem("forget", anchor, "--yes").returncode == 0
    assert TEXT not in path.read_text()


@pytest.mark.parametrize("reply, forgotten", [("n\n", False), ("\n", False), ("y\n", True)])
def test_at_a_terminal_it_shows_what_would_go_and_asks(noted, tmp_path, reply, forgotten):
    path, anchor = noted
    code, out, err = run_with_tty_stderr([CLAWMEM, "forget", anchor], cwd=tmp_path, env=dict(os.environ), answer=reply)
    assert "Would forget 1 entry" in out and "Forget 1 entry or file(s) for good?" in err
    assert (TEXT in path.read_text()) is not forgotten
    if forgotten:
        assert code == 0 and "Forgot 1 entry" in out
    else:
        assert code == 1 and "nothing forgotten" in err
