"""The provenance ledger: an append-only record of who wrote each line, kept beside the index.

The SQLite index is derived data and may be deleted or corrupted; provenance must survive
that, or a rebuild would forget that a line came from an untrusted source. So every write
clawmem makes also appends a JSON line here (under a lock, fsynced), and ``index`` replays it.
The ledger is inside the operator trust boundary; untrusted text never reaches it except as
JSON-escaped hash input. What each kind of record holds, how it is built and the shape every
record read must have are ``clawmem.storage.ledger_records``; this module appends and reads them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from clawmem.foundation import jsonbound
from clawmem.foundation.config import LEDGER_RECORD_MAX_DEPTH, SEAL_FIELD, SEQ_FIELD, WRITER_FIELD
from clawmem.foundation.records import dataclass
from clawmem.storage import durable
from clawmem.storage.durable import append_durably
from clawmem.storage.ledger_records import InitRecord, LedgerRecord, LiftRecord, TombstoneRecord, TornRecord, init_record, is_kind, repair_record, shape_problem, torn_record
from clawmem.storage.workspace import Workspace

LEDGER_LOCK = "ledger"
# The ``path`` values a damaged (unparseable) record still shows: the files it could concern.
DAMAGED_PATH = re.compile(rb'"path":\s*"([^"\\]{1,500})"')

_WARNED: set[tuple[str, int]] = set()  # (ledger, line) already reported by this process


def create(ws: Workspace) -> None:
    """Start a new ledger with a header naming it (so a replaced ledger is detected)."""
    if ws.ledger_path.exists():
        return
    import uuid  # deferred: only a new workspace needs an id

    from clawmem.trust import team

    header = init_record(uuid.uuid4().hex)
    with ws.lock(LEDGER_LOCK):
        append_durably(ws.ledger_path, (json.dumps(header) + "\n").encode())
        team.remember_ledger(team.this_copy(ws), header["id"])


def _said(record: Mapping[str, Any]) -> dict[str, Any]:
    """What a record says, without when it was written and who sealed it."""
    return {k: v for k, v in record.items() if k not in ("at", WRITER_FIELD, SEQ_FIELD, SEAL_FIELD)}


def unrepeated(ws: Workspace, existing: list[LedgerRecord], records: list[LedgerRecord]) -> list[LedgerRecord]:
    """``records`` without the entry records that only repeat this copy's latest record for the same line.

    A host hands over its growing transcript on every turn and each ingest records every line
    again, so the ledger grew with the square of a session's length. A repeat changes nothing (a
    line's trust is the least trusted over its records), so only a changed record is appended.
    Only this copy's own records count as said: a pulled copy of the record holds nothing back.
    """
    from clawmem.trust import team

    keys = {(r.get("path"), r.get("hash")) for r in records if r.get("t") == "entry"}
    if not keys:
        return list(records)
    copy = team.this_copy(ws)
    latest: dict[tuple[object, object], dict[str, Any]] = {}
    for r in existing:
        key = (r.get("path"), r.get("hash"))
        if r.get("t") == "entry" and key in keys and team.written_here(copy, r):
            latest[key] = _said(r)
    return [r for r in records if r.get("t") != "entry" or latest.get((r.get("path"), r.get("hash"))) != _said(r)]


def tail_records(ws: Workspace, path: Path) -> list[TornRecord]:
    """A torn-line record for ``path`` if its last line is unterminated, to append before writing.

    The caller holds the file's lock and then terminates the line; recording it first means a
    crash in between can only leave a record of a line that is not yet in the file.
    """
    torn = durable.torn_tail(path)
    return [torn_record(ws.rel(path), torn)] if torn else []


def append(ws: Workspace, records: Iterable[LedgerRecord]) -> None:
    """Append records atomically with respect to other clawmem writers.

    A torn last record (a crash mid-append) is terminated first and the repair recorded, so the
    new records are never glued onto it and lost with it. Each record is sealed by this copy
    (``clawmem.trust.team``): its writer, running number and seal say it was written here.
    """
    from clawmem.trust import team

    records = list(records)
    if not records:
        return
    with ws.lock(LEDGER_LOCK):
        ws.require_member(ws.ledger_path)
        copy = team.this_copy(ws)
        torn = durable.torn_tail(ws.ledger_path)
        if torn:
            paths = sorted({m.decode("utf-8", "replace") for m in DAMAGED_PATH.findall(torn)})
            records.insert(0, repair_record(len(torn), paths))
        first = team.next_seq(copy, lambda: read(ws).records)
        data = "".join(json.dumps(team.seal(copy, r, first + i), ensure_ascii=False) + "\n" for i, r in enumerate(records)).encode()
        append_durably(ws.ledger_path, b"\n" + data if torn else data)
        team.raise_mark(copy, first + len(records) - 1, lambda: read(ws).ledger_id)


def parse_record(line: bytes) -> tuple[LedgerRecord | None, str | None]:
    """One ledger line as a record, or None and why not: not JSON, nested past
    ``LEDGER_RECORD_MAX_DEPTH`` (refused before the parser recurses), or the wrong shape."""
    try:
        record = jsonbound.loads(line, max_depth=LEDGER_RECORD_MAX_DEPTH)
    except ValueError as err:
        nested = str(err).startswith("JSON nested deeper")
        return None, f"nested deeper than {LEDGER_RECORD_MAX_DEPTH} levels" if nested else "not valid JSON"
    problem = shape_problem(record)
    return (None, problem) if problem else (record, None)


def report_bad(ws: Workspace, number: int, reason: str) -> None:
    """Warn once per process about a bad ledger line, naming it (the record is skipped)."""
    from clawmem.foundation.errors import warn

    if (str(ws.ledger_path), number) in _WARNED:
        return
    _WARNED.add((str(ws.ledger_path), number))
    warn(f"{ws.rel(ws.ledger_path)} line {number}: {reason}; record skipped (the files it names lose their recorded provenance)")


def _repaired(data: bytes, start: int) -> bool:
    """Whether the line at ``start`` is the repair record ``append`` writes right after a torn one."""
    end = data.find(b"\n", start)
    record = parse_record(data[start:end])[0] if end > start else None
    return record is not None and record.get("t") == "repair"


@dataclass(frozen=True)
class LedgerRead:
    ledger_id: str | None  # None: the ledger is missing or its header is damaged
    records: list[LedgerRecord]
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
    header = parse_record(data[:header_end])[0] if header_end > 0 else None
    ledger_id = header["id"] if header is not None and is_kind(header, InitRecord) else None
    records = []
    damaged: list[frozenset[str]] = []
    position = max(offset, header_end + 1 if header_end >= 0 else 0)
    while position < len(data):
        end = data.find(b"\n", position)
        if end < 0:
            break
        line = data[position:end]
        record, problem = parse_record(line) if line.strip() else (None, None)
        if record is not None:
            records.append(record)
        elif line.strip():  # a damaged or malformed record: the lines it covered can no longer be accounted for
            if not _repaired(data, end + 1):  # a torn write was already recorded by the repair after it
                report_bad(ws, data.count(b"\n", 0, position) + 1, problem or "malformed")
            damaged.append(frozenset(m.decode("utf-8", "replace") for m in DAMAGED_PATH.findall(line)))
        position = end + 1
    return LedgerRead(ledger_id, records, position, tuple(damaged))


@dataclass(frozen=True)
class Tombstones:
    sessions: frozenset[str]
    hashes: frozenset[str]


def forgetting(ws: Workspace, records: list[LedgerRecord]) -> list[TombstoneRecord | LiftRecord]:
    """The ``tombstone`` and ``lift`` records that act here, in ledger order: this copy's own and
    those its owner accepted (``team.counting_here``). A pulled tombstone would let a collaborator
    silence the owner's facts, and a pulled lift would bring back what the owner forgot."""
    from clawmem.trust import team

    return [r for r in team.counting_here(ws, records) if is_kind(r, TombstoneRecord) or is_kind(r, LiftRecord)]


