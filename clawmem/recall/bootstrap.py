"""Bootstrap: MEMORY.md and USER.md as compact context, only when their provenance is eligible.

A curated file is eligible while none of its lines traces to untrusted or system content and
no taint is recorded for it. The index answers that; when the index is unusable, the
provenance ledger does (slower, but a broken index must not silently drop the user's memory).
Files are read again whenever they changed (a worker keeps their entries only while the index
stands still, ``Index.derived``), so the next turn sees a dream's result without a restart.

A budget is filled by value, never in file order: the most important entries first, the
newest first among equals (``rank``), and each entry whole or not at all. What stays out is
counted (``omitted``) and the context says how to reach it: nothing is truncated silently.
"""

from __future__ import annotations

from pathlib import Path

from clawmem.entries import grammar, identity
from clawmem.foundation import timeparse
from clawmem.foundation.config import NEUTRAL_IMPORTANCE, RecallConfig
from clawmem.foundation.errors import IndexUnavailable
from clawmem.foundation.records import dataclass, field
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance
from clawmem.trust.framing import inert, recall_block

ENTRY_TABLES = frozenset({"entries"})  # what ``_indexed`` reads: ``Index.derived`` keeps it while the table stands


@dataclass(frozen=True)
class Found:
    """One current entry of a curated file, with what ranks it."""

    body: str
    text_hash: str
    importance: int | None
    observed: str | None  # ISO date or time; None when nothing dates the entry


@dataclass(frozen=True)
class BootstrapFile:
    path: str
    eligible: bool
    reason: str
    text: str  # one line per entry shown, most valuable first (``lines``)
    entries: int
    omitted: int
    text_hashes: list[str] = field(default_factory=list)  # of the lines shown, in their order

    @property
    def lines(self) -> list[str]:
        """The entries shown, one line each, aligned with ``text_hashes``."""
        return self.text.split("\n") if self.text else []


def rank(found: list[Found]) -> list[Found]:
    """Most valuable first: importance (none counts as neutral), then the newest, then file order.

    Undated entries follow the dated ones of their importance: nothing says they are recent.
    """
    ordered = sorted(found, key=lambda f: f.observed or "", reverse=True)  # stable: file order among equals
    return sorted(ordered, key=lambda f: f.importance if f.importance is not None else NEUTRAL_IMPORTANCE, reverse=True)


def line(body: str) -> str:
    """An entry as the bootstrap shows it: one list line."""
    return "- " + body.replace("\n", " ")


def _ineligible_reason(ws: Workspace, index, rel: str, hashes: list[str]) -> str | None:
    if index is not None:
        taint = index.scalar("SELECT origin FROM file_taint WHERE path = ?", (rel,))
        if provenance.untrusted_class(taint):
            return f"file tainted by {taint} content"
        bad = index.scalar(f"SELECT count(*) FROM entries WHERE path = ? AND {provenance.untrusted_class_sql()}", (rel,))
        return f"{bad} line(s) trace to untrusted or system content" if bad else None
    from clawmem.storage import ledger  # without the index only: the ledger is read whole
    from clawmem.storage.ledger_records import TaintRecord, is_kind

    wanted = set(hashes)
    for record in ledger.read(ws).records:
        if record.get("path") != rel:
            continue
        if is_kind(record, TaintRecord) and provenance.untrusted_class(record.get("origin")):
            return f"file tainted by {record['origin']} content"
        if record.get("t") == "entry" and record.get("hash") in wanted and provenance.untrusted_class(record.get("origin")):
            return "a line traces to untrusted or system content"
    return None


def _entries(ws: Workspace, index, path: Path, include_superseded: bool) -> list[Found] | None:
    """The file's current entries in file order: from the synced index, else parsed.

    An entry a newer one with its key replaced (``clawmem.index.supersession``) is current
    only when asked for; without the index, only the ``status`` marker can say so.
    """
    if index is not None:
        rel = ws.rel(path)
        found = index.derived(f"recall.bootstrap:{rel}:{include_superseded}", ENTRY_TABLES, lambda: _indexed(index, rel, include_superseded))
        if found or not path.exists():
            return list(found) if path.exists() else None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    entries = [e for e in grammar.parse(text).entries if e.status != "superseded" and e.body.strip()]
    return [Found(e.body, identity.text_hash(e.body), e.importance, _date(e.observed)) for e in entries]


