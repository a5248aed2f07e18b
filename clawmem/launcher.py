"""The console-script entry point: ``recall``, ``search``, ``status``, ``hook``, ``mcp`` (stdio) and ``--version`` take a fast lane, the rest Typer.

``recall`` runs on every agent turn and ``search`` is a shell command agents call in loops.
Importing Typer and validating options through it costs more than the work itself, so plain
invocations of these are read here (``clawmem.fastlane``, which takes the Typer commands' own
declarations, recorded in ``fastlane/options.json``) and
never import Typer. Global options come before the subcommand, git-style
(``clawmem -w DIR --json search ...``), and mean the same as after it (``--color`` anywhere
before ``--``, as in the Typer app). Help, anything the fast parser does not accept (Typer
then prints the one usage error) and every other command go through the Typer app.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs more than a turn's parsing
if TYPE_CHECKING:
    from typing import NoReturn

GLOBAL_FLAGS = ("--json", "--debug")
WORKSPACE_OPTIONS = ("-w", "--workspace")


def split_globals(argv: list[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Global options before the subcommand, and the rest (the subcommand first): the one reading of ``-w`` by hand.

    The fast lane's parsers take them after their subcommand; the Typer app declares them
    (``cli/options.py``). ``--debug`` and ``--color`` are taken out anywhere first (``output.take_anywhere``).
    """
    found: dict[str, str | bool] = {}
    position = 0
    while position < len(argv):
        arg = argv[position]
        if arg in GLOBAL_FLAGS:
            found[arg[2:]] = True
        elif arg in WORKSPACE_OPTIONS and position + 1 < len(argv):
            position += 1
            found["workspace"] = argv[position]
        elif arg.startswith("--workspace="):
            found["workspace"] = arg.partition("=")[2]
        elif arg.startswith("-w") and len(arg) > 2 and not arg.startswith("--"):
            found["workspace"] = arg[2:]
        else:
            break
        position += 1
    return found, argv[position:]


def _merged(args, found: dict[str, str | bool]) -> dict:
    """Parsed subcommand options with the global ones filled in (the subcommand's own win)."""
    values = vars(args)
    values["json_output"] = values.get("json_output") or bool(found.get("json"))
    values["debug"] = bool(found.get("debug"))
    if values.get("workspace") is None and "workspace" in found:
        values["workspace"] = found["workspace"]
    return values


def recall_values(argv: list[str], found: dict[str, str | bool]) -> dict:
    """``recall``'s arguments as ``fastlane.recall.answer`` takes them (the worker parses with this too), or ``Usage``."""
    from clawmem.fastlane import parse

    values = _merged(parse("recall", argv), found)
    values.pop("debug")
    return values


def _fast_recall(argv: list[str], found: dict[str, str | bool]) -> int:
    from clawmem.fastlane.recall import run_command

    return run_command(**recall_values(argv, found))


def search_values(argv: list[str], found: dict[str, str | bool]) -> dict:
    """``search``'s arguments as ``fastlane.search.run_command`` takes them, ``debug`` included (the worker parses with this too), or ``Usage``."""
    from clawmem.fastlane import parse

    return _merged(parse("search", argv), found)


def _fast_search(argv: list[str], found: dict[str, str | bool]) -> int:
    from clawmem.fastlane import guarded
    from clawmem.fastlane.search import run_command

    values = search_values(argv, found)
    debug = values.pop("debug")
    return guarded(lambda: run_command(**values), as_json=values["json_output"], debug=debug)


def hook_values(argv: list[str], found: dict[str, str | bool]) -> dict:
    """``hook``'s arguments as ``hosts.command.answer`` takes them (the worker parses with this too), or ``Usage``."""
    from clawmem.fastlane import Usage, parse

    if set(found) - {"workspace"}:
        raise Usage("hook takes no --json or --debug")
    values = vars(parse("hook", argv))
    if values["workspace"] is None:
        values["workspace"] = found.get("workspace")
    return values


