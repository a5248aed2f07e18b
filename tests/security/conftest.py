"""The security tests run ``clawmem`` in process (``tests/inproc.py``), gates on and off alike (``cli_modes.call``)."""

from __future__ import annotations

import os

import pytest

from tests import inproc


@pytest.fixture
def run_cli(run_cli, tmp_path, request):
    """The suite's ``run_cli`` (``tests/conftest.py``), in process: the same arguments, a ``CompletedProcess`` with bytes.

    Tests marked ``e2e`` keep the suite's freshly started process.
    """
    if request.node.get_closest_marker("e2e") is not None:
        return run_cli

    def run(*args: str, input: str | bytes | None = None, timeout: float = 120, env: dict | None = None):
        return inproc.run(list(args), input=input.encode() if isinstance(input, str) else input, timeout=timeout, env={**os.environ, **(env or {})}, cwd=tmp_path)

    return run
