"""The per-user list of workspaces this user created or trusted: the only ones found by walking up.

Walking up from the current directory to the nearest ``.clawmem/`` (like git's ``.git``) would
otherwise hand any folder's memory to the agent: a cloned repository or an unpacked archive can
carry a ``MEMORY.md`` that reads as curated, trusted memory. So a workspace found that way is
used only when this user made it with ``clawmem init`` or ran ``init`` on it to trust it (the
per-clone setup step of a team workspace), the way direnv asks for ``allow`` and mise for
``trust``. ``--workspace`` and ``$CLAWMEM_WORKSPACE`` name a workspace explicitly and need no entry.

The list is one absolute, symlink-free path per ``\\n``-ended line (the file system's bytes) in ``$XDG_STATE_HOME/clawmem/trusted-workspaces``;
entries are appended with ``O_APPEND`` so concurrent ``init`` runs never lose one.
"""

from __future__ import annotations

import os
from pathlib import Path

FILE_NAME = "trusted-workspaces"


def list_path() -> Path:
    """``$XDG_STATE_HOME/clawmem/trusted-workspaces`` (``~/.local/state`` when unset)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clawmem" / FILE_NAME


def _key(root: Path) -> bytes:
    """The symlink-free path as the file system's own bytes: a name that is not UTF-8 is kept exactly."""
    return os.fsencode(os.path.realpath(root))


def trusted() -> set[bytes]:
    r"""The listed paths, split at ``\n`` only: ``splitlines`` would also split at U+2028 and its kin,
    so trusting ``/a\u2028/b`` would trust ``/b``."""
    try:
        return set(list_path().read_bytes().split(b"\n"))
    except FileNotFoundError:
        return set()


def is_trusted(root: Path) -> bool:
    return _key(root) in trusted()


def trust(root: Path) -> bool:
    """Add ``root`` to the list; False when it was there already (or its path cannot be one line)."""
    key = _key(root)
    if b"\n" in key or key in trusted():
        return False
    path = list_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, key + b"\n")
    finally:
        os.close(fd)
    return True
