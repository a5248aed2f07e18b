"""Workspace health: what is indexed, from where, plainly why a search would find nothing, and
what keeps trusted memory out of ``MEMORY.md`` (``clawmem.commands.losses``: nothing lost silently)."""

from __future__ import annotations

from typing import Any

from clawmem.foundation.records import dataclass, field
from clawmem.index import migrations
from clawmem.index.db import Index
from clawmem.index.files import memory_files, storage_warnings
from clawmem.index.freshness import pending_changes
from clawmem.rules.output import plural
from clawmem.storage.workspace import Workspace


@dataclass(frozen=True)
class Status:
    workspace: str
    workspace_rule: str  # which rule of ``clawmem.storage.workspace.RULES`` chose it
    schema_version: int
    entries: int
    by_tier: dict[str, int]
    by_kind: dict[str, int]
    by_origin: dict[str, int]
    by_session_kind: dict[str, int]
    files_indexed: int
    files_pending: list[str]
    last_sync: str | None
    last_dream: str | None
    ledger_intact: bool
    recalled: int
    embeddings: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    notices: list[Any] = field(default_factory=list)  # clawmem.commands.losses.Notice, one line each with the fix
    aspirations: list[Any] = field(default_factory=list)  # clawmem.intents.aspirations.Due: due or escalated, oldest first
    host_hooks: list[str] = field(default_factory=list)  # whether each host runs the hooks clawmem installed (Codex: trusted by hash)
    background_failure: dict[str, Any] | None = None  # the last failed background ingest (``clawmem.hosts.jobs``)


BREAKDOWN = ("tier", "kind", "origin", "session_kind")


def _breakdown(index: Index) -> dict[str, dict[str, int]]:
    """Entries counted by each column of ``BREAKDOWN``, each by value in order: one scan of the table, not one per column
    (a scan reads every entry's text, stored before these columns: most of what status spent in SQLite)."""
    found: dict[str, dict[str, int]] = {column: {} for column in BREAKDOWN}
    for row in index.query(f"SELECT {', '.join(BREAKDOWN)}, count(*) AS n FROM entries GROUP BY {', '.join(BREAKDOWN)}"):
        for column, counts in found.items():
            counts[row[column]] = counts.get(row[column], 0) + row["n"]
    return {column: dict(sorted(counts.items())) for column, counts in found.items()}


def embedding_status(ws: Workspace) -> dict[str, Any]:
    from clawmem.embeddings import backend_status

    cfg = ws.config.embeddings
    return backend_status(cfg.backend, cfg.model_path or None)


def held_back_count(index: Index) -> int:
    """Records and lines a pull brought that this copy holds back until its owner accepts them (``clawmem.trust.team``)."""
    import json

    pulled = json.loads(index.meta("pulled_lines", "{}") or "{}")
    return int(index.meta("foreign_held", "0") or 0) + sum(len(items) for items in pulled.values())


def workspace_status(ws: Workspace, index: Index) -> Status:
    """Collect counts and warnings without changing anything."""
    skipped: list[str] = []
    files = list(memory_files(ws, skipped))
    pending = pending_changes(ws, index, files)
    entries = index.scalar("SELECT count(*) FROM entries")
    ledger_intact = index.meta("ledger_intact", "1") != "0"
    embeddings = embedding_status(ws)
    if embeddings.get("available"):
        from clawmem.index.vectors import VEC_TABLE, unembedded

        model = embeddings.get("model_id")
        tables = frozenset({"entries", "meta", f"{VEC_TABLE}_rowids"})
        embeddings["unembedded"] = index.derived(f"status.unembedded:{model}", tables, lambda: unembedded(index, model))
    warnings = []
    if pending:
        warnings.append(f"{plural(len(pending), 'file')} changed since the last index sync; run `clawmem index` (search syncs first)")
    if entries == 0 and not files:
        warnings.append("the workspace has no memory yet; add some with `clawmem note add`")
    elif entries == 0 and index.meta("last_sync") is None:
        warnings.append("nothing is indexed yet; run `clawmem index`")
    problem = index.meta("ledger_problem")
    if not ledger_intact:
        warnings.append(
            f"the provenance ledger was {problem}: unrecorded episodic lines are treated as untrusted" if problem
            else "the provenance ledger was lost or replaced: unrecorded episodic lines are treated as untrusted"
        )
    held = held_back_count(index)
    if held:
        warnings.append(f"{plural(held, 'record or line', 'records or lines')} from other copies of this workspace count as untrusted until you accept them (`clawmem accept`)")
    warnings += storage_warnings(skipped, int(index.meta("ledger_damage_count", "0") or 0))
    from clawmem.recall import oversize

    warnings += [f"{oversize.NAME}: {o.message}" for o in oversize.check(ws, index)]
    if not embeddings.get("available"):
        warnings.append(f"vector search is off ({embeddings.get('reason')}); search is lexical only")
    elif embeddings["unembedded"]:
        warnings.append(
            f"{embeddings['unembedded']} of {plural(entries, 'entry', 'entries')} not embedded yet (an interrupted or --no-embed index):"
            " search finds them by their words only; run `clawmem index`"
        )
    from clawmem.commands import losses
    from clawmem.foundation.timeparse import local_now
    from clawmem.hosts.jobs import last_failure
    from clawmem.intents import aspirations

    failure = last_failure(ws)
    if failure is not None:
        warnings.append(
            f"the background ingest of session {failure.get('session')} failed at {failure.get('at')} (exit {failure.get('exit')}): "
            f"{str(failure.get('stderr') or 'no error output').splitlines()[-1]}; its transcript is not in memory until the next "
            f"hook of that session or `clawmem ingest`"
        )

    counts = index.derived("status.breakdown", frozenset({"entries"}), lambda: _breakdown(index))  # the worker keeps it until the index changes
    return Status(
        workspace=str(ws.root),
        workspace_rule=ws.found_by,
        schema_version=migrations.schema_version(index),
        entries=entries,
        by_tier=counts["tier"],
        by_kind=counts["kind"],
        by_origin=counts["origin"],
        by_session_kind=counts["session_kind"],
        files_indexed=index.scalar("SELECT count(*) FROM files"),
        files_pending=pending,
        last_sync=index.meta("last_sync"),
        last_dream=index.meta("last_dream"),
        ledger_intact=ledger_intact,
        recalled=index.scalar("SELECT count(*) FROM recalled"),
        embeddings=embeddings,
        warnings=warnings,
        notices=losses.from_index(ws, index),
        aspirations=aspirations.due(ws, local_now().date(), files),  # the listing above: the daily notes are not listed twice
        host_hooks=_host_hooks(),
        background_failure=failure,
    )


def _host_hooks() -> list[str]:
    from pathlib import Path

    from clawmem.hosts import codex

    line = codex.trust_line(Path.home())
    return [line] if line else []
