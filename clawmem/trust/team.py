"""Team memory is someone else's until accepted: which records and lines count as this copy's.

A workspace shared through git is written by several copies (machines, collaborators), and a
pull brings their ledger records and lines. Nothing in a shared file can prove who wrote it, so
trust here is structural (docs/team-memory.md, "Whose memory is it"):

* every ledger record this copy writes is sealed: ``by`` (a public id derived from the copy's
  secret, git-ignored ``.clawmem/workspace-id``), ``seq`` (the copy's running number) and ``mac``
  (an HMAC of the record under that secret). A pulled record can copy the ``by`` of this copy but
  not its seal, so it never passes for this copy's own (``written_here``);
* on replay a record written elsewhere counts only at ``FOREIGN_ORIGIN_CAP`` until an ``accept``
  record sealed by this copy names it (``counts_here``); the owner writes that with ``clawmem accept``;
* a line no record accounts for is hand-written. In a git working tree it is the owner's only when
  this copy saw it appear as a local change (not in the committed version) or the owner accepted
  it; a line that arrived in a commit is untrusted until accepted (``line_counts_here``);
* records from before seals existed (no ``by``) are this copy's when this copy had already indexed
  that same ledger (its index names the ledger's id) the first time it ran this rule: they are
  adopted once, by digest, in the machine-local state (``adopt``); later unsealed records are foreign;
* the machine-local state outside the workspace (``$XDG_STATE_HOME/clawmem/copies/<writer>.json``)
  remembers the ledger's id and the highest ``seq`` this copy wrote: a ledger with another id, or
  lacking some of this copy's numbers or adopted records, was replaced or rolled back (``rollback``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from clawmem.entries import lines as line_model
from clawmem.foundation.config import (
    COPY_STATE_DIR,
    FOREIGN_ORIGIN_CAP,
    RECORD_DIGEST_CHARS,
    SEAL_CHARS,
    SEAL_FIELD,
    SEQ_FIELD,
    WRITER_FIELD,
    WRITER_ID_CHARS,
)
from clawmem.foundation.records import dataclass, field
from clawmem.storage.durable import append_durably, atomic_write
from clawmem.storage.ledger_records import KIND_NAMES, AcceptRecord
from clawmem.storage.workspace import Workspace

if TYPE_CHECKING:
    from clawmem.storage.ledger_records import EntryRecord

# A ledger record of any kind (``clawmem.storage.ledger_records``): the team rules read only its seal, its
# digest and, in an acceptance, what it accepts, so they take every kind alike.
Record = Mapping[str, Any]
R = TypeVar("R", bound=Record)

UNSEALED = "unsealed"  # the writer shown for a record without a seal (older clawmem, or planted)
HAND = "hand"  # the writer shown for a line no record accounts for
ACCEPT = KIND_NAMES[AcceptRecord]  # the record type the owner's acceptance is written as


@dataclass(frozen=True)
class Copy:
    """This copy of the workspace: its public writer id and the secret its records are sealed with."""

    writer: str
    key: bytes

    @property
    def state_path(self) -> Path:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(base) / "clawmem" / COPY_STATE_DIR / f"{self.writer}.json"

    @property
    def lines_path(self) -> Path:
        return self.state_path.with_suffix(".lines")


def this_copy(ws: Workspace) -> Copy:
    """The copy at ``ws``; its id file is written first when missing (git-ignored, private).

    Without a readable or writable id (a read-only workspace) the copy has an empty key and no
    writer id: it seals nothing and no record counts as its own.
    """
    from clawmem.trust import workspaces as trusted_workspaces

    secret = trusted_workspaces.read_id(ws.root)
    if secret is None:
        try:
            secret = trusted_workspaces.ensure_id(ws.root) or None
        except OSError:
            secret = None
    if not secret:
        return Copy("", b"")
    return Copy(hashlib.sha256(b"clawmem writer\0" + secret).hexdigest()[:WRITER_ID_CHARS], secret)


def _canonical(record: Record) -> bytes:
    body = {k: v for k, v in record.items() if k != SEAL_FIELD}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def _mac(copy: Copy, record: Record) -> str:
    return hmac.new(copy.key, _canonical(record), hashlib.sha256).hexdigest()[:SEAL_CHARS]


def seal(copy: Copy, record: Record, seq: int) -> Record:
    """``record`` as this copy writes it: with its writer, running number and seal."""
    if not copy.key:
        return record
    sealed = {k: v for k, v in record.items() if k not in (WRITER_FIELD, SEQ_FIELD, SEAL_FIELD)}
    sealed[WRITER_FIELD] = copy.writer
    sealed[SEQ_FIELD] = seq
    sealed[SEAL_FIELD] = _mac(copy, sealed)
    return sealed


def written_here(copy: Copy, record: Record) -> bool:
    """Whether this copy wrote ``record``: its writer id and a seal only this copy's secret makes."""
    mac = record.get(SEAL_FIELD)
    if not copy.key or record.get(WRITER_FIELD) != copy.writer or not isinstance(mac, str):
        return False
    return hmac.compare_digest(mac, _mac(copy, record))


