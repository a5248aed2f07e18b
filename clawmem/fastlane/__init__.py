"""The argparse front ends of the hot commands (``recall``, ``search``, ``status``), run by ``clawmem.launcher``.

Part of the command-line layer, kept outside ``clawmem/cli/`` only because importing that
package imports Typer, the cost this lane exists to avoid. A parser here never prints: any
argument it does not accept raises ``Usage``, and the launcher hands the same arguments to
the Typer app, which prints its own usage error (or help). So both paths give one message,
the same text and exit 2, and ``tests/test_launcher_parity.py`` runs both to prove it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

HELP_WIDTH = 80  # the formatter's width: never printed, Typer prints help and usage errors


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


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Every argument accepted, or ``Usage``."""
    if any(a in ("-h", "--help") for a in argv):
        raise Usage("help is Typer's")
    args, extra = parser.parse_known_args(argv)
    if extra:
        raise Usage(f"unrecognised arguments: {' '.join(extra)}")
    return args


def guarded(run: Callable[[], int], *, as_json: bool, debug: bool) -> int:
    """Errors reported by the reporter of the Typer app's root group (``output.report_failure``): a message and an exit code."""
    try:
        return run()
    except (KeyboardInterrupt, BrokenPipeError):
        raise  # the launcher reports both, for every lane
    except Exception as err:
        from clawmem.output import expected, report_failure

        if debug and not expected(err):
            raise
        return report_failure(err, as_json=as_json)
