"""Session-end transcript ingestion: a host's transcript in, ``transcripts/<session>.md`` out.

This module dispatches: Markdown is read here, JSON transcripts by one module per host
format in ``clawmem.transcripts`` (Claude Code, Codex rollouts, OpenAI messages, clawmem's
own JSONL), recognised by content unless the caller names the format. Those modules only
say which role produced each block; the cleaning, time checks and origins are decided here.

Each turn becomes one entry with its observed time and turn id; its origin follows the
role (user turns take the sender's class, assistant text inherits it, tool output is
untrusted, system prompts are scaffolding), except that an agent-class turn made after
untrusted or system content entered the session and before the owner typed again is
untrusted-derived whatever it says (``clawmem.trust.lineage``, unless the owner endorsed it),
and so is one restating an earlier untrusted turn of the same transcript or an untrusted hit
clawmem returned (``clawmem.trust.content_origin``); ``derived_from`` in the ledger names the source. Recalled
blocks and echoed recalled lines are dropped, so what clawmem injected never comes back as
new evidence.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from clawmem.commands import notes
from clawmem.entries import grammar, identity
from clawmem.entries import lines as line_model
from clawmem.foundation.config import INGEST_READ_FACTOR
from clawmem.foundation.errors import BadInput, ClawmemError, Forbidden
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import local_now, parse_when
from clawmem.rules import incoming
from clawmem.rules.inputs import decode_input
from clawmem.storage import ledger, ledger_records
from clawmem.storage.durable import atomic_write
from clawmem.storage.ledger_records import LedgerRecord
from clawmem.storage.workspace import Workspace, validate_session_id
from clawmem.transcripts.parse import HOSTS, ROLES, Turn, parse_transcript
from clawmem.transcripts.sessions import TRANSCRIPTS, session_files, session_slot
from clawmem.trust import content_origin, echoes, framing, lineage, provenance
from clawmem.trust import sessions as session_lineage
from clawmem.trust import typed as typed_rule


@dataclass(frozen=True)
class IngestResult:
    session: str
    path: str
    turns: int
    written: int
    dropped_marked: int
    dropped_recalled: int
    replaced: bool
    derived: int = 0  # agent-class turns recorded untrusted: made after untrusted content (lineage) or restating it
    format: str = "jsonl"
    skipped: dict[str, int] = field(default_factory=dict)  # known record/block kinds not kept (thinking, metadata)
    unknown: dict[str, int] = field(default_factory=dict)  # record/block types the format does not define
    cut: dict[str, int] = field(default_factory=dict)  # oversized tool output cut, not refused (``clawmem.transcripts.cuts``)
    lifted: int = 0  # agent turns made after untrusted content that the owner then endorsed (``clawmem.trust.lineage``)
    unconfirmed: int = 0  # Markdown user turns after tool or system text, kept as system (``clawmem.trust.typed.owner_turns``)


def read_limit(ws: Workspace) -> int:
    """How many bytes of transcript are read: more than is kept, because oversized tool output is cut, not refused."""
    return ws.config.limits.max_ingest_bytes * INGEST_READ_FACTOR


def check_kept_size(ws: Workspace, turns: list[Turn]) -> None:
    """Refuse a transcript that is still over ``limits.max_ingest_bytes`` after its tool output was cut."""
    limit = ws.config.limits.max_ingest_bytes
    size = sum(len(t.content.encode("utf-8", "surrogatepass")) for t in turns)
    if size > limit:
        raise BadInput(f"transcript is {size:,} bytes after cutting oversized tool output; the limit is {limit:,}",
                       hint="split it, or raise the limits in clawmem.toml")


def caller_host(host: str | None, fmt: str) -> str:
    """The channel a transcript came through: named by the caller, else its host format, else the CLI."""
    return host or (fmt if fmt in HOSTS else "cli")


def check_replaceable(records: list[LedgerRecord], session: str, rel: str, origin: str, tombstoned: frozenset[str]) -> None:
    """Refuse a forgotten session (one of ``tombstoned``, ``ledger.tombstones``), and replacing a
    transcript another origin class sent.

    Transcripts ingested before the sender was recorded are judged by their entries: one
    holding content more trusted than the new sender could produce is not replaced.
    """
    if session in tombstoned:
        raise Forbidden(f"session {session} was forgotten; it is not ingested again", hint="use a new session id")
    senders = {r.get("origin") for r in records if r.get("t") == "transcript" and r.get("path") == rel}
    if senders:
        if senders != {origin}:
            raise Forbidden(
                f"transcript {rel} was sent by {'/'.join(sorted(map(str, senders)))}; a {origin} caller cannot replace it",
                hint="ingest it under a new session id",
            )
        return
    reach = max(provenance.TRUST_RANK[provenance.role_origin(role, origin)] for role in ROLES)
    held = [r.get("origin") for r in records if r.get("t") == "entry" and r.get("path") == rel]
    if any(provenance.TRUST_RANK.get(str(o), 0) > reach for o in held):
        raise Forbidden(f"transcript {rel} holds content more trusted than a {origin} caller", hint="ingest it under a new session id")


def _label(turn: Turn) -> str:
    """The speaker label a turn is written under (``label: text``)."""
    return incoming.clean_value(str(turn.speaker or turn.role)).replace(":", "")


@dataclass(frozen=True)
class Prior:
    """What this session's transcripts already hold: lines by (label, text hash), and when each turn was observed."""

    lines: Counter[tuple[str, str]]
    observed: dict[tuple[str, str], str]


