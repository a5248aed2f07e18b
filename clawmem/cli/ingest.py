"""``clawmem ingest``: session-end transcript ingestion."""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated

import typer

from clawmem.cli.options import (
    AtOpt,
    JsonOpt,
    OriginOpt,
    SessionKind,
    SessionKindOpt,
    SessionOpt,
    WorkspaceOpt,
    resolve_origin,
)


class Format(str, enum.Enum):
    auto = "auto"
    claude_code = "claude-code"
    codex = "codex"
    openai = "openai"
    jsonl = "jsonl"
    markdown = "markdown"


def ingest(
    transcript: Annotated[str, typer.Argument(help="Transcript file (a host's JSONL, JSON or Markdown), or - for standard input.")],
    session: SessionOpt = None,
    origin: OriginOpt = None,
    session_kind: SessionKindOpt = SessionKind.interactive,
    fmt: Annotated[Format, typer.Option("--format", help="Input format; auto recognises each by its content.")] = Format.auto,
    at: AtOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Ingest a finished session's transcript into transcripts/<session>.md with provenance.

    --origin is the class of the session's sender: user turns take it, assistant turns
    inherit it (agent when the sender is trusted), tool output is always untrusted and
    system prompts are scaffolding. The session is --session, else the file's name (never
    a session id inside the records). Re-ingesting a session replaces its transcript, but
    only for a caller of the same origin class. Markdown turns open only with 'role:' at
    the start of a line (not inside ``` fences), and a Markdown user turn after a tool or
    system turn is kept as system, since that text can write it; JSONL is the robust format.

    Host formats are recognised by content: Claude Code session JSONL, Codex rollout
    JSONL, OpenAI chat messages (or Responses items), and clawmem's own {role, content}
    JSONL. A host's user turn takes --origin only where the host says a person typed it;
    tool results (even in a 'user' record), command output and fetched pages are untrusted;
    Codex's injected context (environment, AGENTS.md) and system prompts are scaffolding;
    summaries, tool calls and sub-agent (sidechain) turns are the assistant's. Thinking,
    images, harness metadata, Claude Code's attachments (hook context), compaction
    summaries and the harness's tagged blocks (<system-reminder>, <task-notification> and the like) are skipped and counted; record types a format
    does not define are skipped, counted and named on stderr, never taken for the user.
    Re-ingesting a session keeps every turn it already held: the echo rule drops only
    what clawmem handed out before the line was written.

    Examples:

    \b
        clawmem ingest session.jsonl --session s-42 --origin owner
        clawmem ingest chat.md --session standup-11-29 --origin owner --at 2026-11-29T09:00
        clawmem ingest ~/.claude/projects/-home-me-app/3f2c.jsonl --session cc-3f2c --origin owner
        clawmem ingest rollout.jsonl --format codex --session codex-7 --origin owner --json
    """
    from clawmem.commands.ingest import ingest as ingest_core
    from clawmem.commands.ingest import read_limit
    from clawmem.rules.inputs import read_source
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.transcripts.parse import describe_counts

    ws = Workspace.open(workspace)
    data = read_source(transcript, limit=read_limit(ws), what="transcript")  # oversized tool output is cut, not refused
    when = None
    if at is not None:
        from clawmem.foundation.timeparse import parse_time

        when = parse_time(at, timezone=ws.config.intents.timezone)
    fallback = None if transcript == "-" else Path(transcript).stem
    result = ingest_core(ws, data, session=session, fallback_session=fallback, origin=resolve_origin(origin), session_kind=session_kind.value, fmt=fmt.value, at=when)
    if result.cut:
        print(f"clawmem: cut oversized tool output ({describe_counts(result.cut)}): the rest of the session is kept", file=sys.stderr)
    if result.unknown:
        print(f"clawmem: skipped {sum(result.unknown.values())} {result.format} record(s) or block(s) of unknown type: {describe_counts(result.unknown)}", file=sys.stderr)
    if result.unconfirmed:
        print(
            f"clawmem: kept {result.unconfirmed} user turn(s) after tool or system text as system, not yours: a Markdown"
            " transcript cannot show they were typed (that text can write them); write JSONL for such sessions",
            file=sys.stderr,
        )
    if json_output:
        emit_json(result)
    else:
        verb = "Replaced" if result.replaced else "Ingested"
        skipped = f", {sum(result.skipped.values())} skipped: {describe_counts(result.skipped)}" if result.skipped else ""
        print(f"{verb} {result.path} ({result.format}): {result.written} of {result.turns} turns kept ({result.dropped_marked} recalled block(s), {result.dropped_recalled} recalled line(s) dropped{skipped})")  # noqa: E501
        from clawmem.cli.advice import next_step

        next_step('clawmem search "WORDS" finds its turns; clawmem dream stages what the session settled')
