"""Promotion eligibility: what may become curated memory (dreaming, ``promote``, direct curated writes).

One rule, asked by dreaming's light phase and gate, the problem hunt, ``clawmem promote`` (whose
``--force-untrusted`` overrides it on the owner's word) and the user-model writer: trusted origin,
an interactive session, an untainted file, not a recalled copy; a whole index entry must also be
a live list entry outside quarantine (``entry_reasons``).

Injection by trigger has its own rule (``injectable_sql``): only curated memory a trusted writer
made in an interactive session, still active, in a file no untrusted content tainted, may put
itself into a turn unasked.
"""

from __future__ import annotations

from clawmem.foundation.records import dataclass
from clawmem.trust import provenance


@dataclass(frozen=True)
class Eligibility:
    eligible: bool
    reasons: tuple[str, ...]


def promotion_eligibility(
    *, origin: str, session_kind: str, file_taint: str | None, recalled_copy: bool = False
) -> Eligibility:
    """Promotion-eligible = trusted origin, interactive session, untainted file, not a recalled copy."""
    reasons = []
    if not provenance.is_trusted(origin):
        reasons.append(f"origin is {origin}")
    if session_kind != "interactive":
        reasons.append(f"session kind is {session_kind}")
    if provenance.tainted(file_taint):
        reasons.append(f"file is tainted by {file_taint} content")
    if recalled_copy:
        reasons.append("content is a recalled copy")
    return Eligibility(not reasons, tuple(reasons))


def entry_reasons(row: dict, taint: str | None, recalled_copy: bool) -> list[str]:
    """Why a whole index entry can never be evidence (empty when it may be)."""
    reasons = []
    if row["kind"] == "quarantine":
        reasons.append("in quarantine (derived from untrusted content)")
    if row["block"] != "entry":
        reasons.append("prose, not a list entry")
    if row["status"] == "superseded":
        reasons.append("marked superseded")
    verdict = promotion_eligibility(origin=row["origin"], session_kind=row["session_kind"], file_taint=taint, recalled_copy=recalled_copy)
    return reasons + list(verdict.reasons)



def injectable_sql(entry: str, taint: str) -> str:
    """SQL condition for an entry (alias ``entry``, its file's taint row ``taint``, LEFT JOINed) that
    may be injected by its triggers: curated, trusted origin, interactive session, active, untainted."""
    return (
        f"{entry}.tier = 'curated' AND {provenance.trusted_sql(f'{entry}.origin')} AND {entry}.session_kind = 'interactive' "
        f"AND ({entry}.status IS NULL OR {entry}.status = 'active') AND ({taint}.origin IS NULL OR {provenance.trusted_sql(f'{taint}.origin')})"
    )
