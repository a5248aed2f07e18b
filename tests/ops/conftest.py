"""Fixtures for operators' tests: real git, with an identity that does not depend on the machine."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

GIT_ID = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"]


def run_git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *GIT_ID, *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=60)
    assert not check or proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture
def git():
    """``git(cwd, *args)`` -> stdout; fails the test when git fails."""
    return lambda cwd, *args: run_git(cwd, *args).stdout


@pytest.fixture
def push(git):
    """Push; when the other machine pushed first, merge (the .gitattributes rules) and retry."""

    def run(clone: Path) -> None:
        for _ in range(20):
            if run_git(clone, "push", "-q", "origin", "main", check=False).returncode == 0:
                return
            git(clone, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
        raise AssertionError(f"could not push from {clone}")

    return run