def _fast_hook(argv: list[str], found: dict[str, str | bool]) -> int:
    from clawmem.hosts.command import run_command

    return run_command(**hook_values(argv, found))


def status_values(argv: list[str], found: dict[str, str | bool]) -> dict:
    """``status``'s arguments as ``fastlane.status.run_command`` takes them, ``debug`` included (the worker parses with this too), or ``Usage``."""
    from clawmem.fastlane import parse

    return _merged(parse("status", argv), found)


def _fast_status(argv: list[str], found: dict[str, str | bool]) -> int:
    from clawmem.fastlane import guarded
    from clawmem.fastlane.status import run_command

    values = status_values(argv, found)
    debug = values.pop("debug")
    return guarded(lambda: run_command(**values), as_json=values["json_output"], debug=debug)


def _fast_mcp(argv: list[str], found: dict[str, str | bool]) -> int:
    from clawmem.fastlane.mcp import run

    return run(argv, found)


FAST_LANES = {"recall": _fast_recall, "search": _fast_search, "status": _fast_status, "hook": _fast_hook, "mcp": _fast_mcp}
# Lanes whose process runs one short command, then ends: the cyclic collector stays off (its passes
# over the modules just imported cost about 3 % of a lexical search; what these commands drop is freed
# by reference counting), and the heap is frozen before the exit, so finalization does not walk it
# either (another 5 %). ``hook`` (an ingest) and ``mcp`` (a server) may run long and keep it.
UNCOLLECTED_LANES = ("recall", "search", "status")


def lane_args(argv: list[str]) -> tuple[str, dict[str, str | bool], list[str]] | None:
    """``--color``'s choice, the global options and the rest (the subcommand first); None when Typer must take them."""
    from clawmem.rules.output import COLOR_CHOICES, take_anywhere

    color, debug, argv = take_anywhere(argv)
    if color is not None and color not in COLOR_CHOICES:
        return None  # Typer names the choices in its usage error
    found, rest = split_globals(argv)
    if debug:
        found["debug"] = True
    return color or "auto", found, rest


def _fast(argv: list[str]) -> int | None:
    """The exit code of a fast-lane run; None when Typer must take these arguments."""
    parts = lane_args(argv)
    if parts is None:
        return None
    color, found, rest = parts
    lane = FAST_LANES.get(rest[0]) if rest else None
    if lane is None:
        return None
    import gc

    from clawmem.fastlane import Usage
    from clawmem.rules.output import set_color

    set_color(color)
    uncollected = rest[0] in UNCOLLECTED_LANES
    if uncollected:
        gc.disable()
    try:
        code = lane(rest[1:], found)
    except Usage:
        gc.enable()  # Typer parses (and reports) them: an ordinary run
        return None
    if uncollected:
        gc.freeze()
    return code


def _checked_argv(argv: list[str]) -> list[str]:
    """Arguments that are valid text, validated before any command runs (so before any write).

    Python hands invalid UTF-8 in argv over as lone surrogates; written to a file or the
    ledger they would crash mid-write. Any command refuses them with a usage error, except
    ``recall``, which must never cost a turn: it reads them as U+FFFD and says so. UTF-8
    refuses exactly the surrogates, so valid text costs one encode and no import.
    """
    try:
        "\0".join(argv).encode()
        return argv
    except UnicodeEncodeError:
        pass
    from clawmem.rules.inputs import SURROGATE

    bad = [i for i, arg in enumerate(argv) if SURROGATE.search(arg)]
    if not bad:
        return argv
    if split_globals(argv)[1][:1] == ["recall"]:
        sys.stderr.write("clawmem: recall: invalid UTF-8 in the arguments was read as U+FFFD\n")
        return [SURROGATE.sub("\ufffd", arg) for arg in argv]
    from clawmem.foundation.errors import BadValue
    from clawmem.rules.output import report_error

    report_error(BadValue(f"argument {bad[0] + 1} is not valid UTF-8", hint="pass arguments as UTF-8 text"), as_json="--json" in argv)
    sys.exit(BadValue.exit_code)


