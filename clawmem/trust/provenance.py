"""Origin classes: which are trusted, how a line is shown, what a caller or a turn is by default.

Trust is decided here from caller flags, roles, file location and the provenance ledger, never
from memory text. Anything whose origin cannot be established is classified conservatively.
Every other module asks these functions (and their SQL forms) rather than comparing origin
strings itself, so each rule has one place, and ``tests/security/gates_off.py`` switches it
there.
"""

from __future__ import annotations

from clawmem.foundation.errors import BadInput, Forbidden
from clawmem.foundation.records import dataclass
from clawmem.foundation.vocabulary import ORIGINS, SESSION_KINDS

__all__ = ["ORIGINS", "SESSION_KINDS", "TRUSTED_ORIGINS", "is_trusted", "shown_untrusted"]
TRUSTED_ORIGINS = frozenset({"owner", "agent"})
HOST_SENDER_ORIGIN = "owner"  # the class of a host session's user turns (the person at the host); roles classify the rest
# What an MCP client may record (``client_origin``; the tools' schemas read it too): a client is automation, never the owner.
MCP_ORIGINS = tuple(o for o in ORIGINS if o != "owner")

# Higher is more trusted; ``least_trusted`` picks the minimum.
TRUST_RANK = {"owner": 3, "agent": 2, "system": 1, "untrusted": 0}
# Session kinds ranked the same way: only interactive sessions produce durable memory.
SESSION_RANK = {"interactive": 1, "subagent": 0, "cron": 0, "heartbeat": 0}

# File kinds (by location in the workspace) and the tier each belongs to.
CURATED_KINDS = frozenset({"memory", "user"})
FILE_KINDS = ("memory", "user", "daily", "quarantine", "transcript")
EXTERNAL_DIRS = ("memory/quarantine/", "transcripts/")  # files whose every line is externally derived, by location


def is_trusted(origin: str | None) -> bool:
    """The one trust rule for an origin class: only the owner and the owner's agent are trusted."""
    return origin in TRUSTED_ORIGINS


def trusted_sql(column: str = "origin") -> str:
    """``is_trusted`` as an SQL condition on ``column``, derived from the function over the vocabulary
    (the index's CHECK constraints list the same classes), so the two cannot disagree."""
    return _in_sql(column, [o for o in ORIGINS if is_trusted(o)])


def untrusted_class(origin: object) -> bool:
    """Is ``origin`` one of the known classes that are not trusted (``untrusted``, ``system``)?

    What a record or a row says it came from: a missing or unknown class is not one (the display
    rule, ``shown_untrusted``, treats those as untrusted on its own). Any value may be asked: a
    ledger record's field is whatever the file holds.
    """
    return isinstance(origin, str) and origin in ORIGINS and not is_trusted(origin)


def untrusted_class_sql(column: str = "origin") -> str:
    """``untrusted_class`` as an SQL condition on ``column``, derived from the function over the vocabulary."""
    return _in_sql(column, [o for o in ORIGINS if untrusted_class(o)])


def shown_untrusted(origin: str | None, kind: str | None = None, file_taint: str | None = None) -> bool:
    """THE display rule: is a line shown inside an untrusted-content frame (and withheld from diaries)?

    Yes when its origin is not trusted (or unknown), it sits in quarantine, or its file is
    tainted by untrusted content. Callers pass what they know: a search hit its row's origin
    and kind, a span of a file (an excerpt, a source trail) the file's taint as well."""
    return not is_trusted(origin) or (kind is not None and location_floor(kind) is not None) or tainted(file_taint)


def tainted(file_taint: str | None) -> bool:
    """Is a file tainted by untrusted content (``file_taint``: the least trusted origin flushed into it)?"""
    return file_taint is not None and not is_trusted(file_taint)


def shown_untrusted_sql(origin: str = "origin", kind: str = "kind") -> str:
    """``shown_untrusted`` (without taint) as an SQL condition on the ``origin`` and ``kind`` columns
    (both NOT NULL in the index, so ``NOT`` of it is the shown-trusted filter), derived from the
    functions it combines."""
    return f"(NOT {trusted_sql(origin)} OR {_in_sql(kind, [k for k in FILE_KINDS if location_floor(k) is not None])})"


def _in_sql(column: str, values: list[str]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in sorted(values))})" if values else "0"


def span_shown_untrusted(rel: str, origins: list[str | None], file_taint: str | None) -> bool:
    """A span of a file's lines (an excerpt) is framed when any line in it would be, or its file is
    externally derived by location (quarantine and transcripts hold lines no row vouches for)."""
    return rel.startswith(EXTERNAL_DIRS) or tainted(file_taint) or any(shown_untrusted(o) for o in origins)


def check_origin(origin: str) -> str:
    """Refuse an origin class that is not one of the vocabulary's (what a caller claims is checked, never guessed)."""
    if origin not in ORIGINS:
        raise BadInput(f"unknown origin {origin!r}", hint=f"use one of: {', '.join(ORIGINS)}")
    return origin


def check_provenance(origin: str, session_kind: str) -> None:
    """Refuse a write whose claimed origin or session kind is not one of the vocabulary's."""
    check_origin(origin)
    if session_kind not in SESSION_KINDS:
        raise BadInput(f"unknown session kind {session_kind!r}", hint=f"use one of: {', '.join(SESSION_KINDS)}")


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


def caller_origin(claimed: str | None, *, from_terminal: bool) -> str:
    """The origin a caller writes with: the class it claims (checked), else ``default_origin``."""
    return check_origin(claimed) if claimed is not None else default_origin(from_terminal=from_terminal)


def client_origin(origin: str) -> str:
    """The origin an MCP call may record: the client is an agent, so never the owner."""
    if origin not in MCP_ORIGINS:
        raise Forbidden(
            f"origin {origin!r} is not accepted over MCP: a client is never the owner",
            hint="pass origin agent (your own words), untrusted (copied from a web page, file or tool output) or system",
        )
    return origin


def role_origin(role: str, sender_origin: str) -> str:
    """The origin class of a transcript turn, from its role and the class of the session's sender."""
    role = role.lower()
    if role == "user":
        return sender_origin
    if role == "assistant":
        return "agent" if is_trusted(sender_origin) else "untrusted"
    if role in ("system", "developer"):
        return "system"
    return "untrusted"  # tool and function output, and any role we do not know


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
