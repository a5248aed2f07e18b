"""Safe rewrites of the curated files (MEMORY.md, USER.md); the DREAMS.md format is ``clawmem.storage.diary``.

A rewrite uses optimistic concurrency: the caller captures the file's hash when it builds
its input, and the new content replaces the file only if that hash still holds immediately
before the atomic rename. Every accepted rewrite first stores the pre-image under
``.clawmem/preimages/``, so nothing a rewrite drops is lost.
"""

from __future__ import annotations

import re
from pathlib import Path

from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import local_now
from clawmem.storage.baseline import follow_write
from clawmem.storage.durable import append_durably, atomic_write
from clawmem.storage.workspace import Workspace

METADATA = re.compile(r"[ \t]*<!--.*?-->", re.DOTALL)


def budget_size(text: str) -> int:
    """The characters of ``MEMORY.md`` that count against ``dream.memory_chars``: what the
    bootstrap injects, the file without its metadata comments (sources, triggers, importance
    are for clawmem, not the model). Here, not in ``dream/``, so ``status`` can measure it
    without importing the sweep."""
    return len(METADATA.sub("", text))


@dataclass(frozen=True)
class Snapshot:
    path: Path
    data: bytes
    digest: str

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def snapshot(path: Path) -> Snapshot:
    """The file's bytes and hash now (empty when it does not exist)."""
    data = path.read_bytes() if path.exists() else b""
    return Snapshot(path, data, sha256_hex(data))


def store_preimage(ws: Workspace, snap: Snapshot, *, reason: str) -> Path:
    """Keep the file as it was before a rewrite: ``preimages/<stamp>-<name>-<hash8>.md``."""
    stamp = local_now().strftime("%Y%m%dT%H%M%S%f")
    slug = "".join(ch if ch.isalnum() else "-" for ch in reason)[:40].strip("-")
    target = ws.preimages_dir / f"{stamp}-{snap.path.stem}-{snap.digest[:8]}-{slug}.md"
    atomic_write(target, snap.data)
    return target


def preimages(ws: Workspace, path: Path) -> list[Path]:
    """Stored pre-images of one curated file, oldest first."""
    if not ws.preimages_dir.is_dir():
        return []
    return sorted(p for p in ws.preimages_dir.glob(f"*-{path.stem}-*.md"))


@dataclass(frozen=True)
class RewriteResult:
    written: bool
    preimage: Path | None
    reason: str | None = None


def replace_if_unchanged(ws: Workspace, snap: Snapshot, new_text: str | bytes, *, reason: str) -> RewriteResult:
    """Atomically replace the file with ``new_text`` unless it changed since ``snap`` was taken
    (bytes are written as given: dreaming passes hand-written lines back byte for byte)."""
    with ws.lock_file(snap.path):
        current = snapshot(snap.path)
        if current.digest != snap.digest:
            return RewriteResult(False, None, "the file changed since the input was built")
        preimage = store_preimage(ws, current, reason=reason)
        data = new_text if isinstance(new_text, bytes) else new_text.encode()
        atomic_write(snap.path, data)
        follow_write(ws, snap.path, current.data, data)
    return RewriteResult(True, preimage)


def append_lines(ws: Workspace, path: Path, lines: list[str]) -> None:
    """Append whole lines to a curated file under its lock (the append fallback path)."""
    if not lines:
        return
    from clawmem.storage import ledger  # a writer's: status imports this module to measure MEMORY.md

    with ws.lock_file(path):
        ledger.append(ws, ledger.tail_records(ws, path))  # a torn last line stays untrusted once terminated
        existing = path.read_bytes() if path.exists() else b""
        prefix = b"" if not existing or existing.endswith(b"\n") else b"\n"
        added = prefix + "".join(line if line.endswith("\n") else line + "\n" for line in lines).encode()
        append_durably(path, added)
        follow_write(ws, path, existing, existing + added)
