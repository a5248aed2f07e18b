"""Provenance: origin class, session kind, file taint, and the one promotion-eligibility rule.

Trust is decided here from caller flags, file location and the provenance ledger, never from
memory text. Anything whose origin cannot be established is classified conservatively.
"""

from __future__ import annotations

from dataclasses import dataclass

from clawmem.vocabulary import ORIGINS, SESSION_KINDS

__all__ = ["ORIGINS", "SESSION_KINDS", "TRUSTED_ORIGINS", "is_trusted", "promotion_eligibility"]
TRUSTED_ORIGINS = frozenset({"owner", "agent"})

# Higher is more trusted; ``least_trusted`` picks the minimum.
TRUST_RANK = {"owner": 3, "agent": 2, "system": 1, "untrusted": 0}
# Session kinds ranked the same way: only interactive sessions produce durable memory.
SESSION_RANK = {"interactive": 1, "subagent": 0, "cron": 0, "heartbeat": 0}

# File kinds (by location in the workspace) and the tier each belongs to.
CURATED_KINDS = frozenset({"memory", "user"})
FILE_KINDS = ("memory", "user", "daily", "quarantine", "transcript")


def is_trusted(origin: str | None) -> bool:
    """The one trust rule for an origin class: only the owner and the owner's agent are trusted."""
    return origin in TRUSTED_ORIGINS


def trusted_sql(column: str = "origin") -> str:
    """``is_trusted`` as an SQL condition on ``column`` (the index's CHECK constraints list the same classes)."""
    return f"{column} IN ({', '.join(repr(o) for o in sorted(TRUSTED_ORIGINS))})"


def least_trusted(*origins: str | None) -> str:
    """The least trusted of the given origin classes (``None`` entries are ignored)."""
    present = [o for o in origins if o is not None]
    return min(present, key=TRUST_RANK.__getitem__)


def least_eligible_session(*kinds: str | None) -> str:
    present = [k for k in kinds if k is not None]
    return min(present, key=lambda k: (SESSION_RANK[k], k != "interactive", k))


def default_origin(*, from_terminal: bool) -> str:
    """A person typing at a terminal is the owner; automation that names no origin is untrusted."""
    return "owner" if from_terminal else "untrusted"


def tier_of(kind: str) -> str:
    return "curated" if kind in CURATED_KINDS else "episodic"


def location_floor(kind: str) -> str | None:
    """The most trust a line can have because of where it sits (quarantine is never trusted)."""
    return "untrusted" if kind == "quarantine" else None


@dataclass(frozen=True)
class Classification:
    origin: str
    session_kind: str
    hand_written: bool


def classify_unrecorded(kind: str, *, ledger_intact: bool, damaged: bool = False, torn: bool = False) -> Classification:
    """Classify a line the provenance ledger cannot account for.

    Curated files and daily notes sit inside the operator trust boundary, so a line typed
    there by hand is the owner's, but only while the ledger is intact: once it is lost we
    cannot tell a hand-written line from one clawmem wrote for a less trusted caller, and
    a lost ledger must never upgrade anything. The same holds, for any file, when a damaged
    ledger record names the file (``damaged``) or the line is torn: unterminated, or recorded
    as torn when a writer terminated it (``torn``). Transcripts and quarantine are externally
    derived, so unknown lines there are untrusted.
    """
    if not (damaged or torn) and (kind in CURATED_KINDS or (kind == "daily" and ledger_intact)):
        return Classification("owner", "interactive", True)
    return Classification("untrusted", "interactive", True)


@dataclass(frozen=True)
class Eligibility:
    eligible: bool
    reasons: tuple[str, ...]


def promotion_eligibility(
    *, origin: str, session_kind: str, file_taint: str | None, recalled_copy: bool = False
) -> Eligibility:
    """Promotion-eligible = trusted origin, interactive session, untainted file, not a recalled copy."""
    reasons = []
    if not is_trusted(origin):
        reasons.append(f"origin is {origin}")
    if session_kind != "interactive":
        reasons.append(f"session kind is {session_kind}")
    if file_taint is not None and not is_trusted(file_taint):
        reasons.append(f"file is tainted by {file_taint} content")
    if recalled_copy:
        reasons.append("content is a recalled copy")
    return Eligibility(not reasons, tuple(reasons))
