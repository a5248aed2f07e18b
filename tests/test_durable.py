"""Every append-only file is appended by ``durable.append_durably``: fsynced, and cut back when the write fails.

The ledger, the daily notes, ``DREAMS.md`` and the curated files' append fallback always were;
the machine-local lists (the trusted workspaces, a copy's vouched lines) used a bare ``os.write``,
so a full disk left half an entry behind for the next one to be glued onto.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from clawmem.trust import team
from clawmem.trust import workspaces as trusted_workspaces


def _workspace(root: Path) -> Path:
    (root / ".clawmem").mkdir(parents=True)
    return root


def _trust(tmp_path: Path, name: str) -> Callable[[], object]:
    return lambda: trusted_workspaces.trust(_workspace(tmp_path / name))


def _vouch(name: str) -> Callable[[], object]:
    return lambda: team.vouch(team.Copy("writer", b"secret"), [f"memory/a.md\0{name}"])


LISTS = [
    pytest.param(lambda tmp: trusted_workspaces.list_path(), _trust, id="trusted-workspaces"),
    pytest.param(lambda tmp: team.Copy("writer", b"secret").lines_path, lambda tmp, name: _vouch(name), id="vouched-lines"),
]


@pytest.mark.parametrize(("path", "append"), LISTS)
def test_a_failed_append_to_a_machine_local_list_is_cut_back(tmp_path, monkeypatch, path, append):
    append(tmp_path, "first")()
    before = path(tmp_path).read_bytes()
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data[: len(data) // 2]))  # the kernel took half, then the disk was full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError):
        append(tmp_path, "second")()
    assert path(tmp_path).read_bytes() == before


@pytest.mark.parametrize(("path", "append"), LISTS)
def test_an_append_to_a_machine_local_list_is_fsynced(tmp_path, monkeypatch, path, append):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    append(tmp_path, "first")()
    assert synced and path(tmp_path).read_bytes().endswith(b"\n")
