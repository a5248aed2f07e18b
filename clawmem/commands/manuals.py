"""Where the installed man pages and shell completion scripts are, for ``clawmem man`` and ``clawmem completion``.

``scripts/gen_docs.py`` writes them into ``man/`` and ``completions/``; a wheel installs them as
data files (``share/man/man1/``, ``share/clawmem/completions/``, see pyproject.toml), an
editable install or a source checkout reads them in place. Same search as the JSON Schemas
(``clawmem/mcp/schemas.py``): the checkout, then the interpreter's prefix, then the user base.
"""

from __future__ import annotations

import re
import site
import sys
from pathlib import Path

from clawmem.foundation.errors import ClawmemError, NotFound

PROG = "clawmem"
SHELLS = {"bash": "clawmem.bash", "zsh": "clawmem.zsh", "fish": "clawmem.fish"}
WORD = re.compile(r"^[a-z][a-z-]*$")
_CHECKOUT = Path(__file__).resolve().parents[2]  # clawmem/commands/manuals.py -> the checkout


def _dirs(checkout: str, installed: str) -> list[Path]:
    return [_CHECKOUT / checkout, Path(sys.prefix) / installed, Path(site.getuserbase()) / installed]


def man_dir() -> Path:
    """The folder holding ``clawmem.1`` and one page per command."""
    for folder in _dirs("man", "share/man/man1"):
        if (folder / f"{PROG}.1").is_file():
            return folder
    raise ClawmemError("clawmem's man pages are not installed", hint="reinstall clawmem (pip install --force-reinstall clawmem-cli), or read `clawmem COMMAND --help`")


def manpath_dir() -> Path:
    """The folder man(1) takes on MANPATH: the one above ``man1/`` (a checkout's ``man/`` holds a
    ``man1`` link to itself, so it is such a folder too)."""
    folder = man_dir()
    return folder.parent if folder.name == "man1" else folder


def page(command: list[str]) -> Path:
    """The man page of ``clawmem`` or of one (sub)command, e.g. ``["note", "add"]`` -> ``clawmem-note-add.1``."""
    bad = [word for word in command if not WORD.fullmatch(word)]
    if bad:
        raise NotFound(f"no manual page for {' '.join(command)!r}", hint="name a command, e.g. `clawmem man note add`")
    path = man_dir() / ("-".join([PROG, *command]) + ".1")
    if not path.is_file():
        raise NotFound(f"no manual page for `clawmem {' '.join(command)}`", hint="`clawmem --help` lists the commands")
    return path


def completion(shell: str) -> str:
    """The completion script for ``shell`` (bash, zsh or fish)."""
    for folder in _dirs("completions", "share/clawmem/completions"):
        path = folder / SHELLS[shell]
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise ClawmemError("clawmem's shell completion scripts are not installed", hint="reinstall clawmem (pip install --force-reinstall clawmem-cli)")