def _indexed(index, rel: str, include_superseded: bool) -> tuple[Found, ...]:
    """The file's current entries as the index holds them (the worker keeps them until the index changes)."""
    current = "" if include_superseded else " AND superseded_by IS NULL"
    rows = index.query(
        "SELECT text, text_hash, importance, observed_at FROM entries WHERE path = ? AND block = 'entry' "
        f"AND (status IS NULL OR status = 'active'){current} ORDER BY line_start",
        (rel,),
    )
    return tuple(Found(r["text"], r["text_hash"], r["importance"], r["observed_at"]) for r in rows)


def _date(observed: str | None) -> str | None:
    """An ``observed`` comment as a sortable ISO time (None when it is unreadable)."""
    when = timeparse.parse_when(observed) if observed else None
    return when.isoformat() if when is not None else None


def _load_file(ws: Workspace, index, path: Path, limit: int, include_superseded: bool = False) -> BootstrapFile:
    rel = ws.rel(path)
    if not ws.contains(path):
        return BootstrapFile(rel, False, "it leads through a symbolic or hard link, which clawmem does not follow", "", 0, 0)
    found = _entries(ws, index, path, include_superseded)
    if found is None:
        return BootstrapFile(rel, False, "missing", "", 0, 0)
    reason = _ineligible_reason(ws, index, rel, [f.text_hash for f in found])
    if reason:
        return BootstrapFile(rel, False, reason, "", len(found), len(found))
    lines, hashes, used = [], [], 0
    for entry in rank(found):
        shown = line(entry.body)
        if used + len(shown) + 1 > limit:
            continue  # whole or not at all; a shorter entry of less value may still fit
        lines.append(shown)
        hashes.append(entry.text_hash)
        used += len(shown) + 1
    return BootstrapFile(rel, True, "eligible", "\n".join(lines), len(found), len(found) - len(lines), hashes)


def load(ws: Workspace, index, cfg: RecallConfig, degraded: list[str], *, include_superseded: bool = False) -> list[BootstrapFile]:
    """Both curated files within their budgets (per file, USER.md's own, and the total)."""
    memory = _load_file(ws, index, ws.memory_md, min(cfg.bootstrap_file_chars, cfg.bootstrap_total_chars), include_superseded)
    left = max(0, cfg.bootstrap_total_chars - len(memory.text))
    user = _load_file(ws, index, ws.user_md, min(cfg.user_chars, left), include_superseded)
    files = [memory, user]
    for f in files:
        if not f.eligible and f.reason != "missing":
            degraded.append(f"{f.path} left out of bootstrap: {f.reason} (`clawmem audit` explains)")
    return files


def curated_text(ws: Workspace, rel: str) -> str:
    """A curated file as bootstrap gives it (the MCP server's curated resources): its entries when eligible, inside a recall marker.

    The same gate as ``load``: a file with a line from untrusted or system content, or a
    recorded taint, is withheld and the reason given. What is shown is recorded as recalled.
    """
    from clawmem.index.maintain import open_synced
    from clawmem.index.recalls import mark_recalled

    try:
        index, _ = open_synced(ws)
    except IndexUnavailable:
        index = None
    try:
        files = {f.path: f for f in load(ws, index, ws.config.recall, [])}
        found = files[rel]
        if index is not None and found.eligible:
            mark_recalled(index, found.text_hashes)
    finally:
        if index is not None:
            index.close()
    if not found.eligible:
        return f"{rel} is withheld: {found.reason} (the owner can see why with `clawmem audit`)"
    more = f"\n(… {found.omitted} more entries not shown; use search_memory)" if found.omitted else ""
    return recall_block(f"## {inert(rel)}\n{inert(found.text)}{more}")
