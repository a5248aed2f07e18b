"""``clawmem [COMMAND...] --help`` without Typer: the help Typer prints, recorded by ``scripts/gen_docs.py``.

Help is static text, yet rendering it meant importing Typer (and pydantic under it) and
building every command: several times the interpreter's own start. ``help.json`` holds what
the Typer app prints for each visible command path at 80 columns; Click wraps help to the
terminal width capped at 80, so on a terminal at least that wide (and in a pipe) the recorded
text is exactly what Typer would print. Narrower terminals, other arguments or a missing file
go to Typer. ``tests/test_docs.py`` keeps the file current; ``tests/test_launcher_parity.py``
compares both paths.
"""

from __future__ import annotations

from pathlib import Path

HELP_FILE = Path(__file__).with_name("help.json")
HELP_FLAGS = ("--help", "-h")
WIDTH = 80  # Click's help width cap (HelpFormatter max_width)


def recorded(argv: list[str]) -> str | None:
    """The help text for ``argv`` (a command path then one help flag), or None when Typer must render it.

    Every invocation asks, so anything beyond the flag check is imported only for a help request.
    """
    if not argv or argv[-1] not in HELP_FLAGS:
        return None
    import json
    import shutil

    if shutil.get_terminal_size().columns < WIDTH:
        return None
    try:
        texts = json.loads(HELP_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    text = texts.get(" ".join(argv[:-1]))
    return text if isinstance(text, str) else None
