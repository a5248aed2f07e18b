"""The argument readers of the hot commands (``recall``, ``search``, ``status``, ``hook``, ``mcp``), run by ``clawmem.launcher``.

Part of the command-line layer, kept outside ``clawmem/cli/`` only because importing that
package imports Typer, the cost this lane exists to avoid. Each command's parameters are read
from ``options.json``, which ``scripts/gen_docs.py`` writes from the command's Typer definition
(the one declaration of its options; ``--check`` fails when the two differ). A reader here never
prints: any argument it does not take raises ``Usage``, and the launcher hands the same arguments
to the Typer app, which prints its own usage error (or help). So both paths give one message, the
same text and exit 2, and ``tests/test_launcher_parity.py`` runs both to prove it.

The reader takes only the plain forms (``--option value``, ``--option=value``, a flag, an
argument that does not start with ``-``, or ``-`` for standard input) and leaves every other one
(``--``, a value starting with ``-``, short options run together, help) to Typer: what it takes,
Typer reads the same way, and argparse (with ``gettext`` and ``locale`` under it) costs about 5 %
of a lexical search to import and build.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

OPTIONS_FILE = Path(__file__).with_name("options.json")
TYPES: dict[str, Callable[[str], Any]] = {"str": str, "int": int, "float": float}
# what a parameter in options.json is unless it says otherwise (the generator leaves these out: less to read per run)
PARAM_DEFAULTS: dict[str, Any] = {
    "flags": [], "off_flags": [], "type": "str", "choices": None, "min": None, "max": None, "multiple": False, "required": False, "default": None,
}


class Usage(Exception):
    """Arguments the fast lane does not take as they are: Typer will parse (and report) them."""


@functools.cache
def declared(command: str) -> list[dict[str, Any]]:
    """``command``'s parameters as its Typer definition declares them, in its order (``json`` is loaded already, by ``clawmem.rules.output``)."""
    with open(OPTIONS_FILE, "rb") as file:
        commands: dict[str, list[dict[str, Any]]] = json.loads(file.read())
    return [{**PARAM_DEFAULTS, **param} for param in commands[command]]


@functools.cache
def switches(command: str) -> dict[str, tuple[dict[str, Any], bool | None]]:
    """Each option string of ``command``: its parameter, and what the flag stores (None: the option takes a value)."""
    found: dict[str, tuple[dict[str, Any], bool | None]] = {}
    for param in declared(command):
        if param["type"] == "bool":
            found.update({flag: (param, True) for flag in param["flags"]})
            found.update({flag: (param, False) for flag in param["off_flags"]})
        else:
            found.update({flag: (param, None) for flag in param["flags"]})
    return found


def _value(param: dict[str, Any], text: str) -> Any:
    """``text`` as ``param``'s type, and one of its choices if it has any; else ``Usage``."""
    try:
        value = TYPES[param["type"]](text)
    except ValueError:
        raise Usage(f"{param['dest']}: not a {param['type']}: {text!r}") from None
    if param["choices"] is not None and value not in param["choices"]:
        raise Usage(f"{param['dest']}: not one of the choices: {text!r}")
    return value


def in_bounds(value: Any, low: float | None, high: float | None) -> bool:
    """Typer's range check: ``low <= value <= high``, so NaN is out, as Typer has it."""
    return (low is None or value >= low) and (high is None or value <= high)


def parse(command: str, argv: list[str]) -> SimpleNamespace:
    """Every argument taken in a plain form (the module's docstring) and within its bounds, or ``Usage``."""
    params = declared(command)
    options = switches(command)
    values: dict[str, Any] = {param["dest"]: param["default"] for param in params}
    arguments: list[str] = []
    rest = iter(argv)
    for arg in rest:
        if arg == "-" or not arg.startswith("-"):
            arguments.append(arg)
            continue
        name, equals, inline = arg.partition("=")
        if name not in options:
            raise Usage(f"unrecognised argument: {arg}")
        param, stored = options[name]
        if stored is not None:
            if equals:
                raise Usage(f"{name} takes no value")
            values[param["dest"]] = stored
            continue
        text = inline if equals else next(rest, "-")
        if not text or text.startswith("-"):
            raise Usage(f"{name}: a value starting with - (or none) is Typer's to read")
        value = _value(param, text)
        values[param["dest"]] = [*(values[param["dest"]] or []), value] if param["multiple"] else value
    positional = [param for param in params if not param["flags"]]
    if len(arguments) != len(positional):
        raise Usage(f"{len(arguments)} arguments where {len(positional)} are taken")
    for param, text in zip(positional, arguments, strict=True):
        values[param["dest"]] = _value(param, text)
    for param in params:
        value = values[param["dest"]]
        if param["required"] and param["flags"] and value is None:
            raise Usage(f"{param['flags'][0]} is required")
        if any(v is not None and not in_bounds(v, param["min"], param["max"]) for v in (value if param["multiple"] and value is not None else [value])):
            raise Usage(f"{param['dest']}: value out of range")
    return SimpleNamespace(**values)


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
