"""The suite never writes the user's own clawmem state, not even from a module fixture."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def state_seen_by_a_module_fixture():
    """What a module fixture (which runs before each test's own isolation) would write to."""
    home = Path.home()
    return (Path(os.environ.get("XDG_STATE_HOME") or home / ".local" / "state"),  # clawmem's defaults when unset
            Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share"))


def test_a_module_fixture_writes_under_the_runs_temp_folder(state_seen_by_a_module_fixture, tmp_path_factory):
    run = tmp_path_factory.getbasetemp()
    run = run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run
    for folder in state_seen_by_a_module_fixture:
        assert folder.is_relative_to(run), f"{folder} is outside this run's temp folder {run}"
