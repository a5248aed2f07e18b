"""Session-end transcript ingestion: JSONL or Markdown in, ``transcripts/<session>.md`` out.

Each turn becomes one entry with its observed time and turn id; its origin follows the
role (user turns take the sender's class, assistant text inherits it, tool output is
untrusted, system prompts are scaffolding), except that an agent-class turn restating an
earlier untrusted turn of the same transcript, or an untrusted hit clawmem returned, is
untrusted-derived (``clawmem.content_origin``; ``derived_from`` in the ledger). Recalled
blocks and echoed recalled lines are dropped, so what clawmem injected never comes back as
new evidence.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

from clawmem import content_origin, ledger, loopguard, notes
from clawmem.entries import grammar
from clawmem.entries.neutralise import neutralise
from clawmem.errors import BadInput, Forbidden
from clawmem.inputs import decode_input
from clawmem.timeparse import local_now
from clawmem.workspace import Workspace, atomic_write, validate_session_id

MD_TURN = re.compile(r"^\s*(?:#{1,6}\s*)?\**\s*(user|assistant|system|tool|developer|function)\s*\**\s*:?\**\s*(.*)$", re.IGNORECASE)
TIME_KEYS = ("timestamp", "time", "ts", "created_at", "date")
ID_KEYS = ("id", "turn_id", "dia_id", "turn")


@dataclass(frozen=True)
class Turn:
    role: str
    content: str
    speaker: str | None = None
    at: dt.datetime | None = None
    turn_id: str | None = None


def role_origin(role: str, sender_origin: str) -> str:
    """The origin class of a turn, from its role and the class of the session's sender."""
    role = role.lower()
    if role == "user":
        return sender_origin
    if role == "assistant":
        return "agent" if sender_origin in ("owner", "agent") else "untrusted"
    if role in ("system", "developer"):
        return "system"
    return "untrusted"  # tool and function output, and any role we do not know


def _content(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in value]
        return "\n".join(p for p in parts if p)
    return "" if value is None else str(value)


def _when(value: object) -> dt.datetime | None:
    if isinstance(value, (int, float)):
        return dt.datetime.fromtimestamp(value)
    if isinstance(value, str):
        return grammar.parse_when(value.replace("Z", "+00:00"))
    return None


def parse_jsonl(text: str) -> tuple[list[Turn], str | None]:
    """Turns and the session id named in the records (if any)."""
    stripped = text.lstrip()
    try:
        records = json.loads(stripped) if stripped.startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
    except ValueError as err:
        raise BadInput(f"transcript is not valid JSONL: {err}", hint="one JSON object per line with role and content") from err
    turns, session = [], None
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict) or "role" not in record:
            raise BadInput(f"transcript record {number} has no role", hint="each line needs {\"role\": ..., \"content\": ...}")
        session = session or record.get("session_id") or record.get("session")
        turns.append(
            Turn(
                role=str(record["role"]).lower(),
                content=_content(record.get("content")),
                speaker=record.get("speaker") or record.get("name"),
                at=next((_when(record[k]) for k in TIME_KEYS if k in record), None),
                turn_id=next((str(record[k]) for k in ID_KEYS if record.get(k) is not None), None),
            )
        )
    return turns, session


def parse_markdown(text: str) -> list[Turn]:
    """``user: …`` / ``**assistant:** …`` / ``## tool`` turns; following lines continue a turn."""
    turns: list[Turn] = []
    role, lines = None, []
    for line in text.splitlines():
        match = MD_TURN.match(line)
        if match:
            if role:
                turns.append(Turn(role, "\n".join(lines).strip()))
            role, lines = match.group(1).lower(), [match.group(2)]
        elif role:
            lines.append(line)
    if role:
        turns.append(Turn(role, "\n".join(lines).strip()))
    if not turns:
        raise BadInput("no turns found in the Markdown transcript", hint="start each turn with 'user:' or 'assistant:'")
    return turns


def detect_format(text: str) -> str:
    return "jsonl" if text.lstrip().startswith(("{", "[")) else "markdown"


