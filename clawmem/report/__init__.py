"""``clawmem report``: a self-contained HTML review of what the agent remembers, and why.

``data.gather`` reads the workspace and index into plain dataclasses (also ``--json``),
``page.render`` turns them into one HTML page (``charts`` draws its inline SVG), and
``target.write`` validates the target and writes the page atomically. The page needs no network, no
asset and no script; every memory string in it is escaped text.
"""

from __future__ import annotations

from clawmem.report.target import DEFAULT_NAME, SUFFIXES, build, check_target, default_path, write

__all__ = ["DEFAULT_NAME", "SUFFIXES", "build", "check_target", "default_path", "write"]
