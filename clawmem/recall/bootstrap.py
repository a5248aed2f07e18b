"""Bootstrap: MEMORY.md and USER.md as compact context, only when their provenance is eligible.

A curated file is eligible while none of its lines traces to untrusted or system content and
no taint is recorded for it. The index answers that; when the index is unusable, the
provenance ledger does (slower, but a broken index must not silently drop the user's memory).
Files are re-read on every call, so the next turn sees a dream's result without a restart.
Budgets cut at entry boundaries and say so: nothing is truncated silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clawmem import ledger, loopguard
from clawmem.config import RecallConfig
from clawmem.entries import grammar
from clawmem.workspace import Workspace

UNTRUSTED = ("untrusted", "system")


@dataclass(frozen=True)
class BootstrapFile:
    path: str
    eligible: bool
    reason: str
    text: str
    entries: int
    omitted: int
    text_hashes: list[str] = field(default_factory=list)


def _ineligible_reason(ws: Workspace, index, rel: str, hashes: list[str]) -> str | None:
    if index is not None:
        taint = index.scalar("SELECT origin FROM file_taint WHERE path = ?", (rel,))
        if taint in UNTRUSTED:
            return f"file tainted by {taint} content"
        bad = index.scalar(f"SELECT count(*) FROM entries WHERE path = ? AND origin IN {UNTRUSTED}", (rel,))
        return f"{bad} line(s) trace to untrusted or system content" if bad else None
    wanted = set(hashes)
    for record in ledger.read(ws).records:
        if record.get("path") != rel:
            continue
        if record.get("t") == "taint" and record.get("origin") in UNTRUSTED:
            return f"file tainted by {record['origin']} content"
        if record.get("t") == "entry" and record.get("hash") in wanted and record.get("origin") in UNTRUSTED:
            return "a line traces to untrusted or system content"
    return None


def _entries(ws: Workspace, index, path: Path, include_superseded: bool) -> list[tuple[str, str]] | None:
    """(body, text hash) of the file's current entries: from the synced index, else parsed.

    An entry a newer one with its key replaced (``clawmem.index.supersession``) is current
    only when asked for; without the index, only the ``status`` marker can say so.
    """
    if index is not None:
        current = "" if include_superseded else " AND superseded_by IS NULL"
        rows = index.query(
            "SELECT text, text_hash FROM entries WHERE path = ? AND block = 'entry' AND (status IS NULL OR status = 'active')"
            f"{current} ORDER BY line_start",
            (ws.rel(path),),
        )
        if rows or not path.exists():
            return [(r["text"], r["text_hash"]) for r in rows] if path.exists() else None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    entries = [e for e in grammar.parse(text).entries if e.status != "superseded" and e.body.strip()]
    return [(e.body, loopguard.text_hash(e.body)) for e in entries]


def _load_file(ws: Workspace, index, path: Path, limit: int, include_superseded: bool = False) -> BootstrapFile:
    rel = ws.rel(path)
    if not ws.contains(path):
        return BootstrapFile(rel, False, "it leads through a symbolic or hard link, which clawmem does not follow", "", 0, 0)
    found = _entries(ws, index, path, include_superseded)
    if found is None:
        return BootstrapFile(rel, False, "missing", "", 0, 0)
    entries = [body for body, _ in found]
    hashes = [h for _, h in found]
    reason = _ineligible_reason(ws, index, rel, hashes)
    if reason:
        return BootstrapFile(rel, False, reason, "", len(entries), len(entries))
    lines, used = [], 0
    for body in entries:
        line = "- " + body.replace("\n", " ")
        if used + len(line) + 1 > limit:
            break
        lines.append(line)
        used += len(line) + 1
    omitted = len(entries) - len(lines)
    return BootstrapFile(rel, True, "eligible", "\n".join(lines), len(entries), omitted, hashes[: len(lines)])


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
