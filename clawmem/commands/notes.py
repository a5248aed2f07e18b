"""Writers of the episodic tier: ``note add`` (one entry) and ``note flush`` (a block of context).

Both record provenance in the ledger before the line reaches the file, route untrusted notes
to ``memory/quarantine/``, neutralise text that does not come from the owner, and drop
recalled content so it is never re-extracted as a new memory. Agent text that restates an
untrusted hit clawmem returned is untrusted-derived (``clawmem.trust.content_origin``): it is
recorded as untrusted, with ``derived_from``, and goes to the quarantine like any untrusted
note. Owner text is never dropped or downgraded because of untrusted content.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from clawmem.entries import grammar, identity
from clawmem.foundation.errors import BadInput, IndexUnavailable
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import local_now
from clawmem.rules import incoming
from clawmem.rules.inputs import check_encodable, decode_input
from clawmem.storage import ledger, ledger_records
from clawmem.storage.durable import append_durably
from clawmem.storage.ledger_records import EntryRecord, LedgerRecord
from clawmem.storage.workspace import Workspace
from clawmem.transcripts import live
from clawmem.trust import content_origin, echoes, provenance, sessions


def _observed_at(at: dt.datetime | None) -> dt.datetime:
    return (at or local_now()).replace(microsecond=0)


def _target(ws: Workspace, origin: str, day: dt.date) -> Path:
    return ws.quarantine_note(day) if origin == "untrusted" else ws.daily_note(day)


def append_entries(ws: Workspace, path: Path, rendered: list[str], records: Sequence[LedgerRecord], taint: str | None = None) -> int:
    """Append rendered entries under the file's lock, ledger first; return the first new line number.

    A torn last line (a crash or a full disk mid-append) is recorded as such before the newline
    that terminates it, so it can never pass for a hand-written owner line afterwards.
    """
    with ws.lock_file(path):
        if taint is not None:
            records = [ledger_records.taint_record(ws.rel(path), taint), *records]
        ledger.append(ws, [*ledger.tail_records(ws, path), *records])
        existing = path.read_bytes() if path.exists() else b""
        prefix = b""
        if not existing:
            prefix = f"# {path.stem}\n\n".encode()
        elif not existing.endswith(b"\n"):
            prefix = b"\n"
        first_line = (existing + prefix).count(b"\n") + 1
        append_durably(path, prefix + "".join(rendered).encode())
    return first_line


@dataclass(frozen=True)
class Blocked:
    """Hashes a writer must not store: content clawmem handed out, and content it was told to forget."""

    recalled: set[str]
    forgotten: set[str]

    def __contains__(self, text_hash: str) -> bool:
        return text_hash in self.recalled or text_hash in self.forgotten


def blocked_hashes(
    ws: Workspace, hashes: list[str], *, owner: bool = False, exact_only: Collection[str] = (), originals: Collection[str] = (),
) -> Blocked:
    """Check ``hashes`` against the tombstones and the recalled set (each echo is counted).

    Lines are matched by identity too (``echoes.near_echoes``): a decorated or unmarked
    copy of injected text is an echo. Not for the ``owner``'s typed text (all of ``hashes``, or
    those in ``exact_only``), which keeps the exact rule only: resembling a recalled line never
    silently costs the owner a note.
    ``originals`` are lines that cannot be echoes (a session's own turns, ``clawmem.commands.ingest``):
    only the tombstones apply to them, so a forgotten turn never comes back.
    Without a usable index the recalled set is unknown, so only tombstones apply.
    """
    forgotten = (set(hashes) | set(originals)) & ledger.tombstones(ws).hashes
    if not ws.index_path.exists():
        return Blocked(set(), forgotten)
    from apsw import BusyError

    from clawmem.foundation.errors import Busy
    from clawmem.index.db import Index
    from clawmem.index.recalls import take_echoes

    try:
        with Index.open(ws) as index:
            wanted = [h for h in hashes if h not in forgotten]
            recalled = take_echoes(index, wanted)
            if not owner:
                near = [h for h in wanted if h not in recalled and h not in exact_only]
                recalled |= echoes.near_echoes(index, near, ws.config.echo)
            return Blocked(recalled, forgotten)
    except IndexUnavailable:
        return Blocked(set(), forgotten)
    except (BusyError, Busy) as err:
        raise Busy("the index stayed locked while checking for recalled content; nothing was written") from err


def untrusted_sources(ws: Workspace) -> list[content_origin.Source]:
    """The untrusted hits clawmem returned, for checking an agent's write against.

    The ledger's ``returned`` records are added by hash for any the index does not hold (it
    was deleted, or recreated and not yet synced), so an exact echo is caught even then: a
    lost index must never make a copy more trusted.
    """
    from apsw import BusyError

    from clawmem.foundation.errors import Busy
    from clawmem.index import recalls

    found: list[recalls.Handed] = []
    if ws.index_path.exists():
        from clawmem.index.db import Index

        try:
            with Index.open(ws) as index:
                found = recalls.returned_untrusted(index)
        except IndexUnavailable:
            pass
        except (BusyError, Busy) as err:
            raise Busy("the index stayed locked while checking for untrusted sources; nothing was written") from err
    known = {h.text_hash for h in found}
    handed = found + [h for h in recalls.ledger_returned(ws) if h.text_hash not in known]
    return [content_origin.recalled(h.path, h.text, h.text_hash) for h in handed]


@dataclass(frozen=True)
class NoteResult:
    path: str
    line: int | None
    origin: str
    session_kind: str
    quarantined: bool
    written: bool
    reason: str | None = None
    derived_from: str | None = None  # the untrusted source an agent note restates (then recorded untrusted)


def add_note(
    ws: Workspace,
    text: str,
    *,
    origin: str,
    session_kind: str = "interactive",
    session: str | None = None,
    importance: int | None = None,
    triggers: Sequence[str] = (),
    projects: Sequence[str] = (),
    key: str | None = None,
    at: dt.datetime | None = None,
    source: str | None = None,
) -> NoteResult:
    """Append one entry to today's daily note (or the quarantine file) with its provenance.

    ``source`` names the file the note was taken from (``import claude-memory``): it rides as the
    entry's ``source`` metadata and in the ledger record.
    """
    provenance.check_provenance(origin, session_kind)
    session = sessions.current(session)  # a note carries its session, named or the host's
    if importance is not None and not 1 <= importance <= 10:
        raise BadInput(f"importance {importance} is outside 1-10")
    for what, value in [("trigger", t) for t in triggers] + [("project", p) for p in projects] + [("key", key or ""), ("session", session or "")]:
        check_encodable(value, what)
    text = decode_input(text, limit=ws.config.limits.max_note_bytes, what="note text")
    text, _ = incoming.clean(text, typed_by_owner=origin == "owner")
    if not text.strip():
        raise BadInput("note text is empty once recalled blocks are removed")
    sources = untrusted_sources(ws) if origin == "agent" else []
    origin, derived = content_origin.classify(origin, text, sources, ws.config.taint)
    if origin == "agent" and (exposed := live.exposure(ws, session)):
        origin, derived = "untrusted", exposed
    observed = _observed_at(at)
    path = _target(ws, origin, observed.date())
    text_hash = identity.text_hash(text)
    common: dict[str, Any] = dict(
        path=ws.rel(path), origin=origin, session_kind=session_kind, quarantined=origin == "untrusted", derived_from=derived
    )
    blocked = blocked_hashes(ws, [text_hash], owner=origin == "owner")
    if text_hash in blocked.forgotten:
        return NoteResult(line=None, written=False, reason="forgotten content (`clawmem forget`): not stored again", **common)
    if text_hash in blocked.recalled:
        return NoteResult(line=None, written=False, reason="recalled content: counted as an echo, not stored again", **common)
    meta: list[tuple[str, str]] = []
    if importance is not None:
        meta.append(("importance", str(importance)))
    if triggers:
        meta.append(("trigger", ", ".join(incoming.clean_value(t, typed_by_owner=origin == "owner") for t in triggers)))
    for project in projects:
        meta.append(("project", grammar.escape_project(project)))
    if key:
        meta.append(("key", incoming.clean_value(key, typed_by_owner=origin == "owner")))
    if at is not None:
        meta.append(("observed", observed.isoformat()))
    if source:
        meta.append(("source", incoming.clean_value(source, typed_by_owner=origin == "owner")))
    record = ledger_records.entry_record(
        ws.rel(path), text_hash, origin=origin, session_kind=session_kind, session=session, observed=observed.isoformat(),
        derived_from=derived, source=source or None,
    )
    line = append_entries(ws, path, [grammar.render_entry(text, meta)], [record])
    return NoteResult(line=line, written=True, **common)


@dataclass(frozen=True)
class FlushResult:
    path: str
    origin: str
    written: int
    dropped_marked: int
    dropped_recalled: int
    file_taint: str
    lines: list[int] = field(default_factory=list)
    quarantined: int = 0  # agent units that restate an untrusted hit: recorded untrusted, in the quarantine file
    titles: int = 0  # headings left out because they title the entries under them


def flush_units(text: str) -> tuple[list[str], int]:
    """Split a flushed block into entries, and count the section titles left out.

    List items keep their continuation; other lines stand alone. A heading with something
    under it before the next heading titles a section ("# 2026-12-04", "## Decisions"): it
    states nothing, so it is not an entry. A heading with nothing under it is the statement.
    """
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for block in grammar.parse(text).blocks:
        if isinstance(block, grammar.Entry):
            sections[-1][1].append(" ".join([block.body, *block.comments]))
        elif block.kind == "heading":
            sections.append(("".join(block.lines).strip().lstrip("#").strip(), []))
        elif block.kind == "text":
            sections[-1][1].extend(line.strip() for line in block.lines)
    units: list[str] = []
    titles = 0
    for heading, body in sections:
        body = [u.strip() for u in body if u.strip()]
        if heading and body:
            titles += 1
        elif heading:
            units.append(heading)
        units.extend(body)
    return units, titles


def _append_units(
    ws: Workspace, path: Path, kept: list[tuple[str, str, str | None]], records: list[EntryRecord], taint: str | None
) -> list[int]:
    """Append flushed units to one file; return the line number of each."""
    if not kept:
        return []
    rendered = [grammar.render_entry(u) for u, _, _ in kept]
    first = append_entries(ws, path, rendered, records, taint=taint)
    lines = []
    for r in rendered:
        lines.append(first)
        first += r.count("\n")
    return lines


def flush(
    ws: Workspace,
    text: str | bytes,
    *,
    origin: str,
    session_kind: str = "interactive",
    session: str | None = None,
    at: dt.datetime | None = None,
) -> FlushResult:
    """Pre-compaction flush into the daily note; the file records the least-trusted class it received.

    An agent's unit that restates an untrusted hit, or is written while its session is exposed
    (``clawmem.trust.sessions``), goes to the quarantine file as untrusted,
    so it neither rides the daily note's trust nor taints the owner's lines there.
    """
    provenance.check_provenance(origin, session_kind)
    session = sessions.current(session)
    text = decode_input(text, limit=ws.config.limits.max_ingest_bytes, what="flush input")
    text, marked = incoming.clean(text, typed_by_owner=False)
    units, titles = flush_units(text)
    hashes = [identity.text_hash(u) for u in units]
    blocked = blocked_hashes(ws, hashes, owner=origin == "owner")
    sources = untrusted_sources(ws) if origin == "agent" else []
    observed = _observed_at(at)
    path = ws.daily_note(observed.date())
    exposed = live.exposure(ws, session) if origin == "agent" else None
    kept = [
        (u, h, content_origin.classify(origin, u, sources, ws.config.taint)[1] or exposed)
        for u, h in zip(units, hashes, strict=True)
        if h not in blocked and identity.normalise(u)
    ]
    own = [k for k in kept if k[2] is None]
    derived = [k for k in kept if k[2] is not None]

    def records(units: list[tuple[str, str, str | None]], unit_origin: str, target: Path) -> list[EntryRecord]:
        return [
            ledger_records.entry_record(
                ws.rel(target), h, origin=unit_origin, session_kind=session_kind, session=session, observed=observed.isoformat(), derived_from=d
            )
            for _, h, d in units
        ]

    quarantine = ws.quarantine_note(observed.date())
    _append_units(ws, quarantine, derived, records(derived, "untrusted", quarantine), None)
    lines = _append_units(ws, path, own, records(own, origin, path), origin)
    return FlushResult(
        path=ws.rel(path),
        origin=origin,
        written=len(own),
        dropped_marked=marked,
        dropped_recalled=len(units) - len(kept),
        file_taint=origin,
        lines=lines,
        quarantined=len(derived),
        titles=titles,
    )
