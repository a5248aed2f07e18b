"""Exit codes as documented: every command's usage errors (unknown option, missing argument or option, bad
value) exit 2 with one line naming the command's help. The commands are walked from the Typer app, so a new
command or option is covered the day it is added."""

from __future__ import annotations

import pytest
import typer

from clawmem.cli import app


def _leaves():
    """(command path, click command) for every runnable command, subcommands included."""
    root = typer.main.get_command(app)
    ctx = typer.Context(root)

    def walk(group, prefix):
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                yield from walk(command, (*prefix, name))
            else:
                yield (*prefix, name), command

    return ctx, list(walk(root, ()))


CTX, LEAVES = _leaves()


def _bad_value(param) -> str | None:
    """A value the option's type refuses: a word for a number, an unknown choice; None for free text."""
    label = param.display_type(CTX)
    if param.metavar in ("N", "NUMBER"):
        return "many"
    if label.startswith("<") and "|" in label:
        return "no-such-choice"
    return None


UNKNOWN = [pytest.param(path, id=" ".join(path)) for path, _ in LEAVES]
MISSING = [pytest.param(path, id=" ".join(path)) for path, command in LEAVES if any(p.required for p in command.params)]
BAD = [
    pytest.param(path, param.opts[-1], value, id=f"{' '.join(path)} {param.opts[-1]}")
    for path, command in LEAVES
    for param in command.params
    if param.param_type_name == "option" and not getattr(param, "is_flag", False) and (value := _bad_value(param)) is not None
]


def assert_usage_error(result, path, needle: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("clawmem: error: ") and needle in lines[0]
    assert lines[0].endswith(f"(see `clawmem {' '.join(path)} -h`)")
    assert result.stdout == ""


def test_the_walk_finds_the_commands():
    paths = {" ".join(p) for p, _ in LEAVES}
    assert {"status", "note add", "forget", "intent add", "project prepare", "user set", "config show"} <= paths
    assert len(MISSING) >= 5 and len(BAD) >= 10


@pytest.mark.parametrize("path", UNKNOWN)
def test_an_unknown_option_is_a_usage_error(ws, clawmem, path):
    assert_usage_error(clawmem(*path, "--no-such-option", input=""), path, "No such option: --no-such-option")


@pytest.mark.parametrize("path", MISSING)
def test_a_missing_argument_or_option_is_a_usage_error(ws, clawmem, path):
    assert_usage_error(clawmem(*path, input=""), path, "Missing ")


@pytest.mark.parametrize("path, option, value", BAD)
def test_a_bad_value_is_a_usage_error(ws, clawmem, path, option, value):
    assert_usage_error(clawmem(*path, option, value, input=""), path, f"'{option}'")


@pytest.mark.parametrize("args", [(), ("MEMORY.md#L1", "--text", "two targets"), ("--list", "--text", "x"), ("--undo", "f-1", "--list")])
def test_forget_argument_combinations_are_usage_errors_and_change_nothing(ws, clawmem, args):
    before = {p: p.read_bytes() for p in ws.root.rglob("*") if p.is_file()}
    assert_usage_error(clawmem("forget", *args), ("forget",), "")
    assert {p: p.read_bytes() for p in ws.root.rglob("*") if p.is_file()} == before


GROUPS = [pytest.param((), id="clawmem")] + [
    pytest.param((name,), id=name) for name, command in typer.main.get_command(app).commands.items() if getattr(command, "no_args_is_help", False)
]


@pytest.mark.parametrize("path", GROUPS)
def test_a_group_without_arguments_prints_its_help_on_stderr_and_exits_2(clawmem, path):
    """What Click does (clawmem prints it itself: Typer's exception for it is private)."""
    result = clawmem(*path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == clawmem(*path, "--help").stdout
    assert result.stderr.startswith(f"Usage: clawmem {' '.join(path)}".rstrip() + " [OPTIONS] COMMAND")
