"""What the worker runs for a client's command line: the launcher's own parsing, the workspace check, the stdin it needs.

The client sends its command line unparsed (parsing it there would cost the imports the
worker exists to save), so the worker parses it exactly as the client's launcher would
(``launcher.lane_args``, ``recall_values``, ``hook_values``) and refuses, with a reason,
anything that process would not hand to the same function: another command or hook event,
arguments the fast lane leaves to Typer, another workspace, a terminal on stdin for
``recall -``, ``status`` or ``search`` printing to a terminal (its layout follows the
terminal's width, which only the client sees), a hybrid search (the query embedding would run
with the worker's thread count, not the client's), ``--debug`` (a traceback is the client's
to print). The client then runs the command itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from clawmem import worker
from clawmem.fastlane import Usage
from clawmem.foundation.records import dataclass


@dataclass(frozen=True)
class Plan:
    """A command line the worker serves: which function, its arguments, ``--color``, and how much stdin it reads."""

    command: str  # "recall", "hook", "status" or "search"
    values: dict[str, Any]
    color: str
    stdin: int  # bytes to ask the client for: 0 none, -1 all of it


def planned(request: dict[str, Any], root: Path) -> Plan | str:
    """The plan for a ``run`` request, or why the client must run it itself; called in the client's directory."""
    from clawmem import launcher
    from clawmem.hosts.names import CONTEXT_EVENTS

    parts = launcher.lane_args(list(request["argv"]))
    if parts is None:
        return "usage"
    color, found, rest = parts
    try:
        if rest[:1] == ["recall"]:
            values = launcher.recall_values(rest[1:], found)
        elif rest[:1] == ["hook"]:
            values = launcher.hook_values(rest[1:], found)
            if values["event"] not in CONTEXT_EVENTS:
                return "command"
        elif rest[:1] == ["status"]:
            values = launcher.status_values(rest[1:], found)
        elif rest[:1] == ["search"]:
            values = launcher.search_values(rest[1:], found)
            if not values["lexical"]:
                return "command"
        else:
            return "command"
    except Usage:
        return "usage"
    if rest[0] in worker.PIPED_ONLY:
        if request["stdout_tty"] or request["stderr_tty"]:
            return "terminal"
        if values.pop("debug"):
            return "debug"
    if not _same_workspace(values.get("workspace"), root):
        return "workspace"
    if rest[0] == "recall":
        if values["message"] != "-":
            return Plan("recall", values, color, 0)
        return "stdin" if request["stdin_tty"] else Plan("recall", values, color, -1)  # a person typing: the client reads it
    if rest[0] in worker.PIPED_ONLY:
        return Plan(rest[0], values, color, 0)
    return Plan("hook", values, color, 0 if request["stdin_tty"] else worker.STDIN_READ_MAX)


def _same_workspace(option: Any, root: Path) -> bool:
    """The command would resolve this worker's workspace (any failure to resolve is the client's to report)."""
    from clawmem.storage.workspace import resolve

    try:
        found = resolve(option).root
    except Exception:  # noqa: BLE001 -- the client's own process says what is wrong with the workspace
        return False
    return os.path.abspath(found) == os.path.abspath(root)


def run(plan: Plan) -> int:
    """The command's own function: the same one the client's process would call."""
    from clawmem.foundation import abandoned
    from clawmem.rules.output import set_color

    set_color(plan.color)
    try:
        if plan.command == "recall":
            from clawmem.fastlane.recall import answer

            return answer(**plan.values)
        if plan.command in worker.PIPED_ONLY:
            return _read(plan)
        from clawmem.hosts.command import answer as hook_answer

        return hook_answer(**plan.values)
    finally:
        abandoned.THREADS.clear()  # a vector lane cut off by its budget finishes in its thread; this process never exits for it


def _read(plan: Plan) -> int:
    """``status`` or ``search``, errors reported as the client's fast lane reports them (``fastlane.guarded``)."""
    from clawmem.fastlane import guarded

    as_json = plan.values["json_output"]
    if plan.command == "status":
        from clawmem.fastlane.status import run_command as status

        return guarded(lambda: status(**plan.values), as_json=as_json, debug=False)
    from clawmem.fastlane.search import run_command as search

    return guarded(lambda: search(**plan.values), as_json=as_json, debug=False)
