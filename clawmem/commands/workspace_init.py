"""``clawmem init``: create a workspace, or bring an existing one up to date, changing only what is missing.

Run twice it changes nothing and says so (exit 0): the layout, the index, the ``.gitignore``
for derived files and the audit baseline are each created only when absent, and no existing
file is ever overwritten. ``git`` also makes the workspace a git working tree with clawmem's
merge rules (``gitshare``); on a fresh clone it is the per-machine setup (index, merge driver).
"""

from __future__ import annotations

import os
from pathlib import Path

from clawmem.foundation.errors import BadInput, WorkspaceExists
from clawmem.foundation.records import dataclass, field
from clawmem.storage.durable import atomic_write
from clawmem.storage.workspace import DREAMS_HEADER, MEMORY_HEADER, STATE_DIR, USER_HEADER, Workspace, resolve


@dataclass(frozen=True)
class InitResult:
    workspace: str
    created: bool
    changed: list[str] = field(default_factory=list)


def create(option: str | os.PathLike[str] | None = None) -> Workspace:
    """Create the layout, the ledger and this user's trust in it; existing files are never overwritten.

    Here, not in ``workspace.py``: the ledger is written through the workspace, so the workspace
    cannot import it."""
    from clawmem.storage import ledger
    from clawmem.trust import workspaces as trusted_workspaces

    found = resolve(option, discover=False)
    root = found.root
    if (root / STATE_DIR).is_dir():
        raise WorkspaceExists(f"a workspace already exists at {root}", hint="use it, or pick another --workspace")
    ws = Workspace(root, found.rule)
    for folder in (ws.daily_dir, ws.quarantine_dir, ws.transcripts_dir, ws.preimages_dir, ws.locks_dir):
        folder.mkdir(parents=True, exist_ok=True)
    for path, text in ((ws.memory_md, MEMORY_HEADER), (ws.user_md, USER_HEADER), (ws.dreams_md, DREAMS_HEADER)):
        if not path.exists():
            atomic_write(path, text.encode())
    ledger.create(ws)
    trusted_workspaces.trust(root)
    return ws


def _check_root(root: Path) -> None:
    """Refuse a root that cannot hold a workspace before anything is written."""
    for part in (root, *root.parents):
        if part.exists():
            if not part.is_dir():
                raise BadInput(f"{part} is a file, not a directory", hint="pick a directory for the workspace (-w DIR)")
            break
    if root.is_dir() and not (root / STATE_DIR).is_dir() and not os.access(root, os.W_OK):
        raise BadInput(f"cannot write to {root}", hint="pick a directory you can write to")


def private_logs(ws: Workspace) -> None:
    """Create the cron job's log before the shell does: ``>>`` keeps the mode it finds, so the
    memory text ``dream --json-lines`` writes there stays private (0600) like the curated files."""
    from clawmem.commands.cron import DREAM_LOG
    from clawmem.storage.durable import create_private

    create_private(ws.state_dir / DREAM_LOG)


def initialise(option: str | os.PathLike[str] | None = None, *, git: bool = False, here: bool = False) -> InitResult:
    """Create what is missing of the workspace at ``option``; report what changed.

    With no ``option`` and no ``$CLAWMEM_WORKSPACE`` it is the enclosing workspace, else the
    per-user default, or the current directory when ``here`` (the CLI's ``clawmem init``).
    """
    from clawmem.audit import establish_baseline
    from clawmem.commands import gitshare
    from clawmem.index.db import Index
    from clawmem.trust import workspaces as trusted_workspaces

    root = resolve(option, trusting=True, here=here).root
    _check_root(root)
    created = not (root / STATE_DIR).is_dir()
    ws = create(root) if created else Workspace.open(root)
    changed = ["workspace"] if created else []
    index_existed = ws.index_path.exists()
    Index.open(ws).close()
    if not index_existed and not created:
        changed.append("index")
    if not created and trusted_workspaces.trust(ws.root):
        changed.append("trusted on this machine")
    private_logs(ws)
    if gitshare.ensure_lines(ws.root / ".gitignore", gitshare.GITIGNORE):
        changed.append(".gitignore")
    if establish_baseline(ws):
        changed.append("audit baseline")
    if git:
        changed += gitshare.share(ws)
    return InitResult(str(ws.root), created, changed)