def record_digest(record: Record) -> str:
    """The name an ``accept`` record gives one record: a hash of all of it, seal included."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:RECORD_DIGEST_CHARS]


def writer_of(record: Record) -> str:
    """Who a record says wrote it (unproven for anyone but this copy), or ``UNSEALED``."""
    writer = record.get(WRITER_FIELD)
    return writer if isinstance(writer, str) and writer else UNSEALED


def line_name(path: str, text_hash: str) -> str:
    """One accepted line in an ``accept`` record: ``<text hash> <path>`` (a hash holds no space)."""
    return f"{text_hash} {path}"


# machine-local state --------------------------------------------------------------------------
def load_state(copy: Copy) -> dict[str, Any]:
    """What this copy remembers about its ledger (empty when it never ran the rule, or unreadable)."""
    try:
        state = json.loads(copy.state_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def save_state(copy: Copy, state: dict[str, Any]) -> None:
    """Write the state whole (atomically, private); a copy without a key keeps none."""
    if not copy.key:
        return
    copy.state_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(copy.state_path, json.dumps(state, sort_keys=True).encode())


def next_seq(copy: Copy, ledger_records: Callable[[], Iterable[Record]]) -> int:
    """The running number for this copy's next record (the caller holds the ledger lock).

    From the state's mark; when the state is gone, from this copy's records in the ledger
    (``ledger_records``, read only then).
    """
    state = load_state(copy)
    mark = state.get("seq")
    if not isinstance(mark, int) or isinstance(mark, bool):
        mark = max((r[SEQ_FIELD] for r in ledger_records() if isinstance(r.get(SEQ_FIELD), int) and written_here(copy, r)), default=0)
    return mark + 1


def raise_mark(copy: Copy, seq: int, ledger_id: Callable[[], str | None]) -> None:
    """Remember that this copy wrote records up to ``seq`` (the rollback high-water mark);
    ``ledger_id`` is read only when the state names no ledger yet."""
    if not copy.key:
        return
    state = load_state(copy)
    current = state.get("seq")
    if isinstance(current, int) and current >= seq:
        return
    state["seq"] = seq
    if "ledger_id" not in state:
        state["ledger_id"] = ledger_id()
    save_state(copy, state)


def remember_ledger(copy: Copy, ledger_id: str) -> None:
    """A ledger this copy creates is its own from the start: nothing to adopt."""
    state = load_state(copy)
    if state.get("ledger_id") is None:
        state.update({"ledger_id": ledger_id, "legacy": state.get("legacy", []), "seq": state.get("seq", 0)})
        save_state(copy, state)


def vouched(copy: Copy) -> set[str]:
    """Keys (``path\\0line key``) of hand-written lines this copy saw appear as local changes."""
    try:
        return set(copy.lines_path.read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        return set()


def vouch(copy: Copy, keys: Iterable[str]) -> None:
    """Remember hand-written lines seen as local changes (appended; a lost file only costs an accept)."""
    data = "".join(key + "\n" for key in keys)
    if not data or not copy.key:
        return
    append_durably(copy.lines_path, data.encode("utf-8", "surrogatepass"))


# judging records --------------------------------------------------------------------------------
@dataclass
class Judge:
    """Which records of one full ledger read count as this copy's, and what its owner accepted."""

    copy: Copy
    own_seqs: set[int] = field(default_factory=set)
    accepted_records: set[str] = field(default_factory=set)
    accepted_lines: set[tuple[str, str]] = field(default_factory=set)
    legacy: frozenset[str] = frozenset()
    legacy_seen: int = 0

    def counts_here(self, record: Record) -> bool:
        """The replay rule: a record counts as written when this copy wrote it or its owner accepted it."""
        if written_here(self.copy, record):
            return True
        digest = record_digest(record)
        return digest in self.accepted_records or digest in self.legacy


