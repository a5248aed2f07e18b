"""Claude Code's own auto memory: switch it off reversibly, and bring its topic files in.

Claude Code keeps auto memory on by default (``~/.claude/projects/<project>/memory/``: a
``MEMORY.md`` index loaded into every session plus topic files it reads on demand). With
clawmem's hooks installed both memories are injected, so ``install claude-code --auto-memory
off`` writes ``"autoMemoryEnabled": false`` into the same settings file as the hooks and records
what was there before (``$XDG_STATE_HOME/clawmem/claude-auto-memory.json``); the uninstall puts
that back unless the user changed the setting since.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from clawmem.foundation.config import CLAUDE_AUTO_MEMORY_KEY, CLAUDE_AUTO_MEMORY_STATE, CLAUDE_MEMORY_IMPORTS
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass, field


def state_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clawmem" / CLAUDE_AUTO_MEMORY_STATE


def _load_state(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        raise BadInput(f"{path} is not clawmem's JSON record of Claude Code's auto-memory setting; nothing was written", hint="move the file away, then rerun") from None
    return data if isinstance(data, dict) else {}


def switch(settings: dict[str, Any], settings_path: Path, *, off: bool) -> tuple[str | None, tuple[Path, str | None] | None]:
    """Switch auto memory off in ``settings`` (or, with ``off=False``, restore what install replaced).

    Returns the state afterwards ("off", "restored" or None when nothing changed) and the state
    file's new text (None: delete it), written only after the settings file.
    """
    path = state_path()
    state = _load_state(path)
    key = str(settings_path)
    if off:
        if key not in state:
            state[key] = {"had_key": CLAUDE_AUTO_MEMORY_KEY in settings, "previous": settings.get(CLAUDE_AUTO_MEMORY_KEY)}
        settings[CLAUDE_AUTO_MEMORY_KEY] = False
        return "off", (path, json.dumps(state, indent=2) + "\n")
    record = state.pop(key, None)
    if record is None:
        return None, None
    if settings.get(CLAUDE_AUTO_MEMORY_KEY) is False:  # still what install wrote: put back what was there
        if record.get("had_key"):
            settings[CLAUDE_AUTO_MEMORY_KEY] = record.get("previous")
        else:
            settings.pop(CLAUDE_AUTO_MEMORY_KEY, None)
    return "restored", (path, json.dumps(state, indent=2) + "\n" if state else None)


def save_state(path: Path, text: str | None) -> None:
    from clawmem.storage.durable import atomic_write

    if text is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"))


@dataclass(frozen=True)
class ImportReport:
    files: list[str]
    imported: int
    skipped: int  # units imported before, or refused as echoes or forgotten content
    notes: list[dict[str, Any]] = field(default_factory=list)  # {source, path, line, text}


def topic_files(sources: list[Path], home: Path) -> list[Path]:
    """The topic files to import: the given files, the ``*.md`` in given directories, else every project's memory."""
    from clawmem.hosts.claude_code import auto_memory_root

    if not sources:
        return sorted(p for p in auto_memory_root(home).glob("*/memory/*.md") if p.name != "MEMORY.md")
    found = []
    for source in sources:
        if source.is_dir():
            found += sorted(p for p in source.glob("*.md") if p.name != "MEMORY.md")
        elif source.is_file():
            found.append(source)
        else:
            raise BadInput(f"{source} is neither a file nor a directory; nothing was imported", hint="name a memory/ directory or a topic file")
    return found


def units(text: str) -> list[str]:
    """A topic file's notes: list items and paragraphs, without front matter and headings."""
    import frontmatter

    from clawmem.entries import grammar

    body = frontmatter.loads(text).content
    out = []
    for block in grammar.parse(body).blocks:
        if isinstance(block, grammar.Entry):
            out.append(block.body)
        elif block.kind == "text":
            out.append(" ".join(line.strip() for line in block.lines))
    return [" ".join(u.split()) for u in out if u.strip()]


def import_notes(ws: Any, sources: list[Path], *, home: Path) -> ImportReport:
    """Bring Claude Code's topic files in as owner notes, each with its source file recorded.

    Every file is read and split before the first note is written; a unit imported before (by
    text hash, in ``.clawmem/claude-memory-imports.json``) is not written again.
    """
    from clawmem.commands.notes import add_note
    from clawmem.entries import identity
    from clawmem.rules.inputs import decode_input
    from clawmem.storage.durable import atomic_write

    files = topic_files(sources, home)
    planned = []
    for path in files:
        text = decode_input(path.read_bytes(), limit=ws.config.limits.max_ingest_bytes, what=str(path))
        planned += [(path.absolute(), unit) for unit in units(text)]
    done_path = ws.state_dir / CLAUDE_MEMORY_IMPORTS
    try:
        done = json.loads(done_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        done = {}
    notes, skipped = [], 0
    for path, unit in planned:
        digest = identity.text_hash(unit)
        if digest in done:
            skipped += 1
            continue
        result = add_note(ws, unit, origin="owner", session="claude-memory", source=str(path))
        done[digest] = str(path)
        if result.written:
            notes.append({"source": str(path), "path": result.path, "line": result.line, "text": unit})
        else:
            skipped += 1
    if planned:
        atomic_write(done_path, (json.dumps(done, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return ImportReport([str(p) for p in files], len(notes), skipped, notes)
