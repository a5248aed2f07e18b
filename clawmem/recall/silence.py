"""Why ``recall`` injected nothing, in one line for a person (hosts read stdout, so it goes to stderr).

An empty answer looks like a broken tool; the reasons are each lane's own: what the bootstrap
found in the curated files, that no trigger matched, and the escalation decision.
"""

from __future__ import annotations

from typing import Any


def _bootstrap(files: list[Any]) -> str | None:
    if not files:
        return "bootstrap off (--no-bootstrap)"
    empty = [f.path for f in files if f.eligible and not f.text]
    withheld = [f"{f.path} withheld ({f.reason})" for f in files if not f.eligible]
    said = []
    if empty:
        said.append(f"{' and '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty (`clawmem dream` fills MEMORY.md)")
    return "; ".join(said + withheld) or None


def why_nothing(result: Any) -> str:
    """The reasons a ``RecallResult`` with no context has none, joined on one line."""
    reasons = [
        _bootstrap(result.bootstrap),
        "no curated entry's trigger matched (daily notes and transcripts never inject; `clawmem search` finds them)",
        result.escalation.reason,
    ]
    return "; ".join(r for r in reasons if r)