def counts_here(found: Judge, record: Record) -> bool:
    """The one replay rule for whose a record is (``Judge.counts_here``), by name for the gates-off harness."""
    return found.counts_here(record)


def counting_here(ws: Workspace, records: Sequence[R]) -> list[R]:
    """The records this copy wrote or its owner accepted, in order: what a pull brought (an intent,
    a tombstone, a lift, an aspiration's state) acts on this machine only once accepted."""
    copy = this_copy(ws)
    found = judge(copy, load_state(copy), records)
    return [r for r in records if counts_here(found, r)]


def judge(copy: Copy, state: dict[str, Any], records: Iterable[Record]) -> Judge:
    """Read this copy's seals, acceptances and adopted records out of ``records`` (any order)."""
    legacy = state.get("legacy")
    found = Judge(copy, legacy=frozenset(d for d in legacy if isinstance(d, str)) if isinstance(legacy, list) else frozenset())
    for record in records:
        if not written_here(copy, record):
            if writer_of(record) == UNSEALED and found.legacy and record_digest(record) in found.legacy:
                found.legacy_seen += 1
            continue
        if isinstance(record.get(SEQ_FIELD), int):
            found.own_seqs.add(record[SEQ_FIELD])
        if record.get("t") == ACCEPT:
            found.accepted_records.update(d for d in record.get("records", ()) if isinstance(d, str))
            for name in record.get("lines", ()):
                if isinstance(name, str) and " " in name:
                    text_hash, path = name.split(" ", 1)
                    found.accepted_lines.add((path, text_hash))
    return found


def needs_full_replay(copy: Copy, records: Iterable[Record]) -> bool:
    """New records only this copy wrote, none an acceptance, can be replayed on their own; anything
    else (a pulled record, an acceptance) changes how earlier records count, so all are replayed."""
    return any(not written_here(copy, r) or r.get("t") == ACCEPT for r in records)


def capped(record: EntryRecord) -> EntryRecord:
    """An entry record from another copy as this copy replays it: at most ``FOREIGN_ORIGIN_CAP``, and
    it lifts nothing (an owner's endorsement written elsewhere is not this owner's)."""
    from clawmem.trust import provenance

    out = record.copy()
    out.pop("lifted_by", None)
    if isinstance(out.get("origin"), str) and out["origin"] in provenance.TRUST_RANK:
        out["origin"] = provenance.least_trusted(out["origin"], FOREIGN_ORIGIN_CAP)
    return out


def adopt(copy: Copy, state: dict[str, Any], ledger_id: str | None, indexed_id: str | None, records: Iterable[Record]) -> dict[str, Any] | None:
    """The first time this copy runs the rule: take over what it trusted before, once.

    When its index already named this same ledger (this copy used it before seals existed), the
    unsealed records now in it are its own (their digests are kept); otherwise (a fresh clone, a
    deleted index, another ledger) nothing is adopted. Returns the new state, or None when the
    state already exists.
    """
    if "legacy" in state or not copy.key:
        return None
    adopted: list[str] = []
    if ledger_id is not None and indexed_id == ledger_id:
        adopted = sorted({record_digest(r) for r in records if writer_of(r) == UNSEALED})
    return {**state, "ledger_id": state.get("ledger_id", ledger_id), "legacy": adopted, "seq": state.get("seq", 0), "adopted_history": indexed_id == ledger_id}


