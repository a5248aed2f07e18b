"""Per-turn recall, lane 1 plus the lane-2 decision: called on every inbound message.

Lane 1 makes no model call beyond (at most) one embedding of the message: bootstrap of the
curated files when their provenance is eligible, trigger injection from curated entries,
armed event intents, and a project-memory block. Lane 2 (a deep search) is only proposed:
when the message shows recall intent and lane 1 found no strong hit.

Nothing here may block a reply: every step checks the time budget, every failure degrades
the output and is reported as a reason, never raised.

A host takes only so much context (``max_chars``, e.g. ``hooks.claude_code_context_chars``):
``clawmem.recall.fit`` fills it by value and the context ends saying how many entries stayed
out and how to reach them. Only what is shown is recorded as recalled.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import TYPE_CHECKING, Any

from clawmem.commands import projects
from clawmem.foundation.config import HINT_QUERY_CHARS
from clawmem.foundation.errors import ClawmemError
from clawmem.foundation.records import replace
from clawmem.intents import aspirations
from clawmem.recall import bootstrap as bootstrap_module
from clawmem.recall import fit
from clawmem.recall.budget import Budget
from clawmem.recall.result import Escalation, ProjectEntry, RecallResult
from clawmem.rules import hints
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance
from clawmem.trust.framing import inert

if TYPE_CHECKING:  # imported where a turn matches: status renders the session start (``oversize``) without them
    from clawmem.index.files import MemoryFile
    from clawmem.recall import triggers as triggers_module


def _open_index(ws: Workspace, budget: Budget, degraded: list[str]) -> tuple[Any, list[MemoryFile] | None]:
    """Open and sync the index without waiting longer than the budget allows; with the workspace's files as listed for it.

    The budget's deadline governs every statement from the first PRAGMA on (not a per-statement
    busy timeout), so a backup or ``BEGIN EXCLUSIVE`` elsewhere costs at most the budget. The
    listing (None when there is no index or it failed) is the turn's one look at the files: the
    aspirations read the daily notes from it, where they would list and stat them all again. A
    sync never writes a memory file, so it stays the files' state after one too.
    """
    from clawmem.index import resident
    from clawmem.index.db import IndexLocked
    from clawmem.index.files import memory_files
    from clawmem.index.freshness import needs_sync

    if not ws.index_path.exists():
        degraded.append("index missing: run `clawmem index --rebuild`")
        return None, None
    try:
        index = resident.opened(ws, deadline=time.monotonic() + budget.remaining_s(floor=0.01))
    except IndexLocked as err:
        degraded.append(f"index skipped ({err.message}): lane 1 ran without it")
        return None, None
    except ClawmemError as err:
        degraded.append(f"index unavailable ({err.message}): run `clawmem index --rebuild`")
        return None, None
    files = None
    try:
        files = list(memory_files(ws))
        if needs_sync(ws, index, files):
            from filelock import Timeout

            from clawmem.index.sync import sync

            try:
                sync(ws, index, lock_timeout=budget.remaining_s(floor=0.01))
            except Timeout:
                degraded.append("index sync skipped: another process holds the index lock")
    except Exception as err:  # a broken sync must not cost the turn; the index stays readable
        degraded.append(f"index sync failed ({type(err).__name__}): results may be stale")
    return index, files


def project_block(ws: Workspace, index, keys: list[str], budget_chars: int, include_superseded: bool) -> list[ProjectEntry]:
    """Curated, current entries of the active repositories, most important first, within the block budget."""
    if not keys or index is None:
        return []
    import json

    current = "" if include_superseded else "AND superseded_by IS NULL "
    rows = index.query(
        "SELECT path, line_start, text, projects, importance FROM entries WHERE tier = 'curated' AND projects IS NOT NULL "
        f"AND {provenance.trusted_sql()} AND (status IS NULL OR status = 'active') AND kind = 'memory' {current}"
        "ORDER BY importance IS NULL, importance DESC, id"
    )
    block, used = [], 0
    for row in rows:
        tagged = json.loads(row["projects"])
        if not any(k in keys for k in tagged):
            continue
        if used + len(row["text"]) > budget_chars:
            break
        used += len(row["text"])
        block.append(ProjectEntry(cite(row['path'], row['line_start']), row["text"], tagged))
    return block


def hint_query(message: str) -> str:
    """The message as a search query for a hint: inert (content must not carry markers out), on one
    line, and at most ``HINT_QUERY_CHARS`` (cut at a word: a pasted log must not fill the context)."""
    text = " ".join(inert(message).split())
    if len(text) <= HINT_QUERY_CHARS:
        return text
    cut = text[:HINT_QUERY_CHARS]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def _escalation(ws: Workspace, message: str, mode: str, strong_hit: bool) -> Escalation:
    """The lane-2 decision, with the search to run as an MCP call and as a shell line that works anywhere."""
    from clawmem.commands import recall_intent

    intent = recall_intent.detect(message)
    if mode == "off":
        return Escalation(False, mode, "escalation is off", list(intent.reasons), None)
    if mode != "always" and not intent.present:
        return Escalation(False, mode, "no recall intent in the message", [], None)
    if mode != "always" and strong_hit:
        return Escalation(False, mode, "recall intent, but lane 1 found a strong hit", list(intent.reasons), None)
    query = hint_query(message)
    command = hints.search_command(ws.root, query, "--tier", "all", "--include-untrusted", "--json")
    tool = {"name": hints.SEARCH_TOOL, "arguments": hints.search_arguments(query, tier="all", include_untrusted=True)}
    reason = "escalation mode is always" if mode == "always" else "recall intent and no strong lane-1 hit"
    return Escalation(True, mode, reason, list(intent.reasons), command, tool)


def recall(
    ws: Workspace,
    message: str,
    *,
    session: str | None = None,
    channel: str | None = None,
    sender: str | None = None,
    include_bootstrap: bool = True,
    budget_ms: int | None = None,
    now: dt.datetime | None = None,
    cwd: str | None = None,
    include_superseded: bool = False,
    max_chars: int | None = None,
) -> RecallResult:
    """Build the hidden context for one inbound message; never raises for a broken subsystem.

    Entries a newer entry with the same key replaced are left out of every lane unless
    ``include_superseded``; then trigger hits name what replaced them. ``max_chars``: the most
    a host takes, counted as its hook output (``clawmem.recall.fit.hook_chars``); the context
    is filled by value within it.
    """
    from clawmem.recall import triggers as triggers_module

    cfg = ws.config.recall
    budget = Budget(budget_ms if budget_ms is not None else cfg.budget_ms)
    degraded: list[str] = []
    keys: list[str] = []
    if session:
        repo = projects.current(cwd)
        keys = projects.prepare(ws, session, repo.key, cap=cfg.active_projects) if repo else projects.active_set(ws, session)

    index, listed = _open_index(ws, budget, degraded)
    try:
        files = bootstrap_module.load(ws, index, cfg, degraded, include_superseded=include_superseded) if include_bootstrap else []
        # intents are deterministic and cheap: matched before the one step that may use up the budget
        fired = _intents(ws, index, message, channel, sender, now, degraded) if index is not None else []
        due = aspirations.for_recall(ws, index, now, degraded, listed) if index is not None and not budget.expired() else []
        hits = triggers_module.match(ws, index, message, keys, budget, degraded, include_superseded=include_superseded) if index is not None else []
        if include_superseded and hits:
            hits = _mark_superseded(index, hits)
        block = project_block(ws, index, keys, cfg.project_block_chars, include_superseded)
        escalation = _escalation(ws, message, cfg.escalation_mode, strong_hit=any(h.score >= cfg.strong_hit for h in hits))
        result = RecallResult(
            files, hits, fired, keys, block, escalation, degraded, 0.0, due, fit.budget_left_out(files), str(ws.root)
        )
        if max_chars is not None:
            result = fit.fit(result, max_chars)
        if index is not None:
            _mark(index, result.bootstrap, result.triggers, message, degraded)
    finally:
        if index is not None:
            from clawmem.index import resident

            resident.done(index)
    return replace(result, elapsed_ms=budget.elapsed_ms())


def _mark_superseded(index, hits: list[triggers_module.TriggerHit]) -> list[triggers_module.TriggerHit]:
    """Each hit with the citation of the entry that replaced it (None when it is current)."""
    marked = []
    for h in hits:
        row = index.query(
            "SELECT n.path, n.line_start FROM entries e JOIN entries n ON n.id = e.superseded_by WHERE e.path = ? AND e.line_start = ?",
            (h.path, h.line),
        )
        marked.append(replace(h, superseded_by=cite(row[0]['path'], row[0]['line_start'])) if row else h)
    return marked


def _intents(ws, index, message, channel, sender, now, degraded) -> list[Any]:
    from clawmem.intents.matching import match_for_recall

    try:
        return match_for_recall(ws, index, message, channel=channel, sender=sender, now=now)
    except Exception as err:  # intents are optional context; a failure costs them, not the turn
        degraded.append(f"intents skipped ({type(err).__name__}: {err})")
        return []


def _mark(index, files, hits, message: str, degraded: list[str]) -> None:
    """Record what was injected: trigger hits as recall events, bootstrap lines into the recalled set."""
    from clawmem.index.recalls import Returned, mark_recalled, record_returned

    try:
        with index.writes_apart():  # recall's own records: what is derived from the entries stays (``Index.derived``)
            if hits:
                # trigger candidates are trusted curated entries only (recall.triggers.candidates)
                record_returned(index, [Returned(h.text_hash, h.path, h.score, "agent") for h in hits], query=message, source="trigger")
            mark_recalled(index, [h for f in files for h in f.text_hashes])
    except Exception as err:  # bookkeeping must never cost the turn (e.g. the index is locked)
        degraded.append(f"recall bookkeeping skipped ({type(err).__name__})")
