"""The ``index`` check: the synced index must equal a fresh rebuild from the files and the ledger."""

from __future__ import annotations

import tempfile
from pathlib import Path

from clawmem.audit.results import Finding
from clawmem.foundation.errors import Busy
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

COMPARED = (
    "text", "text_hash", "kind", "tier", "origin", "session_kind", "session_id", "hand_written", "observed_at",
    "supersession_key", "importance", "triggers", "projects", "sources", "status",
)


def _sync(ws: Workspace, index) -> None:
    from filelock import Timeout

    from clawmem.index.sync import sync

    try:
        sync(ws, index)
    except Timeout as err:
        raise Busy("another clawmem process holds the index lock; the audit needs a synced index") from err


def _rows(index) -> tuple[dict[str, str], dict[tuple, dict], dict[str, str]]:
    files = {r["path"]: r["content_hash"] for r in index.query("SELECT path, content_hash FROM files")}
    units: dict[tuple, dict] = {}
    for row in index.query(f"SELECT id, path, line_start, line_end, block, {', '.join(COMPARED)} FROM entries"):
        units[(row["path"], row["line_start"], row["line_end"], row["block"])] = row
    taint = {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")}
    return files, units, taint


def _reference(ws: Workspace, index) -> tuple[dict[str, str], dict[tuple, dict], dict[str, str]]:
    """What a fresh rebuild from the files and the ledger gives (in a throwaway database)."""
    from clawmem.index import migrations
    from clawmem.index.db import Index
    from clawmem.index.sync import sync

    with tempfile.TemporaryDirectory(prefix="clawmem-audit-") as tmp:
        ref = Index(Path(tmp) / "reference.db")
        try:
            migrations.apply(ref)
            # the live index remembers whether the ledger was ever lost or replaced (sticky)
            ref.set_meta("ledger_id", index.meta("ledger_id"))
            ref.set_meta("ledger_intact", index.meta("ledger_intact", "1"))
            try:
                sync(ws, ref, rebuild=True)
            except Exception as err:
                from filelock import Timeout

                if isinstance(err, Timeout):
                    raise Busy("another clawmem process holds the index lock") from err
                raise
            return _rows(ref)
        finally:
            ref.close()


def _describe(row: dict) -> str:
    return f"{row['block']} at lines {row['line_start']}-{row['line_end']}"


def check_index(ws: Workspace, index) -> list[Finding]:
    """Sync, then compare the index with a rebuild from the files and the ledger."""
    from clawmem.index.freshness import pending_changes

    for _ in range(3):  # a writer appending during the audit: sync again rather than report a race
        _sync(ws, index)
        expected = _reference(ws, index)
        actual = _rows(index)
        if actual[0] == expected[0]:
            break
    found: list[Finding] = []
    for rel in pending_changes(ws, index):
        found.append(Finding("index", rel, 0, "the file changed but the index was not updated by a sync"))
    (_, want, want_taint), (_, have, have_taint) = expected, actual
    for key in sorted(set(want) | set(have), key=lambda k: (k[0], k[1], k[2], k[3])):
        w, h = want.get(key), have.get(key)
        if h is None:
            found.append(Finding("index", key[0], key[1], f"the index lacks the file's {_describe(want[key])}"))
        elif w is None:
            found.append(Finding("index", key[0], key[1], f"the index holds an {_describe(h)} that the file does not have"))
        elif (h["origin"], h["session_kind"]) != (w["origin"], w["session_kind"]):
            found.append(
                Finding(
                    "index", key[0], key[1],
                    f"the index says {h['origin']}/{h['session_kind']}; the files and ledger say {w['origin']}/{w['session_kind']}",
                )
            )
        else:
            differ = [c for c in COMPARED if h[c] != w[c]]
            if differ:
                found.append(Finding("index", key[0], key[1], f"the index's {', '.join(differ)} differ from the file and ledger"))
    for rel in sorted(set(want_taint) | set(have_taint)):
        if want_taint.get(rel) != have_taint.get(rel):
            found.append(
                Finding("index", rel, 0, f"the index records taint {have_taint.get(rel)}; the ledger says {want_taint.get(rel)}")
            )
    for row in index.query("SELECT path, line_start FROM entries WHERE id NOT IN (SELECT rowid FROM entries_fts) ORDER BY path, line_start"):
        found.append(Finding("index", row["path"], row["line_start"], "the entry has no full-text row (keyword search cannot find it)"))
    orphans = index.scalar("SELECT count(*) FROM entries_fts WHERE rowid NOT IN (SELECT id FROM entries)")
    if orphans:
        entries, fts = index.scalar("SELECT count(*) FROM entries"), index.scalar("SELECT count(*) FROM entries_fts")
        found.append(Finding("index", ".clawmem/index.db", 0, f"{fts} full-text rows for {entries} entries: {orphans} belong to no entry"))
    found += _check_vectors(index)
    return found


def _check_vectors(index) -> list[Finding]:
    from clawmem.index.vectors import VEC_TABLE

    try:
        if not index.scalar("SELECT count(*) FROM sqlite_master WHERE name = ?", (VEC_TABLE,)) or not index.load_vec():
            return []
        rows = index.query(
            f"SELECT e.path, e.line_start, e.origin, v.trusted FROM {VEC_TABLE} v JOIN entries e ON e.id = v.rowid "
            f"WHERE v.trusted != ({provenance.trusted_sql('e.origin')}) ORDER BY e.path, e.line_start"
        )
    except Exception:  # the vector lane is optional; an unloadable extension is not a disagreement
        return []
    return [
        Finding("index", r["path"], r["line_start"], f"its vector is flagged {'trusted' if r['trusted'] else 'untrusted'} but the entry is {r['origin']}")
        for r in rows
    ]
