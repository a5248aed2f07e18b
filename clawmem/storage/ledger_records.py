"""What each kind of provenance-ledger record holds: one type per kind, its constructors, and the
shape check ``clawmem.storage.ledger`` applies to every record it reads, derived from those types.

A record is a ``TypedDict``, not a dataclass, because it is the JSON object on disk and stays
one. ``ledger.read`` hands the parsed objects to their readers as they are (every index sync
and many recalls read the whole ledger), so no record is converted on the way in or out; a
record keeps every key it was written with, a newer clawmem's fields and its writer's seal
included, which the seal's MAC and the acceptance digest (``clawmem.trust.team``) cover whole; and the
bytes written are ``json.dumps`` of the dict in the key order its constructor builds, the same
as before the types existed.

The required keys of a kind are those every record of it has had, whoever wrote it (an older
clawmem, another copy): what a reader may index. The constructors write more (``at``, a
session, an observed time); a record without those still reads, and readers ``get`` them.
Where present, every field a kind declares must have the type clawmem writes (docs/team-memory.md),
and so must the fields of ``OtherRecord`` on a kind that does not declare them; other keys pass.
A field is added to a kind in one place: its class here (and its constructor); ``SHAPES``
follows. No ``from __future__ import annotations`` here: the check reads the annotations at
import, and Python 3.11 loses ``NotRequired`` from string annotations.
"""

import types
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, TypeGuard, TypeVar, get_args, get_origin

from clawmem.entries.lines import line_key
from clawmem.foundation.timeparse import now_iso


class Stamp(TypedDict, total=False):
    """What any record may carry beside its kind's fields: when it was written, and the seal of the
    copy that wrote it (``clawmem.trust.team.seal``: writer id, running number, MAC; ``config.WRITER_FIELD``,
    ``SEQ_FIELD``, ``SEAL_FIELD``)."""

    at: str
    by: str
    seq: int
    mac: str


class InitRecord(Stamp):
    """The ledger's first line: its id, so a replaced ledger is detected."""

    t: Literal["init"]
    id: str


class EntryRecord(Stamp):
    """Who wrote one line of a memory file (by its text hash): origin class and session kind."""

    t: Literal["entry"]
    path: str
    hash: str
    origin: str
    kind: str  # the session kind
    session: NotRequired[str | None]
    observed: NotRequired[str | None]
    derived_from: NotRequired[str]  # the untrusted hit the text restates (``trust.content_origin``)
    lineage: NotRequired[str]  # the exposure an agent turn or note inherits (``trust.lineage``)
    lifted_by: NotRequired[str]  # the owner's endorsement that lifted it
    source: NotRequired[str]  # what the note cites (``note add --source``)


class TaintRecord(Stamp):
    """The least trusted origin a whole file received (``note flush``)."""

    t: Literal["taint"]
    path: str
    origin: str


class TornRecord(Stamp):
    """An unterminated last line found in ``path``: its lines are never trusted again."""

    t: Literal["torn"]
    path: str
    lines: list[str]  # line keys (``entries.lines.line_key``)
    bytes: NotRequired[int]


class RepairRecord(Stamp):
    """A torn ledger record terminated before the next append, and the files it named."""

    t: Literal["repair"]
    torn_bytes: NotRequired[int]
    paths: NotRequired[list[str]]


class TranscriptRecord(Stamp):
    """Who sent a whole transcript, and through which host (checked when it is replaced)."""

    t: Literal["transcript"]
    path: str
    origin: str
    kind: NotRequired[str]  # the session kind
    session: NotRequired[str | None]
    host: NotRequired[str]


class TombstoneRecord(Stamp):
    """A session or a text hash ``clawmem forget`` removed: writers never store it again."""

    t: Literal["tombstone"]
    session: NotRequired[str]
    hash: NotRequired[str]
    path: NotRequired[str]
    forget: NotRequired[str]  # the forget's id (absent before ``forget --undo`` existed)


class LiftRecord(Stamp):
    """``clawmem forget --undo``: the tombstones of one forget taken back."""

    t: Literal["lift"]
    forget: NotRequired[str]
    hashes: NotRequired[list[str]]
    sessions: NotRequired[list[str]]


class ForgetRecord(Stamp):
    """One ``clawmem forget``: what it removed, counted (``forget --list``)."""

    t: Literal["forget"]
    id: str
    mode: NotRequired[str]
    entries: NotRequired[int]
    hashes: NotRequired[int]
    session: NotRequired[str | None]


class ReturnedRecord(Stamp):
    """An untrusted hit handed out for the first time (its hash and path, never its text)."""

    t: Literal["returned"]
    hash: str
    path: NotRequired[str]


class PromoteRecord(Stamp):
    """The owner's ``clawmem promote``, beside the new line's own entry record."""

    t: Literal["promote"]
    path: str
    hash: str
    source: NotRequired[str]
    source_hash: NotRequired[str]
    source_origin: NotRequired[str]
    source_kind: NotRequired[str]
    overridden: NotRequired[list[str]]  # why the entry was ineligible, when ``--force`` promoted it
    decided_by: NotRequired[str]


