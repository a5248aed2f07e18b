"""What a live session's agent has been exposed to, read from the transcript its host is writing.

The rule is ``clawmem.trust.sessions`` (``exposure_of``, what an ingest ``left_open``); reading
and parsing the host's transcript is this module's part, so the rules need no parser.
"""

from __future__ import annotations

from pathlib import Path

from clawmem.rules.inputs import read_transcript
from clawmem.storage.workspace import Workspace
from clawmem.transcripts.parse import parse_transcript
from clawmem.trust import sessions


def exposure(ws: Workspace, session: str | None) -> str | None:
    """The exposure open in ``session`` now (what an agent write inherits), or None.

    ``session`` is the one named, else the host's (``sessions.current``). Read from the
    transcript a hook registered; an unreadable or oversized one counts as exposed (we cannot
    tell what the agent saw, and a lost file must never make text more trusted). A session no
    hook registered: what its last ingest left open. Either way, then, what clawmem handed its
    agent from untrusted content since the owner last typed; and, session or not, what it handed
    any other caller lately: a session id is a claim, and any agent may have been that caller
    (``sessions`` module doc)."""
    session = sessions.current(session)
    own = None
    if session:
        known = sessions.recorded(ws, session)
        own = (_transcript_exposure(ws, session, *known.transcript) if known.transcript else known.left_open) or known.shown
    return own or sessions.recent_exposure(ws, session)


def _transcript_exposure(ws: Workspace, session: str, transcript: Path, host: str) -> str | None:
    why: list[str] = []
    raw = read_transcript(transcript, ws.config.limits.max_ingest_bytes, why)
    if raw is None:
        return f"session {session}: {why[0] if why else 'transcript unreadable'}"
    try:
        turns = parse_transcript(raw.decode("utf-8", "replace"), host).turns
    except Exception as err:  # noqa: BLE001 -- any parse failure: what the agent saw is unknown
        return f"session {session}: transcript unreadable ({type(err).__name__})"
    return sessions.exposure_of(session, turns)
