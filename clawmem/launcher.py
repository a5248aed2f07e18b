"""The console-script entry point: ``recall``, ``hook`` and ``--version`` take a fast lane, the rest Typer.

``recall`` runs on every agent turn. Importing Typer and validating options through it costs
more than the recall work itself, so plain ``recall`` invocations are parsed here with
argparse (the same options as ``clawmem/cli/recall.py``) and never import Typer. Help,
completion and every other command go through the Typer app.
"""

from __future__ import annotations

import os
import sys


def recall_parser():
    import argparse

    parser = argparse.ArgumentParser(prog="clawmem recall", add_help=False)
    parser.add_argument("message")
    parser.add_argument("--session")
    parser.add_argument("--channel")
    parser.add_argument("--sender")
    parser.add_argument("--bootstrap", dest="bootstrap", action="store_true", default=True)
    parser.add_argument("--no-bootstrap", dest="bootstrap", action="store_false")
    parser.add_argument("--budget-ms", dest="budget_ms", type=int)
    parser.add_argument("--include-superseded", dest="include_superseded", action="store_true")
    parser.add_argument("--workspace", "-w")
    parser.add_argument("--json", dest="json_output", action="store_true")
    return parser


def _fast_recall(argv: list[str]) -> int | None:
    """Run recall without Typer; None when the arguments need Typer (help, or anything unusual)."""
    if any(a in ("-h", "--help") or a.startswith("--install-completion") for a in argv):
        return None
    parser = recall_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit:
        return None
    if extra or (args.budget_ms is not None and args.budget_ms < 1):
        return None  # let Typer produce its usual usage error
    from clawmem.recall.command import run_command

    return run_command(**vars(args))


HOOK_EVENTS = ("session-start", "prompt", "pre-compact", "stop", "session-end")
HOOK_HOSTS = ("claude-code", "codex")


def hook_parser():
    import argparse

    class Quiet(argparse.ArgumentParser):
        def error(self, message: str):  # Typer reports the usage error; argparse must not print first
            raise SystemExit(2)

    parser = Quiet(prog="clawmem hook", add_help=False)
    parser.add_argument("event", choices=HOOK_EVENTS)
    parser.add_argument("--host", required=True, choices=HOOK_HOSTS)
    parser.add_argument("--budget-ms", dest="budget_ms", type=int)
    parser.add_argument("--workspace", "-w")
    return parser


def _fast_hook(argv: list[str]) -> int | None:
    """Run a host hook without Typer; None when the arguments need Typer (help, a usage error)."""
    if any(a in ("-h", "--help") for a in argv):
        return None
    try:
        args, extra = hook_parser().parse_known_args(argv)
    except SystemExit:
        return None
    if extra or (args.budget_ms is not None and args.budget_ms < 1):
        return None
    from clawmem.hosts.command import run_command

    return run_command(**vars(args))


def _checked_argv(argv: list[str]) -> list[str]:
    """Arguments that are valid text, validated before any command runs (so before any write).

    Python hands invalid UTF-8 in argv over as lone surrogates; written to a file or the
    ledger they would crash mid-write. Any command refuses them with a usage error, except
    ``recall``, which must never cost a turn: it reads them as U+FFFD and says so.
    """
    from clawmem.inputs import SURROGATE

    bad = [i for i, arg in enumerate(argv) if SURROGATE.search(arg)]
    if not bad:
        return argv
    if argv[:1] == ["recall"]:
        sys.stderr.write("clawmem: recall: invalid UTF-8 in the arguments was read as U+FFFD\n")
        return [SURROGATE.sub("\ufffd", arg) for arg in argv]
    from clawmem.errors import BadValue
    from clawmem.output import report_error

    report_error(BadValue(f"argument {bad[0] + 1} is not valid UTF-8", hint="pass arguments as UTF-8 text"), as_json="--json" in argv)
    sys.exit(BadValue.exit_code)


def main() -> None:
    try:
        argv = _checked_argv(sys.argv[1:])
        sys.argv[1:] = argv
        if argv == ["--version"]:  # scripts probe this; it needs nothing but the version string
            from clawmem import __version__

            sys.stdout.write(f"clawmem {__version__}\n")
            return
        if argv[:1] == ["recall"]:
            code = _fast_recall(argv[1:])
            if code is not None:
                sys.exit(code)
        if argv[:1] == ["hook"]:
            code = _fast_hook(argv[1:])
            if code is not None:
                sys.exit(code)
        from clawmem.cli import main as typer_main

        typer_main()
    except BrokenPipeError:
        # the reader went away (``clawmem ... | head``): not an error; keep the interpreter from
        # complaining again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
