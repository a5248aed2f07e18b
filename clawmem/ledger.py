"""The provenance ledger: an append-only record of who wrote each line, kept beside the index.

The SQLite index is derived data and may be deleted or corrupted; provenance must survive
that, or a rebuild would forget that a line came from an untrusted source. So every write
clawmem makes also appends a JSON line here (under a lock, fsynced), and ``index`` replays it.
The ledger is inside the operator trust boundary; untrusted text never reaches it except as
JSON-escaped hash input.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clawmem import timeparse, workspace
from clawmem.workspace import Workspace, append_durably

LEDGER_LOCK = "ledger"
# The ``path`` values a damaged (unparseable) record still shows: the files it could concern.
DAMAGED_PATH = re.compile(rb'"path":\s*"([^"\\]{1,500})"')


def now_iso() -> str:
    """The one clock as a record timestamp: ``timeparse.now`` (so ``$CLAWMEM_NOW`` pins it too)."""
    return timeparse.now().isoformat(timespec="seconds")


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


def line_key(line: str) -> str:
    """A stable key for one source line (its stripped text), used to mark torn lines."""
    return "line:" + hashlib.sha256(line.strip().encode("utf-8", "surrogatepass")).hexdigest()[:24]


def torn_record(path: str, torn: bytes) -> dict[str, Any]:
    """Record that ``path`` ended in an unterminated line: its lines are never trusted again."""
    from clawmem.entries import grammar  # deferred: only a repair needs the parser

    lines = [line for block in grammar.parse(torn.decode("utf-8", errors="replace")).blocks for line in block.lines]
    return {"t": "torn", "path": path, "lines": [line_key(line) for line in lines if line.strip()], "bytes": len(torn), "at": now_iso()}


def tail_records(ws: Workspace, path: Path) -> list[dict[str, Any]]:
    """A torn-line record for ``path`` if its last line is unterminated, to append before writing.

    The caller holds the file's lock and then terminates the line; recording it first means a
    crash in between can only leave a record of a line that is not yet in the file.
    """
    torn = workspace.torn_tail(path)
    return [torn_record(ws.rel(path), torn)] if torn else []


def append(ws: Workspace, records: Iterable[dict[str, Any]]) -> None:
    """Append records atomically with respect to other clawmem writers.

    A torn last record (a crash mid-append) is terminated first and the repair recorded, so the
    new records are never glued onto it and lost with it.
    """
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    if not data:
        return
    with ws.lock(LEDGER_LOCK):
        ws.require_member(ws.ledger_path)
        torn = workspace.torn_tail(ws.ledger_path)
        if torn:
            paths = sorted({m.decode("utf-8", "replace") for m in DAMAGED_PATH.findall(torn)})
            repair = {"t": "repair", "torn_bytes": len(torn), "paths": paths, "at": now_iso()}
            data = b"\n" + (json.dumps(repair, ensure_ascii=False) + "\n").encode() + data
        append_durably(ws.ledger_path, data)


@dataclass(frozen=True)
class LedgerRead:
    ledger_id: str | None  # None: the ledger is missing or its header is damaged
    records: list[dict[str, Any]]
    offset: int  # byte offset just past the last complete record read
    # one entry per damaged (unparseable) record: the paths it names; empty when it names none
    damaged: tuple[frozenset[str], ...] = ()


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
    damaged: list[frozenset[str]] = []
    position = max(offset, header_end + 1 if header_end >= 0 else 0)
    while position < len(data):
        end = data.find(b"\n", position)
        if end < 0:
            break
        line = data[position:end]
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if isinstance(record, dict):
            records.append(record)
        elif line.strip():  # a damaged record: the lines it covered can no longer be accounted for
            damaged.append(frozenset(m.decode("utf-8", "replace") for m in DAMAGED_PATH.findall(line)))
        position = end + 1
    return LedgerRead(ledger_id, records, position, tuple(damaged))


@dataclass(frozen=True)
class Tombstones:
    sessions: frozenset[str]
    hashes: frozenset[str]


def tombstones(ws: Workspace) -> Tombstones:
    """Sessions and text hashes ``clawmem forget`` removed: writers never store them again.

    A ``lift`` record (``clawmem forget --undo``) takes back the tombstones of one forget, in
    ledger order, so the text may be written and promoted again. Cheap when nothing was ever
    forgotten (one substring search over the ledger's bytes).
    """
    try:
        data = ws.ledger_path.read_bytes()
    except FileNotFoundError:
        data = b""
    sessions: set[str] = set()
    hashes: set[str] = set()
    if b'"tombstone"' in data:
        for line in data.splitlines():
            if b'"tombstone"' not in line and b'"lift"' not in line:
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
            elif isinstance(record, dict) and record.get("t") == "lift":
                sessions.difference_update(s for s in record.get("sessions", ()) if isinstance(s, str))
                hashes.difference_update(h for h in record.get("hashes", ()) if isinstance(h, str))
    return Tombstones(frozenset(sessions), frozenset(hashes))