def prior_turns(ws: Workspace, session: str) -> Prior:
    """The lines of every transcript file of ``session`` (its plain name and each sender's slot).

    A line counts as many times as the file holding it most often does: the hook's slot and an
    MCP client's slot of the same session are two copies of one conversation, not two.
    """
    lines: Counter[tuple[str, str]] = Counter()
    observed: dict[tuple[str, str], str] = {}
    folder = ws.transcripts_dir
    names = [f"{TRANSCRIPTS}/{p.name}" for p in folder.iterdir()] if folder.is_dir() else []
    for rel in session_files(names, session):
        try:
            text = ws.require_member(ws.root / rel).read_text(encoding="utf-8", errors="replace")
        except (OSError, ClawmemError):
            continue  # a linked or unreadable file holds nothing this session said
        here: Counter[tuple[str, str]] = Counter()
        for entry in grammar.parse(text).entries:
            label, colon, first = entry.body.partition(": ")
            if not colon:
                continue
            said = [first, *entry.body.split("\n")[1:]]
            here.update((label, identity.text_hash(ln)) for ln in said if identity.normalise(ln))
            if entry.observed:
                observed.setdefault((label, identity.text_hash(entry.body)), entry.observed)
        lines |= here
    return Prior(lines, observed)


def _own_turns(ws: Workspace, prior: Prior, cleaned: list[tuple[Turn, list[str]]], labels: list[str], *, timed: bool) -> set[tuple[int, int]]:
    """(turn, line) positions that are the session's own words, which the echo rule never drops.

    Recall-loop prevention is about what clawmem handed out coming back, never about a session's
    own turns: a line the session's transcript already held (the same label, as many times as it
    held it: a resume, a per-turn Stop, an MCP client re-ingesting the session), and, with
    ``timed`` (an owner's transcript whose host records carry times), a line the host recorded
    before clawmem first handed that text out (``echoes.first_handed_out``: a fork's copy of
    a turn a search returned later) are the originals, not echoes.
    """
    held = Counter(prior.lines)
    own: set[tuple[int, int]] = set()
    for i, ((_, lines), label) in enumerate(zip(cleaned, labels, strict=True)):
        for j, line in enumerate(lines):
            key = (label, identity.text_hash(line))
            if held[key] > 0:
                held[key] -= 1
                own.add((i, j))
    if not timed:
        return own
    dated = {(i, j): identity.text_hash(line) for i, (turn, lines) in enumerate(cleaned) if turn.at is not None
             for j, line in enumerate(lines) if (i, j) not in own}
    first = echoes.first_handed_out(ws, set(dated.values()))
    for (i, j), text_hash in dated.items():
        at = cleaned[i][0].at
        if text_hash in first and at is not None and at.astimezone() < first[text_hash]:
            own.add((i, j))
    return own


