"""Carrying out a forget plan: blank episodic lines, rewrite curated files, redact history, clean the index."""

from __future__ import annotations

import shutil
from pathlib import Path

from clawmem.entries import grammar, identity
from clawmem.forget.plan import Target, contains
from clawmem.foundation.errors import Busy
from clawmem.index.db import Index, in_batches
from clawmem.storage import diary
from clawmem.storage.durable import atomic_write
from clawmem.storage.workspace import Workspace

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
                same = [e for e in doc.entries if identity.text_hash(e.body) == t.hash and e.line_start not in taken]
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
    from clawmem.storage import curated

    for _ in range(ATTEMPTS):
        snap = curated.snapshot(path)
        doc = grammar.parse(snap.text)
        doomed = {e.line_start for e in doc.entries if identity.text_hash(e.body) in hashes}
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
        norm = identity.normalise(item)
        short = identity.normalise(item.split("…", 1)[0]) if "…" in item else None
        return any(contains(n, norm) for n in norms) or bool(short and len(short) >= 20 and any(n.startswith(short) for n in norms))

    return diary.redact(ws, quotes_forgotten, stamp)


def redact_preimages(ws: Workspace, hashes: set[str]) -> int:
    count = 0
    if not ws.preimages_dir.is_dir():
        return 0
    for image in sorted(ws.preimages_dir.glob("*.md")):
        doc = grammar.parse(image.read_text(encoding="utf-8", errors="replace"))
        doomed = {e.line_start for e in doc.entries if identity.text_hash(e.body) in hashes}
        if doomed:
            atomic_write(image, "".join(b.raw for b in doc.blocks if not (isinstance(b, grammar.Entry) and b.line_start in doomed)).encode())
            count += 1
    return count


def clean_index(ws: Workspace, hashes: set[str], changed: set[str], spans: set[tuple[str, int]], norms: frozenset[str] = frozenset()) -> None:
    """Sync, then drop what the index still holds of the forgotten text."""
    from clawmem.index import matrix
    from clawmem.index.maintain import open_synced
    from clawmem.index.vectors import VEC_TABLE

    index, _ = open_synced(ws)
    with index:
        tables = {r["name"] for r in index.query("SELECT name FROM sqlite_master")}
        wanted = sorted(hashes)
        with index.transaction():
            for part, marks in in_batches(wanted):
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
        scrub_index_copies(index, tables, wanted, norms)
        if changed and index.load_vec() and VEC_TABLE in tables:
            # entries of a re-read file get new ids; a reused id must not keep another entry's vector
            marks = ",".join("?" * len(changed))
            with index.transaction():
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT id FROM entries WHERE path IN ({marks}))", sorted(changed))
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)")
        # the vector scan's derived int8 copy still holds the forgotten vectors: drop it, the next search rebuilds it
        shutil.rmtree(matrix.cache_root(index), ignore_errors=True)
        scrub_free_pages(index)


def quotes_forgotten(text: str | None, norms: frozenset[str]) -> bool:
    """True when ``text`` says one of the forgotten texts (whole words, after normalising)."""
    if not text or not norms:
        return False
    norm = identity.normalise(text)
    return any(contains(n, norm) for n in norms)


def scrub_index_copies(index: Index, tables: set[str], hashes: list[str], norms: frozenset[str]) -> None:
    """Copies of forgotten text the entry sync does not reach: untrusted hits clawmem returned
    (``returned_untrusted`` keeps their text) and trigger phrases of curated entries that are gone.

    The index was synced first, so a phrase no current curated entry names is an orphan:
    ``refresh_triggers`` only ever adds, and the phrase would outlive its entry.
    """
    import json

    with index.transaction():
        if "returned_untrusted" in tables:
            for part, marks in in_batches(hashes):
                index.execute(f"DELETE FROM returned_untrusted WHERE text_hash IN ({marks})", part)
            doomed = [r["text_hash"] for r in index.query("SELECT text_hash, text FROM returned_untrusted WHERE text IS NOT NULL") if quotes_forgotten(r["text"], norms)]
            index.executemany("DELETE FROM returned_untrusted WHERE text_hash = ?", [(h,) for h in doomed])
        if "trigger_vectors" in tables:
            named: set[str] = set()
            for row in index.query("SELECT triggers FROM entries WHERE tier = 'curated' AND triggers IS NOT NULL"):
                try:
                    named.update(str(p).casefold() for p in json.loads(row["triggers"]))
                except (ValueError, TypeError):
                    continue
            gone = {r["phrase"] for r in index.query("SELECT DISTINCT phrase FROM trigger_vectors")}
            gone = {p for p in gone if p not in named or quotes_forgotten(p, norms)}
            index.executemany("DELETE FROM trigger_vectors WHERE phrase = ?", [(p,) for p in sorted(gone)])


def log_paths(ws: Workspace) -> list[Path]:
    """The logs clawmem writes that quote memory text: the cron job's ``dream --json-lines`` output."""
    from clawmem.commands.cron import DREAM_LOG

    return [ws.state_dir / DREAM_LOG]


def _redact_value(value: object, norms: frozenset[str]) -> tuple[object, bool]:
    """``value`` with every string that quotes forgotten text replaced by the placeholder."""
    from clawmem.foundation.config import FORGOTTEN_PLACEHOLDER

    if isinstance(value, str):
        return (FORGOTTEN_PLACEHOLDER, True) if quotes_forgotten(value, norms) else (value, False)
    if isinstance(value, list):
        pairs = [_redact_value(v, norms) for v in value]
        return [v for v, _ in pairs], any(hit for _, hit in pairs)
    if isinstance(value, dict):
        out, hit = {}, False
        for k, v in value.items():
            out[k], changed = _redact_value(v, norms)
            hit = hit or changed
        return out, hit
    return value, False


def redact_logs(ws: Workspace, norms: frozenset[str]) -> int:
    """Redact the log lines that quote forgotten text (JSON strings replaced, other lines dropped); lines changed."""
    import json

    count = 0
    for path in log_paths(ws):
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        out: list[bytes] = []
        for line in data.splitlines(keepends=True):
            text = line.decode("utf-8", errors="replace")
            try:
                value, hit = _redact_value(json.loads(text), norms)
            except ValueError:  # a torn or foreign line: dropped whole when it quotes the text
                value, hit = None, quotes_forgotten(text, norms)
            if not hit:
                out.append(line)
                continue
            count += 1
            if value is not None:
                out.append(json.dumps(value, ensure_ascii=False).encode() + b"\n")
        if count:
            with ws.lock_file(path):
                atomic_write(path, b"".join(out))  # a private file (0600), like the curated ones
    return count


def drop_report(ws: Workspace) -> int:
    """Delete the default review page (it quotes memory text, in excerpts no match finds reliably); 1 when deleted."""
    from clawmem.report import default_path

    path = default_path(ws)
    if not path.is_file():
        return 0
    path.unlink(missing_ok=True)
    return 1


def scrub_file_copies(ws: Workspace, norms: frozenset[str]) -> dict[str, int]:
    """Files clawmem wrote beside the memory that may quote forgotten text: its logs and the report."""
    return {"logs": redact_logs(ws, norms), "report": drop_report(ws)}


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
