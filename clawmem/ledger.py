"""The provenance ledger: an append-only record of who wrote each line, kept beside the index.

The SQLite index is derived data and may be deleted or corrupted; provenance must survive
that, or a rebuild would forget that a line came from an untrusted source. So every write
clawmem makes also appends a JSON line here (under a lock, fsynced), and ``index`` replays it.
The ledger is inside the operator trust boundary; untrusted text never reaches it except as
JSON-escaped hash input.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Iterable

from clawmem.workspace import Workspace, append_durably

LEDGER_LOCK = "ledger"


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).astimezone().isoformat(timespec="seconds")


def create(ws: Workspace) -> None:
    """Start a new ledger with a header naming it (so a replaced ledger is detected)."""
    if ws.ledger_path.exists():
        return
    import uuid  # deferred: only a new workspace needs an id

    header = {"t": "init", "id": uuid.uuid4().hex, "at": now_iso()}
    with ws.lock(LEDGER_LOCK):
        append_durably(ws.ledger_path, (json.dumps(header) + "\n").encode())


def entry_record(
    path: str, hash_: str, *, origin: str, session_kind: str, session: str | None, observed: str | None
) -> dict[str, Any]:
    return {
        "t": "entry",
        "path": path,
        "hash": hash_,
        "origin": origin,
        "kind": session_kind,
        "session": session,
        "observed": observed,
        "at": now_iso(),
    }


def taint_record(path: str, origin: str) -> dict[str, Any]:
    return {"t": "taint", "path": path, "origin": origin, "at": now_iso()}


def append(ws: Workspace, records: Iterable[dict[str, Any]]) -> None:
    """Append records atomically with respect to other clawmem writers."""
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    if not data:
        return
    with ws.lock(LEDGER_LOCK):
        append_durably(ws.ledger_path, data)


@dataclass(frozen=True)
class LedgerRead:
    ledger_id: str | None  # None: the ledger is missing or its header is damaged
    records: list[dict[str, Any]]
    offset: int  # byte offset just past the last complete record read


def read(ws: Workspace, offset: int = 0) -> LedgerRead:
    """Read complete records from ``offset``; a torn last line (crash mid-append) is left for later."""
    try:
        data = ws.ledger_path.read_bytes()
    except FileNotFoundError:
        return LedgerRead(None, [], 0)
    header_end = data.find(b"\n")
    try:
        header = json.loads(data[:header_end]) if header_end > 0 else {}
    except ValueError:
        header = {}
    ledger_id = header.get("id") if header.get("t") == "init" else None
    records = []
    position = max(offset, header_end + 1 if header_end >= 0 else 0)
    while position < len(data):
        end = data.find(b"\n", position)
        if end < 0:
            break
        try:
            record = json.loads(data[position:end])
            if isinstance(record, dict):
                records.append(record)
        except ValueError:
            pass  # a damaged line gives no provenance; its lines fall back to conservative rules
        position = end + 1
    return LedgerRead(ledger_id, records, position)


@dataclass(frozen=True)
class Tombstones:
    sessions: frozenset[str]
    hashes: frozenset[str]


def tombstones(ws: Workspace) -> Tombstones:
    """Sessions and text hashes ``clawmem forget`` removed: writers never store them again.

    Cheap when nothing was ever forgotten (one substring search over the ledger's bytes).
    """
    try:
        data = ws.ledger_path.read_bytes()
    except FileNotFoundError:
        data = b""
    sessions: set[str] = set()
    hashes: set[str] = set()
    if b'"tombstone"' in data:
        for line in data.splitlines():
            if b'"tombstone"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("t") == "tombstone":
                if isinstance(record.get("session"), str):
                    sessions.add(record["session"])
                if isinstance(record.get("hash"), str):
                    hashes.add(record["hash"])
    return Tombstones(frozenset(sessions), frozenset(hashes))
