"""``examples/agent_loop.py`` runs end to end (so the integration guide's example works in CI).

The example runs in its own process and calls ``clawmem`` on PATH as a harness would; that
``clawmem`` is a shim forked from the warm interpreter (``forkserver.shim``) with the pipes the
example gave it, as the suite's other CLI runs are.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import forkserver

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "agent_loop.py"


def turn(output: str, number: int) -> str:
    match = re.search(rf"--- Turn {number} .*?(?=\n--- |\Z)", output, re.DOTALL)
    assert match, f"turn {number} missing from the example's output"
    return match.group(0)


@pytest.mark.slow
def test_the_scripted_conversation_runs_through_the_whole_loop(tmp_path):
    workspace, shims = tmp_path / "ws", tmp_path / "bin"
    shims.mkdir()
    forkserver.shim(shims / "clawmem")
    env = {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run([sys.executable, str(EXAMPLE), "-w", str(workspace)], capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert "(quarantined: True)" in turn(out, 1)  # untrusted web text went to quarantine
    assert "[before compaction] note flush" in out and "[session end] ingested" in out
    assert "recall says: escalate" in turn(out, 2) and "memory/" in turn(out, 2)  # lane 2 found the day-1 note
    assert "promoted to MEMORY.md" in out and "exit 0: no violations" in out
    fifth = turn(out, 5)
    assert "<clawmem-recall id=" in fifth and "make clean" in fifth.split("AGENT:")[0]  # injected by its trigger
    assert "update the changelog" in turn(out, 6).split("AGENT:")[0]  # the standing intent fired
    memory = (workspace / "MEMORY.md").read_text()
    assert "make clean" in memory and "curl" not in memory  # the workaround was promoted, the web page never
