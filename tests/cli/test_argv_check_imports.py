"""The launcher checks that the arguments are valid text without importing ``clawmem.rules.inputs`` (issue 26).

Every invocation runs the check, so ``--version`` and recorded ``--help`` paid for
``clawmem.rules.inputs`` (its regular expressions, ``clawmem.entries.lines``, ``hashlib``) on text
that was fine. UTF-8 refuses exactly the lone surrogates invalid bytes arrive as, so one
``encode`` decides; the module is imported only to report or repair. The refusal and the
``recall`` repair stay as they were (tests/security V01-V03 refuse them in other commands).
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.conftest import CLAWMEM, modules_loaded

pytestmark = pytest.mark.e2e  # fresh interpreters through the installed entry point


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["status", "--help"], ["search", "--help"]])
def test_valid_arguments_cost_no_import_of_the_input_rules(args):
    assert modules_loaded(args, ("clawmem.rules.inputs", "clawmem.entries")) == set()


def test_invalid_utf8_still_refused_and_still_repaired_for_recall(tmp_path):
    bad = os.fsdecode(b"caf\xe9")
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(tmp_path / "none")}
    refused = subprocess.run([CLAWMEM, "status", "--workspace", bad], capture_output=True, text=True, timeout=60, env=env)
    assert refused.returncode == 2 and "argument 3 is not valid UTF-8" in refused.stderr
    read = subprocess.run([CLAWMEM, "recall", bad, "--no-bootstrap"], capture_output=True, text=True, timeout=60, env=env)
    assert "invalid UTF-8 in the arguments was read as U+FFFD" in read.stderr
