"""Files -> index: incremental by size, mtime and content hash; provenance from the ledger.

Only files whose stat changed are read, and only files whose content hash changed are
re-parsed. A rebuild re-reads everything but replays the same ledger, so it can never
upgrade the trust of a line.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterator

from clawmem.entries import grammar, identity
from clawmem.entries.lines import line_key
from clawmem.foundation import timeparse
from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.records import dataclass
from clawmem.index import supersession
from clawmem.index.db import Index
from clawmem.index.files import MemoryFile, memory_files, storage_warnings
from clawmem.index.tokens import fts_text
from clawmem.storage import ledger, ledger_records
from clawmem.storage.ledger_records import EntryRecord, LedgerRecord, ReturnedRecord, TaintRecord, TornRecord, is_kind
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance, team

#: (done, total, phase): "reading" (files checked), "indexing" (changed files parsed), then
#: clawmem.index.maintain's "loading the embedder" (total 0: no count) and "embedding" (entries)
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class SyncReport:
    files_seen: int
    files_changed: int
    files_removed: int
    entries_indexed: int
    ledger_records: int
    ledger_intact: bool
    seconds: float
    changed_paths: tuple[str, ...] = ()
    skipped_links: tuple[str, ...] = ()  # memory files not read: they lead through a link
    ledger_damaged: int = 0  # damaged (torn, unparseable) ledger records

    @property
    def warnings(self) -> list[str]:
        return storage_warnings(self.skipped_links, self.ledger_damaged)


# ledger replay ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Replay:
    records: int
    intact: bool
    touched: set[str] | None  # paths to re-read, or None for all
    damaged_paths: frozenset[str]  # files a damaged ledger record names
    damage_count: int
    adopting: bool = False  # this copy takes over its history this sync (clawmem.trust.team.adopt)
    accepted_lines: frozenset[tuple[str, str]] = frozenset()  # (path, text hash) the owner accepted


def _ledger_size(ws: Workspace) -> int:
    try:
        return ws.ledger_path.stat().st_size
    except FileNotFoundError:
        return 0


def _replay_ledger(ws: Workspace, index: Index, rebuild: bool) -> Replay:
    """Import new ledger records and note damaged ones.

    A ledger that is missing, headless or replaced by another means provenance history was
    lost: the index remembers that (sticky), and unrecorded lines are then classified as
    untrusted instead of as hand-written owner lines. A damaged record (a torn write) loses
    history the same way: for the files it names, or for every file when it names none. So
    does a ledger rolled back beneath what this copy wrote (``team.rollback``, judged against
    machine-local state, so deleting the index does not hide it). A record another copy wrote
    counts at most ``FOREIGN_ORIGIN_CAP`` until this copy's owner accepts it (``team.counts_here``).
    """
    from clawmem.trust import team

    stored_id = index.meta("ledger_id")
    was_intact = index.meta("ledger_intact", "1") != "0"
    copy = team.this_copy(ws)
    state = team.load_state(copy)
    offset = 0 if rebuild else int(index.meta("ledger_offset", "0") or 0)
    shrunk = offset > _ledger_size(ws)  # the ledger lost bytes this index had read
    read = ledger.read(ws, 0 if shrunk else offset)
    replaced = stored_id is not None and read.ledger_id != stored_id
    adopt_now = "legacy" not in state and bool(copy.key)  # the first sync of this copy under the rule
    full = offset == 0 or replaced or shrunk or adopt_now or team.needs_full_replay(copy, read.records)
    fresh = full
    if fresh:  # every record is replayed again: how each counts may have changed
        index.execute("DELETE FROM ledger")
        index.execute("DELETE FROM file_taint")
        if offset and not shrunk and (read.ledger_id is not None or not replaced):
            read = ledger.read(ws, 0)
    adopted = team.adopt(copy, state, read.ledger_id, stored_id, read.records) if full else None
    if adopted is not None:
        state = adopted
    judge = team.judge(copy, state, read.records)
    problem = team.rollback(state, read.ledger_id, judge) if full else None
    old_paths = frozenset() if fresh else frozenset(json.loads(index.meta("ledger_damage", "[]") or "[]"))
    old_count = 0 if fresh else int(index.meta("ledger_damage_count", "0") or 0)
    new_paths = frozenset(p for paths in read.damaged for p in paths)
    intact = was_intact and read.ledger_id is not None and not replaced and all(read.damaged) and problem is None
    held = 0
    for record in read.records:
        if is_kind(record, EntryRecord) and not team.counts_here(judge, record):
            capped = team.capped(record)
            held += capped.get("origin") != record.get("origin")
            record = capped
        _apply_record(index, record)
    if full:
        index.set_meta("foreign_held", str(held))
        index.set_meta("accepted_lines", json.dumps(sorted(team.line_name(p, h) for p, h in judge.accepted_lines), ensure_ascii=False))
    names = [n.split(" ", 1) for n in json.loads(index.meta("accepted_lines", "[]") or "[]") if isinstance(n, str) and " " in n]
    accepted = frozenset((path, text_hash) for text_hash, path in names)
    damaged_paths = old_paths | new_paths
    index.set_meta("ledger_id", read.ledger_id)
    index.set_meta("ledger_offset", str(read.offset))
    index.set_meta("ledger_intact", "1" if intact else "0")
    if problem is not None:
        index.set_meta("ledger_problem", problem)
    index.set_meta("ledger_damage", json.dumps(sorted(damaged_paths), ensure_ascii=False))
    index.set_meta("ledger_damage_count", str(old_count + len(read.damaged)))
    if adopted is not None or (copy.key and state.get("ledger_id") is None and read.ledger_id is not None):
        team.save_state(copy, {**state, "ledger_id": state.get("ledger_id") or read.ledger_id})
    touched = None if fresh or intact != was_intact else {str(r.get("path")) for r in read.records if r.get("t") != "returned"} | new_paths
    adopting = adopted is not None and bool(adopted.get("adopted_history"))
    return Replay(len(read.records), intact, touched, damaged_paths, old_count + len(read.damaged), adopting, accepted)


def _valid(value: object, allowed: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in allowed


def _apply_record(index: Index, record: LedgerRecord) -> None:
    if is_kind(record, EntryRecord) and _valid(record.get("origin"), provenance.ORIGINS) and _valid(record.get("kind"), provenance.SESSION_KINDS):
        if isinstance(record.get("lifted_by"), str):  # the owner endorsed the turn: its lineage rows no longer count
            index.execute("DELETE FROM ledger WHERE path = ? AND text_hash = ? AND lineage IS NOT NULL", (record.get("path"), record.get("hash")))
        lineage = record.get("lineage") if isinstance(record.get("lineage"), str) else None
        index.execute(
            "INSERT INTO ledger(path, text_hash, origin, session_kind, session_id, observed_at, recorded_at, lineage) VALUES (?,?,?,?,?,?,?,?)",
            (record.get("path"), record.get("hash"), record["origin"], record["kind"], record.get("session"), record.get("observed"), record.get("at"), lineage),
        )
    elif is_kind(record, TornRecord) and isinstance(record.get("lines"), list):
        index.executemany(
            "INSERT INTO ledger(path, text_hash, origin, session_kind, recorded_at) VALUES (?, ?, 'untrusted', 'interactive', ?)",
            [(record.get("path"), key, record.get("at")) for key in record["lines"] if isinstance(key, str)],
        )
    elif is_kind(record, TaintRecord) and _valid(record.get("origin"), provenance.ORIGINS):
        current = index.scalar("SELECT origin FROM file_taint WHERE path = ?", (record.get("path"),))
        origin = provenance.least_trusted(current, record["origin"])
        index.execute(
            "INSERT INTO file_taint(path, origin) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET origin = excluded.origin",
            (record.get("path"), origin),
        )
    elif is_kind(record, ReturnedRecord):
        from clawmem.index.recalls import restore_returned

        restore_returned(index, record)


# chunking --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chunk:
    line_start: int
    line_end: int
    block: str  # "entry" or "prose"
    text: str
    entry: grammar.Entry | None


def _prose_chunks(block: grammar.Block, tokens: int, overlap: int) -> Iterator[Chunk]:
    """Split a prose block into ~``tokens``-word windows (line-aligned) with some overlap."""
    lines = block.lines
    start = 0
    while start < len(lines):
        words, end = 0, start
        while end < len(lines) and (words == 0 or words + len(lines[end].split()) <= tokens):
            words += len(lines[end].split())
            end += 1
        text = "".join(lines[start:end]).strip()
        if text:
            yield Chunk(block.line_start + start, block.line_start + end - 1, "prose", text, None)
        if end >= len(lines):
            return
        back, kept = end, 0
        while back > start + 1 and kept < overlap:
            back -= 1
            kept += len(lines[back].split())
        start = max(back, start + 1)


def chunks(doc: grammar.Document, *, tokens: int, overlap: int, prose: bool = True) -> Iterator[Chunk]:
    """Index units: one per list item (never split); prose blocks in overlapping windows.

    Curated files index list items only: their prose is headers and explanations, not memory.
    """
    for block in doc.blocks:
        if isinstance(block, grammar.Entry):
            if block.body.strip():
                yield Chunk(block.line_start, block.line_end, "entry", block.body, block)
        elif block.kind == "text" and prose:
            yield from _prose_chunks(block, tokens, overlap)


# file indexing ---------------------------------------------------------------------------
def _ledger_provenance(index: Index, rel: str, text_hash: str) -> dict | None:
    rows = index.query(
        "SELECT origin, session_kind, session_id, observed_at FROM ledger WHERE path = ? AND text_hash = ?",
        (rel, text_hash),
    )
    if not rows:
        return None
    origin = provenance.least_trusted(*(r["origin"] for r in rows))
    session_kind = provenance.least_eligible_session(*(r["session_kind"] for r in rows))
    first = rows[0]
    return {"origin": origin, "session_kind": session_kind, "session_id": first["session_id"], "observed_at": first["observed_at"]}


def _observed(entry: grammar.Entry | None, recorded: str | None, file_date: str | None) -> str | None:
    when = timeparse.parse_when(entry.observed) if entry is not None and entry.observed else None
    if when is not None:
        return when.isoformat()
    if recorded:
        return recorded
    if file_date:
        return dt.datetime.combine(dt.date.fromisoformat(file_date), dt.time(12)).isoformat()
    return None


def torn_lines(index: Index, rel: str, doc: grammar.Document, data: bytes) -> set[int]:
    """Line numbers nobody can vouch for: the unterminated tail, and lines recorded as torn."""
    lines = [line for block in doc.blocks for line in block.lines]
    torn: set[int] = set()
    if data and not data.endswith(b"\n"):
        tail = data[data.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")
        count = sum(len(block.lines) for block in grammar.parse(tail).blocks)
        torn.update(range(len(lines) - count + 1, len(lines) + 1))
    keys = {r["text_hash"] for r in index.query("SELECT text_hash FROM ledger WHERE path = ? AND text_hash LIKE 'line:%'", (rel,))}
    if keys:
        torn.update(number for number, line in enumerate(lines, 1) if line.strip() and line_key(line) in keys)
    return torn


def _index_file(
    index: Index, ws: Workspace, mf: MemoryFile, data: bytes, ledger_intact: bool, damaged: bool = False, hands: team.HandLines | None = None
) -> int:
    text = data.decode("utf-8", errors="replace")
    doc = grammar.parse(text)
    source_lines = [line for block in doc.blocks for line in block.lines]
    cfg = ws.config.chunking
    tier = provenance.tier_of(mf.kind)
    floor = provenance.location_floor(mf.kind)
    unaccounted = torn_lines(index, mf.rel, doc, data)
    count = 0
    for chunk in chunks(doc, tokens=cfg.tokens, overlap=cfg.overlap, prose=tier == "episodic"):
        text_hash = identity.text_hash(chunk.text)
        recorded = _ledger_provenance(index, mf.rel, text_hash)
        torn = any(n in unaccounted for n in range(chunk.line_start, chunk.line_end + 1))
        if recorded and not torn:
            origin, session_kind, hand = recorded["origin"], recorded["session_kind"], False
        else:
            c = provenance.classify_unrecorded(mf.kind, ledger_intact=ledger_intact, damaged=damaged, torn=torn)
            origin, session_kind, hand = c.origin, c.session_kind, True
            if hands is not None:  # a line that came through git is not this owner's until accepted
                origin = team.unrecorded_origin(hands, mf.rel, source_lines[chunk.line_start - 1 : chunk.line_end], text_hash, origin, chunk.line_start)
            recorded = None
        origin = provenance.least_trusted(origin, floor)
        e = chunk.entry
        index.execute(
            """INSERT INTO entries(path, line_start, line_end, block, text, text_hash, kind, tier, origin, session_kind,
                   session_id, hand_written, observed_at, supersession_key, importance, triggers, projects, sources, status, problems)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
            (
                mf.rel, chunk.line_start, chunk.line_end, chunk.block, chunk.text, text_hash, mf.kind, tier, origin,
                session_kind, recorded["session_id"] if recorded else None, int(hand),
                _observed(e, recorded["observed_at"] if recorded else None, mf.file_date),
                e.key if e else None, e.importance if e else None,
                json.dumps(e.triggers, ensure_ascii=False) if e and e.triggers else None,
                json.dumps(e.projects, ensure_ascii=False) if e and e.projects else None,
                json.dumps(e.sources, ensure_ascii=False) if e and e.sources else None,
                e.status if e else None,
                json.dumps(e.problems(), ensure_ascii=False) if e and e.problems() else None,
            ),
        )
        entry_id = index.conn.last_insert_rowid()
        index.execute("INSERT INTO entries_fts(rowid, text) VALUES (?, ?)", (entry_id, fts_text(chunk.text)))
        count += 1
    return count