def tombstones(ws: Workspace) -> Tombstones:
    """Sessions and text hashes ``clawmem forget`` removed: writers never store them again.

    A ``lift`` record (``clawmem forget --undo``) takes back the tombstones of one forget, in
    ledger order, so the text may be written and promoted again. Only records that act here count
    (``forgetting``). Cheap when nothing was ever forgotten (one substring search over the ledger's bytes).
    """
    try:
        data = ws.ledger_path.read_bytes()
    except FileNotFoundError:
        data = b""
    sessions: set[str] = set()
    hashes: set[str] = set()
    if b'"tombstone"' in data:
        # only the lines that can matter: forgetting, lifting, and the owner's acceptances
        lines = (ln for ln in data.splitlines() if b'"tombstone"' in ln or b'"lift"' in ln or b'"accept"' in ln)
        parsed = [r for r in (parse_record(ln)[0] for ln in lines) if r is not None]  # a malformed one is reported by ``read``
        for record in forgetting(ws, parsed):
            if record["t"] == "tombstone":
                if isinstance(record.get("session"), str):
                    sessions.add(record["session"])
                if isinstance(record.get("hash"), str):
                    hashes.add(record["hash"])
            else:
                sessions.difference_update(s for s in record.get("sessions", ()) if isinstance(s, str))
                hashes.difference_update(h for h in record.get("hashes", ()) if isinstance(h, str))
    return Tombstones(frozenset(sessions), frozenset(hashes))
