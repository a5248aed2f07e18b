"""The command line's one front door: public Typer names only, one place that ends the process, one list of host and event names."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clawmem.launcher import FAST_LANES

PACKAGE = Path(__file__).resolve().parent.parent / "clawmem"


def _sources() -> dict[str, str]:
    return {str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_reaches_into_typers_private_click():
    """Typer vendors Click under a private name (``typer._click``) that can change in any release."""
    private = re.compile(r"\btyper\._click\b|from\s+typer\s+import\s+[^\n]*\b_click\b")
    assert [name for name, text in _sources().items() if private.search(text)] == []


def _calls(tree: ast.AST, module: str, name: str) -> list[int]:
    return [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) and node.value.id == module
    ]


def test_only_the_launcher_ends_the_process_without_waiting():
    """Library code reports (``clawmem.foundation.abandoned``) and returns: the resident worker runs the same code and never exits."""
    found = {name: lines for name, text in _sources().items() if (lines := _calls(ast.parse(text), "os", "_exit"))}
    assert set(found) == {"clawmem/launcher.py"}, found


LEFT_RUNNING = """
import sys, threading, time
from clawmem.foundation import abandoned
import {module} as target

def answer(**values):
    loading = threading.Thread(target=time.sleep, args=(600,))  # a model still loading: no daemon, and slow
    loading.start()
    abandoned.abandon(loading)
    sys.stdout.write("context\\n")
    return 0

