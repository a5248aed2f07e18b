"""The write path of ``MEMORY.md``: ledger first, then hash re-check and atomic rename, else append.

A validated rewrite is recorded in the provenance ledger (so the index knows where each new
curated line came from), then replaces the file only if its hash still equals the one taken
when the consolidation input was built (``curated.replace_if_unchanged``, which also keeps
the pre-image); lines the rewrite kept go back as their original bytes (``verbatim.restore``).
An invalid rewrite, a failed external consolidator or a file changed by an
editor meanwhile all end the same way: the gated entries are appended to the file as it is
now, within the budget, and the edit is kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from clawmem.dream import consolidate, testhook, verbatim
from clawmem.dream.consolidate import Outcome, Proposal
from clawmem.dream.paraphrase import Judge
from clawmem.entries import identity
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import dataclass
from clawmem.storage import curated, ledger, ledger_records
from clawmem.storage.workspace import Workspace


@dataclass(frozen=True)
class Written:
    outcome: Outcome  # what was actually done (the rewrite, or the append fallback)
    changed: bool
    fallback_reason: str | None
    preimage: str | None


def record(ws: Workspace, bodies: Iterable[tuple[str, str, str | None]]) -> None:
    """Ledger records for new curated lines, written before the lines reach the file."""
    rel = ws.rel(ws.memory_md)
    ledger.append(
        ws,
        [
            ledger_records.entry_record(rel, identity.text_hash(body), origin=origin, session_kind="interactive", session=None, observed=observed)
            for body, origin, observed in bodies
        ],
    )


def apply(
    ws: Workspace,
    snap: curated.Snapshot,
    outcome: Outcome | None,
    problems: list[str],
    proposals: list[Proposal],
    cfg: DreamConfig,
    *,
    judge: Judge | None = None,
) -> Written:
    """Write the rewrite if it is valid and the file is unchanged; otherwise append."""
    if outcome is not None and not problems:
        if outcome.text == snap.text:
            return Written(outcome, False, None, None)
        record(ws, outcome.new_bodies)
        testhook.pause("rename")
        result = curated.replace_if_unchanged(ws, snap, verbatim.restore(snap.data, outcome.text), reason="dream")
        if result.written:
            return Written(outcome, True, None, ws.rel(result.preimage) if result.preimage else None)
        problems = ["MEMORY.md changed while the sweep ran (the edit is kept)"]
    return append(ws, proposals, cfg, "; ".join(problems), judge=judge)


def append(ws: Workspace, proposals: list[Proposal], cfg: DreamConfig, reason: str, *, judge: Judge | None = None) -> Written:
    """The fallback: append gated entries not already present to MEMORY.md as it is now."""
    current = curated.snapshot(ws.memory_md)
    outcome = consolidate.fallback(current.text, proposals, cfg, judge=judge)
    preimage = None
    if outcome.appended:
        record(ws, outcome.new_bodies)
        preimage = ws.rel(curated.store_preimage(ws, current, reason="dream-append"))
        curated.append_lines(ws, ws.memory_md, list(outcome.appended))
    return Written(outcome, bool(outcome.appended), reason, preimage)
