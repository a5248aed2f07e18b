"""The live lineage of a session: what its agent has been exposed to since the owner last typed.

A note the agent writes mid-session (``clawmem note add/flush --session``, the MCP note tools)
inherits the session's lineage like a transcript turn does: if untrusted or system content
entered the context after the owner's last typed prompt, the note is untrusted-derived,
whatever its words. Host hooks register the session's transcript (``remember``: the host writes
it as the session runs), and ``exposure`` reads it at the moment of the write. The prompt hook
also records what the person typed (``remember``, hashes only: ``clawmem.trust.typed``).

A session no hook registered has no known transcript: its notes are judged by the wording
detector alone (``clawmem.trust.content_origin``), as before; ``docs/architecture.md`` says so.
"""

from __future__ import annotations

import json
from pathlib import Path

from clawmem.config import SESSION_MAX_PROMPTS
from clawmem.trust import lineage
from clawmem.workspace import Workspace

SESSIONS_DIR = "runtime/sessions"


def _record(ws: Workspace, session: str) -> Path:
    return ws.state_dir / SESSIONS_DIR / f"{session}.json"


def _read(ws: Workspace, session: str) -> dict:
    from clawmem.errors import ClawmemError
    from clawmem.workspace import validate_session_id

    try:
        record = json.loads(_record(ws, validate_session_id(session)).read_text())
    except (OSError, ValueError, ClawmemError):
        return {}
    return record if isinstance(record, dict) else {}


def _write(ws: Workspace, session: str, record: dict) -> None:
    from clawmem.workspace import atomic_write, validate_session_id

    path = _record(ws, validate_session_id(session))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(record).encode())


def remember(ws: Workspace, session: str, *, transcript: Path | None = None, host: str = "", prompt: str | None = None) -> None:
    """Remember where the host writes ``session``'s transcript and (by ``typed.mark``) a prompt its
    prompt hook received, what the person typed. Called by every hook event, so the record is read
    once and written only when it changed."""
    from clawmem import loopguard
    from clawmem.trust import typed

    record = _read(ws, session)
    changed = dict(record)
    if transcript is not None:
        changed.update(transcript=str(transcript), host=host)
    if prompt is not None and loopguard.normalise(prompt):
        known = [h for h in record.get("prompts", []) if isinstance(h, str)]
        digest = typed.mark(prompt)
        if digest not in known:
            changed["prompts"] = [*known, digest][-SESSION_MAX_PROMPTS:]
    if changed != record:
        _write(ws, session, changed)


def typed_prompts(ws: Workspace, session: str) -> frozenset[str]:
    """Marks (``typed.mark``) of the prompts the hook recorded for ``session`` (empty: none recorded)."""
    return frozenset(h for h in _read(ws, session).get("prompts", []) if isinstance(h, str))


def exposure(ws: Workspace, session: str | None) -> str | None:
    """The exposure open in ``session`` now (what an agent write inherits), or None.

    Read from the transcript a hook registered; an unreadable or oversized one counts as
    exposed (we cannot tell what the agent saw, and a lost file must never make text more
    trusted)."""
    if not session:
        return None
    record = _read(ws, session)
    if not isinstance(record.get("transcript"), str) or not isinstance(record.get("host"), str):
        return None  # no hook registered this session
    transcript, host = Path(record["transcript"]), record["host"]
    from clawmem.ingest import parse_transcript
    from clawmem.inputs import read_transcript
    from clawmem.trust import provenance

    why: list[str] = []
    raw = read_transcript(transcript, ws.config.limits.max_ingest_bytes, why)
    if raw is None:
        return f"session {session}: {why[0] if why else 'transcript unreadable'}"
    try:
        turns = parse_transcript(raw.decode("utf-8", "replace"), host).turns
    except Exception as err:  # noqa: BLE001 -- any parse failure: what the agent saw is unknown
        return f"session {session}: transcript unreadable ({type(err).__name__})"
    views = [
        lineage.TurnView(provenance.role_origin(t.role, provenance.HOST_SENDER_ORIGIN), t.content, f"{t.role} turn {t.turn_id or n} of session {session}", typed=t.role == "user")
        for n, t in enumerate(turns, 1)
    ]
    now = lineage.TurnView("agent", "(the write)", "now")
    return lineage.verdicts([*views, now])[-1].derived_from
