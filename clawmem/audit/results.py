"""What an audit returns: findings, where source anchors lead, diary references, the listing."""

from __future__ import annotations

from clawmem.foundation.records import dataclass


@dataclass(frozen=True)
class Finding:
    """One violation or warning: which check, where (``line`` 0 = the whole file), and what."""

    check: str
    path: str
    line: int
    message: str

    @property
    def anchor(self) -> str:
        """``PATH:LINE`` (``PATH`` alone for the whole file): what editors and problem matchers open."""
        return f"{self.path}:{self.line}" if self.line > 0 else self.path

    def render(self, level: str = "violation") -> str:
        """``PATH:LINE: error|warning: CHECK: WHAT``, the compiler convention CI problem matchers parse."""
        return f"{self.anchor}: {'error' if level == 'violation' else 'warning'}: {self.check}: {self.message}"


@dataclass(frozen=True)
class SourceTrace:
    """Where one ``source`` anchor of a curated entry leads today.

    ``state``: ``ok`` (the unit at the anchor says the entry's text), ``moved`` (it says it
    at other lines of the same file), ``stale`` (the file no longer says it: edited or
    forgotten), ``missing`` (no such file), ``invalid`` (not a workspace anchor).
    """

    anchor: str
    state: str
    path: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    kind: str | None = None
    origin: str | None = None
    session_kind: str | None = None
    session_id: str | None = None
    file_taint: str | None = None


@dataclass(frozen=True)
class SweepRef:
    """A ``DREAMS.md`` section that names the entry (``action``: promoted, merged, changed)."""

    when: str
    title: str
    action: str
    diary_line: int


@dataclass(frozen=True)
class AuditEntry:
    path: str
    line_start: int
    line_end: int
    text: str
    text_hash: str
    origin: str | None
    session_kind: str | None
    session_id: str | None
    hand_written: bool | None
    untrusted: bool
    entered_at: str | None  # first ledger record, else when an audit first saw it
    importance: int | None
    triggers: list[str]
    projects: list[str]
    key: str | None
    status: str | None
    sources: list[SourceTrace]
    sweeps: list[SweepRef]
    problems: list[str]


@dataclass(frozen=True)
class AuditReport:
    """What ``clawmem audit --json`` prints."""

    workspace: str
    since: str | None
    checks: list[str]
    entries: list[AuditEntry]
    violations: list[Finding]
    warnings: list[Finding]
    baseline: dict[str, str]  # curated file -> established | unchanged | advanced | held | accepted

    @property
    def ok(self) -> bool:
        return not self.violations

    def failed(self, *, strict: bool = False) -> bool:
        """Whether ``--ci`` fails: any violation, and under ``--strict`` any warning too."""
        return bool(self.violations or (strict and self.warnings))
