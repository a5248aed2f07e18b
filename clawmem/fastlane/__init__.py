"""The argparse front ends of the hot commands (``recall``, ``search``, ``status``, ``hook``, ``mcp``), run by ``clawmem.launcher``.

Part of the command-line layer, kept outside ``clawmem/cli/`` only because importing that
package imports Typer, the cost this lane exists to avoid. Each command's parser is built from
``options.json``, which ``scripts/gen_docs.py`` writes from the command's Typer definition (the
one declaration of its options; ``--check`` fails when the two differ). A parser here never
prints: any argument it does not accept raises ``Usage``, and the launcher hands the same
arguments to the Typer app, which prints its own usage error (or help). So both paths give one
message, the same text and exit 2, and ``tests/test_launcher_parity.py`` runs both to prove it.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

HELP_WIDTH = 80  # the formatter's width: never printed, Typer prints help and usage errors
OPTIONS_FILE = Path(__file__).with_name("options.json")
TYPES: dict[str, Callable[[str], Any]] = {"str": str, "int": int, "float": float}
# what a parameter in options.json is unless it says otherwise (the generator leaves these out: less to read per run)
PARAM_DEFAULTS: dict[str, Any] = {
    "flags": [], "off_flags": [], "type": "str", "choices": None, "min": None, "max": None, "multiple": False, "required": False, "default": None,
}


class Usage(Exception):
    """Arguments the fast lane does not take as they are: Typer will parse (and report) them."""


class Parser(argparse.ArgumentParser):
    """argparse that neither abbreviates options nor prints: errors raise ``Usage``."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog=prog, add_help=False, allow_abbrev=False)

    def _get_formatter(self) -> argparse.HelpFormatter:
        """A formatter of fixed width: ``add_argument`` builds one to check each option, and
        argparse's default asks the terminal its size, importing ``shutil`` (and its compression
        modules) on every run for text this parser never prints."""
        return argparse.HelpFormatter(prog=self.prog, width=HELP_WIDTH)

    def error(self, message: str) -> NoReturn:
        raise Usage(message)


@functools.cache
def declared(command: str) -> list[dict[str, Any]]:
    """``command``'s parameters as its Typer definition declares them, in its order (``json`` is loaded already, by ``clawmem.rules.output``)."""
    with open(OPTIONS_FILE, "rb") as file:
        commands: dict[str, list[dict[str, Any]]] = json.loads(file.read())
    return [{**PARAM_DEFAULTS, **param} for param in commands[command]]


@functools.cache
def parser(command: str) -> Parser:
    """The parser of ``clawmem COMMAND``, taking the arguments and options Typer takes.

    Built once per process: the resident worker parses every request it serves with it, and
    parsing leaves a parser as it was.
    """
    built = Parser(f"clawmem {command}")
    for param in declared(command):
        if not param["flags"]:
            built.add_argument(param["dest"], type=TYPES[param["type"]], choices=param["choices"])
        elif param["type"] == "bool":
            built.add_argument(*param["flags"], dest=param["dest"], action="store_true", default=param["default"])
            if param["off_flags"]:
                built.add_argument(*param["off_flags"], dest=param["dest"], action="store_false")
        else:
            built.add_argument(
                *param["flags"], dest=param["dest"], type=TYPES[param["type"]], choices=param["choices"],
                action="append" if param["multiple"] else "store", required=param["required"], default=param["default"],
            )
    return built


def in_bounds(value: Any, low: float | None, high: float | None) -> bool:
    """Typer's range check: ``low <= value <= high``, so NaN is out, as Typer has it."""
    return (low is None or value >= low) and (high is None or value <= high)


def parse(command: str, argv: list[str]) -> argparse.Namespace:
    """Every argument accepted and within its bounds, or ``Usage``."""
    if any(a in ("-h", "--help") for a in argv):
        raise Usage("help is Typer's")
    args, extra = parser(command).parse_known_args(argv)
    if extra:
        raise Usage(f"unrecognised arguments: {' '.join(extra)}")
    for param in declared(command):
        value = getattr(args, param["dest"])
        values = value if param["multiple"] and value is not None else [value]
        if any(v is not None and not in_bounds(v, param["min"], param["max"]) for v in values):
            raise Usage(f"{param['dest']}: value out of range")
    return args


def guarded(run: Callable[[], int], *, as_json: bool, debug: bool) -> int:
    """Errors reported by the reporter of the Typer app's root group (``output.report_failure``): a message and an exit code."""
    try:
        return run()
    except (KeyboardInterrupt, BrokenPipeError):
        raise  # the launcher reports both, for every lane
    except Exception as err:
        from clawmem.rules.output import expected, report_failure

        if debug and not expected(err):
            raise
        return report_failure(err, as_json=as_json)