def rollback(state: dict[str, Any], ledger_id: str | None, found: Judge) -> str | None:
    """Why the ledger is not the one this copy has been writing (another id, or it lacks records
    this copy wrote or adopted), or None. The state is outside the workspace and the index, so
    deleting the index does not make a rolled-back ledger look intact."""
    remembered = state.get("ledger_id")
    if remembered is not None and ledger_id != remembered:
        return "replaced by another ledger (its id is not the one this copy recorded)"
    mark = state.get("seq")
    if isinstance(mark, int) and not isinstance(mark, bool) and mark > 0:
        missing = mark - len({s for s in found.own_seqs if 1 <= s <= mark})
        if missing > 0:
            return f"rolled back: {missing} of the {mark} records this copy wrote are missing"
    if found.legacy and found.legacy_seen < len(found.legacy):
        return f"rolled back: {len(found.legacy) - found.legacy_seen} of the records this copy adopted are missing"
    return None


# hand-written lines -------------------------------------------------------------------------------
def in_git_tree(root: Path) -> bool:
    """Whether a pull can bring lines into ``root``: it lies inside a git working tree."""
    return any((folder / ".git").exists() for folder in (root, *root.parents))


def committed_lines(root: Path, rel: str) -> frozenset[str] | None:
    """The stripped lines of ``rel`` as committed (HEAD), or None when it is not committed (or git fails)."""
    try:
        proc = subprocess.run(["git", "show", f"HEAD:./{rel}"], cwd=root, capture_output=True, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return frozenset(line.strip() for line in proc.stdout.decode("utf-8", "replace").splitlines())


def line_key(rel: str, line: str) -> str:
    return f"{rel}\0{line_model.line_key(line)}"


@dataclass
class HandLines:
    """Per sync: which unrecorded lines are this copy's (vouched, accepted) and which came by git."""

    ws: Workspace
    copy: Copy
    shared: bool
    adopting: bool = False
    known: set[str] = field(default_factory=set)
    accepted: frozenset[tuple[str, str]] = frozenset()  # (path, text hash) the owner accepted
    pulled: dict[str, list[list[Any]]] = field(default_factory=dict)  # path -> [line, text hash] held back this sync
    new: list[str] = field(default_factory=list)
    _committed: dict[str, frozenset[str] | None] = field(default_factory=dict)

    @classmethod
    def of(cls, ws: Workspace, copy: Copy, *, adopting: bool = False, accepted: frozenset[tuple[str, str]] = frozenset()) -> HandLines:
        return cls(ws, copy, in_git_tree(ws.root), adopting, vouched(copy), accepted)

    def committed(self, rel: str) -> frozenset[str] | None:
        if rel not in self._committed:
            self._committed[rel] = committed_lines(self.ws.root, rel)
        return self._committed[rel]

    def line_counts_here(self, rel: str, lines: list[str], accepted: bool) -> bool:
        """The rule for a line no record accounts for: outside git, or seen as a local change, or accepted.

        A line is vouched for the first time this copy indexes it while it is not in the
        committed version of its file (typed here, not yet committed) or while this copy adopts
        its history; a line first seen already committed arrived through git (or was committed
        before clawmem saw it) and stays untrusted until ``clawmem accept``.
        """
        keyed = {line_key(rel, line): line.strip() for line in lines if line.strip()}
        unknown = [k for k in keyed if k not in self.known]
        if accepted or not self.shared or not unknown:
            self._remember(unknown)
            return True
        committed = self.committed(rel)
        local = self.adopting or committed is None or not any(keyed[k] in committed for k in unknown)
        if local:
            self._remember(unknown)
        return local

    def _remember(self, keys: list[str]) -> None:
        fresh = [k for k in keys if k not in self.known]
        self.known.update(fresh)
        self.new.extend(fresh)

    def flush(self) -> None:
        """Write the lines vouched for during this sync to the machine-local state."""
        if self.new:
            vouch(self.copy, self.new)
            self.new = []


def unrecorded_origin(hands: HandLines, rel: str, lines: list[str], text_hash: str, origin: str, line_start: int) -> str:
    """The trust of a line no record accounts for, on this copy: what ``classify_unrecorded`` gave,
    capped at ``FOREIGN_ORIGIN_CAP`` when the line came through git and the owner has not accepted it."""
    from clawmem.trust import provenance

    if origin == FOREIGN_ORIGIN_CAP or hands.line_counts_here(rel, lines, (rel, text_hash) in hands.accepted):
        return origin
    hands.pulled.setdefault(rel, []).append([line_start, text_hash])
    return provenance.least_trusted(origin, FOREIGN_ORIGIN_CAP)
