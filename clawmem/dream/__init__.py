"""``clawmem dream``: the consolidation sweep, the only writer of ``MEMORY.md``.

Phases, in order (``run_sweep(phases=...)`` runs any subset):

- light (``light.py``): stage eligible evidence from episodic files changed since the last
  sweep, near-duplicates grouped into candidates;
- REM (``rem.py``): themes, reinforcement and reflections with citations;
- deep: the gate (``gate.py``), consolidation (``consolidate.py``, or ``external.py``), then
  the write path (``write.py``) and a summary in ``DREAMS.md`` (``sweep_record.py``).

One sweep at a time (``lock.py``); another sweep arriving meanwhile returns at once with
``ran=False``. The index is synced first, so notes and hand edits made since are seen.
"""

from __future__ import annotations

from clawmem.dream.results import DreamReport
from clawmem.dream.run import PHASES, run_sweep

__all__ = ["PHASES", "DreamReport", "run_sweep"]