def _plain_mcp(argv: list[str]) -> str | None:
    """The workspace of ``clawmem [-w DIR] mcp [-w DIR]`` on a pipe, as ``clawmem install`` writes it for hosts; else None.

    Only when nothing is left to check: the workspace named by ``-w`` exists (a named one is
    never refused as untrusted), the arguments are valid text and the SDK is installed.
    Anything else (no ``-w``, another option, a terminal) goes the way it always went: the fast
    lane, then Typer, which report what is wrong. The subcommand's ``-w`` wins over the global
    one, as there.
    """
    before, rest = split_globals(argv)
    after, extra = split_globals(rest[1:])
    workspace = after.get("workspace", before.get("workspace"))
    if rest[:1] != ["mcp"] or extra or {*before, *after} != {"workspace"} or not isinstance(workspace, str) or not workspace:
        return None
    if sys.stdin is None or sys.stdin.isatty():
        return None
    import os

    try:
        "\0".join(argv).encode()
        found = os.path.isdir(os.path.join(os.getcwd(), os.path.expanduser(workspace), ".clawmem"))
    except (UnicodeEncodeError, OSError, ValueError):
        return None
    from clawmem.mcp.stdio import sdk_installed

    return workspace if found and sdk_installed() else None


def _dispatch() -> int:
    """The command's exit code in this process (Typer and a refused argument end by ``SystemExit`` instead)."""
    workspace = _plain_mcp(sys.argv[1:])
    if workspace is not None:  # what a host runs: the handshake answered before the rest of the launcher is imported
        from clawmem.mcp.stdio import serve

        return serve(workspace)
    argv = _checked_argv(sys.argv[1:])
    sys.argv[1:] = argv
    if argv == ["--version"]:  # scripts probe this; it needs nothing but the version string
        from clawmem import __version__

        sys.stdout.write(f"clawmem {__version__}\n")
        return 0
    from clawmem.fastlane.help import recorded

    text = recorded(argv)
    if text is not None:
        sys.stdout.write(text)
        return 0
    code = _fast(argv)
    if code is not None:
        return code
    from clawmem.cli import main as typer_main

    typer_main()
    return 0


def main() -> None:
    """Run the command line, then end the process: the one place clawmem does (``_exit``)."""
    from clawmem.worker.client import answered

    served = False
    try:
        try:
            code: int | str | None = answered(sys.argv[1:])  # recall, the context hooks, piped reads: the workspace's worker first, before any import
            served = code is not None
            if not served:
                code = _dispatch()
        finally:
            sys.stdout.flush()  # output still buffered meets a reader that went away here, not at exit
    except SystemExit as ended:
        code = ended.code
    except (KeyboardInterrupt, BrokenPipeError) as err:  # from any lane, as the Typer app reports them
        from clawmem.rules.output import report_failure

        served = False
        code = report_failure(err, as_json=False)
    _exit(code, finished=served)


def _exit(code: int | str | None, *, finished: bool = False) -> NoReturn:
    """End the process; at once when it has nothing left to finish, or while a thread a command abandoned still runs.

    ``finished``: the worker answered and its output is flushed. Such a process imported ``os``,
    ``sys``, ``_socket``, ``marshal`` and the worker's client, holds no file, thread or ``atexit``
    handler, and its socket is closed; the interpreter's finalization (tearing down every module
    the start-up imported) would be the slowest step of the turn, about 3 ms, so it is skipped.
    Only a command that abandoned a thread imported ``clawmem.foundation.abandoned`` (recall's
    vector lane cut off by its budget, the MCP front's stdin reader after its SDK server failed).
    """
    abandoned = sys.modules.get("clawmem.foundation.abandoned")
    if not finished and (abandoned is None or not abandoned.running()):
        sys.exit(code)
    if isinstance(code, str):  # what ``sys.exit`` does with a message: print it, exit 1
        sys.stderr.write(code + "\n")
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass  # the reader went away: nothing left to tell it
    import os

    os._exit(code if isinstance(code, int) else 0 if code is None else 1)
