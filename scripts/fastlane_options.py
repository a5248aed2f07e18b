"""The options of the fast-laned commands, read from their Typer definitions for ``clawmem/fastlane/options.json``.

The launcher reads ``recall``, ``search``, ``status``, ``hook`` and ``mcp`` itself so as not to
import Typer (``clawmem.fastlane``); what each takes comes from this table, so the two cannot
declare different options. Each command's parameters are listed in Typer's
order: the argument or option names, the Python name (``dest``), the value's type, fixed
choices, bounds, whether it repeats or is required, and its default. A parameter the table
cannot describe faithfully (a callback, a path check, a clamped range, a variadic argument)
stops generation: the fast lane would accept what Typer refuses, or the reverse.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

# ``--workspace`` and ``--json`` also mean the global options: ``launcher._merged`` does what these do
GLOBAL_CALLBACKS = ("_remember_workspace", "_remember_json")
TYPES = {str: "str", int: "int", float: "float", bool: "bool", Path: "str"}  # a path reaches the command as its text
PATH_CHECKS = ("exists", "resolve_path", "writable", "allow_dash")


def fast_lane_commands() -> tuple[str, ...]:
    """The commands the launcher may run without Typer (``launcher.FAST_LANES``)."""
    from clawmem.launcher import FAST_LANES

    return tuple(FAST_LANES)


def _refused(param: Any) -> str | None:
    """Why the fast lane could not parse ``param`` as Typer does, or None."""
    info = param.type_descriptor.parameter_info
    callback = getattr(param.callback, "__name__", None)
    if callback is not None and callback not in GLOBAL_CALLBACKS:
        return f"its callback {callback}"
    if param.nargs != 1:
        return "more than one value at a time"
    if param.param_type_name == "argument" and not param.required:
        return "an optional argument"
    if info.clamp:
        return "a clamped range"
    if getattr(param, "count", False) or param.envvar is not None or getattr(param, "prompt", None) is not None:
        return "a count, an environment variable or a prompt"
    if param.type_descriptor.is_path and (any(getattr(info, check) for check in PATH_CHECKS) or not (info.file_okay and info.dir_okay)):
        return "a path check"
    return None


def _value_type(param: Any) -> str:
    descriptor = param.type_descriptor
    annotation = descriptor.annotation
    if descriptor.is_list:
        (annotation,) = annotation.__args__
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "str"
    found = TYPES.get(annotation)
    if found is None:
        raise SystemExit(f"fastlane options: {param.name}: values of type {annotation!r} are not supported")
    return found


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def describe(param: Any) -> dict[str, Any]:
    """One parameter as the fast lane's parser needs it."""
    reason = _refused(param)
    if reason is not None:
        raise SystemExit(f"fastlane options: {param.name}: the fast lane cannot parse {reason}; keep the command off the fast lane or teach it")
    choices = param.type_descriptor.choices
    return {
        "dest": param.name,
        "flags": [] if param.param_type_name == "argument" else list(param.opts),
        "off_flags": list(param.secondary_opts),
        "type": _value_type(param),
        "choices": None if choices is None else [str(_plain(choice)) for choice in choices],
        "min": param.min,
        "max": param.max,
        "multiple": param.multiple,
        "required": param.required,
        "default": _plain(param.default),
    }


def options(root: Any) -> dict[str, list[dict[str, Any]]]:
    """Every fast-laned command's parameters, from ``root`` (``gen_docs.command_tree()``), without what ``PARAM_DEFAULTS`` says."""
    from clawmem.fastlane import PARAM_DEFAULTS

    commands = {name: root.command.get_command(root.ctx, name) for name in fast_lane_commands()}
    return {
        name: [{key: value for key, value in describe(param).items() if key not in PARAM_DEFAULTS or value != PARAM_DEFAULTS[key]} for param in command.params]
        for name, command in commands.items()
    }


def options_json(root: Any) -> str:
    """``clawmem/fastlane/options.json``, one parameter a line: JSON, which the fast lane reads with the ``json`` its output module has already loaded."""
    commands = [
        f" {json.dumps(name)}: [\n" + ",\n".join(f"  {json.dumps(param, ensure_ascii=False)}" for param in params) + "\n ]"
        for name, params in options(root).items()
    ]
    return "{\n" + ",\n".join(commands) + "\n}\n"
