"""``clawmem note add`` and ``clawmem note flush``: write to the episodic tier."""

from __future__ import annotations

from typing import Annotated, Optional

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

app = typer.Typer(help="Append to the daily note: one entry, or a pre-compaction flush.", no_args_is_help=True)


def _when(ws, at: str | None):
    if at is None:
        return None
    from clawmem.foundation.timeparse import parse_time

    return parse_time(at, timezone=ws.config.intents.timezone)


@app.command("add")
def add(
    text: Annotated[str, typer.Argument(help="The note text, or - to read it from standard input.")],
    origin: OriginOpt = None,
    session_kind: SessionKindOpt = SessionKind.interactive,
    session: SessionOpt = None,
    importance: Annotated[Optional[int], typer.Option("--importance", min=1, max=10, help="How much it matters, 1-10.")] = None,
    trigger: Annotated[Optional[list[str]], typer.Option("--trigger", help="A phrase saying when it is relevant (repeatable).")] = None,
    project: Annotated[Optional[list[str]], typer.Option("--project", help="Repository key it belongs to (repeatable) [default: the current repository's key].")] = None,
    no_project: Annotated[bool, typer.Option("--no-project", help="Do not tag the note with the current repository.")] = False,
    key: Annotated[Optional[str], typer.Option("--key", help="Supersession key: a newer entry with this key replaces older ones.")] = None,
    at: AtOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Append one entry to today's daily note (untrusted notes go to memory/quarantine/).

    Examples:

    \b
        clawmem note add "Deploys now go to fly.io" --origin owner --importance 7 --trigger "deploy"
        echo "build needs make clean first" | clawmem note add - --origin agent --key build-fix
    """
    from clawmem.commands.notes import add_note
    from clawmem.commands.projects import keys
    from clawmem.rules.inputs import text_or_stdin
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    data = text_or_stdin(text, limit=ws.config.limits.max_note_bytes, what="note")
    result = add_note(
        ws,
        data,
        origin=resolve_origin(origin),
        session_kind=session_kind.value,
        session=session,
        importance=importance,
        triggers=trigger or [],
        projects=project or ([] if no_project else keys()),
        key=key,
        at=_when(ws, at),
    )
    if json_output:
        emit_json(result)
    elif result.written:
        where = " (quarantined)" if result.quarantined else ""
        print(f"Noted in {result.path}:{result.line}{where}")
        from clawmem.cli.advice import next_step

        next_step('clawmem search "WORDS" finds it; clawmem dream (nightly, from cron) promotes what keeps being recalled')
    else:
        print(f"Not stored: {result.reason}")



@app.command("flush")
def flush(
    source: Annotated[str, typer.Argument(help="File with the unwritten context, or - for standard input.")],
    origin: OriginOpt = None,
    session_kind: SessionKindOpt = SessionKind.interactive,
    session: SessionOpt = None,
    at: AtOpt = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Pre-compaction flush: save a block of context to the daily note before it is summarised.

    The daily note records the least-trusted class ever flushed into it; lines of a file
    tainted by untrusted or system content lose promotion eligibility.

    Examples:

    \b
        clawmem note flush context.md --origin agent --session s-42
        my-agent dump-context | clawmem note flush - --origin agent
    """
    from clawmem.commands.notes import flush as flush_core
    from clawmem.rules.inputs import read_source
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    data = read_source(source, limit=ws.config.limits.max_ingest_bytes, what="flush")
    result = flush_core(
        ws, data, origin=resolve_origin(origin), session_kind=session_kind.value, session=session, at=_when(ws, at)
    )
    if json_output:
        emit_json(result)
    else:
        print(
            f"Flushed {result.written} entr{'y' if result.written == 1 else 'ies'} to {result.path}"
            f" (dropped {result.dropped_marked} recalled block(s), {result.dropped_recalled} recalled line(s)"
            f"{f', {result.titles} section heading(s)' if result.titles else ''})"
        )
