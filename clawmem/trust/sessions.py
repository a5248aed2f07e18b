"""The live lineage of a session: what its agent has been exposed to since the owner last typed.

A note the agent writes mid-session (``clawmem note add/flush --session``, the MCP note tools)
inherits the session's lineage like a transcript turn does: if untrusted or system content
entered the context after the owner's last typed prompt, the note is untrusted-derived,
whatever its words. Host hooks register the session's transcript (``remember``: the host writes
it as the session runs), and ``clawmem.transcripts.live.exposure`` reads it at the moment of the
write and asks ``exposure_of``. The prompt hook
also records what the person typed (``remember``, hashes only: ``clawmem.trust.typed``).

A session ingested through ``clawmem ingest`` (no hook) is judged from its ingested turns: the
exposure still open at its end is kept for the notes written after it (``settled``), and the
notes its agent wrote *before* the ingest, while an exposure was open at their time, are
recorded untrusted-derived then (``derived_notes``; timed transcripts only). A session neither
registered nor ingested has no known lineage of its own.

What clawmem itself hands an agent from untrusted content (``get``, ``search``) is recorded
too (``shown``), because a hook's transcript may not hold it and an unhooked session has no
transcript yet: it stays open until the owner's next typed prompt or the session's next ingest.
A caller names its session with ``--session``, else the host's environment does (``current``:
Claude Code and Codex set it for the commands and MCP servers they run). A session id is the
caller's claim, not a proof (an agent can name any session, or none, for its reads and its
writes), so it can widen what a write inherits and never narrow it: whatever clawmem handed any
caller in the last ``RECENT_EXPOSURE_MINUTES`` (another session, or a caller that named none)
taints every agent note in that time, whatever session the note names (``recent_exposure``).
A session record or a recent-exposure file that exists but cannot be read counts as exposed:
a lost file must never make text more trusted. A note with no known lineage is judged by the
wording detector alone (``clawmem.trust.content_origin``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clawmem.foundation.config import HOST_SESSION_ENV, RECENT_EXPOSURE_MINUTES, SESSION_MAX_PROMPTS, SESSION_MAX_SHOWN
from clawmem.foundation.records import dataclass
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

if TYPE_CHECKING:  # imported where turns are judged: a search records what it showed (``shown``) without it
    from clawmem.storage.ledger_records import EntryRecord, LedgerRecord
    from clawmem.trust import lineage

SESSIONS_DIR = "runtime/sessions"
INGESTED = "open_after_ingest"  # the exposure open at the end of the session's last ingested transcript
SHOWN = "shown"  # untrusted texts clawmem handed the session's agent since the owner last typed
UNREADABLE = {SHOWN: ["a session record that cannot be read"]}  # what the agent saw is unknown
RECENT = "runtime/recent-exposure.json"  # what every caller was handed lately: what, when, to which session


def current(session: str | None) -> str | None:
    """The session a call belongs to: the one named, else the one the host runs us in (its environment)."""
    from clawmem.foundation.errors import ClawmemError
    from clawmem.storage.workspace import validate_session_id

    if session:
        return session
    for name in HOST_SESSION_ENV:
        try:
            return validate_session_id(os.environ[name].strip())
        except (KeyError, ClawmemError):
            continue
    return None


def _record(ws: Workspace, session: str) -> Path:
    return ws.state_dir / SESSIONS_DIR / f"{session}.json"


def _read(ws: Workspace, session: str) -> dict:
    """``session``'s record; none yet: empty; one that exists but cannot be read: ``UNREADABLE``."""
    from clawmem.foundation.errors import ClawmemError
    from clawmem.storage.workspace import validate_session_id

    try:
        record = json.loads(_record(ws, validate_session_id(session)).read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, ClawmemError):
        return dict(UNREADABLE)
    return record if isinstance(record, dict) else dict(UNREADABLE)


def _write(ws: Workspace, session: str, record: dict) -> None:
    from clawmem.storage.workspace import validate_session_id

    _save(_record(ws, validate_session_id(session)), record)


def _save(path: Path, data: dict | list) -> None:
    from clawmem.storage.durable import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(data).encode())


def _shown_in(record: dict) -> list[str]:
    return [s for s in record.get(SHOWN, []) if isinstance(s, str)]


def remember(ws: Workspace, session: str, *, transcript: Path | None = None, host: str = "", prompt: str | None = None) -> None:
    """Remember where the host writes ``session``'s transcript and (by ``typed.mark``) a prompt its
    prompt hook received, what the person typed. Called by every hook event, so the record is read
    once and written only when it changed."""
    from clawmem.entries import identity
    from clawmem.trust import typed

    record = _read(ws, session)
    changed = dict(record)
    if transcript is not None:
        changed.update(transcript=str(transcript), host=host)
    if prompt is not None and identity.normalise(prompt):
        known = [h for h in record.get("prompts", []) if isinstance(h, str)]
        digest = typed.mark(prompt)
        if digest not in known:
            changed["prompts"] = [*known, digest][-SESSION_MAX_PROMPTS:]
        changed.pop(SHOWN, None)  # the owner typed after it: what was shown before no longer taints
    if changed != record:
        _write(ws, session, changed)


def typed_prompts(ws: Workspace, session: str) -> frozenset[str]:
    """Marks (``typed.mark``) of the prompts the hook recorded for ``session`` (empty: none recorded)."""
    return frozenset(h for h in _read(ws, session).get("prompts", []) if isinstance(h, str))


@dataclass(frozen=True)
class Recorded:
    """What ``session``'s record says of its lineage, read once."""

    transcript: tuple[Path, str] | None  # where a hook said the host writes it, and which host
    left_open: str | None  # the exposure its last ingested transcript left open (``settled``)
    shown: str | None  # the first untrusted text clawmem handed its agent since the owner last typed


