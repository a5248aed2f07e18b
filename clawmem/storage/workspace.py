"""The workspace: where it is, what it contains, and the locks its writers hold.

Every write to a workspace file holds a per-file lock (``clawmem.storage.named_locks``, so two processes never
interleave) and goes through ``clawmem.storage.durable`` (a rewrite is write-temp-then-rename, an append
is fsynced or cut back), so a crash never leaves half a file.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shlex
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from clawmem.foundation.errors import UnsafePath, UntrustedWorkspace, WorkspaceNotFound
from clawmem.foundation.records import dataclass, field

if TYPE_CHECKING:
    from clawmem.foundation import config as config_module

ENV_WORKSPACE = "CLAWMEM_WORKSPACE"
STATE_DIR = ".clawmem"
SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
LOCK_TIMEOUT_S = 30.0

MEMORY_HEADER = "# Memory\n\nCurated long-term memory. Written by `clawmem dream`; edit by hand if you must.\n\n"
USER_HEADER = "# User\n\nHow the user wants to be treated: imperative directives, one per line.\n\n"
DREAMS_HEADER = "# Dreams\n\nWhat each consolidation sweep changed, and why.\n"


def default_root() -> Path:
    """The per-user default workspace: ``$XDG_DATA_HOME/clawmem`` or ``~/.local/share/clawmem``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "clawmem"


#: How ``resolve`` chose the workspace, in the order the rules are tried (``status`` says which).
RULES = {
    "option": "from the workspace option",
    "environment": f"from ${ENV_WORKSPACE}",
    "enclosing": "the nearest enclosing workspace of the current directory",
    "default": "the per-user default",
    "current": "the current directory (init with no directory)",
}


@dataclass(frozen=True)
class Resolution:
    """Where the workspace is and which rule of ``RULES`` chose it."""

    root: Path
    rule: str


def enclosing_workspace(start: Path | None = None) -> Path | None:
    """The nearest directory at or above ``start`` (the cwd) holding ``.clawmem/``, like git's ``.git``.

    The ``.clawmem/`` state directory is what marks a workspace: ``init`` creates it and every
    command needs it, while ``clawmem.toml`` is optional.
    """
    here = Path(os.path.abspath(start or Path.cwd()))
    for folder in (here, *here.parents):
        if (folder / STATE_DIR).is_dir():
            return folder
    return None


def resolve(
    option: str | os.PathLike[str] | None = None, *, discover: bool = True, trusting: bool = False, here: bool = False
) -> Resolution:
    """``--workspace``, then ``$CLAWMEM_WORKSPACE``, then the nearest enclosing workspace
    (when ``discover``; ``init`` creates where it is told, never above), then the per-user default,
    or the current directory when ``here`` (``clawmem init`` with no directory, as ``git init``).

    The one resolution every front end uses (CLI, launcher, MCP, hooks). A path that names a
    file, or lies under one, is refused here, before anything is read or written, and so is an
    enclosing workspace this user never created or trusted, unless the caller is ``init``
    (``trusting``), which is how a user trusts one.
    """
    if option:
        found = Resolution(Path(option), "option")
    elif os.environ.get(ENV_WORKSPACE):
        found = Resolution(Path(os.environ[ENV_WORKSPACE]), "environment")
    elif discover and (enclosing := enclosing_workspace()) is not None:
        if not trusting:
            _refuse_untrusted(enclosing)
        found = Resolution(enclosing, "enclosing")
    elif here:
        found = Resolution(Path.cwd(), "current")
    else:
        found = Resolution(default_root(), "default")
    root = found.root.expanduser().absolute()
    _refuse_file(root, found.rule)
    return Resolution(root, found.rule)


def _refuse_untrusted(root: Path) -> None:
    """A workspace found by walking up is used only if this user created or trusted it (``trust.workspaces``)."""
    from clawmem.trust import workspaces as trusted_workspaces

    if not trusted_workspaces.is_trusted(root):
        raise UntrustedWorkspace(
            f"the nearest enclosing workspace {root} was not created or trusted by you on this machine; its memory could "
            "have come from whoever wrote this folder (a cloned repository, an unpacked archive), so it is not used unasked",
            hint=f"trust it with `clawmem init -w {shlex.quote(str(root))}` (it overwrites nothing), or name a workspace with --workspace",
        )


def _refuse_file(root: Path, rule: str) -> None:
    """A workspace path that is a file (or passes through one) is a clear error, not an OSError later."""
    for folder in (root, *root.parents):
        if folder.exists():
            if not folder.is_dir():
                what = "is a file" if folder == root else f"lies under the file {folder}"
                raise WorkspaceNotFound(
                    f"the workspace path {root} ({RULES[rule]}) {what}, not a directory",
                    hint="point --workspace or $CLAWMEM_WORKSPACE at a directory",
                )
            return


def resolve_root(option: str | os.PathLike[str] | None = None) -> Path:
    """The workspace root ``resolve`` chooses (for callers that do not need the rule)."""
    return resolve(option).root


def validate_session_id(session: str) -> str:
    """Reject session ids that could name a path outside ``transcripts/``."""
    if not SESSION_ID.fullmatch(session) or ".." in session:
        raise UnsafePath(
            f"invalid session id {session!r}",
            hint="use letters, digits, '.', '_', ':' or '-' (at most 128, no '..', no '/')",
        )
    return session


