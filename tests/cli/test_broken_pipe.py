"""A reader that goes away (``clawmem ... | head``) is not an error: exit 0, nothing on stderr.

ripgrep, git and gh do the same. The reader is gone before clawmem writes (a pipe whose read end
is closed), so every write meets EPIPE: through rich (its own handler exits 1), ``print``, the
JSON writer and the buffered output flushed at the end. Commands run as the installed CLI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # pipes closed under a running process

CLAWMEM = str(Path(sys.executable).with_name("clawmem"))
COMMANDS = [("config", "show"), ("status",), ("status", "--json"), ("search", "zqpipe"), ("search", "zqpipe", "--json"),
            ("get", "MEMORY.md"), ("--help",), ("note", "--help"), ("intent", "list")]


def _closed_reader(args: tuple[str, ...], cwd: Path) -> subprocess.CompletedProcess:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([CLAWMEM, *args], stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120, check=False,
                              env={**os.environ, "CLAWMEM_WORKSPACE": str(cwd)})
    finally:
        os.close(write_end)


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    root = tmp_path_factory.mktemp("pipe") / "ws"
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(root)}
    subprocess.run([CLAWMEM, "init", str(root)], check=True, capture_output=True, env=env)
    for n in range(3):
        subprocess.run([CLAWMEM, "note", "add", f"zqpipe note {n}: the staging proxy listens on port 84{n}3", "--origin", "owner"],
                       check=True, capture_output=True, cwd=root, env=env)
    (root / "MEMORY.md").write_text("# Memory\n\n" + "".join(f"- zqpipe fact {n}: deploys go out on day {n}\n" for n in range(3)))
    subprocess.run([CLAWMEM, "index"], check=True, capture_output=True, cwd=root, env=env)
    return root


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_reader_that_went_away_is_not_an_error(filled, args):
    result = _closed_reader(args, filled)
    assert (result.returncode, result.stderr) == (0, "")
