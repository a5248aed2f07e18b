"""The ``clawmem`` command: a root Typer app, one module per command, one error handler.

Command modules import only typer, the standard library and light clawmem modules at the
top; anything heavy (rich tables, apsw, numpy, models) is imported inside the command.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from clawmem import __version__
from clawmem.cli.options import JSON_FLAG
from clawmem.errors import ClawmemError, ExitCode
from clawmem.output import report_error


class ClawmemGroup(TyperGroup):
    """Root group whose ``invoke`` is the single place errors become messages and exit codes."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ClawmemError as err:
            report_error(err, as_json=bool(ctx.meta.get(JSON_FLAG)))
            raise typer.Exit(err.exit_code) from None
        except KeyboardInterrupt:
            sys.stderr.write("clawmem: interrupted\n")
            raise typer.Exit(ExitCode.INTERRUPTED) from None
        except BrokenPipeError:
            raise  # the reader went away; the launcher exits quietly
        except Exception as err:
            if type(err).__module__.startswith("typer") or ctx.meta.get("clawmem_debug"):
                raise
            sys.stderr.write(f"clawmem: error: unexpected {type(err).__name__}: {err}\n")
            sys.stderr.write("hint: rerun with `clawmem --debug ...` for the traceback\n")
            raise typer.Exit(ExitCode.ERROR) from None


app = typer.Typer(
    cls=ClawmemGroup,
    name="clawmem",
    help="Trustworthy long-term memory for AI agents: Markdown files plus one SQLite index with provenance.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"clawmem {__version__}\n")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for unexpected errors.")] = False,
) -> None:
    """Trustworthy long-term memory for AI agents: Markdown files plus one SQLite index with provenance."""
    ctx.meta["clawmem_debug"] = debug


def _register() -> None:
    from clawmem.cli import demo, dream, get, index, ingest, init, intent, note, project, recall, search, status, user

    app.command("init")(init.init)
    app.add_typer(note.app, name="note")
    app.command("ingest")(ingest.ingest)
    app.command("index")(index.index)
    app.command("status")(status.status)
    app.command("search")(search.search)
    app.command("get")(get.get)
    app.command("recall")(recall.recall)
    app.add_typer(project.app, name="project")
    app.add_typer(intent.app, name="intent")
    app.add_typer(user.app, name="user")
    app.command("dream")(dream.dream)
    app.command("demo")(demo.demo)
    from clawmem.cli import config as config_cmd, mcp

    app.add_typer(config_cmd.app, name="config")
    app.command("mcp")(mcp.mcp)
    from clawmem.cli import audit, forget

    app.command("audit")(audit.audit)
    app.command("forget")(forget.forget)
    from clawmem.cli import hook, install, promote

    app.command("hook")(hook.hook)
    app.command("install")(install.install)
    app.command("promote")(promote.promote)
    from clawmem.cli import cron

    app.command("cron")(cron.cron)
    from clawmem.cli import man

    app.command("man")(man.man)
    app.command("completion")(man.completion)


_register()


def main() -> None:
    """Console-script entry point."""
    try:
        app(prog_name="clawmem")
    except KeyboardInterrupt:
        sys.stderr.write("clawmem: interrupted\n")
        sys.exit(ExitCode.INTERRUPTED)
