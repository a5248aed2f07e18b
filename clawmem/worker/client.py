"""The client side: hand the command line to the workspace's worker, or leave it to this process.

The launcher calls ``answered`` first, before it parses or imports anything: a turn the worker
answers costs this process ``os``, ``sys`` and ``_socket`` and nothing of clawmem
but this package. The command line is read here only to find the socket (which command,
which workspace); the worker parses it with the launcher's own parsers and refuses anything it
would not serve exactly as this process would, so a wrong guess costs a round trip, never a
wrong answer. A hook's stdin (the host's JSON, written before the hook starts) goes with the
request, read as the worker would ask for it, so the turn is one exchange; ``recall -`` (stdin
a person may still be typing) is read only once the worker asks, after accepting. Once read,
the fallback reads the same bytes, so nothing is lost and nothing is read twice.

Falls back to the caller's own process on any failure: no worker (``delegated`` then starts
one in the background for the next call), a stale socket, a timeout, a reply that is not the
protocol, a worker of another install or started with another environment.

Besides ``recall`` and the context hooks, it hands over ``status`` and ``search --lexical``
when neither stdout nor stderr is a terminal (a host or an agent reading a pipe): a running
worker answers them with everything imported and the index open; none is started for them.
"""

from __future__ import annotations

import os
import sys

from clawmem import worker

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs more than the whole exchange
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

COMMANDS = ("recall", "hook", "status", "search")
HOOK_EVENTS = ("session-start", "prompt")  # hosts.names.CONTEXT_EVENTS, not imported: that costs a module per turn
VALUE_OPTIONS = ("-w", "--workspace", "--color")
_asked: dict[str, str | None] = {"refusal": None}  # what the worker said when it refused this process's request ("version", "environment", ...)


def _route(argv: list[str], piped: bool) -> tuple[str, str] | None:
    """The command and the workspace option the command line names ("" for none), or None when no worker serves this command.

    A cheap reading of the global options and of ``-w`` anywhere (the last one wins, as in
    the parsers): the worker checks the command line and the workspace itself. ``status``
    and ``search --lexical`` only when neither stdout nor stderr is a terminal (``piped``).
    """
    args = argv[: argv.index("--")] if "--" in argv else argv
    command = None
    option = ""
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in VALUE_OPTIONS and position + 1 < len(args):
            if arg != "--color":
                option = args[position + 1]
            position += 2
            continue
        if arg.startswith("--workspace="):
            option = arg.partition("=")[2]
        elif arg.startswith("-w") and not arg.startswith("--") and len(arg) > 2:
            option = arg[2:]
        elif command is None and not arg.startswith("-"):
            command = arg
        position += 1
    if command not in COMMANDS or (command == "hook" and not any(event in args for event in HOOK_EVENTS)):
        return None
    if command in worker.PIPED_ONLY and not (piped and (command != "search" or "--lexical" in args)):
        return None
    return command, option


def _root(option: str, cwd: str) -> str:
    """Where ``workspace.resolve`` would look, by the same rules in ``os.path`` terms (the worker checks the answer)."""
    if not option:
        option = os.environ.get("CLAWMEM_WORKSPACE", "")
    if not option:
        folder = cwd
        while True:
            if os.path.isdir(os.path.join(folder, ".clawmem")):
                return folder
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        option = os.path.join(base, "clawmem")
    return os.path.join(cwd, os.path.expanduser(option))


def answered(argv: list[str]) -> int | None:
    """The command's exit code, its output printed, when the workspace's worker ran it; None when this process must."""
    if worker.disabled():
        return None
    if any(stream is None for stream in (sys.stdin, sys.stdout, sys.stderr)):
        return None
    route = _route(argv, not (sys.stdout.isatty() or sys.stderr.isatty()))
    if route is None:
        return None
    command, option = route
    try:
        "\0".join(argv).encode()
        cwd = os.getcwd()
    except (UnicodeEncodeError, OSError):  # invalid UTF-8, or a removed directory: the command says what that means
        return None
    root = _root(option, cwd)
    if not os.path.exists(os.path.join(root, ".clawmem", worker.RUN_DIR, worker.SOCKET_NAME)):
        return None
    from clawmem.worker.connection import greeting, opened
    from clawmem.worker.wire import NOT_THE_PROTOCOL

    conversation = opened(root)
    if conversation is None:
        return None
    stdin = sys.stdin
    request = {
        **greeting(), "command": "run", "argv0": sys.argv[0] if sys.argv else "", "executable": sys.executable, "argv": argv, "cwd": cwd,
        "stdin_encoding": stdin.encoding, "stdin_errors": stdin.errors, "stdin_tty": stdin.isatty(),
        "stdout_tty": sys.stdout.isatty(), "stderr_tty": sys.stderr.isatty(),
    }
    data = None
    try:
        if command == "hook" and not request["stdin_tty"]:  # what ``commands.planned`` asks of a hook: sent along, no second exchange
            data = request["stdin"] = _read(worker.STDIN_READ_MAX)
        conversation.send(request)
        reply = conversation.receive()
        if reply is not None and reply.get("ok") and isinstance(reply.get("stdin"), int):
            data = _read(reply["stdin"])
            conversation.send({"stdin": data})
            reply = conversation.receive()
    except (OSError, *NOT_THE_PROTOCOL):  # cut off, timed out, or not the protocol
        reply = None
    finally:
        conversation.close()
    if reply is not None and reply.get("ok") and isinstance(reply.get("code"), int):
        sys.stdout.write(reply["stdout"])
        sys.stderr.write(reply["stderr"])
        return reply["code"]
    _asked["refusal"] = None if reply is None else reply.get("error")
    if data is not None:
        from clawmem.worker.streams import stdin_of

        sys.stdin = stdin_of(request, data)
    return None


def _read(limit: int) -> bytes:
    """Stdin as the worker asks for it: whole (``limit`` < 0) or up to ``limit`` bytes."""
    stream = sys.stdin.buffer
    return stream.read() if limit < 0 else stream.read(limit)


def delegated(command: str, values: dict[str, Any], local: Callable[[], int]) -> int:
    """``local()``'s exit code: the command in this process, the worker having not answered (``answered``).

    Starts a worker in the background for the next call when none runs (its first use, a
    stale socket), or when the one running refused this install's client (it is exiting).
    """
    if not worker.disabled() and _asked["refusal"] in (None, "version"):
        root = _resolved(values.get("workspace"))
        if root is not None:
            from clawmem.worker.lifecycle import start_in_background

            start_in_background(root)
    return local()


def _resolved(option: Any) -> Any:
    """The workspace root the command will use, or None (the command reports why, in process)."""
    from clawmem.storage.workspace import resolve

    try:
        root = resolve(option).root
    except Exception:  # noqa: BLE001 -- the command itself says what is wrong with the workspace
        return None
    return root if (root / ".clawmem").is_dir() else None