class AspirationRecord(Stamp):
    """A state an aspiration reached at review (escalated, expired)."""

    t: Literal["aspiration"]
    id: str
    state: str
    path: NotRequired[str]
    line: NotRequired[int]
    review: NotRequired[str]


class IntentRecord(Stamp):
    """One change of an intent (``intents.store`` replays them): ``add`` carries the row, ``fire``
    and ``cancel`` its id and when."""

    t: Literal["intent"]
    op: str
    id: NotRequired[int | None]
    kind: NotRequired[str]
    text: NotRequired[str]
    keywords: NotRequired[list[str]]
    channel: NotRequired[str | None]
    sender: NotRequired[str | None]
    origin: NotRequired[str]
    session: NotRequired[str | None]
    created_at: NotRequired[str]
    due_at: NotRequired[str | None]
    expires_at: NotRequired[str]
    cooldown_s: NotRequired[int]
    budget: NotRequired[int]
    when: NotRequired[str]


# ``from`` is a keyword, so it cannot be a class attribute: the functional form holds it
_AcceptFrom = TypedDict("_AcceptFrom", {"from": list[str]}, total=False)


class AcceptRecord(Stamp, _AcceptFrom):
    """The owner's ``clawmem accept``: the records (by digest) and lines that count here now,
    and the copies (``from``) they came from."""

    t: Literal["accept"]
    records: NotRequired[list[str]]
    lines: NotRequired[list[str]]


class OtherRecord(Stamp):
    """A kind this clawmem does not know (a newer one's): kept, and replayed by no reader. Its
    fields here are those every reader takes as text whatever the kind, checked on every record
    whose kind does not declare them."""

    t: str
    path: NotRequired[str | None]
    hash: NotRequired[str | None]
    origin: NotRequired[str | None]
    session: NotRequired[str | None]


KnownRecord = (
    InitRecord | EntryRecord | TaintRecord | TornRecord | RepairRecord | TranscriptRecord | TombstoneRecord
    | LiftRecord | ForgetRecord | ReturnedRecord | PromoteRecord | AspirationRecord | IntentRecord | AcceptRecord
)
LedgerRecord = KnownRecord | OtherRecord  # what ``ledger.read`` returns
KINDS: tuple[type[KnownRecord], ...] = get_args(KnownRecord)
R = TypeVar("R", bound=KnownRecord)


# constructors: each kind's keys, in the order they are written ------------------------------------
def init_record(ledger_id: str) -> InitRecord:
    return {"t": "init", "id": ledger_id, "at": now_iso()}


def entry_record(
    path: str, hash_: str, *, origin: str, session_kind: str, session: str | None, observed: str | None,
    derived_from: str | None = None, lineage: str | None = None, lifted_by: str | None = None, source: str | None = None,
) -> EntryRecord:
    """A line's record; the optional fields are written (after ``at``) only when given."""
    record: EntryRecord = {
        "t": "entry", "path": path, "hash": hash_, "origin": origin, "kind": session_kind, "session": session, "observed": observed, "at": now_iso(),
    }
    if derived_from is not None:
        record["derived_from"] = derived_from
    if lineage is not None:
        record["lineage"] = lineage
    if lifted_by is not None:
        record["lifted_by"] = lifted_by
    if source is not None:
        record["source"] = source
    return record


def taint_record(path: str, origin: str) -> TaintRecord:
    return {"t": "taint", "path": path, "origin": origin, "at": now_iso()}


def torn_record(path: str, torn: bytes) -> TornRecord:
    """Record that ``path`` ended in an unterminated line: its lines are never trusted again."""
    from clawmem.entries import grammar  # deferred: only a repair needs the parser

    lines = [line for block in grammar.parse(torn.decode("utf-8", errors="replace")).blocks for line in block.lines]
    return {"t": "torn", "path": path, "lines": [line_key(line) for line in lines if line.strip()], "bytes": len(torn), "at": now_iso()}


def repair_record(torn_bytes: int, paths: list[str]) -> RepairRecord:
    return {"t": "repair", "torn_bytes": torn_bytes, "paths": paths, "at": now_iso()}


def transcript_record(path: str, origin: str, session_kind: str, *, session: str | None = None, host: str | None = None) -> TranscriptRecord:
    """The record of who sent a whole transcript; the session and host are written with a host."""
    record: TranscriptRecord = {"t": "transcript", "path": path, "origin": origin, "kind": session_kind, "at": now_iso()}
    if host:
        record["session"] = session
        record["host"] = host
    return record


def session_tombstone(session: str, forget_id: str, at: str) -> TombstoneRecord:
    return {"t": "tombstone", "session": session, "forget": forget_id, "at": at}


def hash_tombstone(text_hash: str, path: str, forget_id: str, at: str) -> TombstoneRecord:
    return {"t": "tombstone", "hash": text_hash, "path": path, "forget": forget_id, "at": at}


def lift_record(forget_id: str, hashes: list[str], sessions: list[str] | None = None) -> LiftRecord:
    record: LiftRecord = {"t": "lift", "forget": forget_id, "hashes": hashes, "at": now_iso()}
    if sessions:
        record["sessions"] = sessions
    return record