def _observed_before(prior: Prior, label: str, body: str) -> dt.datetime | None:
    """When an undated turn the session's transcript already held was first observed (re-ingest keeps the same rows)."""
    seen = prior.observed.get((label, identity.text_hash(body)))
    return parse_when(seen) if seen else None


def _blocked(ws: Workspace, cleaned: list[tuple[Turn, list[str]]], origin: str, own: set[tuple[int, int]]) -> notes.Blocked:
    """Forgotten and recalled lines of a transcript, the session's own lines left out: the owner's
    typed turns by the exact rule only (resembling a recalled line never costs the owner a turn),
    everything else by identity too."""
    checked = [(t, identity.text_hash(ln)) for i, (t, lines) in enumerate(cleaned) for j, ln in enumerate(lines) if (i, j) not in own]
    typed = {h for t, h in checked if provenance.role_origin(t.role, origin) == "owner"}
    originals = [identity.text_hash(cleaned[i][1][j]) for i, j in own]
    return notes.blocked_hashes(ws, [h for _, h in checked], exact_only=typed, originals=originals)


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
    host: str | None = None,
    typed: frozenset[str] = frozenset(),
) -> IngestResult:
    """Write one session's transcript into ``transcripts/`` with provenance for every turn.

    ``host`` is the channel the caller is (``mcp``, ``cli``; a hook's host format by default):
    with ``origin`` it is the session's identity (``clawmem.transcripts.sessions``). ``typed``
    holds the hashes of the prompts the host's prompt hook received: when given, a user turn is
    the owner's only where it is one of them; without, a Markdown user turn after tool or system
    text is not the owner's (``clawmem.trust.typed.owner_turns``).
    """
    provenance.check_provenance(origin, session_kind)
    text = decode_input(data, limit=read_limit(ws), what="transcript")
    transcript = parse_transcript(text, fmt)
    turns = typed_rule.owner_turns(transcript.turns, transcript.format, typed)
    check_kept_size(ws, turns)
    session = session or fallback_session
    if not session:
        raise BadInput("no session id: the caller names the session, never the transcript", hint="pass --session ID")
    session = validate_session_id(session)
    channel = caller_host(host, fmt)
    path = ws.root / session_slot(ledger.read(ws).records, session, origin, channel)
    check_replaceable(ledger.read(ws).records, session, ws.rel(path), origin, ledger.tombstones(ws).sessions)
    fallback = (at or local_now()).replace(microsecond=0)

    dropped_marked = 0
    cleaned: list[tuple[Turn, list[str]]] = []
    for turn in turns:
        body, marked = incoming.clean(turn.content, typed_by_owner=False)
        dropped_marked += marked
        lines = [ln for ln in line_model.split(body) if identity.normalise(ln) or line_model.fence(ln)]
        if marked and not lines and turn.role == "system" and not turn.speaker and not framing.holds_untrusted(turn.content):
            # only clawmem's own context, where a host puts a hook's output (Codex: a developer
            # message): nothing new, no exposure. A tool's output or repository context that is
            # only a (forged) recall block stays an exposure.
            continue
        cleaned.append((turn, lines))
    labels = [_label(turn) for turn, _ in cleaned]
    prior = prior_turns(ws, session)
    own = _own_turns(ws, prior, cleaned, labels, timed=origin == "owner")
    blocked = _blocked(ws, cleaned, origin, own)

    rendered, records, dropped_recalled, derived, lifted = [], [], 0, 0, 0
    rel = ws.rel(path)
    recalled = notes.untrusted_sources(ws) if any(provenance.role_origin(t.role, origin) == "agent" for t, _ in cleaned) else []
    earlier: list[content_origin.Source] = []  # untrusted turns of this transcript so far
    anchors = [f"{turn.role} turn {turn.turn_id or number} of {rel}" for number, (turn, _) in enumerate(cleaned, 1)]
    views = [
        lineage.TurnView(
            provenance.role_origin(turn.role, origin), "\n".join(lines), anchor,
            typed=turn.role == "user", says=not turn.subagent and "tool call" not in (turn.speaker or ""),
        )
        for (turn, lines), anchor in zip(cleaned, anchors, strict=True)
    ]
    verdicts = lineage.verdicts(views)
    for number, ((turn, lines), verdict, label) in enumerate(zip(cleaned, verdicts, labels, strict=True), 1):
        kept = [ln for j, ln in enumerate(lines) if identity.text_hash(ln) not in (blocked.forgotten if (number - 1, j) in own else blocked)]
        dropped_recalled += len(lines) - len(kept)
        sender_class = provenance.role_origin(turn.role, origin)
        turn_origin, source = content_origin.classify(sender_class, "\n".join(kept), [*earlier, *recalled], ws.config.taint)
        by_lineage = source is None and verdict.derived_from is not None and verdict.lifted_by is None
        if by_lineage:
            turn_origin = "untrusted"
        if sender_class == "untrusted":
            earlier.append(content_origin.Source(f"{turn.role} turn {turn.turn_id or number} of {rel}", "\n".join(lines)))
        if not kept:
            continue
        derived += source is not None or by_lineage
        lifted += source is None and verdict.lifted_by is not None
        body = f"{label}: " + "\n".join(kept)
        observed = (turn.at or _observed_before(prior, label, body) or fallback).replace(microsecond=0)
        meta = [("observed", observed.isoformat())]
        if turn.turn_id:
            meta.append(("turn", incoming.clean_value(turn.turn_id)))
        rendered.append(grammar.render_entry(body, meta))
        turn_kind = provenance.least_eligible_session(session_kind, "subagent" if turn.subagent else None)
        records.append(ledger_records.entry_record(
            rel, identity.text_hash(body), origin=turn_origin, session_kind=turn_kind, session=session, observed=observed.isoformat(),
            derived_from=source, lineage=verdict.derived_from if by_lineage else None, lifted_by=verdict.lifted_by if source is None else None,
        ))
    import frontmatter  # deferred: yaml is only needed when a transcript is written

    header: dict[str, Any] = {"session": session, "session_kind": session_kind, "ingested_at": ledger_records.now_iso(), "turns": len(rendered)}
    document = frontmatter.dumps(frontmatter.Post(f"# Transcript {session}\n\n" + "".join(rendered), **header)) + "\n"
    encoded = document.encode()  # before the ledger: nothing is recorded for a file that cannot be written
    with ws.lock_file(path):
        existing = ledger.read(ws).records
        check_replaceable(existing, session, rel, origin, ledger.tombstones(ws).sessions)  # again, under the lock
        replaced = path.exists()
        # the owner's session also judges the notes its agent wrote during it (trust.sessions)
        notes_derived = session_lineage.derived_notes(existing, session, views, [t.at for t, _ in cleaned]) if origin == "owner" else []
        ledger.append(ws, [
            ledger_records.transcript_record(rel, origin, session_kind, session=session, host=channel), *ledger.unrepeated(ws, existing, [*records, *notes_derived]),
        ])
        atomic_write(path, encoded)
    if origin == "owner":
        session_lineage.settled(ws, session, views)
    return IngestResult(
        session, rel, len(turns), len(rendered), dropped_marked, dropped_recalled, replaced, derived,
        transcript.format, transcript.skipped, transcript.unknown, transcript.cut, lifted,
        sum(t.speaker == typed_rule.UNCONFIRMED for t in turns),
    )
