"""Test hook points: let fault tests stop a real sweep process at a named moment.

With ``CLAWMEM_TEST_PAUSE_AT=<point>`` a sweep reaching that point writes
``clawmem: test pause at <point>`` to stderr and waits for one line on stdin (end of input
resumes at once). Meanwhile a test can edit ``MEMORY.md`` from another process, start a
second sweep, or ``kill -9`` this one. Points:

- ``consolidate``: the consolidation input (``MEMORY.md`` and its hash) has been captured;
- ``rename``: the rewrite is validated and in the ledger, just before the hash re-check and
  atomic rename.

Nothing else reads the variable; unset, a point costs one environment lookup.
"""

from __future__ import annotations

import os
import sys

ENV = "CLAWMEM_TEST_PAUSE_AT"


def pause(point: str) -> None:
    if os.environ.get(ENV) == point:
        sys.stderr.write(f"clawmem: test pause at {point}\n")
        sys.stderr.flush()
        sys.stdin.readline()
