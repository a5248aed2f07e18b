"""Repository identity and each session's active project set.

Identity is the normalised origin remote, read straight from the repository's config file
(no git process, ever), so clones and worktrees of one repository share a key and forks do
not; a repository without an origin is keyed by its absolute root. It is resolved once per
process. The active set (at most four keys, most recent first) is runtime state kept per
workspace and per session (``.clawmem/runtime/``, never committed): two agents reusing a
session id on two workspaces do not share it, and a new session starts empty.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path

from clawmem.entries.grammar import escape_project
from clawmem.foundation.records import dataclass
from clawmem.storage.durable import atomic_write
from clawmem.storage.workspace import Workspace, validate_session_id

SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?(?P<host>[\w.-]+):(?P<path>(?!//).+)$")
URL_LIKE = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/]+@)?(?P<host>[^/:]+)(?::\d+)?/(?P<path>.+)$", re.IGNORECASE)


USERINFO = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<userinfo>[^@/]*)@", re.IGNORECASE)


def redact_remote(url: str) -> str:
    """The remote without credentials: a password or token in a URL never reaches output or keys.

    ``https://user:token@host/…`` and ``https://token@host/…`` lose their user part; an ssh
    login name without a password (``ssh://git@host/…``) is not a secret and stays.
    """
    match = USERINFO.match(url.strip())
    if not match:
        return url.strip()
    secret = ":" in match["userinfo"] or not match["scheme"].lower().startswith("ssh")
    return match["scheme"] + ("" if secret else match["userinfo"] + "@") + url.strip()[match.end():]


def normalise_remote(url: str) -> str:
    """``git@github.com:a/b.git``, ``https://github.com/a/b`` and ``ssh://git@github.com/a/b`` -> ``github.com/a/b``."""
    url = redact_remote(url)
    match = URL_LIKE.match(url) or SCP_LIKE.match(url)
    if not match:
        return url.rstrip("/")
    path = match["path"].strip("/")
    path = path.removesuffix(".git")
    return f"{match['host'].lower()}/{path}"


@dataclass(frozen=True)
class Repository:
    root: Path
    key: str
    remote: str | None


def _git_dir(root: Path) -> Path | None:
    dotgit = root / ".git"
    if dotgit.is_dir():
        return dotgit
    if dotgit.is_file():  # a linked worktree: "gitdir: /main/.git/worktrees/name"
        text = dotgit.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.split(":", 1)[1].strip())
            return gitdir if gitdir.is_absolute() else (root / gitdir).resolve()
    return None


def _common_dir(git_dir: Path) -> Path:
    commondir = git_dir / "commondir"
    if commondir.is_file():
        target = Path(commondir.read_text(encoding="utf-8").strip())
        return target if target.is_absolute() else (git_dir / target).resolve()
    return git_dir


def _origin_url(common: Path) -> str | None:
    import configparser  # deferred: only read when a repository is found

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read(common / "config", encoding="utf-8")
    except (configparser.Error, OSError):
        return None
    section = 'remote "origin"'
    return parser.get(section, "url", fallback=None) if parser.has_section(section) else None


@cache
def identify(start: str) -> Repository | None:
    """The repository containing ``start`` and its key, or None outside a repository (cached)."""
    path = Path(start).absolute()
    for candidate in (path, *path.parents):
        git_dir = _git_dir(candidate)
        if git_dir is None:
            continue
        url = _origin_url(_common_dir(git_dir))
        key = normalise_remote(url) if url else str(candidate)
        return Repository(candidate, escape_project(key), redact_remote(url) if url else None)
    return None


def current(cwd: str | None = None) -> Repository | None:
    """The repository containing ``cwd`` (None: this process's directory; "": no directory, so none)."""
    if cwd == "":
        return None
    return identify(cwd or os.getcwd())


def keys(cwd: str | None = None) -> list[str]:
    """The project keys a new memory made in ``cwd`` carries: only its repository's, none outside one."""
    repo = current(cwd)
    return [repo.key] if repo else []


# the session's active set ----------------------------------------------------------------
ACTIVE_DIR = "runtime/active-projects"


def _state_file(ws: Workspace, session: str) -> Path:
    return ws.state_dir / ACTIVE_DIR / f"{validate_session_id(session)}.json"


def active_set(ws: Workspace, session: str) -> list[str]:
    """Keys active in ``session`` of this workspace, most recent first (empty for a new session)."""
    try:
        data = json.loads(_state_file(ws, session).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [k for k in data if isinstance(k, str)] if isinstance(data, list) else []


def prepare(ws: Workspace, session: str, key: str, *, cap: int = 4) -> list[str]:
    """Move ``key`` to the front of the session's active set, evicting the least recent beyond ``cap``."""
    keys = [key, *(k for k in active_set(ws, session) if k != key)][:cap]
    path = _state_file(ws, session)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(path, json.dumps(keys).encode())
    return keys
