"""What forget reports: each removed entry with its indexed provenance, and the ``DREAMS.md`` record (never the text)."""

from __future__ import annotations

from clawmem.forget.plan import Target, excerpt
from clawmem.forget.results import ForgetResult, Removed
from clawmem.foundation.errors import IndexUnavailable
from clawmem.rules.output import plural
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance


def removed_record(t: Target, rows: dict[tuple[str, int], dict]) -> Removed:
    row = rows.get(t.key) or {}
    origin = row.get("origin")
    return Removed(
        t.rel, t.line_start, t.line_end, excerpt(t.body), t.hash, origin, row.get("session_kind"), row.get("session_id"),
        t.why, provenance.shown_untrusted(origin, t.kind),
    )


def diary_lines(result: ForgetResult, preimages: list[str]) -> list[str]:
    out = [f"Forgot ({result.mode}): {len(result.removed)} entr{'y' if len(result.removed) == 1 else 'ies'}; the text is not repeated here."]
    if result.id:
        undo = f"undo with `clawmem forget --undo {result.id}` until {result.undo_until}" if result.undo_until else "kept no undo record: it cannot be undone"
        out.append(f"- forget {result.id}: {undo}")
    for r in result.removed[:50]:
        prov = f"{r.origin or '?'}/{r.session_kind or '?'}" + (f", session {r.session_id}" if r.session_id else "")
        out.append(f"- {cite(r.path, r.line_start)} ({prov}; hash {r.text_hash[:10]}) — {r.why}")
    if len(result.removed) > 50:
        out.append(f"- … and {len(result.removed) - 50} more")
    out += [f"- deleted {p}" for p in result.deleted_files]
    if result.session_tombstoned:
        out.append(f"- session {result.session_tombstoned} tombstoned: it is never ingested again")
    out.append(f"- {result.hashes_tombstoned} text hash(es) tombstoned: note, flush and ingest will not store them again")
    redacted = result.redacted
    if redacted.get("dreams") or redacted.get("preimages") or redacted.get("baseline"):
        out.append(
            f"- redacted {redacted.get('dreams', 0)} earlier line(s) of DREAMS.md, {redacted.get('preimages', 0)} pre-image(s) "
            f"and {plural(redacted.get('baseline', 0), 'audit baseline entry', 'audit baseline entries')}"
        )
    if redacted.get("logs") or redacted.get("report"):
        out.append(f"- redacted {redacted.get('logs', 0)} log line(s); {'deleted' if redacted.get('report') else 'no'} review page (.clawmem/report.html)")
    out += [f"- curated pre-image (redacted): {p}" for p in preimages]
    for item in result.review:
        out.append(f"- needs manual review: {cite(item.path, item.line)} — {item.reason}")
    return out


def provenance_rows(ws: Workspace) -> dict[tuple[str, int], dict]:
    """Index provenance of every entry, for the report (empty when the index is unusable)."""
    from clawmem.index.maintain import open_synced

    try:
        index, _ = open_synced(ws)
    except IndexUnavailable:
        return {}
    with index:
        return {
            (r["path"], r["line_start"]): r
            for r in index.query("SELECT path, line_start, origin, session_kind, session_id FROM entries")
        }
