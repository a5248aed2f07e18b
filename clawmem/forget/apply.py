"""Carrying out a forget plan: blank episodic lines, rewrite curated files, redact history, clean the index."""

from __future__ import annotations

import shutil
from pathlib import Path

from clawmem import diary, loopguard
from clawmem.entries import grammar
from clawmem.errors import Busy
from clawmem.forget.plan import Target, contains
from clawmem.index.db import Index
from clawmem.workspace import Workspace, atomic_write

ATTEMPTS = 5


def blank_episodic(ws: Workspace, path: Path, targets: list[Target]) -> list[Target]:
    """Blank the targets' lines under the file's lock; return those not found as planned."""
    missed = []
    with ws.lock_file(path):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines(keepends=True)
        doc = grammar.parse(text)
        taken: set[int] = set()
        for t in targets:
            if t.block == "prose":
                ok = t.line_start <= len(lines) and lines[t.line_start - 1].strip() == t.body
                span = (t.line_start, t.line_end) if ok else None
            else:
                same = [e for e in doc.entries if loopguard.text_hash(e.body) == t.hash and e.line_start not in taken]
                exact = [e for e in same if e.line_start == t.line_start]
                e = (exact or same)[0] if (exact or same) else None
                span = (e.line_start, e.line_end) if e else None
            if span is None:
                missed.append(t)
                continue
            taken.add(span[0])
            for number in range(span[0], span[1] + 1):
                line = lines[number - 1]
                lines[number - 1] = line[len(line.rstrip("\r\n")):]
        atomic_write(path, "".join(lines).encode())
    return missed


def rewrite_curated(ws: Workspace, path: Path, hashes: set[str]) -> str | None:
    """Remove entries with these hashes from a curated file; return the pre-image (relative)."""
    from clawmem import curated

    for _ in range(ATTEMPTS):
        snap = curated.snapshot(path)
        doc = grammar.parse(snap.text)
        doomed = {e.line_start for e in doc.entries if loopguard.text_hash(e.body) in hashes}
        if not doomed:
            return None
        new_text = "".join(b.raw for b in doc.blocks if not (isinstance(b, grammar.Entry) and b.line_start in doomed))
        result = curated.replace_if_unchanged(ws, snap, new_text, reason="forget")
        if result.written:
            return ws.rel(result.preimage) if result.preimage else None
    raise Busy(f"{path.name} kept changing while entries were being forgotten", hint="run the same forget again")


def redact_diary(ws: Workspace, norms: set[str], stamp: str) -> int:
    """Replace DREAMS.md list lines that quote forgotten text (whole or as a shortened excerpt)."""
    if not norms:
        return 0

    def quotes_forgotten(item: str) -> bool:
        norm = loopguard.normalise(item)
        short = loopguard.normalise(item.split("…", 1)[0]) if "…" in item else None
        return any(contains(n, norm) for n in norms) or bool(short and len(short) >= 20 and any(n.startswith(short) for n in norms))

    return diary.redact(ws, quotes_forgotten, stamp)


def redact_preimages(ws: Workspace, hashes: set[str]) -> int:
    count = 0
    if not ws.preimages_dir.is_dir():
        return 0
    for image in sorted(ws.preimages_dir.glob("*.md")):
        doc = grammar.parse(image.read_text(encoding="utf-8", errors="replace"))
        doomed = {e.line_start for e in doc.entries if loopguard.text_hash(e.body) in hashes}
        if doomed:
            atomic_write(image, "".join(b.raw for b in doc.blocks if not (isinstance(b, grammar.Entry) and b.line_start in doomed)).encode())
            count += 1
    return count


def clean_index(ws: Workspace, hashes: set[str], changed: set[str], spans: set[tuple[str, int]]) -> None:
    """Sync, then drop what the index still holds of the forgotten text."""
    from clawmem.index.maintain import open_synced
    from clawmem.search import matrix
    from clawmem.search.vectors import VEC_TABLE

    index, _ = open_synced(ws)
    with index:
        tables = {r["name"] for r in index.query("SELECT name FROM sqlite_master")}
        wanted = sorted(hashes)
        with index.transaction():
            for start in range(0, len(wanted), 400):
                part = wanted[start : start + 400]
                marks = ",".join("?" * len(part))
                index.execute(f"DELETE FROM recall_events WHERE text_hash IN ({marks})", part)
                index.execute(f"DELETE FROM recalled WHERE text_hash IN ({marks})", part)
                index.execute(f"DELETE FROM embedding_cache WHERE text_hash IN ({marks})", part)
                if "dream_evidence" in tables:
                    index.execute(f"DELETE FROM dream_evidence WHERE entry_hash IN ({marks}) OR unit_hash IN ({marks})", part + part)
            if "dream_evidence" in tables:  # staged evidence quoting a forgotten line, wherever its text also is
                index.executemany("DELETE FROM dream_evidence WHERE path = ? AND line_start = ?", sorted(spans))
            if "dream_candidates" in tables:
                gone = [r["id"] for r in index.query("SELECT id FROM dream_candidates WHERE id NOT IN (SELECT candidate_id FROM dream_evidence)")]
                index.execute("DELETE FROM dream_candidates WHERE id NOT IN (SELECT candidate_id FROM dream_evidence)")
                # a candidate keeps the wording of its first evidence: give it a remaining one
                index.execute(
                    "UPDATE dream_candidates SET text = (SELECT e.text FROM dream_evidence e WHERE e.candidate_id = dream_candidates.id "
                    "ORDER BY e.day DESC, e.path LIMIT 1)"
                )
                if "dream_themes" in tables:
                    import json

                    for row in index.query("SELECT label, candidates FROM dream_themes"):
                        if set(json.loads(row["candidates"])) & set(gone):
                            index.execute("DELETE FROM dream_themes WHERE label = ?", (row["label"],))
        if changed and index.load_vec() and VEC_TABLE in tables:
            # entries of a re-read file get new ids; a reused id must not keep another entry's vector
            marks = ",".join("?" * len(changed))
            with index.transaction():
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT id FROM entries WHERE path IN ({marks}))", sorted(changed))
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)")
        # the vector scan's derived int8 copy still holds the forgotten vectors: drop it, the next search rebuilds it
        shutil.rmtree(matrix.cache_root(index), ignore_errors=True)
        scrub_free_pages(index)


def scrub_free_pages(index: Index) -> None:
    """Deleted rows stay readable in SQLite's free pages, the FTS5 segments and the WAL until overwritten.

    Merging the full-text segments drops deleted postings, VACUUM rewrites the file without free
    pages, and a truncating checkpoint empties the WAL. A reader holding the database open makes
    the checkpoint partial; the next one empties it.
    """
    import apsw

    try:
        index.execute("INSERT INTO entries_fts(entries_fts) VALUES ('optimize')")
        index.execute("VACUUM")
        index.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except apsw.BusyError as err:
        raise Busy(
            "the forgotten text is gone from every file and index row, but another process held the index, so its free pages were not scrubbed",
            hint="run `clawmem index --rebuild` when it is idle",
        ) from err