def forget_record(forget_id: str, *, mode: str, entries: int, hashes: int, session: str | None, at: str) -> ForgetRecord:
    return {"t": "forget", "id": forget_id, "mode": mode, "entries": entries, "hashes": hashes, "session": session, "at": at}


def returned_record(text_hash: str, path: str) -> ReturnedRecord:
    """An untrusted hit's first return: its hash and path only, never its text."""
    return {"t": "returned", "hash": text_hash, "path": path, "at": now_iso()}


def promote_record(
    path: str, text_hash: str, *, source: str, source_hash: str, source_origin: str, source_kind: str, overridden: list[str], decided_by: str,
) -> PromoteRecord:
    return {
        "t": "promote", "path": path, "hash": text_hash, "source": source, "source_hash": source_hash, "source_origin": source_origin,
        "source_kind": source_kind, "overridden": overridden, "decided_by": decided_by, "at": now_iso(),
    }


def aspiration_record(aspiration_id: str, state: str, *, path: str, line: int, review: str, at: str) -> AspirationRecord:
    return {"t": "aspiration", "state": state, "id": aspiration_id, "path": path, "line": line, "review": review, "at": at}


def intent_add_record(row: Mapping[str, Any]) -> IntentRecord:
    """An intent's creation: the columns of its row that the ledger mirrors (``keywords`` as a list)."""
    return {
        "t": "intent", "op": "add", "id": row["id"], "kind": row["kind"], "text": row["text"], "keywords": row["keywords"],
        "channel": row["channel"], "sender": row["sender"], "origin": row["origin"], "session": row["session"],
        "created_at": row["created_at"], "due_at": row["due_at"], "expires_at": row["expires_at"], "cooldown_s": row["cooldown_s"],
        "budget": row["budget"], "at": now_iso(),
    }


def intent_op_record(op: str, intent_id: int, when: str) -> IntentRecord:
    return {"t": "intent", "op": op, "id": intent_id, "when": when, "at": now_iso()}


def accept_record(records: list[str], lines: list[str], writers: list[str]) -> AcceptRecord:
    return {"t": "accept", "records": records, "lines": lines, "from": writers, "at": now_iso()}


def is_kind(record: LedgerRecord, kind: type[R]) -> TypeGuard[R]:
    """Whether ``record`` is of ``kind`` (``is_kind(r, EntryRecord)``), so its fields type as that kind's."""
    return record["t"] == KIND_NAMES[kind]


# the shape check, derived from the types -----------------------------------------------------------
Allowed = tuple[type, ...] | None  # the types a field's value may have; None: a list of strings
Shape = dict[str, tuple[Allowed, bool]]  # field -> (allowed, required), in the order they are checked


def _allowed(annotation: object) -> Allowed:
    """The runtime check of one field's type: a class, a union of classes, or ``list[str]``."""
    if get_origin(annotation) is list and get_args(annotation) == (str,):
        return None
    members = get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    if not all(isinstance(member, type) and get_origin(member) is None for member in members):
        raise TypeError(f"a ledger record field may be a class, a union of classes or list[str], not {annotation!r}")
    return members


def _shape(kind: type[Any]) -> Shape:
    """A kind's fields from its annotations (its bases' included), ``NotRequired`` unwrapped: whether
    a key is required is ``__required_keys__``. Cheaper at import than ``typing.get_type_hints``."""
    fields = kind.__annotations__.items()
    return {
        name: (_allowed(get_args(hint)[0] if get_origin(hint) is NotRequired else hint), name in kind.__required_keys__)
        for name, hint in fields
        if name != "t"
    }


KIND_NAMES: dict[type[Any], str] = {kind: get_args(kind.__annotations__["t"])[0] for kind in KINDS}
COMMON = _shape(OtherRecord)  # checked on every record, where its kind does not declare the field
SHAPES: dict[str, Shape] = {KIND_NAMES[kind]: {**COMMON, **_shape(kind)} for kind in KINDS}


def shape_problem(record: object) -> str | None:
    """Why ``record`` is not a ledger record readers can rely on (type and shape), or None.

    The ledger is union-merged from every clone, so a line may come from anyone: a field a reader
    hashes, compares or stores must have the type clawmem writes, or the reader would crash. A
    kind this clawmem does not know passes when its common fields do.
    """
    if not isinstance(record, dict):
        return f"not a JSON object but {type(record).__name__}"
    kind = record.get("t")
    if not isinstance(kind, str) or not kind:
        return "no record type (t)"
    for name, (allowed, required) in SHAPES.get(kind, COMMON).items():
        if name not in record:
            if required:
                return f"a {kind!r} record without {name}"
            continue
        value = record[name]
        if allowed is None:
            fits = isinstance(value, list) and all(isinstance(item, str) for item in value)
        else:
            fits = isinstance(value, allowed) and (not isinstance(value, bool) or bool in allowed)
        if not fits:
            return f"a {kind!r} record whose {name} is {type(value).__name__}"
    return None