def recorded(ws: Workspace, session: str) -> Recorded:
    record = _read(ws, session)
    where = record.get("transcript"), record.get("host")
    ingested = record.get(INGESTED)
    shown = _shown_in(record)
    return Recorded(
        (Path(where[0]), where[1]) if isinstance(where[0], str) and isinstance(where[1], str) else None,
        ingested if isinstance(ingested, str) else None,
        shown[0] if shown else None,
    )


def shown(ws: Workspace, session: str | None, what: Sequence[str]) -> None:
    """Record untrusted texts clawmem handed out (``what``: where each came from) with the time,
    for every caller's writes in the next while, and in the lineage of ``session`` (``current``),
    if any, until its owner types (module doc)."""
    from clawmem.foundation.timeparse import now_iso

    if not what:
        return
    session = current(session)
    at = now_iso()
    rows = _recent(ws)
    _save(ws.state_dir / RECENT, [*(rows or []), *({"what": w, "at": at, "session": session} for w in what)][-SESSION_MAX_SHOWN:])
    if session is None:
        return
    record = _read(ws, session)
    known = _shown_in(record)
    added = [w for w in what if w not in known]
    if added:
        _write(ws, session, record | {SHOWN: [*known, *added][-SESSION_MAX_SHOWN:]})


def _recent(ws: Workspace) -> list[dict[str, str | None]] | None:
    """What clawmem handed any caller within ``RECENT_EXPOSURE_MINUTES``, oldest first; None: the
    file exists and cannot be read."""
    from clawmem.foundation.timeparse import as_local, local_now

    try:
        rows = json.loads((ws.state_dir / RECENT).read_text())
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return None
    if not isinstance(rows, list):
        return None
    since = local_now() - dt.timedelta(minutes=RECENT_EXPOSURE_MINUTES)
    kept = []
    for row in rows:
        try:
            if isinstance(row.get("what"), str) and as_local(dt.datetime.fromisoformat(row["at"])) >= since:
                kept.append(row)
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
    return kept


def recent_exposure(ws: Workspace, session: str | None) -> str | None:
    """The exposure an agent write inherits from what clawmem handed other callers lately, whatever
    session it names (module doc), or None. What was handed ``session`` itself is its record's
    (``Recorded.shown``), closed by its owner's typed prompt."""
    rows = _recent(ws)
    if rows is None:
        return f"{RECENT} cannot be read"
    others = [row for row in rows if session is None or row.get("session") != session]
    if not others:
        return None
    last = others[-1]
    to = f"session {last['session']}" if last.get("session") else "a caller with no session"
    return f"{last['what']}, to {to}, at {last['at']}"


def exposure_of(session: str, turns: Sequence[Any]) -> str | None:
    """The exposure open at the end of ``session``'s parsed ``turns`` (each with ``role``,
    ``content`` and ``turn_id``), the origins being those of a host's session."""
    from clawmem.trust import lineage

    views = [
        lineage.TurnView(provenance.role_origin(t.role, provenance.HOST_SENDER_ORIGIN), t.content, f"{t.role} turn {t.turn_id or n} of session {session}", typed=t.role == "user")
        for n, t in enumerate(turns, 1)
    ]
    return lineage.open_exposure(views)


def settled(ws: Workspace, session: str, turns: Sequence[lineage.TurnView]) -> None:
    """Keep what ``session``'s ingested ``turns`` leave open, for the agent's later notes (module doc)."""
    from clawmem.trust import lineage

    record = _read(ws, session)
    changed = {k: v for k, v in record.items() if k not in (INGESTED, SHOWN)}  # the transcript now holds what was shown
    if (still := lineage.open_exposure(turns)) is not None:
        changed[INGESTED] = still
    if changed != record:
        _write(ws, session, changed)


def derived_notes(
    records: Sequence[LedgerRecord], session: str, turns: Sequence[lineage.TurnView], times: Sequence[dt.datetime | None]
) -> list[EntryRecord]:
    """Ledger records that make ``session``'s agent notes written during an exposure untrusted-derived.

    ``records``: the ledger so far; ``turns`` and ``times``: the ingested transcript's turns and
    when each was said. A note counts where its time falls: after an exposure and before the
    owner's next typed turn. Untimed turns place nothing, so nothing is judged again; a note the
    owner lifted (a record with ``lifted_by``) stays lifted.
    """
    from clawmem.foundation.timeparse import as_local
    from clawmem.storage import ledger_records
    from clawmem.storage.ledger_records import EntryRecord, is_kind
    from clawmem.trust import lineage

    said = [(turn, as_local(at)) for turn, at in zip(turns, times, strict=True) if at is not None]
    if not said:
        return []
    out = []
    seen = {(r.get("path"), r.get("hash")) for r in records if r.get("t") == "entry" and r.get("lifted_by")}
    for r in records:
        key = (r.get("path"), r.get("hash"))
        if not is_kind(r, EntryRecord) or r.get("session") != session or r.get("origin") != "agent" or key in seen:
            continue
        observed = r.get("observed")
        if not str(r.get("path", "")).startswith("memory/") or not isinstance(observed, str):
            continue
        try:
            moment = as_local(dt.datetime.fromisoformat(observed))
        except ValueError:
            continue
        if (exposed := lineage.open_exposure([turn for turn, at in said if at <= moment])) is not None:
            seen.add(key)
            out.append(ledger_records.entry_record(r["path"], r["hash"], origin="untrusted", session_kind=r.get("kind") or "interactive",
                                                   session=session, observed=observed, lineage=exposed))
    return out

