"""The command line's one front door, checked on the source: public Typer names only."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "clawmem"


def _sources() -> dict[str, str]:
    return {str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_reaches_into_typers_private_click():
    """Typer vendors Click under a private name (``typer._click``) that can change in any release."""
    private = re.compile(r"\btyper\._click\b|from\s+typer\s+import\s+[^\n]*\b_click\b")
    assert [name for name, text in _sources().items() if private.search(text)] == []
