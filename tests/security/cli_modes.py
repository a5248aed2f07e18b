"""Run the real ``clawmem`` with its gates on or off (``gates_off.py``) in an isolated directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests import forkserver

HERE = Path(__file__).resolve().parent
CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
MODES = {"on": [CLAWMEM], "off": [sys.executable, str(HERE / "gates_off.py")]}


def env(workdir: Path, **extra: str) -> dict[str, str]:
    """This test's own home, state, machine-local config and workspace."""
    home = workdir / "home"
    return {
        **os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CONFIG_HOME": str(home / ".config"), "XDG_RUNTIME_DIR": str(workdir / "run"), "CLAWMEM_WORKSPACE": str(workdir / "ws"),
        "NO_COLOR": "1", "COLUMNS": "100", **extra,
    }


def run(mode: str, workdir: Path, *args: str, stdin: bytes | None = None, timeout: float = 120, **extra: str) -> subprocess.CompletedProcess:
    """``clawmem ARGS`` (gates ``mode``) with bytes in and text out."""
    proc = forkserver.run([*MODES[mode], *args], input=stdin, env=env(workdir, **extra), cwd=workdir, timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


def workspace(workdir: Path, *init: str) -> Path:
    """A fresh workspace at ``workdir/ws``, made by ``clawmem init`` (its extra arguments ``init``)."""
    (workdir / "home").mkdir(parents=True, exist_ok=True)
    made = run("on", workdir, "init", *init)
    assert made.returncode == 0, made.stderr
    return workdir / "ws"
