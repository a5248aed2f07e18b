"""``clawmem forget --undo``: put back what a forget made by mistake removed, and lift its tombstones.

A forget removes the text everywhere (files, index, history), so nothing public can bring it
back. To make a mistake reversible, the forget keeps a private undo record under
``.clawmem/forgets/<id>.json`` (mode 0600): the exact lines it blanked or removed, the
transcripts it deleted, and the tombstones it set. The record is the only copy of the text,
so it is kept for ``forget.undo_days`` days and then deleted, and ``forget --no-undo`` (for a
leaked secret) keeps none at all: such a forget cannot be undone, and says so.

Undo restores each line only where the forget left its trace (a blanked line, a curated
entry absent, a deleted transcript absent); anything changed since is reported, never
overwritten. Curated entries go back through the optimistic rewrite (pre-image, hash
re-check). A ``lift`` record in the ledger takes back the tombstones, so the text may be
written, ingested and promoted again. What the forget redacted from history (``DREAMS.md``
lines, pre-images, the audit baseline) and the recall events it dropped stay gone: history
says the text was forgotten, and the undo is recorded after it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from clawmem.foundation.errors import BadInput, NotFound
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import local_now
from clawmem.rules.output import plural
from clawmem.storage import ledger, ledger_records
from clawmem.storage.anchors import cite
from clawmem.storage.durable import atomic_write
from clawmem.storage.ledger_records import LiftRecord, is_kind
from clawmem.storage.workspace import Workspace
from clawmem.trust import authority

FORGET_LOCK = "forget"  # one forget or undo at a time: both change the files and the ledger

RECORDS_DIR = "forgets"
ID_PREFIX = "f-"


@dataclass(frozen=True)
class ListedForget:
    """One forget as ``forget --list`` shows it (the ledger's own record is ``ledger_records.ForgetRecord``)."""

    id: str
    at: str
    mode: str
    entries: int
    hashes_tombstoned: int
    session: str | None
    undoable: bool  # its private undo record still exists
    undo_until: str | None
    undone: bool


@dataclass(frozen=True)
class Restored:
    path: str
    line_start: int
    line_end: int


@dataclass(frozen=True)
class UndoResult:
    """What ``clawmem forget --undo ID --json`` prints."""

    id: str
    dry_run: bool
    restored: list[Restored]
    recreated_files: list[str]
    conflicts: list[str] = field(default_factory=list)  # what could not be put back, and why
    hashes_lifted: int = 0
    session_lifted: str | None = None


def records_dir(ws: Workspace):
    return ws.state_dir / RECORDS_DIR


def new_id(stamp: str, seed: str) -> str:
    """A short, sortable forget id (``f-20261201T123000-1a2b3c``)."""
    import hashlib

    compact = stamp[:19].replace("-", "").replace(":", "")
    return f"{ID_PREFIX}{compact}-{hashlib.sha256((stamp + seed).encode()).hexdigest()[:6]}"


def capture(files, targets, deleted: list[str]) -> dict[str, Any]:
    """The exact text a forget is about to remove, per file (taken before any file changes)."""
    out: dict[str, Any] = {}
    for t in targets:
        entry = out.setdefault(t.rel, {"kind": t.kind, "lines": []})
        if t.rel in deleted:
            continue
        raw = files.files[t.rel].path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        entry["lines"].append({"line_start": t.line_start, "line_end": t.line_end, "hash": t.hash, "raw": "".join(raw[t.line_start - 1 : t.line_end])})
    for rel in deleted:
        out.setdefault(rel, {"kind": files.kind(rel), "lines": []})["content"] = files.files[rel].path.read_text(encoding="utf-8", errors="replace")
    return out


def save(ws: Workspace, forget_id: str, *, mode: str, captured: dict[str, Any], kept: set[tuple[str, int]], tombs: list[str], session: str | None) -> str | None:
    """Write the private undo record (only what was really removed); return its expiry date."""
    days = ws.config.forget.undo_days
    if days <= 0:
        return None
    for rel, item in captured.items():
        item["lines"] = [x for x in item["lines"] if (rel, x["line_start"]) in kept]
    until = (local_now().date() + dt.timedelta(days=days)).isoformat()
    record = {"id": forget_id, "at": ledger_records.now_iso(), "mode": mode, "until": until, "files": captured, "hashes": tombs, "session": session}
    folder = records_dir(ws)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / f"{forget_id}.json"
    atomic_write(path, json.dumps(record, ensure_ascii=False).encode())
    os.chmod(path, 0o600)
    return until


def prune(ws: Workspace, today: dt.date) -> int:
    """Delete undo records past their date: the forgotten text must not outlive the undo window."""
    folder = records_dir(ws)
    count = 0
    for path in sorted(folder.glob(f"{ID_PREFIX}*.json")) if folder.is_dir() else []:
        try:
            until = dt.date.fromisoformat(json.loads(path.read_text(encoding="utf-8"))["until"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if until < today:
            path.unlink(missing_ok=True)
            count += 1
    return count


def list_forgets(ws: Workspace, today: dt.date) -> list[ListedForget]:
    """Forgets recorded in the ledger, newest first, with whether each can still be undone."""
    prune(ws, today)
    found: dict[str, ledger_records.ForgetRecord] = {}
    undone: set[str] = set()
    for r in ledger.read(ws).records:
        if is_kind(r, ledger_records.ForgetRecord) and isinstance(r.get("id"), str):
            found[r["id"]] = r
        elif is_kind(r, LiftRecord) and isinstance(r.get("forget"), str):
            undone.add(r["forget"])
    out = []
    for fid, r in found.items():
        path = records_dir(ws) / f"{fid}.json"
        until = None
        if path.exists():
            try:
                until = json.loads(path.read_text(encoding="utf-8")).get("until")
            except (OSError, ValueError):
                until = None
        out.append(
            ListedForget(fid, str(r.get("at")), str(r.get("mode")), int(r.get("entries", 0)), int(r.get("hashes", 0)), r.get("session"),
                         until is not None and fid not in undone, until, fid in undone)
        )
    out.sort(key=lambda f: f.at, reverse=True)
    return out


def _load(ws: Workspace, forget_id: str) -> dict[str, Any]:
    if not forget_id.startswith(ID_PREFIX) or not all(ch.isalnum() or ch == "-" for ch in forget_id):
        raise BadInput(f"{forget_id!r} is not a forget id", hint="ids look like f-20261201T123000-1a2b3c; see `clawmem forget --list`")
    path = records_dir(ws) / f"{forget_id}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = any(r.get("t") == "forget" and r.get("id") == forget_id for r in ledger.read(ws).records)
        why = "it kept no undo record (--no-undo, or its undo window passed), or it was already undone" if known else "no such forget"
        raise NotFound(f"forget {forget_id} cannot be undone: {why}", hint="see `clawmem forget --list`") from None


def _restore_episodic(ws: Workspace, rel: str, lines: list[dict[str, Any]], dry_run: bool) -> tuple[list[Restored], list[str]]:
    """Put blanked lines back where they were, only where they are still blank."""
    path = ws.root / rel
    if not path.exists():
        return [], [f"{rel} no longer exists: its {plural(len(lines), 'forgotten entry', 'forgotten entries')} not restored"]
    restored, conflicts = [], []
    with ws.lock_file(path):
        current = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        for item in lines:
            start, end, raw = item["line_start"], item["line_end"], item["raw"].splitlines(keepends=True)
            span = current[start - 1 : end]
            if len(span) != end - start + 1 or any(line.strip() for line in span) or len(raw) != len(span):
                conflicts.append(f"{cite(rel, start)} changed since the forget: not restored")
                continue
            for offset, line in enumerate(raw):
                ending = span[offset][len(span[offset].rstrip("\r\n")):]
                current[start - 1 + offset] = line.rstrip("\r\n") + ending
            restored.append(Restored(rel, start, end))
        if restored and not dry_run:
            atomic_write(path, "".join(current).encode())
    return restored, conflicts


def _restore_curated(ws: Workspace, rel: str, lines: list[dict[str, Any]], dry_run: bool) -> tuple[list[Restored], list[str]]:
    """Re-insert removed curated entries at their old line (or at the end when it moved on)."""
    from clawmem.entries import grammar, identity
    from clawmem.storage import curated

    path = ws.root / rel
    snap = curated.snapshot(path)
    present = {identity.text_hash(e.body) for e in grammar.parse(snap.text).entries}
    current = snap.text.splitlines(keepends=True)
    if current and not current[-1].endswith("\n"):
        current[-1] += "\n"
    restored, conflicts = [], []
    for item in sorted(lines, key=lambda x: x["line_start"]):
        if item["hash"] in present:
            conflicts.append(f"{rel} already holds the entry forgotten at line {item['line_start']}: not added twice")
            continue
        at = min(item["line_start"] - 1, len(current))
        current[at:at] = item["raw"].splitlines(keepends=True)
        restored.append(Restored(rel, at + 1, at + item["line_end"] - item["line_start"] + 1))
    if restored and not dry_run:
        result = curated.replace_if_unchanged(ws, snap, "".join(current), reason="forget-undo")
        if not result.written:
            return [], [f"{rel} changed while the undo ran: run the undo again"]
    return restored, conflicts


def undo(ws: Workspace, forget_id: str, *, caller: authority.Caller, dry_run: bool = False) -> UndoResult:
    """Restore what forget ``forget_id`` removed and lift its tombstones: the owner's decision
    (``authority.require_owner``; a dry run decides nothing)."""
    from clawmem.storage import diary

    if not dry_run:
        authority.require_owner(caller, "undoing a forget")

    prune(ws, local_now().date())
    record = _load(ws, forget_id.strip())
    restored: list[Restored] = []
    recreated: list[str] = []
    conflicts: list[str] = []
    with ws.lock(FORGET_LOCK):
        for rel, item in record["files"].items():
            parts = Path(rel).parts
            if Path(rel).is_absolute() or ".." in parts or not parts or parts[0] == ws.state_dir.name:
                conflicts.append(f"{rel!r} is not a memory file path: skipped")  # a tampered record writes nothing outside
                continue
            path = ws.root / rel
            if "content" in item:
                if path.exists():
                    conflicts.append(f"{rel} exists again: the deleted transcript is not written over it")
                    continue
                if not dry_run:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write(path, item["content"].encode())
                recreated.append(rel)
                continue
            if item["kind"] in ("memory", "user"):
                done, problems = _restore_curated(ws, rel, item["lines"], dry_run)
            else:
                done, problems = _restore_episodic(ws, rel, item["lines"], dry_run)
            restored += done
            conflicts += problems
        result = UndoResult(record["id"], dry_run, restored, recreated, conflicts, len(record.get("hashes", [])), record.get("session"))
        if dry_run:
            return result
        sessions = [record["session"]] if record.get("session") else None
        ledger.append(ws, [ledger_records.lift_record(record["id"], record.get("hashes", []), sessions)])
        (records_dir(ws) / f"{record['id']}.json").unlink(missing_ok=True)
        diary.append(ws, "forget undone", diary_lines(result))
    _sync(ws)
    return result


def diary_lines(result: UndoResult) -> list[str]:
    out = [f"Undid forget {result.id}: {plural(len(result.restored), 'entry', 'entries')} restored; the text is not repeated here."]
    out += [f"- restored {cite(r.path, r.line_start)}" for r in result.restored[:50]]
    out += [f"- recreated {p}" for p in result.recreated_files]
    out += [f"- not restored: {c}" for c in result.conflicts]
    if result.session_lifted:
        out.append(f"- session {result.session_lifted} may be ingested again")
    out.append(f"- {result.hashes_lifted} tombstone(s) lifted: the text may be written and promoted again")
    return out


def _sync(ws: Workspace) -> None:
    from clawmem.foundation.errors import IndexUnavailable
    from clawmem.index.maintain import open_synced

    try:
        index, _ = open_synced(ws)
        index.close()
    except IndexUnavailable:
        pass  # the next command rebuilds the index from the files
