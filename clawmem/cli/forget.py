"""``clawmem forget``: remove memories from the files and the index, for good."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def forget(
    anchor: Annotated[Optional[str], typer.Argument(help="The entry to forget: PATH#L12, as search and audit cite it.", show_default=False)] = None,
    text: Annotated[Optional[str], typer.Option("--text", help="Forget every entry that says this (ignores case, punctuation and markup).")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="Forget everything one session wrote, and never ingest it again.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be forgotten; change nothing.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Forget an entry, every entry saying a text, or a whole session (files, index and history).

    Give exactly one of ANCHOR, --text or --session. Tombstones go into the provenance ledger
    first, so ingest, note and flush never store the forgotten text or session again. Lines
    of daily notes and transcripts are blanked (other lines keep their numbers, so citations
    stay true), a forgotten session's transcript is deleted, MEMORY.md and USER.md are
    rewritten safely. Earlier DREAMS.md lines and pre-images quoting the text are redacted;
    DREAMS.md records the removal by anchor and hash, never by text. A curated entry that
    merged forgotten evidence with other sources is left alone and listed for manual review.

    Examples:

    \b
        clawmem forget memory/2026-11-29.md#L7 --dry-run
        clawmem forget --text "hunter2"
        clawmem forget --session s-42 --json
    """
    from clawmem.forget import forget as forget_core
    from clawmem.output import emit_json
    from clawmem.workspace import Workspace

    ws = Workspace.open(workspace)
    result = forget_core(ws, anchor=anchor, text=text, session=session, dry_run=dry_run)
    if json_output:
        emit_json(result)
        return
    _print(result)


def _print(result) -> None:
    """The human report; every value taken from the files is printed inert, untrusted text framed."""
    from clawmem.framing import frame_untrusted, inert

    out = []
    verb = "Would forget" if result.dry_run else "Forgot"
    n = len(result.removed)
    out.append(f"{verb} {n} entr{'y' if n == 1 else 'ies'}" + (" (dry run: nothing changed)" if result.dry_run else "") + ":")
    for r in result.removed:
        prov = f"{r.origin or '?'}/{r.session_kind or '?'}"
        citation = f"{r.path}#L{r.line_start}"
        text = frame_untrusted(r.text, citation) if r.untrusted else inert(r.text)
        out.append(f"  {inert(citation)}  {prov}  {inert(r.why)}: {text}")
    for path in result.deleted_files:
        out.append(f"{'Would delete' if result.dry_run else 'Deleted'} {inert(path)}")
    if result.session_tombstoned:
        out.append(f"Session {inert(result.session_tombstoned)} {'would be' if result.dry_run else 'is'} tombstoned: it is never ingested again.")
    out.append(
        f"{result.hashes_tombstoned} text hash(es) {'would be' if result.dry_run else 'are'} tombstoned: "
        "note, flush and ingest will not store them again."
    )
    if result.redacted:
        r = result.redacted
        out.append(f"Redacted {r.get('dreams', 0)} line(s) of DREAMS.md, {r.get('preimages', 0)} pre-image(s), {r.get('baseline', 0)} audit baseline entr(y/ies).")
    if result.review:
        out.append(f"Not removed, needs manual review ({len(result.review)}):")
        out += [inert(f"  {r.path}#L{r.line}: {r.reason}: {r.text}") for r in result.review]
    print("\n".join(out))
