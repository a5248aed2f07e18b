"""Per-turn recall: what an agent is given on every inbound message, within a time budget.

The package's face: ``turn`` runs one turn's recall (``recall``), ``result`` holds what it
gives; ``bootstrap``, ``triggers``, ``fit`` and ``render`` are its parts.
"""

from __future__ import annotations

from clawmem.recall.result import Escalation, ProjectEntry, RecallResult
from clawmem.recall.turn import hint_query, project_block, recall

__all__ = ["Escalation", "ProjectEntry", "RecallResult", "hint_query", "project_block", "recall"]
