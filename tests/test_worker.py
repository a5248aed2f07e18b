"""The resident worker through the installed command: real processes, a real workspace, a real socket.

Each test starts its own worker in a workspace under a short temporary folder (a Unix socket
path is limited to 103 bytes on every system) and stops it, or kills it by its pid, at the end. Waits for a
worker to come up or go away are bounded polls, never timings.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from clawmem.worker import wire
from tests.conftest import CLAWMEM

pytestmark = pytest.mark.e2e  # the resident worker: real processes, sockets and signals

NONCE = re.compile(r'id=\\?"[0-9a-f]+\\?"')  # recall frames carry a fresh random nonce on every call, by design
ELAPSED = re.compile(r'"elapsed_ms": [0-9.e-]+')  # --json says how long recall took: a measurement, not a result
PROMPT = {"cwd": "/", "hook_event_name": "UserPromptSubmit", "prompt": "time to cut the release tag"}
START = {"cwd": "/", "hook_event_name": "SessionStart", "source": "startup"}


def wait_until(ready, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"still not so after {seconds} s"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def worker_pids(root: Path) -> list[int]:
    """Live processes running ``python -m clawmem.worker ROOT`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"clawmem.worker" in argv and os.fsencode(root) in argv and alive(int(entry)):
                found.append(int(entry))
    return found


@pytest.fixture
def root(monkeypatch):
    """A workspace with one triggered curated entry, indexed, whose worker the test may start."""
    folder = Path(tempfile.mkdtemp(prefix="cmw", dir="/tmp")) / "ws"
    monkeypatch.setenv("CLAWMEM_WORKSPACE", str(folder))
    monkeypatch.delenv("CLAWMEM_WORKER")
    run("init", "-w", str(folder))
    memory = folder / "MEMORY.md"
    memory.write_text(memory.read_text() + "- Run the release helper before tagging. <!-- trigger: release tag -->\n", encoding="utf-8")
    run("index")
    yield folder
    subprocess.run([CLAWMEM, "worker", "stop"], capture_output=True, timeout=60)
    for pid in worker_pids(folder):
        os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder.parent)


def run(*args: str, input: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([CLAWMEM, *args], input=input, capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    return proc


def status() -> dict:
    return json.loads(run("worker", "status", "--json").stdout)


def started() -> dict:
    info = json.loads(run("worker", "start", "--json").stdout)
    assert info["answers"] and alive(info["pid"])
    return info


def hook(event: str, payload: dict, session: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run("hook", event, "--host", "claude-code", "--budget-ms", "60000", input=json.dumps({**payload, "session_id": session}).encode(), env=env)


def outputs(tag: str, env: dict | None = None) -> list[bytes]:
    """stdout and stderr of recall (text, JSON, stdin) and of both context hooks, nonces masked.

    Each run gets its own session (``tag``): a session's second prompt leaves out what its
    first one injected, so the runs compared must not share one.
    """
    procs = [
        run("recall", "time to cut the release tag", "--budget-ms", "60000", env=env),
        run("recall", "time to cut the release tag", "--session", f"r-{tag}", "--budget-ms", "60000", "--json", env=env),
        run("recall", "-", "--no-bootstrap", "--budget-ms", "60000", input=b"the release tag, from stdin", env=env),
        hook("prompt", PROMPT, f"p-{tag}", env),
        hook("session-start", START, f"s-{tag}", env),
        hook("prompt", {**PROMPT, "prompt": 7}, f"q-{tag}", env),  # bad input: degraded the same way
    ]
    return [ELAPSED.sub("elapsed", NONCE.sub("id=N", (p.stdout + b"\0" + p.stderr).decode())).encode() for p in procs]


def test_start_status_stop_and_owner_only_permissions(root):
    assert status()["running"] is False
    info = started()
    sock = root / ".clawmem" / "run" / "worker.sock"
    assert stat.S_ISSOCK(os.stat(sock).st_mode)
    assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700
    assert started()["pid"] == info["pid"]  # a second start finds it
    assert b"worker running: pid" in run("worker", "status").stdout
    assert run("worker", "stop").stdout == b"worker stopped\n"
    wait_until(lambda: not alive(info["pid"]))
    assert not sock.exists() and status()["running"] is False


def test_the_worker_prints_the_same_bytes_as_the_command_itself(root):
    alone = outputs("a", env={"CLAWMEM_WORKER": "off"})
    assert b"release helper" in alone[0] and b"hookSpecificOutput" in alone[3] and b"hook degraded" in alone[5]
    started()
    served = status()["served"]
    assert outputs("b") == alone
    assert status()["served"] == served + len(alone)  # the worker answered every one, none fell back


def test_recall_starts_the_worker_in_the_background_on_first_use(root):
    run("recall", "time to cut the release tag")
    wait_until(lambda: status()["answers"])
    stopped = status()["pid"]
    run("worker", "stop")
    wait_until(lambda: not alive(stopped))
    run("recall", "time to cut the release tag", env={"CLAWMEM_WORKER": "off"})
    assert status()["running"] is False  # switched off: never started


def test_two_concurrent_clients_are_both_served(root):
    expected = NONCE.sub("id=N", run("recall", "time to cut the release tag", env={"CLAWMEM_WORKER": "off"}).stdout.decode())
    started()
    served = status()["served"]
    procs = [subprocess.Popen([CLAWMEM, "recall", "time to cut the release tag"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert NONCE.sub("id=N", out.decode()) == expected
    assert status()["served"] == served + 2


def test_concurrent_starts_give_one_worker(root):
    procs = [subprocess.Popen([CLAWMEM, "worker", "start", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    pids = set()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        pids.add(json.loads(out)["pid"])
    assert len(pids) == 1
    wait_until(lambda: len(worker_pids(root)) == 1)  # the losers of the lock exit at once
    assert worker_pids(root) == list(pids)


def test_a_stale_socket_after_kill_9_is_replaced(root):
    first = started()["pid"]
    os.kill(first, signal.SIGKILL)
    wait_until(lambda: not alive(first))
    sock = root / ".clawmem" / "run" / "worker.sock"
    assert sock.exists()  # what kill -9 leaves: a socket nobody listens on
    out = run("recall", "time to cut the release tag").stdout  # served in process, and a new worker started
    assert b"release helper" in out
    wait_until(lambda: status()["answers"])
    assert status()["pid"] != first


def test_idle_exit(root):
    (root / "clawmem.toml").write_text("[worker]\nidle_s = 1\n")
    pid = started()["pid"]
    wait_until(lambda: not alive(pid))
    assert status()["running"] is False and not (root / ".clawmem" / "run" / "worker.sock").exists()


def test_a_client_of_another_version_is_refused_and_the_old_worker_makes_way(root):
    pid = started()["pid"]
    request = {"protocol": 1, "code": "0.0.0+00000000", "env": "x", "command": "ping"}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(30)
        conn.connect(str(root / ".clawmem" / "run" / "worker.sock"))
        conn.sendall(wire.pack(request))
        reply = wire.unpack(conn.makefile("rb").read, 1 << 20)
    assert reply == {"ok": False, "error": "version"}
    wait_until(lambda: not alive(pid))


def test_a_hint_names_the_command_the_client_was_started_as(root):
    """The shell line of a hint (``hints.clawmem_command``) is the client's own, its console script or its
    ``python -m clawmem``, as in its own process; never the worker's."""
    import sys

    memory = root / "MEMORY.md"
    memory.write_text(memory.read_text() + "".join(f"- Deploy step {n}: check gateway {n} before the window opens.\n" for n in range(400)))
    run("index", "--no-embed")
    started()
    served = status()["served"]
    for n, command in enumerate(([CLAWMEM], [str(Path(sys.executable).with_name("python")), "-m", "clawmem"])):
        args = [*command, "hook", "session-start", "--host", "claude-code", "--budget-ms", "60000"]
        shown = []
        for session, env in ((f"h-{n}-off", {"CLAWMEM_WORKER": "off"}), (f"h-{n}-on", {})):
            proc = subprocess.run(args, input=json.dumps({**START, "session_id": session}).encode(), capture_output=True, timeout=120, env={**os.environ, **env}, check=True)
            shown.append(NONCE.sub("id=N", proc.stdout.decode()))
        assert "without MCP, run: " + " ".join(command[:1]) in shown[0].replace("\\/", "/")
        assert shown[1] == shown[0]
    assert status()["served"] == served + 2


def test_a_turn_the_worker_answers_imports_almost_nothing(root):
    """The hook client on every turn: the launcher, the worker's client and its wire, no ``json`` (``worker.wire``)."""
    import sys

    started()
    served = status()["served"]
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", CLAWMEM, "hook", "prompt", "--host", "claude-code", "--budget-ms", "60000"],
        input=json.dumps({**PROMPT, "session_id": "i-1"}).encode(), capture_output=True, timeout=120, check=True,
    )
    assert b"release helper" in proc.stdout and status()["served"] == served + 1
    floor = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, timeout=120, check=True)
    imported = modules_imported(proc.stderr) - modules_imported(floor.stderr)  # what the interpreter's start-up imports is not the client's
    ours = {name for name in imported if name.split(".")[0] == "clawmem"}
    assert ours == {"clawmem", "clawmem.launcher", "clawmem.worker", "clawmem.worker.client", "clawmem.worker.connection", "clawmem.worker.wire"}
    assert not imported & {"json", "binascii", "socket", "typing"}


def test_a_reader_that_went_away_from_an_answered_turn_is_not_an_error(root):
    """A client the worker answered ends without finalizing (``launcher._exit``): output it cannot write is still exit 0 and silent, as in process."""
    started()
    served = status()["served"]
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([CLAWMEM, "recall", "time to cut the release tag"], stdout=write_end, stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert status()["served"] == served + 1


def modules_imported(importtime: bytes) -> set[str]:
    """The modules ``python -X importtime`` reports on stderr."""
    return {line.rsplit("|", 1)[1].strip() for line in importtime.decode().splitlines() if line.startswith("import time:")}


def test_python_and_python3_of_one_virtualenv_are_one_install(root):
    """The console script's shebang names one (``python3``), ``python -m clawmem`` often the other."""
    import sys

    python, python3 = (Path(sys.executable).with_name(name) for name in ("python", "python3"))
    assert python.exists() and python3.exists()
    start = subprocess.run([str(python3), "-m", "clawmem", "worker", "start", "--json"], capture_output=True, timeout=120, check=True)
    assert json.loads(start.stdout)["answers"]
    served = status()["served"]
    subprocess.run([str(python), "-m", "clawmem", "recall", "time to cut the release tag"], capture_output=True, timeout=120, check=True)
    assert status()["served"] == served + 1  # answered by the worker, not done again in the client's process


def test_a_client_with_another_environment_does_the_work_itself(root):
    started()
    served = status()["served"]
    out = run("recall", "time to cut the release tag", env={"CLAWMEM_NOW": "2030-01-01T00:00:00Z"}).stdout
    assert b"release helper" in out
    assert status()["served"] == served


@pytest.mark.parametrize("reply", [
    b"not the protocol\n",
    b'{"ok": false, "error": "version"}\n',  # a worker of protocol 2 (JSON lines), still running after an upgrade
    wire.pack({"ok": False, "error": "version"}),
    wire.pack({"ok": True}),
    wire.START + (1 << 30).to_bytes(wire.HEADER, "big"),  # a length past any limit
    wire.START + (100).to_bytes(wire.HEADER, "big") + b"cut",  # a message cut off
    b"",
], ids=["garbage", "protocol 2", "refusal", "no code", "too long", "cut off", "hang-up"])
def test_the_client_falls_back_on_a_socket_that_speaks_otherwise(root, reply):
    """A listener that is not a worker of this install (garbage, an older protocol, a refusal, a reply
    without a code, a length past the limit, a message cut off, a hang-up)."""
    expected = NONCE.sub("id=N", hook("prompt", PROMPT, "x1", env={"CLAWMEM_WORKER": "off"}).stdout.decode())
    folder = root / ".clawmem" / "run"
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener, open(folder / "worker.lock", "a") as lock:
        listener.bind(str(folder / "worker.sock"))
        listener.listen()
        fcntl.flock(lock, fcntl.LOCK_EX)  # held, as a worker holds it: no real one is started meanwhile
        proc = subprocess.Popen(
            [CLAWMEM, "hook", "prompt", "--host", "claude-code", "--budget-ms", "60000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        proc.stdin.write(json.dumps({**PROMPT, "session_id": "x2"}).encode())
        proc.stdin.close()
        conn, _ = listener.accept()
        with conn:
            conn.makefile("rb").readline()  # the request's first line, as a JSON-lines worker reads it (a hook's stdin comes with the request)
            conn.sendall(reply)
        out = proc.stdout.read()
        assert proc.wait(timeout=120) == 0
    assert NONCE.sub("id=N", out.decode()) == expected  # the stdin sent to the worker was not lost


def test_a_hook_turn_is_one_exchange_with_its_stdin_sent_along(root):
    """The hook client sends the host's JSON with its request; refused, it runs the hook on those same bytes."""
    payload = json.dumps({**PROMPT, "session_id": "o-1"}).encode()
    expected = NONCE.sub("id=N", hook("prompt", PROMPT, "o-0", env={"CLAWMEM_WORKER": "off"}).stdout.decode())
    folder = root / ".clawmem" / "run"
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener, open(folder / "worker.lock", "a") as lock:
        listener.bind(str(folder / "worker.sock"))
        listener.listen()
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.Popen(
            [CLAWMEM, "hook", "prompt", "--host", "claude-code", "--budget-ms", "60000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        proc.stdin.write(payload)
        proc.stdin.close()
        conn, _ = listener.accept()
        with conn:
            request = wire.unpack(conn.makefile("rb").read, 1 << 24)
            conn.sendall(wire.pack({"ok": False, "error": "environment"}))
        out = proc.stdout.read()
        assert proc.wait(timeout=120) == 0
    assert request["argv"][:2] == ["hook", "prompt"] and request["stdin"] == payload
    assert NONCE.sub("id=N", out.decode()) == expected


def test_the_worker_takes_stdin_sent_along_only_as_the_command_reads_it(root):
    """A hook's bytes sent with the request are its stdin; bytes sent along for ``recall -`` (which the worker asks for) are refused, and that client runs the command itself."""
    from clawmem.worker.connection import ask

    started()
    base = {"command": "run", "cwd": str(root), "stdin_encoding": "utf-8", "stdin_errors": "strict", "stdin_tty": False, "stdout_tty": False, "stderr_tty": False}
    hooked = ask(root, {**base, "argv": ["hook", "prompt", "--host", "claude-code", "--budget-ms", "60000"], "stdin": json.dumps({**PROMPT, "session_id": "o-2"}).encode()})
    assert hooked is not None and hooked["ok"] and hooked["code"] == 0 and "release helper" in hooked["stdout"]
    assert ask(root, {**base, "argv": ["recall", "-", "--budget-ms", "60000"], "stdin": b"the release tag"}) == {"ok": False, "error": "stdin"}


def test_the_client_reads_a_hook_stdin_past_the_hook_limit():
    """An oversized hook stdin reaches the worker oversized, so it is refused there as in process."""
    from clawmem import worker
    from clawmem.foundation.config import HOOK_STDIN_MAX_BYTES

    assert worker.STDIN_READ_MAX > HOOK_STDIN_MAX_BYTES


def test_a_socket_folder_others_may_enter_is_not_used(root):
    """The client sends the prompt only into a folder of this user's alone (0700), whatever the socket's mode."""
    started()
    served = status()["served"]
    os.chmod(root / ".clawmem" / "run", 0o755)
    assert b"release helper" in run("recall", "time to cut the release tag").stdout
    os.chmod(root / ".clawmem" / "run", 0o700)
    assert status()["served"] == served
    run("recall", "time to cut the release tag")
    assert status()["served"] == served + 1


def test_a_workspace_too_deep_for_a_socket_gets_no_worker_and_loses_nothing(tmp_path, monkeypatch):
    folder = tmp_path / ("d" * 60) / "ws"
    monkeypatch.setenv("CLAWMEM_WORKSPACE", str(folder))
    monkeypatch.delenv("CLAWMEM_WORKER")
    run("init")
    proc = subprocess.run([CLAWMEM, "worker", "start"], capture_output=True, timeout=120)
    assert proc.returncode == 1 and b"longer than a Unix socket allows" in proc.stderr
    run("recall", "anything")  # served in process; no worker is tried
    assert not (folder / ".clawmem" / "run").exists()


def test_an_edited_install_is_never_answered_by_the_old_worker(root, tmp_path):
    """The client names its install cheaply; the worker checks its own files before each answer, so an edit it has loaded stops it."""
    code = tmp_path / "code"
    shutil.copytree(Path(__file__).resolve().parents[1] / "clawmem", code / "clawmem", ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(code)}
    info = json.loads(run("worker", "start", "--json", env=env).stdout)
    assert b"release helper" in run("recall", "time to cut the release tag", env=env).stdout
    assert json.loads(run("worker", "status", "--json", env=env).stdout)["served"] == 1
    edited = code / "clawmem" / "recall" / "render.py"
    patch = "\n\n_unedited = context_block\n\n\ndef context_block(result):\n    return _unedited(result).replace('release helper', 'EDITED helper')\n"
    edited.write_text(edited.read_text() + patch)
    out = run("recall", "time to cut the release tag", env=env).stdout
    assert b"EDITED helper" in out and b"release helper" not in out  # the new code answered, in process
    wait_until(lambda: not alive(info["pid"]))  # the old worker refused and made way


def test_a_command_line_the_fast_lane_leaves_to_typer_is_refused_and_run_in_process(root):
    alone = subprocess.run([CLAWMEM, "recall", "release tag", "--color", "sometimes"], capture_output=True, timeout=120, env={**os.environ, "CLAWMEM_WORKER": "off"})
    assert alone.returncode == 2 and b"sometimes" in alone.stderr
    started()
    served = status()["served"]
    proc = subprocess.run([CLAWMEM, "recall", "release tag", "--color", "sometimes"], capture_output=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    assert status()["served"] == served


def test_a_request_for_another_workspace_path_is_refused_and_run_in_process(root):
    """The client guesses the workspace without importing clawmem.storage.workspace; the worker resolves it and serves only its own."""
    link = root.parent / "link"
    link.symlink_to(root)
    alone = run("recall", "time to cut the release tag", "-w", str(link), env={"CLAWMEM_WORKER": "off"})
    started()
    served = status()["served"]
    again = run("recall", "time to cut the release tag", "-w", str(link))
    assert NONCE.sub("id=N", again.stdout.decode()) == NONCE.sub("id=N", alone.stdout.decode()) and again.stderr == alone.stderr
    assert status()["served"] == served
    run("recall", "time to cut the release tag", "-w", str(root))
    assert status()["served"] == served + 1


def recall_events(root: Path) -> int:
    """Trigger hits recorded in the index file on disk (read by this process's own SQLite, not the worker's)."""
    with sqlite3.connect(root / ".clawmem" / "index.db") as conn:
        return conn.execute("SELECT count(*) FROM recall_events").fetchone()[0]


def test_what_the_cli_writes_between_two_worker_requests_is_seen_by_the_second(root):
    """The worker keeps the index open between requests; another process's commit reaches the very next one."""
    started()
    served = status()["served"]
    memory = root / "MEMORY.md"
    before = memory.read_text(encoding="utf-8")
    assert b"changelog" not in hook("prompt", {**PROMPT, "prompt": "ready to bump the changelog?"}, "w-1").stdout
    memory.write_text(before + "- Bump the changelog in its own commit. <!-- trigger: bump changelog -->\n", encoding="utf-8")
    run("index", "--no-embed", env={"CLAWMEM_WORKER": "off"})  # the CLI syncs: the worker's own freshness check finds nothing to do
    assert b"Bump the changelog" in hook("prompt", {**PROMPT, "prompt": "ready to bump the changelog?"}, "w-2").stdout
    memory.write_text(before.replace("- Run the release helper before tagging. <!-- trigger: release tag -->\n", ""), encoding="utf-8")
    run("index", "--no-embed", env={"CLAWMEM_WORKER": "off"})
    assert b"release helper" not in hook("prompt", PROMPT, "w-3").stdout
    assert status()["served"] == served + 3  # the worker answered all three


def test_the_bootstrap_and_the_file_listing_a_worker_keeps_follow_the_files(root):
    """The worker keeps the curated entries and the indexed files' sizes between requests (``Index.derived``):
    a line added to MEMORY.md with no ``clawmem index`` is synced by the worker's own freshness check and
    shown at the next session start; a line removed is gone from the one after."""
    started()
    served = status()["served"]
    memory = root / "MEMORY.md"
    before = memory.read_text(encoding="utf-8")
    assert b"release helper" in hook("session-start", START, "b-1").stdout
    assert b"Pin the toolchain" not in hook("session-start", START, "b-2").stdout
    memory.write_text(before + "- Pin the toolchain in rust-toolchain.toml.\n", encoding="utf-8")
    assert b"Pin the toolchain" in hook("session-start", START, "b-3").stdout
    memory.write_text(before.replace("- Run the release helper before tagging. <!-- trigger: release tag -->\n", ""), encoding="utf-8")
    shown = hook("session-start", START, "b-4").stdout
    assert b"release helper" not in shown and b"Pin the toolchain" not in shown
    assert status()["served"] == served + 4  # the worker answered all four


def test_an_index_file_replaced_under_the_worker_is_the_one_it_uses_next(root):
    """A new index file (the damaged one deleted, ``clawmem index`` making another) is opened afresh: writes go to it."""
    started()
    assert b"release helper" in hook("prompt", PROMPT, "f-1").stdout
    for suffix in ("", "-wal", "-shm"):
        Path(f"{root}/.clawmem/index.db{suffix}").unlink(missing_ok=True)
    run("index", "--no-embed", env={"CLAWMEM_WORKER": "off"})
    assert recall_events(root) == 0
    served = status()["served"]
    assert b"release helper" in hook("prompt", PROMPT, "f-2").stdout
    assert status()["served"] == served + 1
    assert recall_events(root) == 1  # recorded in the new file, not the deleted one the worker had open


def test_killing_the_worker_loses_nothing(root):
    """What a worker's answer recorded is committed before the answer: kill -9 right after costs no record."""
    pid = started()["pid"]
    served = status()["served"]
    assert b"release helper" in hook("prompt", PROMPT, "k-1").stdout
    assert status()["served"] == served + 1
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not alive(pid))
    assert recall_events(root) == 1
    with sqlite3.connect(root / ".clawmem" / "index.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    out = hook("prompt", PROMPT, "k-2", env={"CLAWMEM_WORKER": "off"}).stdout  # in process, after the kill
    assert b"release helper" in out
    assert recall_events(root) == 2
