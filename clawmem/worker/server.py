"""The worker process: one per workspace, serving ``recall``, the context hooks, piped ``status`` and ``search --lexical`` over a Unix socket.

One message (``wire``) each way. A request carries the client's protocol, install and
environment, its command line, its working directory, whether its streams are terminals and,
for a hook, its stdin bytes; the worker parses the command line as the client's launcher would
(``commands.planned``), asks for the stdin bytes a ``recall -`` reads, runs the command's own function
(``clawmem.fastlane.recall.answer``, ``clawmem.hosts.command.answer``) with those streams in
place, one request at a time, and sends back what it printed and its exit code. Anything it
cannot serve exactly as the client's own process would is refused with a reason, and the
client does the work itself. Before each request it checks its source files against what
they were when it started (``worker.sources``): an edited or upgraded install is never
answered with the old code; the worker refuses and exits.

Exactly one per workspace: the worker holds an exclusive ``flock`` on ``run/worker.lock`` for
its whole life, so a second one started at the same moment exits at once, and a socket
left by a worker killed with ``kill -9`` (its lock released by the kernel) is replaced.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from clawmem import worker
from clawmem.foundation.config import WORKER_LOCK_WAIT_S, WORKER_REQUEST_MAX_BYTES
from clawmem.index import resident
from clawmem.worker import wire
from clawmem.worker.commands import Plan, planned, run
from clawmem.worker.sources import Sources
from clawmem.worker.streams import Output, stdin_of


@contextmanager
def directory(cwd: str) -> Iterator[None]:
    """The client's working directory for one step of a request (requests run one at a time)."""
    saved = os.getcwd()
    try:
        os.chdir(cwd)
        yield
    finally:
        os.chdir(saved)


