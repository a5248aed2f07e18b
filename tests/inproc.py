"""Run the installed ``clawmem`` command line in this process (tests only), as a fresh process would run it.

``run`` calls the console script's own entry point, ``clawmem.launcher:main`` (worker client,
fast lane or Typer, the same as ``[project.scripts]``), with what a process would have had of
its own, and puts this process back afterwards:

- its arguments (``sys.argv``), environment (``os.environ``, with ``time.tzset``), working
  folder and umask;
- descriptors 0, 1 and 2 on temporary files (stdin holds the input, or is ``/dev/null``), and
  ``sys.std*`` made over them as interpreter start-up makes them (``forkserver._stdio``), so a
  command that reads or writes the descriptors, or starts a program that inherits them, is
  captured as a forked one is; output comes back as bytes, the exit code as the process's;
- the state clawmem keeps in its modules, reset to what a fresh import holds (``reset``) before
  the command and again after it; the default embedder, once loaded, stays loaded, as the fork
  server keeps it (read-only weights);
- its end: ``SystemExit`` is the exit code, and the launcher's ``os._exit`` (a thread left
  running, ``clawmem.foundation.abandoned``) too; threads the command started are waited for, because
  here no process exit ends them.

The resident worker stays off (``CLAWMEM_WORKER=off`` unless the environment says otherwise).
What a process of its own must show (start-up imports, signals, terminals, ``kill -9``,
processes racing, memory peaks, a host's pipe) stays a process: those tests carry the ``e2e``
mark. ``timeout`` is kept with ``SIGALRM`` (on the main thread), which ends a command waiting in a
system call or running Python code, not one computing in C.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests import forkserver

CLAWMEM = forkserver.CLAWMEM


class _TimedOut(BaseException):
    """The command ran past its timeout (a ``BaseException``: clawmem's ``except Exception`` must not take it)."""


class _Exited(BaseException):
    """The launcher ended the process with ``os._exit``: here, the end of the command."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _close_kept(resident) -> None:
    for _, index in resident._kept.values():
        index.close()
    resident._kept.clear()


# What clawmem keeps in its modules between calls, and how a fresh import holds it: a command here starts from that.
RESETS = {
    "clawmem.foundation.abandoned.THREADS": lambda m: m.THREADS.clear(),
    "clawmem.intents.aspirations._READ": lambda m: m._READ.clear(),
    "clawmem.index.files._MADE": lambda m: m._MADE.clear(),
    "clawmem.storage.ledger._WARNED": lambda m: m._WARNED.clear(),
    "clawmem.rules.output._color": lambda m: m.set_color("auto"),
    "clawmem.commands.projects.identify": lambda m: m.identify.cache_clear(),
    "clawmem.mcp.schemas.load": lambda m: m.load.cache_clear(),
    "clawmem.worker.client._asked": lambda m: m._asked.update(refusal=None),
    "clawmem.index.resident._kept": _close_kept,
    "clawmem.index.resident._on": lambda m: setattr(m, "_on", False),
    "clawmem.index.matrix._kept": lambda m: m._kept.clear(),
}
# ... and what a command may find as an earlier one left it
KEPT = {
    "clawmem.embeddings.loader._cache": "the loaded embedder: read-only weights, kept as the fork server and the worker keep them",
    "clawmem.index.migrations.MIGRATIONS": "the migrations, registered once at import by their decorator",
    "clawmem.fastlane.declared": "the hot commands' options, read from the package's own options.json (never written at run time)",
    "clawmem.fastlane.switches": "the hot commands' option strings, from those options",
    "clawmem.dream.credentials._detectors": "detect-secrets' key-format detectors: compiled patterns, the same for every command",
}


def reset() -> None:
    """What clawmem keeps in its modules (``RESETS``, loaded modules only), dateparser's local zone and the temp folder, as a fresh process finds them."""
    for name, clear in RESETS.items():
        module = sys.modules.get(name.rpartition(".")[0])
        if module is not None:
            clear(module)
    if "tzlocal.unix" in sys.modules:  # found again from this command's TZ
        sys.modules["tzlocal.unix"]._cache_tz = sys.modules["tzlocal.unix"]._cache_tz_name = None
    tempfile.tempdir = None


def _collect_as_exit_would() -> None:
    """After a short lane, which leaves the collector off and the heap frozen for the exit it expects
    (``launcher.UNCOLLECTED_LANES``): the collector back on, and what the command left in reference
    cycles (an index connection among them) freed now, as ending its process would have."""
    if not gc.isenabled():
        gc.unfreeze()
        gc.enable()
        gc.collect()


def run(args: Sequence[str], *, input: bytes | str | None = None, env: dict[str, str] | None = None, cwd: str | Path | None = None,
        timeout: float | None = None, text: bool = False) -> subprocess.CompletedProcess:
    """``clawmem ARGS`` in this process: a ``CompletedProcess`` as ``forkserver.run`` gives it (bytes, or ``text`` decoded as there).

    Raises ``subprocess.TimeoutExpired`` after ``timeout`` seconds.
    """
    env = dict(os.environ) if env is None else dict(env)
    env.setdefault("CLAWMEM_WORKER", "off")
    if isinstance(input, str):
        input = input.encode(forkserver._ENCODING)
    saved_env, saved_cwd, saved_argv = dict(os.environ), os.getcwd(), sys.argv
    saved_streams = (sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__)
    umask = os.umask(0o022)
    os.umask(umask)
    threads = set(threading.enumerate())
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if input is not None:
            stdin.write(input)
            stdin.flush()
            stdin.seek(0)
        source = os.open(os.devnull, os.O_RDONLY) if input is None else os.dup(stdin.fileno())
        saved_fds = [os.dup(fd) for fd in (0, 1, 2)]
        timed_out = False
        try:
            reset()
            os.environ.clear()
            os.environ.update(env)
            time.tzset()
            os.chdir(cwd or saved_cwd)
            for fd, target in ((0, source), (1, out.fileno()), (2, err.fileno())):
                os.dup2(target, fd)
            forkserver._stdio()
            forkserver._threads()
            sys.argv = [CLAWMEM, *args]
            with _alarm(timeout), _typer_built_once():
                try:
                    code = _main()
                finally:
                    _flush()
                    _join(threads, timeout)
        except _TimedOut:
            timed_out = True
            code = -signal.SIGKILL
        finally:
            for fd, saved in zip((0, 1, 2), saved_fds, strict=True):
                os.dup2(saved, fd)
                os.close(saved)
            os.close(source)
            sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__, sys.__stderr__ = saved_streams
            sys.argv = saved_argv
            os.chdir(saved_cwd)
            os.umask(umask)
            os.environ.clear()
            os.environ.update(saved_env)
            time.tzset()
            _collect_as_exit_would()
            reset()  # the test's own calls into clawmem find it as before the command
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess([CLAWMEM, *args], code, out.read(), err.read())
    if text:
        done.stdout, done.stderr = forkserver._decoded(done.stdout), forkserver._decoded(done.stderr)
    if timed_out:
        raise subprocess.TimeoutExpired(done.args, timeout or 0, done.stdout, done.stderr)
    return done


_BUILT: dict[str, object] = {}


@contextlib.contextmanager
def _typer_built_once() -> Iterator[None]:
    """The click command of clawmem's Typer app, built once per test process (``forkserver._prebuild``).

    Typer builds it on every call, with a pydantic coercion per parameter (~40 ms, most of a
    short command here): a pure function of the app, which the fork server builds once too.
    """
    import typer.main

    from clawmem.cli import app

    if "command" not in _BUILT:
        _BUILT["command"] = typer.main.get_command(app)
        forkserver._coercions(_BUILT["command"])
    build = typer.main.get_command
    typer.main.get_command = lambda typer_instance: _BUILT["command"] if typer_instance is app else build(typer_instance)
    try:
        yield
    finally:
        typer.main.get_command = build


def _main() -> int:
    """The console script's ``main``, its end read as an exit code (what ``forkserver._command`` does for a child)."""
    import traceback

    from clawmem.launcher import main

    real_exit = os._exit

    def ended(code: int) -> None:
        raise _Exited(code)

    os._exit = ended
    try:
        return forkserver._exit_code(main())
    except SystemExit as stop:
        return forkserver._exit_code(stop.code)
    except _Exited as stop:
        return stop.code & 0xFF
    except KeyboardInterrupt:
        traceback.print_exc()
        return 130
    except _TimedOut:
        raise
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        os._exit = real_exit


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # the command closed it, or the reader went away: what is written stays written


def _join(before: set[threading.Thread], timeout: float | None) -> None:
    """Wait for the threads the command started (interpreter exit waits for the non-daemon ones; ``os._exit`` ends the rest)."""
    deadline = time.monotonic() + (timeout or 120)
    for thread in set(threading.enumerate()) - before:
        thread.join(max(0.0, deadline - time.monotonic()))
        assert not thread.is_alive(), f"the command left thread {thread.name} running: it would outlive the test"


@contextlib.contextmanager
def _alarm(seconds: float | None) -> Iterator[None]:
    """``_TimedOut`` raised in the command after ``seconds`` (on the main thread; None: no limit)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame) -> None:
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
