"""A workspace shared through git: merge rules, ignored derived files, and the one machine that dreams.

The files are the memory and git carries them (docs/team-memory.md). What git may merge
line by line depends on the file: daily notes, transcripts, ``DREAMS.md`` and the provenance
ledger only ever grow at the end, so ``merge=union`` keeps every line of both sides and can
lose none (the ledger is replayed by content hash, so the order two machines' records land in
does not matter). ``MEMORY.md`` and ``USER.md`` are rewritten as a whole by one writer: a
union there would splice two rewrites into a file neither side wrote, so they merge as plain
text and a conflict stops for a human. The index (with its embedding cache) and the locks
are derived: untracked, rebuilt per machine by ``clawmem index``, which reads trust from the
ledger, never from git.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

from clawmem.foundation.errors import ClawmemError
from clawmem.storage.workspace import Workspace

ENV_HOST = "CLAWMEM_HOST"
KEEP_DRIVER = "clawmem-keep-ours"
GITIGNORE = [
    "# clawmem: derived files, rebuilt per machine (`clawmem index`); never commit them",
    ".clawmem/index.db",
    ".clawmem/index.db-*",
    ".clawmem/locks/",
    ".clawmem/dream.jsonl",
    ".clawmem/*.tmp",
    ".clawmem/runtime/",
    "# the review page quotes memory text (a forgotten secret must not reach git history) and",
    "# the id that binds this machine's trust to this copy of the workspace",
    ".clawmem/report.html",
    ".clawmem/workspace-id",
    "# private undo copies of forgotten lines (a forgotten secret must not reach git history)",
    ".clawmem/forgets/",
    "# kept on purpose: the memory files, .clawmem/provenance.jsonl, .clawmem/preimages/ and",
    "# .clawmem/audit/baseline.json (what `clawmem audit --ci` compares with in a fresh clone)",
]
GITATTRIBUTES = [
    "# clawmem: merge rules for a workspace shared through git (docs/team-memory.md)",
    "# append-only files: a union merge keeps every line of both sides",
    "memory/*.md merge=union",
    "memory/quarantine/*.md merge=union",
    "transcripts/*.md merge=union",
    "DREAMS.md merge=union",
    ".clawmem/provenance.jsonl merge=union",
    "# curated files are rewritten whole: an ordinary merge, so two rewrites conflict for a human",
    "MEMORY.md merge=text",
    "USER.md merge=text",
    "clawmem.toml merge=text",
    f"# any machine's audit baseline is a valid earlier state: keep ours ({KEEP_DRIVER}: clawmem init --git)",
    f".clawmem/audit/baseline.json merge={KEEP_DRIVER}",
]


def this_host() -> str:
    """The name ``dream.host`` is compared with: ``$CLAWMEM_HOST``, else the hostname."""
    return os.environ.get(ENV_HOST, "").strip() or socket.gethostname()


def dream_refusal(ws: Workspace) -> str | None:
    """Why this machine must not dream ``ws`` (``dream.host`` names another one), or None."""
    wanted = ws.config.dream.host.strip()
    if not wanted:
        return None
    here = this_host()
    if here.lower() == wanted.lower() or here.split(".")[0].lower() == wanted.split(".")[0].lower():
        return None
    return f"this workspace dreams on {wanted} only (dream.host) and this machine is {here}"


def ensure_lines(path: Path, lines: list[str]) -> bool:
    """Append the ``lines`` that ``path`` lacks (the user's own lines stay); True when it changed."""
    from clawmem.storage.durable import atomic_write

    text = path.read_text(encoding="utf-8") if path.exists() else ""
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in lines if line.strip() not in have]
    if not any(not line.startswith("#") for line in missing):
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    atomic_write(path, (text + ("\n" if text else "") + "\n".join(missing) + "\n").encode())
    return True


def _git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False, timeout=60)
    if proc.returncode != 0:
        raise ClawmemError(f"`git {' '.join(args)}` failed: {proc.stderr.strip() or f'exit {proc.returncode}'}")
    return proc.stdout


def share(ws: Workspace) -> list[str]:
    """Make ``ws`` a git working tree with clawmem's merge rules; returns what changed."""
    from clawmem.commands import projects

    if shutil.which("git") is None:
        raise ClawmemError("--git needs git, which is not on PATH", hint="install git, or run `clawmem init` without --git")
    changed = []
    if projects.identify(str(ws.root)) is None:
        _git(ws.root, "init", "-q")
        changed.append("git repository")
    if ensure_lines(ws.root / ".gitattributes", GITATTRIBUTES):
        changed.append(".gitattributes")
    if not _has_driver(ws.root):
        _git(ws.root, "config", "--local", f"merge.{KEEP_DRIVER}.name", "clawmem: keep this side's audit baseline")
        _git(ws.root, "config", "--local", f"merge.{KEEP_DRIVER}.driver", "true")
        changed.append(f"merge driver {KEEP_DRIVER}")
    return changed


def _has_driver(root: Path) -> bool:
    proc = subprocess.run(["git", "config", "--local", "--get", f"merge.{KEEP_DRIVER}.driver"], cwd=root, capture_output=True, text=True, check=False, timeout=60)
    return proc.returncode == 0 and proc.stdout.strip() == "true"
