"""What ``forget`` returns: the removed entries, the ones left for review, the totals."""

from __future__ import annotations

from clawmem.foundation.records import dataclass, field


@dataclass(frozen=True)
class Removed:
    """One forgotten entry (or prose line); ``text`` is an excerpt, framed by the CLI when untrusted."""

    path: str
    line_start: int
    line_end: int
    text: str
    text_hash: str
    origin: str | None
    session_kind: str | None
    session_id: str | None
    why: str
    untrusted: bool


@dataclass(frozen=True)
class Review:
    """An entry forget left in place: a person should decide."""

    path: str
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class ForgetResult:
    """What ``clawmem forget --json`` prints."""

    mode: str  # entry | text | session
    target: str
    dry_run: bool
    removed: list[Removed]
    deleted_files: list[str]
    review: list[Review]
    session_tombstoned: str | None
    hashes_tombstoned: int
    redacted: dict[str, int] = field(default_factory=dict)
    id: str | None = None  # the forget's id (``forget --undo ID``); None on a dry run
    undo_until: str | None = None  # last day ``forget --undo`` can restore it; None: not undoable
