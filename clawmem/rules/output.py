"""Output for people and for programs: JSON on stdout, rich only on a terminal, notes on stderr."""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from clawmem.foundation.errors import ClawmemError


def to_jsonable(value: Any) -> Any:
    """``value`` as JSON types: a record (``foundation.records``) as the dict ``dataclasses.asdict`` gives, dates as ISO text."""
    fields = getattr(type(value), "__record_fields__", None)
    if fields is not None and not isinstance(value, type):
        return {name: to_jsonable(getattr(value, name)) for name in fields}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def elapsed(seconds: float) -> str:
    """A duration as people read it: ``0.42 s``, ``12.3 s``, ``27 min 4 s``, ``1 h 3 min``."""
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    return f"{minutes // 60} h {minutes % 60} min"


def emit_json(value: Any) -> None:
    """Write one JSON document to stdout (the only thing on stdout under ``--json``); controls escaped."""
    from clawmem.rules import inputs

    sys.stdout.write(inputs.json_printable(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2)) + "\n")


COLOR_CHOICES = ("auto", "always", "never")
_color = {"choice": "auto"}  # set once per run by ``--color`` (the launcher or the root group)


def take_anywhere(args: list[str]) -> tuple[str | None, bool, list[str]]:
    """``--debug`` and ``--color WHEN`` / ``--color=WHEN`` anywhere before ``--``: the colour as given (the
    last one wins; None for none), whether ``--debug`` was given, and the arguments without them.

    Both mean the same on either side of the command, so both front ends (the launcher's fast
    lane and the Typer root group) take them out here before parsing the rest. The caller refuses
    a colour not in ``COLOR_CHOICES``; ``--color`` without a value is left for the parser to refuse.
    """
    cut = args.index("--") if "--" in args else len(args)
    before = [arg for arg in args[:cut] if arg != "--debug"]
    choice: str | None = None
    kept: list[str] = []
    position = 0
    while position < len(before):
        arg = before[position]
        if arg == "--color" and position + 1 < len(before):
            choice = before[position + 1]
            position += 2
            continue
        if arg.startswith("--color="):
            choice = arg.partition("=")[2]
        else:
            kept.append(arg)
        position += 1
    return choice, len(before) < cut, kept + args[cut:]


def set_color(choice: str) -> None:
    """``--color``: ``always`` and ``never`` override ``NO_COLOR``/``FORCE_COLOR``; ``auto`` leaves them the decision."""
    _color["choice"] = choice


def styled(stream: Any) -> bool:
    """Whether to style text (colour, bold, any escape): the one decision every printer uses.

    ``--color always|never`` decides first (the flag on the command line wins over the
    environment). Then ``NO_COLOR`` (https://no-color.org) turns off every style, bold included;
    ``FORCE_COLOR`` or ``CLICOLOR_FORCE`` (non-empty, not ``0``) turn styling on in a pipe;
    otherwise only a terminal gets it. ``NO_COLOR`` wins over those two: it is the reader's own preference.
    """
    if _color["choice"] != "auto":
        return _color["choice"] == "always"
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    if any(env.get(name, "") not in ("", "0") for name in ("FORCE_COLOR", "CLICOLOR_FORCE")):
        return True
    return is_terminal(stream)


def is_terminal(stream: Any) -> bool:
    """Whether a person reads ``stream``: tables and boxes for a terminal, a plain stable layout for pipes."""
    return bool(getattr(stream, "isatty", lambda: False)())