@contextmanager
def host_session(request: dict[str, Any]) -> Iterator[None]:
    """The client's host session variables (``worker.SESSION_ENV``) for one request, and no others."""
    given = request.get("session_env")
    given = given if isinstance(given, dict) else {}
    saved = {k: os.environ.get(k) for k in worker.SESSION_ENV}
    for name in worker.SESSION_ENV:
        value = given.get(name)
        if isinstance(value, str):
            os.environ[name] = value
        else:
            os.environ.pop(name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def streams(request: dict[str, Any], data: bytes) -> Iterator[tuple[Output, Output]]:
    """Swap in the client's streams (stdin holding ``data``), command line, interpreter path, directory and host session for one request.

    The command line and the interpreter's path (``python`` or ``python3`` of one install) because a
    hint names the command the client was started as (``hints.clawmem_command``).
    """
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv, sys.executable
    out, err = Output(request["stdout_tty"]), Output(request["stderr_tty"])
    sys.stdin, sys.stdout, sys.stderr = stdin_of(request, data), out, err
    sys.argv, sys.executable = [str(request.get("argv0", "")), *request["argv"]], str(request.get("executable", sys.executable))
    try:
        with directory(request["cwd"]), host_session(request):
            yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv, sys.executable = saved


class Worker(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """Threads so a ping or a stop is answered while a request runs; closing waits for the ones under way."""

    def __init__(self, path: Path, root: Path, idle_s: float, files: Sources, env: dict[str, str]) -> None:
        super().__init__(str(path), Handler)
        self.root = root
        self.code = worker.identity()
        self.files = files  # noted before anything was imported: what this process runs
        self.env = env
        self.idle_s = idle_s
        self.last_used = time.monotonic()
        self.served = 0  # requests answered (``worker status`` shows it: proof the worker, not the client, did the work)
        self.busy = threading.Lock()  # one request at a time: the streams and the directory are the process's
        self.stopping = threading.Event()

    def refusal(self, request: dict[str, Any]) -> str | None:
        """Why this request must be served by the client's own process, if it must."""
        if request.get("protocol") != worker.PROTOCOL or request.get("code") != self.code or self.files.changed():
            self.stopping.set()  # another install's client, or this install's files changed: this worker is the old one, make way
            return "version"
        if request.get("env") != self.env:
            return "environment"
        if request.get("command") not in ("run", "ping", "stop"):
            return "command"
        return None

    def answer(self, request: dict[str, Any], stdin: Callable[[int], bytes]) -> dict[str, Any]:
        """The reply to one request; ``stdin(limit)`` asks the client for the bytes of its stdin."""
        refused = self.refusal(request)
        if refused is not None:
            return {"ok": False, "error": refused}
        command = request["command"]
        if command == "stop":
            self.stopping.set()
            return {"ok": True, "pid": os.getpid()}
        if command == "ping":
            return {"ok": True, "pid": os.getpid(), "served": self.served}
        with self.busy, directory(request["cwd"]):
            plan = planned(request, self.root)
        if not isinstance(plan, Plan):
            return {"ok": False, "error": plan}
        sent = request.get("stdin")  # a hook's, read by the client as ``plan.stdin`` says (``client.answered``)
        if sent is not None and (plan.stdin != worker.STDIN_READ_MAX or not isinstance(sent, bytes)):
            return {"ok": False, "error": "stdin"}  # read otherwise than this command reads it: the client runs it on those bytes
        data = sent if sent is not None else stdin(plan.stdin) if plan.stdin else b""  # not under the lock: a slow writer holds up no other client
        with self.busy:
            with streams(request, data) as (out, err):
                code = run(plan)
            self.last_used = time.monotonic()
            self.served += 1
        return {"ok": True, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


class Handler(socketserver.StreamRequestHandler):
    server: Worker
    timeout = worker.REPLY_TIMEOUT_S  # a client that connects and sends nothing does not hold the worker open

    def handle(self) -> None:
        if peer_uid(self.request) != os.getuid():
            return  # the socket is 0600 in a 0700 folder; a peer of another user gets nothing even if those change
        try:
            reply = self.server.answer(self.receive(), self.stdin)
        except Exception as err:  # noqa: BLE001 -- a bad request costs that request only; the client falls back
            reply = {"ok": False, "error": f"{type(err).__name__}: {err}"}
        self.send(reply)

    def receive(self) -> dict[str, Any]:
        message = wire.unpack(self.rfile.read, WORKER_REQUEST_MAX_BYTES)
        if message is None:
            raise ValueError("no message")
        return message

    def send(self, message: dict[str, Any]) -> None:
        self.wfile.write(wire.pack(message))

    def stdin(self, limit: int) -> bytes:
        """The client's stdin bytes (``limit`` as ``commands.Plan.stdin``), asked for once the request is accepted."""
        self.send({"ok": True, "stdin": limit})
        data = self.receive().get("stdin")
        if not isinstance(data, bytes):
            raise ValueError("no stdin bytes")
        return data


def peer_uid(conn: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (Linux ``SO_PEERCRED``: pid, uid, gid).

    Where the standard library cannot ask (macOS), the folder's 0700 is the guard and this is the worker's own.
    """
    if not hasattr(socket, "SO_PEERCRED"):
        return os.getuid()
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1]


def private_dir(folder: Path) -> None:
    """``run/`` as a directory of this user's only (0700), never through a link."""
    folder.mkdir(mode=0o700, exist_ok=True)
    info = os.lstat(folder)
    if not os.path.isdir(folder) or os.path.islink(folder) or info.st_uid != os.getuid():
        raise PermissionError(f"{folder} is not a directory of this user's")
    os.chmod(folder, 0o700)


def warm(root: Path) -> None:
    """Import what the commands need and load the workspace's embedder, so no request pays for either."""
    from clawmem import launcher  # noqa: F401 -- imported for their side effect: loaded once
    from clawmem.commands.recall_intent import detect  # noqa: F401 -- what recall imports when it runs
    from clawmem.commands.status import workspace_status  # noqa: F401
    from clawmem.fastlane.recall import answer  # noqa: F401
    from clawmem.fastlane.search import run_command as search  # noqa: F401
    from clawmem.fastlane.status import run_command as status  # noqa: F401
    from clawmem.hosts.command import answer as hook_answer  # noqa: F401
    from clawmem.hosts.hook import run  # noqa: F401
    from clawmem.recall import oversize, recall, triggers  # noqa: F401 -- oversize: what status imports when it runs; triggers: what recall does
    from clawmem.recall.render import context_block  # noqa: F401
    from clawmem.search import search as run_search  # noqa: F401
    from clawmem.trust import workspaces  # noqa: F401 -- the same

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # what the vector lane sets before numpy loads (recall.triggers)
    try:
        from clawmem.embeddings import load_embedder
        from clawmem.recall.calibration import mean_vector
        from clawmem.storage.workspace import Workspace

        cfg = Workspace(root).config.embeddings
        mean_vector(load_embedder(cfg.backend, cfg.model_path or None))
    except Exception:  # noqa: BLE001,S110 -- no embedder here: each request says so itself, as in process
        pass


def serve(root: Path, idle_s: float) -> int:
    """Be the workspace's worker until idle for ``idle_s`` or stopped; 0 when another one already is."""
    files, env = Sources(worker.package_dir()), worker.env_chosen()  # as started: warming up imports the code and sets thread variables
    folder = worker.run_dir(root)
    private_dir(folder)
    with open(folder / worker.LOCK_NAME, "a") as lock:
        if not _locked(lock):
            return 0  # one is running (or starting): exactly one per workspace
        record, path = folder / worker.RECORD_NAME, worker.socket_path(root)
        try:
            record.write_text(json.dumps({"pid": os.getpid(), "code": worker.identity(), "idle_s": idle_s}))
            path.unlink(missing_ok=True)  # a socket nobody holds the lock for is a dead worker's
            resident.keep()  # the index stays open between requests, checked at each (``clawmem.index.resident``)
            warm(root)  # before the socket exists: until then clients do the work themselves
            previous = os.umask(0o177)  # the socket is created 0600
            try:
                server = Worker(path, root, idle_s, files, env)
            finally:
                os.umask(previous)
            signal.signal(signal.SIGTERM, lambda *_: server.stopping.set())
            with server:  # closing waits for the requests under way
                _loop(server)
        finally:
            resident.close_all()
            path.unlink(missing_ok=True)
            record.unlink(missing_ok=True)
    return 0


def _locked(lock: Any) -> bool:
    """The workspace's worker lock, retried briefly: ``lifecycle.running`` probes it for an instant, a worker holds it for good."""
    deadline = time.monotonic() + WORKER_LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)


def _loop(server: Worker) -> None:
    """Serve until stopped or idle; the timeout is short so a stop is noticed soon."""
    server.timeout = 0.5
    while not server.stopping.is_set():
        server.handle_request()
        if time.monotonic() - server.last_used > server.idle_s and not server.busy.locked():
            break
