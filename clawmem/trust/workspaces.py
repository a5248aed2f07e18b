"""The per-user list of workspaces this user created or trusted: the only ones found by walking up.

Walking up from the current directory to the nearest ``.clawmem/`` (like git's ``.git``) would
otherwise hand any folder's memory to the agent: a cloned repository or an unpacked archive can
carry a ``MEMORY.md`` that reads as curated, trusted memory. So a workspace found that way is
used only when this user made it with ``clawmem init`` or ran ``init`` on it to trust it (the
per-clone setup step of a team workspace), the way direnv asks for ``allow`` and mise for
``trust``. ``--workspace`` and ``$CLAWMEM_WORKSPACE`` name a workspace explicitly and need no entry.

The list is one entry per ``\\n``-ended line in ``$XDG_STATE_HOME/clawmem/trusted-workspaces``;
entries are appended with ``O_APPEND`` so concurrent ``init`` runs never lose one.

A path alone is not a workspace: a trusted workspace deleted and its path re-used by another
clone or archive would inherit the trust. So an entry is the absolute, symlink-free path (the
file system's bytes), the id ``init`` wrote into ``.clawmem/workspace-id`` (random, git-ignored)
and the device and inode of the workspace directory, NUL-separated (a path holds no NUL). All
four must match (``matches``). Moving or restoring a workspace changes its inode: run
``clawmem init`` there again to trust it.

An entry written before ids existed (the path alone) is honoured only while the workspace has
no id file and its ``.clawmem/`` belongs to this user, and the first time it is honoured it is
bound (id file written, full entry appended); from then on the path alone trusts nothing.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import NamedTuple

from clawmem.foundation.config import WORKSPACE_ID_FILE
from clawmem.storage.durable import append_durably, atomic_write

FILE_NAME = "trusted-workspaces"
STATE_DIR = ".clawmem"


class Identity(NamedTuple):
    """What a trust entry names: the path, and the workspace found there (id, device, inode)."""

    path: bytes
    id: bytes | None
    dev: int | None
    ino: int | None


def list_path() -> Path:
    """``$XDG_STATE_HOME/clawmem/trusted-workspaces`` (``~/.local/state`` when unset)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clawmem" / FILE_NAME


def _key(root: Path) -> bytes:
    """The symlink-free path as the file system's own bytes: a name that is not UTF-8 is kept exactly."""
    return os.fsencode(os.path.realpath(root))


def trusted() -> set[bytes]:
    r"""The listed entries, split at ``\n`` only: ``splitlines`` would also split at U+2028 and its kin,
    so trusting ``/a\u2028/b`` would trust ``/b``."""
    try:
        return set(list_path().read_bytes().split(b"\n"))
    except FileNotFoundError:
        return set()


def id_path(root: Path) -> Path:
    return Path(os.path.realpath(root)) / STATE_DIR / WORKSPACE_ID_FILE


def read_id(root: Path) -> bytes | None:
    """The workspace's id (hex), or None when it has none (or an unreadable one)."""
    try:
        value = id_path(root).read_bytes().strip()
    except OSError:
        return None
    return value if value and len(value) <= 128 and all(ch in b"0123456789abcdef" for ch in value) else None


def ensure_id(root: Path) -> bytes:
    """The workspace's id, written first (random, private) when it has none: ``init`` does this."""
    found = read_id(root)
    if found is not None:
        return found
    atomic_write(id_path(root), secrets.token_hex(16).encode() + b"\n")
    return read_id(root) or b""


def current(root: Path) -> Identity:
    """The identity of whatever workspace is at ``root`` now."""
    try:
        info = os.stat(os.path.realpath(root))
    except OSError:
        return Identity(_key(root), read_id(root), None, None)
    return Identity(_key(root), read_id(root), info.st_dev, info.st_ino)


def parse(line: bytes) -> Identity:
    """One list line: ``path`` (an entry from before ids) or ``path\\0id\\0dev\\0ino``."""
    parts = line.split(b"\0")
    if len(parts) != 4:
        return Identity(parts[0], None, None, None)
    try:
        return Identity(parts[0], parts[1] or None, int(parts[2]), int(parts[3]))
    except ValueError:
        return Identity(parts[0], None, None, None)


def entry(identity: Identity) -> bytes:
    return b"\0".join([identity.path, identity.id or b"", str(identity.dev).encode(), str(identity.ino).encode()])


def matches(listed: Identity, here: Identity) -> bool:
    """A full entry trusts ``here`` only when path, workspace id, device and inode all match.

    A different workspace at a re-used path (deleted and re-cloned, unpacked, someone else's)
    has another inode and no id or another one, so it is not trusted.
    """
    return listed.id is not None and here.id is not None and listed == here


def path_matches(listed: Identity, here: Identity) -> bool:
    """The rule before workspace ids: the path alone."""
    return listed.path == here.path


def legacy_holds(root: Path, here: Identity) -> bool:
    """A path-only entry (from before ids) still trusts a workspace with no id whose ``.clawmem/`` is this user's."""
    if here.id is not None:
        return False
    try:
        return os.stat(Path(os.path.realpath(root)) / STATE_DIR).st_uid == os.getuid()
    except (OSError, AttributeError):
        return False


def is_trusted(root: Path) -> bool:
    """Did this user create or trust the workspace at ``root``, and is it still the one they listed (its id)?"""
    here = current(root)
    full_entry = here.path + b"\0"  # only this path's entries are parsed: a path-only one or a full one
    mine = [parse(line) for line in trusted() if line == here.path or line.startswith(full_entry)]
    if any(matches(e, here) for e in mine):
        return True
    full = [e for e in mine if e.id is not None]
    if not full and any(e.id is None for e in mine) and legacy_holds(root, here):
        try:
            trust(root)  # bind it now: from here on the path alone trusts nothing
        except OSError:
            pass  # a read-only workspace stays trusted by its old entry until it can be bound
        return True
    return False


def trust(root: Path) -> bool:
    """Add ``root`` (its id written first when missing) to the list; False when it was there already (or its path cannot be one line)."""
    key = _key(root)
    if b"\n" in key:
        return False
    ensure_id(root)
    here = current(root)
    if b"\n" in (here.id or b"") or any(matches(parse(line), here) for line in trusted() if line):
        return False
    append_durably(list_path(), entry(here) + b"\n")
    return True