target.{function} = answer
sys.argv = ["clawmem", *{argv!r}]
from clawmem.launcher import main
main()
"""


@pytest.mark.e2e
@pytest.mark.parametrize(
    "argv, module, function",
    [
        (["recall", "hello"], "clawmem.fastlane.recall", "answer"),
        (["hook", "prompt", "--host", "codex"], "clawmem.hosts.command", "answer"),
        (["--debug", "hook", "prompt", "--host", "codex"], "clawmem.hosts.command", "answer"),  # not the fast lane's: Typer's
    ],
    ids=["recall", "hook", "hook through Typer"],
)
def test_a_turn_ends_at_once_when_it_left_a_thread_running(ws, argv, module, function):
    """Recall's vector lane cut off by the budget may still be loading a model: the turn's output is
    flushed and the process ends without waiting for it, whichever front end ran the command."""
    script = LEFT_RUNNING.format(module=module, function=function, argv=[*argv, "-w", str(ws.root)])
    result = subprocess.run([sys.executable, "-c", script], input=b"{}", capture_output=True, timeout=120)
    assert (result.returncode, result.stdout) == (0, b"context\n"), result.stderr


def _name_lists(tree: ast.AST, names: set[str]) -> list[int]:
    """Lines of the tuple, list and set literals that spell two or more of ``names``."""
    return [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List | ast.Set)
        and len({e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)} & names) >= 2
    ]


def test_host_and_event_names_are_listed_once():
    """Everything else derives its lists from ``clawmem.hosts.names`` (the worker's client keeps a checked copy)."""
    from clawmem.hosts import names

    vocabularies = (set(names.INSTALL_HOSTS), set(names.HOOK_EVENTS))
    found = {
        name: lines for name, text in _sources().items()
        if (lines := [line for vocabulary in vocabularies for line in _name_lists(ast.parse(text), vocabulary)])
    }
    assert set(found) == {"clawmem/hosts/names.py", "clawmem/worker/client.py"}, found


def test_the_worker_clients_copy_of_the_context_events_is_the_registrys():
    """The client spells them again so a turn imports no more than it must."""
    from clawmem.hosts.names import CONTEXT_EVENTS
    from clawmem.worker.client import HOOK_EVENTS

    assert HOOK_EVENTS == CONTEXT_EVENTS


def test_each_host_module_is_one_of_the_registrys_hosts_and_has_its_events():
    from clawmem.hosts import host_module, names

    modules = [host_module(host) for host in names.INSTALL_HOSTS]
    assert [module.NAME for module in modules] == list(names.INSTALL_HOSTS)
    hooked = [module for module in modules if hasattr(module, "EVENT_NAMES")]
    assert [module.NAME for module in hooked] == list(names.HOOK_HOSTS)
    assert {event for module in hooked for event in module.EVENT_NAMES} == set(names.HOOK_EVENTS)
    for module in hooked:
        assert set(names.CONTEXT_EVENTS) <= set(module.INSTALLED_EVENTS) <= set(module.EVENT_NAMES) <= set(names.HOOK_EVENTS)


def test_each_hook_host_has_its_context_cap_setting():
    from clawmem.foundation.config import HOST_CONTEXT_KEYS, Config
    from clawmem.hosts.names import HOOK_HOSTS

    assert list(HOST_CONTEXT_KEYS) == list(HOOK_HOSTS)
    assert all(isinstance(getattr(Config().hooks, key), int) for key in HOST_CONTEXT_KEYS.values())


@pytest.mark.parametrize("name", list(FAST_LANES))
def test_each_fast_lane_parser_takes_what_its_typer_command_declares(name):
    """One declaration: the fast lane reads the Typer command's parameters (``fastlane/options.json``)."""
    import typer

    from clawmem import fastlane
    from clawmem.cli import app

    command = typer.main.get_command(app).get_command(None, name)
    typer_switches = {switch for param in command.params if param.param_type_name == "option" for switch in [*param.opts, *param.secondary_opts]}
    assert set(fastlane.switches(name)) == typer_switches
    assert {param["dest"] for param in fastlane.declared(name)} == {param.name for param in command.params}
    choices = {param.name: [str(getattr(c, "value", c)) for c in param.type_descriptor.choices] for param in command.params if param.type_descriptor.choices}
    assert {param["dest"]: param["choices"] for param in fastlane.declared(name) if param["choices"]} == choices


def test_the_fast_lane_checks_bounds_as_typer_does():
    """``min <= value <= max``, so NaN is out of any range (Typer refuses it too) and the bounds themselves are in."""
    from clawmem.fastlane import Usage, parse

    assert parse("search", ["q", "-n", "1", "--min-score", "0"]).limit == 1
    assert parse("search", ["q", "-n", "200"]).limit == 200
    for bad in (["-n", "0"], ["-n", "201"], ["--min-score", "nan"], ["--min-score", "-1e-9"]):
        with pytest.raises(Usage):
            parse("search", ["q", *bad])


def test_the_fast_lane_reads_the_plain_forms_and_leaves_the_rest_to_typer():
    """What it takes, it reads as Typer does; any other form is ``Usage`` (Typer reads and reports it)."""
    from clawmem.fastlane import Usage, parse

    args = parse("search", ["--limit=3", "deploy", "--project", "a", "--lexical", "--project", "b", "--tier", "curated", "-n", "4"])
    assert (args.query, args.limit, args.project, args.lexical, args.tier, args.explain) == ("deploy", 4, ["a", "b"], True, "curated", False)
    assert parse("search", ["-"]).query == "-" and parse("search", [""]).query == ""
    assert parse("recall", ["hi", "--no-bootstrap"]).bootstrap is False and parse("recall", ["hi"]).bootstrap is True
    assert vars(parse("status", ["--json", "-w", "ws"])) == {"workspace": "ws", "json_output": True}
    for other in (["--", "q"], ["-q"], ["q", "-n3"], ["q", "--limit", "-3"], ["q", "--session", "-"], ["q", "--limit="], ["q", "--lexical=yes"],
                  ["q", "--limit"], ["q", "--tier", "bogus"], ["q", "-h"], ["q", "--help"], ["q", "r"], [], ["q", "--lex"]):
        with pytest.raises(Usage):
            parse("search", other)
    with pytest.raises(Usage):
        parse("hook", ["prompt"])  # --host is required


def _strings(tree: ast.AST) -> list[str]:
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_the_words_of_a_failure_are_written_by_one_reporter():
    """The fast lane, the Typer app and the launcher all report through ``output.report_failure``."""
    words = ("clawmem: interrupted", "for the traceback", "clawmem: error: unexpected")
    found = {name for name, text in _sources().items() for s in _strings(ast.parse(text)) if any(w in s for w in words)}
    assert found == {"clawmem/rules/output.py"}


@pytest.mark.parametrize(
    "args, taken",
    [
        (["--debug", "search", "x"], (None, True, ["search", "x"])),
        (["search", "x", "--color", "never", "--debug"], ("never", True, ["search", "x"])),
        (["--color=always", "status", "--color", "never"], ("never", False, ["status"])),
        (["status", "--color"], (None, False, ["status", "--color"])),  # the parser says the value is missing
        (["--color", "--debug", "status"], ("status", True, [])),  # --debug is never a value: Typer refuses "status"
        (["search", "--", "--debug", "--color", "never"], (None, False, ["search", "--", "--debug", "--color", "never"])),
    ],
)
def test_both_front_ends_take_debug_and_color_out_the_same_way(args, taken):
    """One reading (``output.take_anywhere``), which the Typer root group and the fast lane both call."""
    from clawmem import launcher
    from clawmem.rules.output import take_anywhere

    assert take_anywhere(args) == taken
    color, debug, rest = taken
    if color in (None, "never", "always"):
        assert launcher.lane_args(args) == (color or "auto", {"debug": True} if debug else {}, rest)


def test_the_mcp_front_reads_the_workspace_as_the_fast_lane_does(tmp_path, monkeypatch):
    """``-w`` is read by hand in one place (``launcher.split_globals``): ``-wDIR`` and the last ``-w`` winning included."""
    from clawmem import launcher

    (tmp_path / "a" / ".clawmem").mkdir(parents=True)
    (tmp_path / "b" / ".clawmem").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", open(__file__))  # a pipe, not a terminal  # noqa: SIM115
    monkeypatch.setattr("clawmem.mcp.stdio.sdk_installed", lambda: True)
    assert launcher._plain_mcp(["-w", "a", "mcp"]) == "a"
    assert launcher._plain_mcp(["-wa", "mcp", "--workspace=b"]) == "b"
    assert launcher._plain_mcp(["mcp", "-w", "b"]) == "b"
    assert launcher._plain_mcp(["--json", "-w", "a", "mcp"]) is None
    assert launcher._plain_mcp(["-w", "a", "mcp", "--http"]) is None
    assert launcher._plain_mcp(["mcp"]) is None