def validate_date(value: str) -> dt.date:
    """Parse a ``YYYY-MM-DD`` date argument; anything else (including paths) is rejected."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise UnsafePath(f"invalid date {value!r}", hint="use YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError as err:
        raise UnsafePath(f"invalid date {value!r}: {err}", hint="use YYYY-MM-DD") from err


def linked(info: os.stat_result) -> bool:
    """A symbolic link, or a regular file with another name: what ``inside_workspace`` never follows."""
    return stat.S_ISLNK(info.st_mode) or (stat.S_ISREG(info.st_mode) and info.st_nlink > 1)


def inside_workspace(root: Path, path: Path) -> bool:
    """True when ``path`` lies inside ``root`` without passing through a link.

    The one rule every writer, the indexer and ``get`` use. A symbolic link anywhere between
    the root and the file (the file itself, ``memory/``, ``memory/quarantine/``,
    ``transcripts/``) could lead outside the workspace or onto another memory file of a
    different trust tier, and a hard-linked file is shared with some other name; neither is
    followed. Components that do not exist yet are fine: the writer creates them inside.
    The root itself may be a link (``~/notes -> /data/notes``): it is where the user put it.
    """
    base = Path(os.path.abspath(root))
    target = Path(os.path.abspath(path))
    if not target.is_relative_to(base):
        return False
    current = base
    info = None
    for part in target.relative_to(base).parts:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if stat.S_ISLNK(info.st_mode):
            return False
    return info is None or not linked(info)


@dataclass(frozen=True)
class Workspace:
    """A resolved workspace root and the paths of its layout (DESIGN.md section 2)."""

    root: Path
    found_by: str = field(default="option", compare=False)  # the rule of ``RULES`` that chose it

    @classmethod
    def open(cls, option: str | os.PathLike[str] | None = None) -> Workspace:
        """Resolve and check that the workspace exists."""
        found = resolve(option)
        if not (found.root / STATE_DIR).is_dir():
            raise WorkspaceNotFound(f"no clawmem workspace at {found.root} ({RULES[found.rule]})")
        return cls(found.root, found.rule)

    # layout -----------------------------------------------------------------------------
    @property
    def memory_md(self) -> Path:
        return self.root / "MEMORY.md"

    @property
    def user_md(self) -> Path:
        return self.root / "USER.md"

    @property
    def dreams_md(self) -> Path:
        return self.root / "DREAMS.md"

    @property
    def daily_dir(self) -> Path:
        return self.root / "memory"

    @property
    def quarantine_dir(self) -> Path:
        return self.daily_dir / "quarantine"

    @property
    def transcripts_dir(self) -> Path:
        return self.root / "transcripts"

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def index_path(self) -> Path:
        return self.state_dir / "index.db"

    @property
    def ledger_path(self) -> Path:
        return self.state_dir / "provenance.jsonl"

    @property
    def preimages_dir(self) -> Path:
        return self.state_dir / "preimages"

    @property
    def locks_dir(self) -> Path:
        return self.state_dir / "locks"

    @cached_property
    def config(self) -> config_module.Config:
        from clawmem.foundation import config as config_module  # deferred: resolving a workspace (the worker's client) needs no settings

        return config_module.load(self.root)

    def daily_note(self, day: dt.date) -> Path:
        return self.daily_dir / f"{day.isoformat()}.md"

    def quarantine_note(self, day: dt.date) -> Path:
        return self.quarantine_dir / f"{day.isoformat()}.md"

    def transcript(self, session: str) -> Path:
        return self.transcripts_dir / f"{validate_session_id(session)}.md"

    def rel(self, path: Path) -> str:
        """Workspace-relative POSIX path, the form stored in the index and citations."""
        return path.absolute().relative_to(self.root).as_posix()

    def resolve_member(self, relpath: str) -> Path:
        """Map a user-supplied workspace-relative path to a file inside the workspace, or refuse."""
        root = Path(os.path.abspath(self.root))
        candidate = Path(os.path.abspath(root / relpath))
        if relpath.startswith(("/", "\\")) or not candidate.is_relative_to(root):
            raise UnsafePath(f"{relpath!r} is outside the workspace")
        if candidate.is_relative_to(root / STATE_DIR):
            raise UnsafePath(f"{relpath!r} names clawmem's internal state, not a memory file")
        return self.require_member(candidate, what=repr(relpath))

    def contains(self, path: Path) -> bool:
        """``path`` is a workspace file reached without a link (see ``inside_workspace``)."""
        return inside_workspace(self.root, path)

    def require_member(self, path: Path, *, what: str | None = None) -> Path:
        """Return ``path`` if it is safely inside the workspace; otherwise refuse with a clear error."""
        if not self.contains(path):
            raise UnsafePath(
                f"{what or path} leads through a symbolic or hard link, or outside the workspace; clawmem does not follow it",
                hint="replace the link with the file itself (clawmem reads and writes only regular files inside the workspace)",
            )
        return path

    # locking ----------------------------------------------------------------------------
    @contextmanager
    def lock(self, name: str, *, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
        """Hold the named inter-process lock (``name`` may be a workspace-relative path)."""
        import hashlib

        from clawmem.storage.named_locks import hold  # deferred: only writers need it

        digest = hashlib.sha1(name.encode()).hexdigest()[:16]
        with hold(self.locks_dir / f"{digest}.lock", timeout=timeout):
            yield

    @contextmanager
    def lock_file(self, path: Path, *, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
        """Hold ``path``'s lock; refuses a path that leads through a link (every writer comes here)."""
        with self.lock(self.rel(path), timeout=timeout):
            self.require_member(path)
            yield
