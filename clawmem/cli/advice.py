"""What to run next: one ``next:`` line on stderr for a person at a terminal.

Never on stdout and never in a pipe: agents and hooks call the same commands and read stdout,
so a hint there would cost them tokens or break a parser (git prints its hints on stderr too).
"""

from __future__ import annotations

import sys

from clawmem.rules.output import is_terminal


def next_step(text: str) -> None:
    """Tell a person at a terminal what to do next (``next: TEXT`` on stderr); silent elsewhere."""
    if is_terminal(sys.stderr):
        sys.stderr.write(f"next: {text}\n")