@dataclass(frozen=True)
class IngestResult:
    session: str
    path: str
    turns: int
    written: int
    dropped_marked: int
    dropped_recalled: int
    replaced: bool
    derived: int = 0  # agent-class turns recorded untrusted because they restate untrusted text


def _tombstoned(ws: Workspace, session: str) -> bool:
    return any(r.get("t") == "tombstone" and r.get("session") == session for r in ledger.read(ws).records)


def ingest(
    ws: Workspace,
    data: bytes | str,
    *,
    session: str | None = None,
    fallback_session: str | None = None,
    origin: str,
    session_kind: str = "interactive",
    fmt: str = "auto",
    at: dt.datetime | None = None,
) -> IngestResult:
    """Write one session's transcript into ``transcripts/`` with provenance for every turn."""
    notes.check_provenance(origin, session_kind)
    text = decode_input(data, limit=ws.config.limits.max_ingest_bytes, what="transcript")
    fmt = detect_format(text) if fmt == "auto" else fmt
    if fmt == "jsonl":
        turns, named = parse_jsonl(text)
    elif fmt == "markdown":
        turns, named = parse_markdown(text), None
    else:
        raise BadInput(f"unknown transcript format {fmt!r}", hint="use jsonl, markdown or auto")
    session = session or named or fallback_session
    if not session:
        raise BadInput("the transcript names no session id", hint="pass --session ID")
    session = validate_session_id(session)
    if _tombstoned(ws, session):
        raise Forbidden(f"session {session} was forgotten; it is not ingested again", hint="use a new session id")
    path = ws.transcript(session)
    fallback = (at or local_now()).replace(microsecond=0)

    dropped_marked = 0
    cleaned: list[tuple[Turn, list[str]]] = []
    for turn in turns:
        body, marked = loopguard.strip_marked(turn.content)
        dropped_marked += marked
        lines = [neutralise(l) for l in body.splitlines() if loopguard.normalise(l)]
        cleaned.append((turn, lines))
    blocked = notes.blocked_hashes(ws, [loopguard.text_hash(l) for _, lines in cleaned for l in lines])

    rendered, records, dropped_recalled, derived = [], [], 0, 0
    rel = ws.rel(path)
    recalled = notes.untrusted_sources(ws) if any(role_origin(t.role, origin) == "agent" for t, _ in cleaned) else []
    earlier: list[content_origin.Source] = []  # untrusted turns of this transcript so far
    for number, (turn, lines) in enumerate(cleaned, 1):
        kept = [l for l in lines if loopguard.text_hash(l) not in blocked]
        dropped_recalled += len(lines) - len(kept)
        sender_class = role_origin(turn.role, origin)
        turn_origin, source = content_origin.classify(sender_class, "\n".join(kept), [*earlier, *recalled], ws.config.taint)
        if sender_class == "untrusted":
            earlier.append(content_origin.Source(f"{turn.role} turn {turn.turn_id or number} of {rel}", "\n".join(lines)))
        if not kept:
            continue
        derived += source is not None
        label = grammar.clean_value(str(turn.speaker or turn.role)).replace(":", "")
        body = f"{label}: " + "\n".join(kept)
        observed = (turn.at or fallback).replace(microsecond=0)
        meta = [("observed", observed.isoformat())]
        if turn.turn_id:
            meta.append(("turn", turn.turn_id))
        rendered.append(grammar.render_entry(body, meta))
        record = ledger.entry_record(
            rel, loopguard.text_hash(body), origin=turn_origin,
            session_kind=session_kind, session=session, observed=observed.isoformat(),
        )
        records.append({**record, "derived_from": source} if source is not None else record)
    import frontmatter  # deferred: yaml is only needed when a transcript is written

    header = {"session": session, "session_kind": session_kind, "ingested_at": ledger.now_iso(), "turns": len(rendered)}
    document = frontmatter.dumps(frontmatter.Post(f"# Transcript {session}\n\n" + "".join(rendered), **header)) + "\n"
    with ws.lock_file(path):
        replaced = path.exists()
        ledger.append(ws, records)
        atomic_write(path, document.encode())
    return IngestResult(session, rel, len(turns), len(rendered), dropped_marked, dropped_recalled, replaced, derived)