def _remove_file(index: Index, rel: str) -> None:
    index.execute("DELETE FROM entries_fts WHERE rowid IN (SELECT id FROM entries WHERE path = ?)", (rel,))
    index.execute("DELETE FROM entries WHERE path = ?", (rel,))
    index.execute("DELETE FROM files WHERE path = ?", (rel,))


def sync(
    ws: Workspace,
    index: Index,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    lock_timeout: float = 30.0,
) -> SyncReport:
    """Bring the index up to date with the files; the whole sync is one transaction."""
    started = time.perf_counter()
    with ws.lock("index-sync", timeout=lock_timeout), index.transaction():
        if rebuild:
            index.execute("DELETE FROM entries_fts")
            index.execute("DELETE FROM entries")
            index.execute("DELETE FROM files")
        replay = _replay_ledger(ws, index, rebuild)
        touched = replay.touched
        known = {r["path"]: r for r in index.query("SELECT path, size, mtime_ns, content_hash FROM files")}
        skipped: list[str] = []
        files = list(memory_files(ws, skipped))
        changed, entries = [], 0
        hands = team.HandLines.of(ws, team.this_copy(ws), adopting=replay.adopting, accepted=replay.accepted_lines)
        pulled = {} if touched is None else json.loads(index.meta("pulled_lines", "{}") or "{}")
        to_index = []  # the files to parse; their bytes are read again then, so a rebuild never holds them all
        for position, mf in enumerate(files, 1):
            if progress:
                progress(position, len(files), "reading")
            row = known.pop(mf.rel, None)
            st = mf.path.stat()
            reclassify = touched is None or mf.rel in touched
            if row and (row["size"], row["mtime_ns"]) == (st.st_size, st.st_mtime_ns) and not reclassify:
                continue
            digest = sha256_hex(mf.path.read_bytes())
            if row and row["content_hash"] == digest and not reclassify:
                index.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (st.st_size, st.st_mtime_ns, mf.rel))
                continue
            to_index.append((mf, row))
        for position, (mf, row) in enumerate(to_index, 1):
            if progress:
                progress(position, len(to_index), "indexing")
            st = mf.path.stat()
            data = mf.path.read_bytes()  # what is hashed is what is parsed, even if the file changed since the first pass
            digest = sha256_hex(data)
            if row:
                _remove_file(index, mf.rel)
            index.execute(
                "INSERT INTO files(path, kind, tier, content_hash, size, mtime_ns, file_date, indexed_at) VALUES (?,?,?,?,?,?,?,?)",
                (mf.rel, mf.kind, provenance.tier_of(mf.kind), digest, st.st_size, st.st_mtime_ns, mf.file_date, ledger_records.now_iso()),
            )
            entries += _index_file(index, ws, mf, data, replay.intact, mf.rel in replay.damaged_paths, hands)
            pulled.pop(mf.rel, None)
            changed.append(mf.rel)
        for rel in known:
            _remove_file(index, rel)
            pulled.pop(rel, None)
        hands.flush()
        index.set_meta("pulled_lines", json.dumps({**pulled, **hands.pulled}, ensure_ascii=False, sort_keys=True))
        if changed or known:
            supersession.resolve(index)
        index.set_meta("last_sync", ledger_records.now_iso())
    return SyncReport(
        files_seen=len(files),
        files_changed=len(changed),
        files_removed=len(known),
        entries_indexed=entries,
        ledger_records=replay.records,
        ledger_intact=replay.intact,
        seconds=time.perf_counter() - started,
        changed_paths=tuple(changed),
        skipped_links=tuple(skipped),
        ledger_damaged=replay.damage_count,
    )
