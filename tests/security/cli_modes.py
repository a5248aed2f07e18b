"""Run the real ``clawmem`` with its gates on or off (``gates_off.py``), in process, in an isolated directory."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # benchmarks/poisoning.py puts only this folder on sys.path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests import inproc  # noqa: E402
from tests.security import gates_off  # noqa: E402

HERE = Path(__file__).resolve().parent
CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
# the same two as processes of their own, for what only a process shows (a peak of memory)
MODES = {"on": [CLAWMEM], "off": [sys.executable, str(HERE / "gates_off.py")]}


def call(mode: str | Callable[[], list[gates_off.Row]], args: list[str], *, input: bytes | str | None = None, env: dict[str, str] | None = None,
         cwd: Path | None = None, timeout: float | None = None, text: bool = False) -> subprocess.CompletedProcess:
    """``clawmem ARGS`` in this process (``tests/inproc.py``: bytes, or ``text``), gates ``on``, ``off``
    (``gates_off.table``) or without those a ``gates_off`` rows function builds; removed only while it runs."""
    if mode == "on":
        return inproc.run(args, input=input, env=env, cwd=cwd, timeout=timeout, text=text)
    with gates_off.removed(gates_off.table if mode == "off" else mode):
        return inproc.run(args, input=input, env=env, cwd=cwd, timeout=timeout, text=text)


def without(rows: Callable[[], list[gates_off.Row]]) -> Callable[..., subprocess.CompletedProcess]:
    """A command for ``attacks.run_attack``: ``call`` without only the gates ``rows`` builds."""
    return functools.partial(call, rows)


def process_without(rows: Callable[[], list[gates_off.Row]]) -> list[str]:
    """The same as a process of its own (``gates_off.py --rows``), for what only a process shows."""
    return [*MODES["off"], "--rows", rows.__name__]


IN_PROCESS = {mode: functools.partial(call, mode) for mode in ("on", "off")}  # what ``attacks.run_attack`` takes as its command


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
    proc = call(mode, list(args), input=stdin, env=env(workdir, **extra), cwd=workdir, timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


def workspace(workdir: Path, *init: str) -> Path:
    """A fresh workspace at ``workdir/ws``, made by ``clawmem init`` (its extra arguments ``init``)."""
    (workdir / "home").mkdir(parents=True, exist_ok=True)
    made = run("on", workdir, "init", *init)
    assert made.returncode == 0, made.stderr
    return workdir / "ws"
