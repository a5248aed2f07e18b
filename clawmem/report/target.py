"""Where the report goes and writing it: the target checked before anything is read or written."""

from __future__ import annotations

from pathlib import Path

from clawmem.foundation.errors import BadInput
from clawmem.storage.durable import atomic_write
from clawmem.storage.workspace import Workspace

SUFFIXES = (".html", ".htm")
DEFAULT_NAME = "report.html"


def default_path(ws: Workspace) -> Path:
    """Where the report goes without ``-o``: the workspace's state folder, never indexed as memory."""
    return ws.state_dir / DEFAULT_NAME


def check_target(path: Path) -> Path:
    """Refuse a target that is not an HTML file name, or is a folder: a typo must not overwrite memory."""
    if path.suffix.lower() not in SUFFIXES:
        raise BadInput(f"{path} is not an .html file name", hint="name the report FILE.html (or pass -o - for stdout)")
    if path.is_dir():
        raise BadInput(f"{path} is a folder", hint="pass a file name such as report.html")
    if not path.parent.is_dir():
        raise BadInput(f"the folder {path.parent} does not exist", hint="create it first, or pick another -o")
    return path


def build(ws: Workspace) -> str:
    """The report page of ``ws`` as HTML text."""
    from clawmem.report.data import gather
    from clawmem.report.page import render

    return render(gather(ws))


def write(ws: Workspace, target: Path | None = None) -> Path:
    """Write the report to ``target`` (default: ``default_path``), checked before anything is read or written."""
    path = check_target(Path(target) if target is not None else default_path(ws))
    html = build(ws)
    atomic_write(path, html.encode("utf-8", errors="replace"))
    return path
