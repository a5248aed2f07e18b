"""``clawmem demote``: take one line out of MEMORY.md, back to the episodic tier it was promoted from.

The owner's undo of a promotion, short of forgetting: the evidence the line cites stays where
it is (daily notes, transcripts: searchable, never injected), and so does its staged
candidate's ``promoted`` status, so the next sweep does not promote it again; ``clawmem
promote SOURCE`` brings it back. The line leaves through the safe rewrite (hash re-check,
pre-image, atomic rename, the audit baseline carried along) under the sweep lock, and
``DREAMS.md`` records it. A hand-written line cites no evidence, so it has no episodic home
to go back to: demote refuses it and names ``forget`` (undoable) instead.
"""

from __future__ import annotations

from clawmem.foundation.errors import BadInput, Busy, NotFound
from clawmem.foundation.records import dataclass
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import authority


@dataclass(frozen=True)
class DemoteResult:
    """What left MEMORY.md (``dry_run``: would leave) and where its evidence stays."""

    path: str
    line: int
    text: str
    sources: list[str]
    preimage: str | None
    dry_run: bool


def demote(ws: Workspace, anchor: str, *, caller: authority.Caller, dry_run: bool = False) -> DemoteResult:
    """Remove the MEMORY.md entry at ``anchor``; its cited evidence stays in the episodic tier.

    The owner's decision (``authority.require_owner``; a dry run decides nothing)."""
    from clawmem.dream import lock
    from clawmem.dream.text import excerpt
    from clawmem.entries import grammar
    from clawmem.storage import anchors, curated, diary

    if not dry_run:
        authority.require_owner(caller, "demoting a MEMORY.md line")
    where = anchors.parse(ws, anchor, lines_required=True)
    if where.rel != ws.rel(ws.memory_md):
        raise BadInput(f"{anchor} is not a MEMORY.md line", hint="USER.md directives leave with `clawmem user retire KEY`; episodic lines are already episodic")
    with lock.sweep_lock(ws) as held:
        if not held.acquired:
            raise Busy("a dream sweep is running; MEMORY.md has one writer at a time", hint="run the demote again when the sweep ends")
        snap = curated.snapshot(ws.memory_md)
        doc = grammar.parse(snap.text)
        entry = next((e for e in doc.entries if e.line_start <= (where.end or 0) and e.line_end >= (where.start or 0)), None)
        if entry is None or not entry.body.strip():
            raise NotFound(f"no entry at {anchor}", hint=f"see the lines with `clawmem get {cite('MEMORY.md', where.start)} -C 3`")
        if not entry.sources:
            raise BadInput(
                f"{cite('MEMORY.md', entry.line_start)} cites no evidence (written by hand), so it has no episodic home to go back to",
                hint=f"remove it with `clawmem forget {cite('MEMORY.md', entry.line_start)}` (undoable), or edit MEMORY.md",
            )
        result = DemoteResult("MEMORY.md", entry.line_start, entry.body, list(entry.sources), None, dry_run)
        if dry_run:
            return result
        rewrite = curated.replace_if_unchanged(ws, snap, "".join(b.raw for b in doc.blocks if b is not entry), reason="demote")
        if not rewrite.written:
            raise Busy("MEMORY.md changed while the demote was being prepared", hint="run it again")
        image = ws.rel(rewrite.preimage) if rewrite.preimage else None
        diary.append(ws, "owner demote", [
            f"- {excerpt(entry.body, 160)} (was {cite('MEMORY.md', entry.line_start)}; sources: {', '.join(entry.sources)})",
            f"- back in the episodic tier; pre-image {image}; `clawmem promote {entry.sources[0]}` brings it back",
        ])
    return DemoteResult(result.path, result.line, result.text, result.sources, image, False)
