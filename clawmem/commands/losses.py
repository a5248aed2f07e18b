"""Nothing lost silently: what keeps trusted memory out of ``MEMORY.md``, one notice per cause, with the fix.

Three causes lose nothing but can look like loss: owner or agent lines in a file tainted by
untrusted content (ineligible by design, ``trust.eligibility.promotion_eligibility``), a full
``MEMORY.md`` budget (``dream.memory_chars``) that stops gated candidates, and candidates
still waiting on a deep-gate threshold. ``clawmem status`` and ``clawmem dream`` print each as
one line, and carry them in ``--json`` as ``notices``.
"""

from __future__ import annotations

import json

from clawmem.foundation.records import dataclass
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

MAX_PATHS = 3  # files named in a notice; the rest are counted


@dataclass(frozen=True)
class Notice:
    """One cause of memory not reaching ``MEMORY.md`` (``kind``: tainted | budget | threshold)."""

    kind: str
    count: int
    message: str  # one line, ending with the fix


def _paths(paths: list[str]) -> str:
    shown = ", ".join(paths[:MAX_PATHS])
    return shown + (f" and {len(paths) - MAX_PATHS} more" if len(paths) > MAX_PATHS else "")


def tainted(index) -> Notice | None:
    """Trusted interactive list entries that lose eligibility because their file is tainted."""
    rows = index.query(
        f"""SELECT e.path AS path, t.origin AS taint, count(*) AS n FROM entries e JOIN file_taint t ON t.path = e.path
            WHERE e.tier = 'episodic' AND e.block = 'entry' AND e.kind != 'quarantine' AND e.session_kind = 'interactive'
              AND {provenance.trusted_sql('e.origin')} AND NOT {provenance.trusted_sql('t.origin')}
            GROUP BY e.path ORDER BY e.path"""
    )
    if not rows:
        return None
    count = sum(r["n"] for r in rows)
    taints = "/".join(sorted({r["taint"] for r in rows}))
    where = rows[0]["path"] if len(rows) == 1 else f"{len(rows)} files ({_paths([r['path'] for r in rows])})"
    return Notice(
        "tainted", count,
        f"{count} owner/agent line(s) in {where} are ineligible: the file is tainted by {taints} content "
        f"(see `clawmem audit`; promote one you vouch for with `clawmem promote PATH#L… --force-untrusted`)",
    )


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _size(ws: Workspace) -> int:
    """MEMORY.md as the budget counts it (``curated.budget_size``)."""
    from clawmem.storage.curated import budget_size

    return budget_size(ws.memory_md.read_bytes().decode("utf-8", errors="replace")) if ws.memory_md.exists() else 0


def budget(ws: Workspace, blocked: int) -> Notice | None:
    """``blocked`` gated candidates did not fit in ``MEMORY.md``."""
    if blocked <= 0:
        return None
    limit = ws.config.dream.memory_chars
    size = _size(ws)
    return Notice(
        "budget", blocked,
        f"MEMORY.md is at {_thousands(size)} / {_thousands(limit)} characters: {blocked} candidate(s) could not be added "
        "(raise dream.memory_chars or prune MEMORY.md)",
    )


def threshold(waiting: int) -> Notice | None:
    if waiting <= 0:
        return None
    return Notice("threshold", waiting, f"{waiting} candidate(s) wait on a threshold (run `clawmem dream --explain --dry-run`)")


def from_index(ws: Workspace, index) -> list[Notice]:
    """The notices as the last sweep left things (``clawmem status``)."""
    waiting = blocked = 0
    if index.scalar("SELECT 1 FROM sqlite_master WHERE name = 'dream_candidates'"):
        size = _size(ws)
        for row in index.query("SELECT text, failed FROM dream_candidates WHERE status = 'staged'"):
            failed = json.loads(row["failed"]) if row["failed"] else None
            if failed:
                waiting += 1
            elif failed is not None and size + len(row["text"]) + 1 > ws.config.dream.memory_chars:
                blocked += 1  # passed every gate, still staged, and its line cannot fit
    return [n for n in (tainted(index), budget(ws, blocked), threshold(waiting)) if n is not None]


def from_sweep(ws: Workspace, index, staging, verdicts: dict, rejected) -> list[Notice]:
    """The notices after a sweep (``clawmem dream``), from its own verdicts and rejections."""
    blocked = sum(1 for r in rejected if r.stage == "consolidation" and any("budget" in x for x in r.reasons))
    waiting = sum(1 for c in staging.candidates.values() if c.status == "staged" and c.id in verdicts and verdicts[c.id].failed)
    return [n for n in (tainted(index), budget(ws, blocked), threshold(waiting)) if n is not None]
