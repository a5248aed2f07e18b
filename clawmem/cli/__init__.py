"""The ``clawmem`` command: a root Typer app, one module per command, one error handler.

Command modules import only typer, the standard library and light clawmem modules at the
top; anything heavy (rich tables, apsw, numpy, models) is imported inside the command.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, Any, NoReturn

import typer
from typer import Context  # the context's public name; Typer's classes annotate its private base, hence ``ignore[override]``
from typer.core import TyperArgument, TyperGroup

from clawmem import __version__
from clawmem.cli.options import DEBUG_FLAG, JSON_FLAG, JsonOpt, WorkspaceOpt
from clawmem.foundation.errors import BadUsage, ExitCode
from clawmem.rules.output import COLOR_CHOICES, expected, report_failure, set_color, take_anywhere

ARGS_KEY = "clawmem_args"


class Group(TyperGroup):
    """Every command group: with no arguments, its help on stderr and exit 2, as Click does.

    Printed here rather than left to Typer, whose exception for it is private: every other
    Typer exception that exits 2 is then a usage error (``ClawmemGroup``)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:  # type: ignore[override]
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            sys.stderr.write(ctx.get_help() + "\n")
            raise typer.Exit(ExitCode.USAGE)
        return super().parse_args(ctx, args)


class ClawmemGroup(Group):
    """Root group: global options anywhere on the line, and the one place the Typer app's errors meet
    clawmem's one reporter (``output.report_failure``, which the fast lane uses too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _human_metavars(self)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:  # type: ignore[override]
        """``--debug`` and ``--color`` are accepted anywhere before ``--`` (like ``-w`` and ``--json``, with one meaning)."""
        ctx.meta[ARGS_KEY] = args[: args.index("--")] if "--" in args else args
        color, ctx.meta[DEBUG_FLAG], args = take_anywhere(args)
        try:
            if color is not None:  # the root option checks the value (a usage error naming the choices) and sets it
                args = ["--color", color, *args]
            elif "--color" in args:  # given without a value: the root option says so
                args = ["--color"]
            return super().parse_args(ctx, args)
        except typer.TyperException as err:
            if err.exit_code != ExitCode.USAGE:
                raise
            _fail(ctx, _usage(ctx, err))

    def invoke(self, ctx: Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except typer.TyperException as err:
            if err.exit_code != ExitCode.USAGE:
                raise
            _fail(ctx, _usage(ctx, err))
        except (Exception, KeyboardInterrupt) as err:  # Typer itself would end Ctrl-C and a closed pipe in its own words
            if type(err).__module__.startswith("typer") or (ctx.meta.get(DEBUG_FLAG) and not expected(err)):
                raise
            _fail(ctx, err)


#: Typer's type labels, in words a reader of ``--help`` and the man pages knows.
METAVARS = {"int": "N", "int range": "N", "float": "NUMBER", "float range": "NUMBER", "str": "TEXT", "list[str]": "TEXT", "path": "PATH"}


class _Argument(TyperArgument):
    """An argument named as git and POSIX usage name it: ``TEXT``, ``[PATH]``, not ``{text}`` / ``text <str>``."""

    def get_usage_pieces(self, ctx: Context) -> list[str]:  # type: ignore[override]
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return [name + ("..." if self.nargs != 1 else "")]

    def get_help_record(self, ctx: Context) -> tuple[str, str] | None:  # type: ignore[override]
        record = super().get_help_record(ctx)
        return None if record is None else (self.display_name_raw, record[1])


def _human_metavars(group: Any) -> None:
    """Name every value in help as people do (``--importance N``, ``note add TEXT``), not ``<int range>``/``{text}``."""
    ctx = typer.Context(group)
    for command in group.commands.values():
        if hasattr(command, "commands"):
            _human_metavars(command)
        for param in command.params:
            if type(param) is TyperArgument:
                param.__class__ = _Argument
                param.metavar = param.metavar or param.name.upper()
            elif param.metavar is None:
                label = param.display_type(ctx).strip("<>")
                if label.startswith("list[") and "|" in label:  # a repeatable choice: the choices, as for one
                    param.metavar = f"<{label[5:-1]}>"
                elif label in METAVARS:
                    param.metavar = METAVARS[label]


def _usage(ctx: Context, err: typer.TyperException) -> BadUsage:
    """One of Typer's usage errors (the Typer exceptions that exit 2) as clawmem's, naming the command it refused."""
    refused = getattr(err, "ctx", None)
    return BadUsage(err.format_message(), command=(refused or ctx).command_path)


def _fail(ctx: Context, err: BaseException) -> NoReturn:
    """Report ``err`` and exit with its code. A usage error is JSON under ``--json`` wherever ``--json``
    was given, even when parsing stopped before reaching it."""
    as_json = bool(ctx.meta.get(JSON_FLAG)) or (isinstance(err, BadUsage) and "--json" in ctx.meta.get(ARGS_KEY, ()))
    raise typer.Exit(report_failure(err, as_json=as_json)) from None


app = typer.Typer(
    cls=ClawmemGroup,
    name="clawmem",
    help="Trustworthy long-term memory for AI agents: Markdown files plus one SQLite index with provenance.",
    no_args_is_help=True,
    add_completion=False,  # completions/ holds static scripts (scripts/gen_docs.py); Typer's would start Python at every Tab
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


Color = Enum("Color", {name: name for name in COLOR_CHOICES}, type=str)  # type: ignore[misc]  # one list of choices, in clawmem.rules.output


def _color(value: Color | None) -> Color | None:
    if value is not None:
        set_color(value.value)
    return value


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"clawmem {__version__}\n")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool | None, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for unexpected errors (accepted anywhere on the line).")] = False,
    color: Annotated[
        Color | None,
        typer.Option(
            "--color", callback=_color, is_eager=True, show_default=False, metavar="WHEN",
            help="Style output: auto (a terminal, unless NO_COLOR; FORCE_COLOR in a pipe), always or never; wins over NO_COLOR and FORCE_COLOR"
                 " (accepted anywhere on the line).",
        ),
    ] = None,
) -> None:
    """Trustworthy long-term memory for AI agents: Markdown files plus one SQLite index with provenance.

    -w/--workspace, --json, --debug and --color may come before the command or after it, with one
    meaning (`clawmem -w ~/notes search deploy` = `clawmem search deploy -w ~/notes`).
    The workspace is --workspace, else $CLAWMEM_WORKSPACE, else the nearest directory at or
    above the current one holding a .clawmem/ folder (as git looks for .git), else
    ~/.local/share/clawmem; `clawmem status` says which rule chose it.
    """


def _register() -> None:
    """Every command and group (each group a ``Group``, for its no-arguments help)."""
    from clawmem.cli import (
        demo,
        dream,
        get,
        index,
        ingest,
        init,
        intent,
        note,
        project,
        recall,
        search,
        status,
        user,
    )

    app.command("init")(init.init)
    app.add_typer(note.app, name="note", cls=Group)
    app.command("ingest")(ingest.ingest)
    app.command("index")(index.index)
    app.command("status")(status.status)
    app.command("search")(search.search)
    app.command("get")(get.get)
    app.command("recall")(recall.recall)
    app.add_typer(project.app, name="project", cls=Group)
    app.add_typer(intent.app, name="intent", cls=Group)
    app.add_typer(user.app, name="user", cls=Group)
    app.command("dream")(dream.dream)
    app.command("demo")(demo.demo)
    from clawmem.cli import config as config_cmd
    from clawmem.cli import mcp

    app.add_typer(config_cmd.app, name="config", cls=Group)
    app.command("mcp")(mcp.mcp)
    from clawmem.cli import audit, forget

    app.command("audit")(audit.audit)
    app.command("forget")(forget.forget)
    from clawmem.cli import accept, demote, hook, install, promote

    app.command("hook")(hook.hook)
    app.command("install")(install.install)
    from clawmem.cli import imports, plugin

    app.add_typer(plugin.app, name="plugin", cls=Group)
    app.add_typer(imports.app, name="import", cls=Group)
    app.command("promote")(promote.promote)
    app.command("demote")(demote.demote)
    app.command("accept")(accept.accept)
    from clawmem.cli import report

    app.command("report")(report.report)
    from clawmem.cli import cron

    app.command("cron")(cron.cron)
    from clawmem.cli import worker

    app.add_typer(worker.app, name="worker", cls=Group)
    from clawmem.cli import man

    app.command("man")(man.man)
    app.command("completion")(man.completion)


_register()


def main() -> None:
    """The Typer app, run by the console script (``clawmem.launcher``) for what its fast lane does not take."""
    app(prog_name="clawmem")