def reader_gone() -> None:
    """The reader of stdout went away (``clawmem ... | head``): send what is left to /dev/null, so
    the interpreter does not complain again when it flushes at exit. Not an error (exit 0)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def console(*, stderr: bool = False):
    """A rich Console for human output: styled only when ``styled`` says so, never wrapped in a pipe."""
    # deferred: rich costs ~50 ms and only human output needs it
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            """The reader went away (``clawmem ... | head``): the launcher exits 0 quietly, as ripgrep
            does (rich's own handler exits 1)."""
            self.quiet = True
            raise BrokenPipeError

    stream = sys.stderr if stderr else sys.stdout
    style = styled(stream)
    return _Console(
        file=stream, color_system="auto" if style else None, force_terminal=style or None,
        highlight=False, soft_wrap=not is_terminal(stream),
    )


def print_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Rows for a person on a terminal (a table, long cells folded); in a pipe, as ``gh`` does:
    one tab-separated line per row, no header, nothing folded or cut, so ``grep`` and ``cut -f`` work.

    Forced colour (``FORCE_COLOR``, for ``less -R`` or a CI log) asks for the person's view in a pipe too.
    """
    from clawmem.rules import inputs

    rows = [[inputs.printable(str(cell)) for cell in row] for row in rows]  # cells quote stored text
    if not (is_terminal(sys.stdout) or styled(sys.stdout)):
        for row in rows:
            print("\t".join(" ".join(cell.split()) for cell in row))
        return
    from rich.table import Table  # deferred: only a terminal needs it
    from rich.text import Text

    table = Table(show_edge=False, pad_edge=False)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(Text(str(cell)) for cell in row))  # Text: a cell is never read as rich markup
    console().print(table)


def say(line: str) -> None:
    """Print a line for a person that may quote stored text: no C0 or C1 control reaches the terminal."""
    from clawmem.rules import inputs

    print(inputs.printable(line))


def plural(count: int, singular: str, plural: str | None = None) -> str:
    """``1 entry``, ``3 entries``: counts in words, never ``entr(y/ies)``."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def report_error(err: ClawmemError, *, as_json: bool) -> None:
    """``clawmem: error: …`` and ``hint: …`` on stderr; under ``--json`` also a JSON object on stdout.

    A usage error (``BadUsage``, exit 2) is one line naming the help to read, its message on one line
    (Typer lists choices one per line)."""
    from clawmem.foundation.errors import BadUsage

    usage = isinstance(err, BadUsage)
    message = " ".join(err.message.split()).rstrip(".") if usage else err.message
    if as_json:
        emit_json({"error": err.code, "message": message, "hint": err.hint or None})
    if usage:
        sys.stderr.write(f"clawmem: error: {message} ({err.hint})\n")
        return
    sys.stderr.write(f"clawmem: error: {message}\n")
    if err.hint:
        sys.stderr.write(f"hint: {err.hint}\n")


def expected(err: BaseException) -> bool:
    """What ``report_failure`` reports even under ``--debug`` (which shows the traceback of anything else)."""
    from clawmem.foundation.errors import ClawmemError

    return isinstance(err, ClawmemError | KeyboardInterrupt | BrokenPipeError)


def report_failure(err: BaseException, *, as_json: bool) -> int:
    """What stopped a command, reported as every front end reports it (the fast lane, the Typer app, the
    launcher), and the exit code to end with.

    A clawmem error: its message and hint (``report_error``). Ctrl-C: one line, 130. A reader that
    went away (``| head``): nothing, 0, as ripgrep does. Anything else is unexpected: one line and
    how to see its traceback.
    """
    from clawmem.foundation.errors import ClawmemError, ExitCode

    if isinstance(err, ClawmemError):
        report_error(err, as_json=as_json)
        return err.exit_code
    if isinstance(err, KeyboardInterrupt):
        sys.stderr.write("clawmem: interrupted\n")
        return ExitCode.INTERRUPTED
    if isinstance(err, BrokenPipeError):
        reader_gone()
        return ExitCode.OK
    sys.stderr.write(f"clawmem: error: unexpected {type(err).__name__}: {err}\n")
    sys.stderr.write("hint: rerun with `clawmem --debug ...` for the traceback\n")
    return ExitCode.ERROR


def emit_json_line(value: Any) -> None:
    """One compact JSON object on one line, its time first in ``at`` (logs appended from cron)."""
    from clawmem.foundation.timeparse import now
    from clawmem.rules import inputs

    record = {"at": now().astimezone().isoformat(timespec="seconds"), **to_jsonable(value)}
    sys.stdout.write(inputs.json_printable(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n")
