"""``clawmem accept``: the local owner takes what came from another copy as written, on the record.

What a pull brings counts at most ``FOREIGN_ORIGIN_CAP`` on this copy (``clawmem.trust.team``): ledger
records another copy wrote, unsealed records that appeared after this copy adopted its history,
and lines no record accounts for that arrived in a commit. This lists them, grouped by the copy
that says it wrote them, and on the owner's word appends one ``accept`` record sealed by this
copy naming them (records by digest, lines by path and text hash); the replay then counts them
as written. Nothing else changes: the files are not touched, and an untrusted record stays
untrusted (it claims nothing to accept).
"""

from __future__ import annotations

from typing import Any

from clawmem.foundation.config import FOREIGN_ORIGIN_CAP
from clawmem.foundation.errors import NotFound
from clawmem.foundation.records import dataclass, field
from clawmem.storage import ledger, ledger_records
from clawmem.storage.ledger_records import AcceptRecord, EntryRecord, IntentRecord, LedgerRecord, LiftRecord, TombstoneRecord, is_kind
from clawmem.storage.workspace import Workspace
from clawmem.trust import authority, provenance, team


@dataclass(frozen=True)
class Pending:
    """One record or line held back on this copy until its owner accepts it."""

    kind: str  # "record": an entry record another copy wrote; "action": an intent, tombstone, lift or
    # aspiration state another copy wrote (it acts only once accepted); "line": a line that arrived without one
    writer: str  # the copy the record names (unproven), ``team.UNSEALED``, or ``team.HAND`` for a line
    path: str
    line: int | None  # where it is in the file now (None: not indexed, e.g. the line is gone)
    claimed: str  # the origin it claims (a hand-written line claims the owner)
    held_as: str  # the origin it has here until accepted
    text: str | None
    digest: str | None  # a record's name in the accept record
    text_hash: str


@dataclass(frozen=True)
class AcceptResult:
    workspace: str
    this_copy: str  # this copy's writer id (what other copies see as ``by``)
    dry_run: bool
    recorded: bool  # an accept record was written
    selected: list[Pending] = field(default_factory=list)  # accepted (or, in a dry run or a listing, that would be)
    remaining: list[Pending] = field(default_factory=list)  # held back and not selected
    copies: dict[str, int] = field(default_factory=dict)  # writer -> items held back before this run


def _entry_rows(index: Any) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["path"], r["text_hash"]): r for r in index.query("SELECT path, text_hash, line_start, text FROM entries ORDER BY line_start DESC")}


# Ledger records that act rather than describe a line: a pulled one does nothing here until accepted
ACTIONS = ("intent", "tombstone", "lift", "aspiration")


def _action(record: LedgerRecord) -> str:
    """What an action record would do here, in words (it is never shown as stored text)."""
    if is_kind(record, IntentRecord):
        return f"intent {record.get('op')}: {record.get('text') or record.get('id')}"
    if is_kind(record, TombstoneRecord):
        return f"forget session {record['session']}" if isinstance(record.get("session"), str) else f"forget text {record.get('hash')}"
    if is_kind(record, LiftRecord):
        return f"undo forget {record.get('forget')}"
    return f"aspiration {record.get('id')} {record.get('state')}"


def held_back(ws: Workspace, index: Any) -> list[Pending]:
    """Everything this copy holds back as someone else's: capped records and actions, then lines from git."""
    import json

    copy = team.this_copy(ws)
    read = ledger.read(ws)
    found = team.judge(copy, team.load_state(copy), read.records)
    rows = _entry_rows(index)
    pending: dict[str, Pending] = {}
    for record in read.records:
        origin = record.get("origin")
        if team.counts_here(found, record):
            continue
        digest = team.record_digest(record)
        if record.get("t") in ACTIONS:
            pending.setdefault(digest, Pending(
                "action", team.writer_of(record), str(record.get("path") or ws.rel(ws.ledger_path)), None,
                origin if origin in provenance.TRUST_RANK else "owner", FOREIGN_ORIGIN_CAP, _action(record), digest, "",
            ))
            continue
        if not is_kind(record, EntryRecord) or origin not in provenance.TRUST_RANK:
            continue
        held_as = team.capped(record)["origin"]
        if held_as == origin:
            continue  # it claims no more than it has here
        row = rows.get((str(record.get("path")), str(record.get("hash"))))
        pending.setdefault(digest, Pending(
            "record", team.writer_of(record), str(record.get("path")), row["line_start"] if row else None, str(origin), held_as,
            row["text"] if row else None, digest, str(record.get("hash")),
        ))
    pulled = json.loads(index.meta("pulled_lines", "{}") or "{}")
    for path, items in sorted(pulled.items()):
        for line, text_hash in items:
            row = rows.get((path, text_hash))
            pending.setdefault(f"{path}\0{text_hash}", Pending(
                "line", team.HAND, path, line, "owner", FOREIGN_ORIGIN_CAP, row["text"] if row else None, None, text_hash,
            ))
    return sorted(pending.values(), key=lambda p: (p.writer, p.path, p.line or 0))


def select(pending: list[Pending], *, from_copy: str | None, everything: bool) -> list[Pending]:
    """The items the owner named: all of them, or one copy's (a writer id or a prefix of it, ``hand``, ``unsealed``)."""
    if everything:
        return list(pending)
    if not from_copy:
        return []
    chosen = [p for p in pending if p.writer.startswith(from_copy)]
    if not chosen:
        writers = sorted({p.writer for p in pending})
        raise NotFound(
            f"nothing held back comes from {from_copy!r}",
            hint=f"copies with something to accept: {', '.join(writers)}" if writers else "nothing is held back: there is nothing to accept",
        )
    return chosen


def accept_record(chosen: list[Pending]) -> AcceptRecord:
    """The ledger record of the owner's acceptance (sealed by ``ledger.append``)."""
    return ledger_records.accept_record(
        sorted({p.digest for p in chosen if p.digest}),
        sorted({team.line_name(p.path, p.text_hash) for p in chosen if p.kind == "line"}),
        sorted({p.writer for p in chosen}),
    )


def accept(
    ws: Workspace, *, caller: authority.Caller, from_copy: str | None = None, everything: bool = False, dry_run: bool = False
) -> AcceptResult:
    """List what is held back; with ``everything`` or ``from_copy`` (and not ``dry_run``) accept it on the
    record: the owner's decision (``authority.require_owner``)."""
    from clawmem.index.db import Index
    from clawmem.index.sync import sync

    if (everything or from_copy) and not dry_run:
        authority.require_owner(caller, "accepting another copy's memory")

    index = Index.open(ws)
    try:
        sync(ws, index)
        pending = held_back(ws, index)
        chosen = select(pending, from_copy=from_copy, everything=everything)
        copies: dict[str, int] = {}
        for p in pending:
            copies[p.writer] = copies.get(p.writer, 0) + 1
        recorded = bool(chosen) and not dry_run
        if recorded:
            ledger.append(ws, [accept_record(chosen)])
            sync(ws, index)
            if any(p.kind == "action" for p in chosen):
                from clawmem.intents.store import restore_again

                restore_again(ws, index)  # an accepted intent arms now, not at the next rebuild
        names = {id(p) for p in chosen}
        return AcceptResult(
            str(ws.root), team.this_copy(ws).writer, dry_run, recorded, chosen, [p for p in pending if id(p) not in names], copies,
        )
    finally:
        index.close()
