"""What one turn's recall gives: the curated files, trigger hits, intents, the project block and the lane-2 decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clawmem.foundation.records import dataclass, field
from clawmem.recall import bootstrap as bootstrap_module

if TYPE_CHECKING:  # imported where a turn matches: status renders the session start (``oversize``) without them
    from clawmem.recall import triggers as triggers_module


@dataclass(frozen=True)
class Escalation:
    escalate: bool
    mode: str
    reason: str
    recall_intent: list[str]
    command: str | None  # the search as a shell line: absolute executable, -w the absolute workspace
    tool: dict[str, Any] | None = None  # the same search as an MCP call: {"name": "search_memory", "arguments": {...}}


@dataclass(frozen=True)
class ProjectEntry:
    citation: str
    text: str
    projects: list[str]


@dataclass(frozen=True)
class RecallResult:
    bootstrap: list[bootstrap_module.BootstrapFile]
    triggers: list[triggers_module.TriggerHit]
    intents: list[Any]
    project_keys: list[str]
    project_block: list[ProjectEntry]
    escalation: Escalation
    degraded: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0
    aspirations: list[Any] = field(default_factory=list)  # clawmem.intents.aspirations.Due: past their review date
    left_out: int = 0  # eligible entries not shown (budgets, the host's cap); the context says how to reach them
    workspace: str = ""  # the absolute workspace the hints name with -w
