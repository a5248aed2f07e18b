"""The recipes a reader copies: shell blocks of the Markdown docs and the examples of every ``--help``.

A Markdown block is a fenced ``bash``, ``sh``, ``shell`` or ``console`` block. One that cannot run
offline in a sandbox (it installs from a package index, talks to a git remote, drives another
program that is not installed) says so right above it, where the reader sees it too::

    <!-- recipe: not run (installs from the package index; .ci/run does this) -->

Blocks inside the README's generated command reference are the ``--help`` examples, which
``tests/test_recipes.py`` runs from the command tree itself (the same text is on the man pages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", "docs/agent-integration.md", "docs/team-memory.md", "docs/mcp.md", "docs/architecture.md", "docs/design.md", "docs/json.md")
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>bash|sh|shell|console)[ \t]*\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)
MARK = re.compile(r"<!--\s*recipe:\s*not run\s*\((?P<why>[^)]+)\)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    file: str
    line: int
    body: str
    not_run: str | None  # the reason written above the block, when it is marked

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def commands(self) -> list[str]:
        """The block as a script: a ``$ `` prompt block keeps only its command lines, the rest as written."""
        lines = [line.strip() for line in self.body.splitlines()]
        if any(line.startswith("$ ") for line in lines):
            return [line[2:] for line in lines if line.startswith("$ ")]
        return [line for line in lines if line and not line.startswith("#")]


def blocks(file: str) -> list[Block]:
    """Every shell block of ``file`` outside generated sections, with its mark."""
    text = (ROOT / file).read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()]
        if before.rfind("<!-- BEGIN GENERATED") > before.rfind("<!-- END GENERATED"):
            continue
        previous = before.rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(previous)
        found.append(Block(file, before.count("\n") + 1, match.group("body"), mark.group("why") if mark else None))
    return found


def all_blocks() -> list[Block]:
    return [block for file in DOCS if (ROOT / file).exists() for block in blocks(file)]
