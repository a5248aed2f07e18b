"""The audit baseline: the curated files as clawmem last wrote them or the owner accepted them.

Storage, not the audit: every rewrite of a curated file carries it along (``follow_write``,
called by ``curated.py`` under the file's lock); ``audit/preimages.py`` only reads it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clawmem.entries import grammar, identity
from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.timeparse import now_iso
from clawmem.storage.durable import atomic_write
from clawmem.storage.workspace import Workspace

BASELINE_VERSION = 1
AUDIT_LOCK = "audit"  # the lock the baseline is read and written under


def baseline_path(ws: Workspace) -> Path:
    return ws.state_dir / "audit" / "baseline.json"


def load_baseline(ws: Workspace) -> dict[str, Any]:
    try:
        data = json.loads(baseline_path(ws).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def save_baseline(ws: Workspace, files: dict[str, Any]) -> None:
    payload = {"version": BASELINE_VERSION, "files": files}
    atomic_write(baseline_path(ws), json.dumps(payload, ensure_ascii=False, indent=1).encode())


def follow_write(ws: Workspace, path: Path, before: bytes, after: bytes) -> None:
    """Carry the baseline along a rewrite clawmem made itself (dream, ``user``, ``forget``, an append).

    Only when the file was what the baseline says (or had none yet): a hand edit made since
    then stays reported against the old baseline until ``audit --accept``, never laundered by
    the next sweep. The pre-image the writer stored explains whatever the rewrite dropped.
    """
    rel = ws.rel(path)
    with ws.lock(AUDIT_LOCK):
        files = load_baseline(ws)
        base = files.get(rel) if isinstance(files.get(rel), dict) else None
        if base is not None and base.get("sha256") != sha256_hex(before):
            return
        now = now_iso()
        files[rel] = state(after, (base or {}).get("first_seen") or {}, now)
        for other in (ws.memory_md, ws.user_md):  # a workspace without a baseline gets one, as init makes it
            if not isinstance(files.get(ws.rel(other)), dict) and other.exists():
                files[ws.rel(other)] = state(other.read_bytes(), {}, now)
        save_baseline(ws, files)


def state(data: bytes, first_seen: dict[str, str], now: str) -> dict[str, Any]:
    """One file's baseline record: its bytes' hash, its text, and when each entry was first seen."""
    text = data.decode("utf-8", errors="replace")
    return {"sha256": sha256_hex(data), "text": text, "audited_at": now, "first_seen": {h: first_seen.get(h, now) for h in entry_hashes(text)}}


def entry_hashes(text: str) -> dict[str, grammar.Entry]:
    """A curated text's entries by the hash the ledger and the recalled set key them on."""
    return {identity.text_hash(e.body): e for e in grammar.parse(text).entries if e.body.strip()}
