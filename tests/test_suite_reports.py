"""The suite reports a failure whose message holds a lone surrogate (``conftest.pytest_runtest_makereport``).

Attack tests feed lone surrogates to clawmem, so a failing one can carry them in its assertion
message; pytest-xdist cannot send such a report from its worker, and the run ended in an
INTERNALERROR that named no test. Two real pytest runs on a one-test file, with and without the
suite's hook.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.e2e  # runs pytest itself, with an xdist worker process


def _run(tmp_path: Path, *plugin: str) -> str:
    (tmp_path / "test_surrogate.py").write_text('def test_lone_surrogate():\n    assert "\\udc80x" == "y"\n')
    args = [sys.executable, "-m", "pytest", "-c", "/dev/null", "-p", "no:cacheprovider", *plugin, "-n", "1", str(tmp_path / "test_surrogate.py")]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, errors="replace", timeout=120)
    return done.stdout + done.stderr


def test_a_failure_with_a_lone_surrogate_is_reported_by_name(tmp_path):
    out = _run(tmp_path, "-p", "tests.conftest")
    assert "FAILED" in out and "test_lone_surrogate" in out and "1 failed" in out, out
    assert "INTERNALERROR" not in out, out


def test_without_the_hook_xdist_loses_the_failure(tmp_path):
    """Control: the same run without the suite's conftest ends in an INTERNALERROR and reports no test."""
    out = _run(tmp_path)
    assert "INTERNALERROR" in out and "1 failed" not in out, out
