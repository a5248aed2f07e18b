"""``clawmem forget``: remove memories from the files and the index, for good."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt, session_option, usage_error
from clawmem.cli.promote import YesOpt
from clawmem.storage.anchors import cite


def forget(
    ctx: typer.Context,
    anchor: Annotated[str | None, typer.Argument(help="The entry to forget: PATH#L12 or PATH:12, as search, audit and note add cite it.", show_default=False)] = None,
    text: Annotated[str | None, typer.Option("--text", help="Forget every entry that says this (ignores case, punctuation and markup).")] = None,
    session: Annotated[str | None, session_option("Forget everything one session wrote, and never ingest it again.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be forgotten (or restored); change nothing.")] = False,
    no_undo: Annotated[bool, typer.Option("--no-undo", help="Keep no private copy for --undo (a leaked secret): the forget cannot be undone.")] = False,
    undo: Annotated[str | None, typer.Option("--undo", help="Undo the forget with this id (see --list): restore its lines, lift its tombstones.")] = None,
    list_forgets: Annotated[bool, typer.Option("--list", help="List recent forgets with their ids and whether they can be undone.")] = False,
    copies: Annotated[bool, typer.Option("--copies", help="With an ANCHOR: also forget the same text elsewhere and what was made only from it.")] = False,
    yes: YesOpt = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Forget an entry, every entry saying a text, or a whole session (files, index and history).

    Give exactly one of ANCHOR, --text or --session. An ANCHOR forgets that entry only: the
    same text elsewhere (a transcript turn a MEMORY.md line came from, say) is listed for
    review, and --copies takes it too; --text and --session take every copy. Tombstones go
    into the provenance ledger first, so ingest, note and flush never store the forgotten text or session again. Lines
    of daily notes and transcripts are blanked (other lines keep their numbers, so citations
    stay true), a forgotten session's transcript is deleted, MEMORY.md and USER.md are
    rewritten safely. Earlier DREAMS.md lines, pre-images and log lines (.clawmem/dream.jsonl)
    quoting the text are redacted, the review page .clawmem/report.html is deleted;
    DREAMS.md records the removal by anchor and hash, never by text. A curated entry that
    merged forgotten evidence with other sources is left alone and listed for manual review.

    It asks first at a terminal (after showing what would go); without a terminal, as when
    an agent shells out, it needs --yes, like promote.

    A mistake can be undone for forget.undo_days days: the removed lines are kept privately
    (.clawmem/forgets/) until then, and `--undo ID` (the owner only: at a terminal, or with
    --yes) puts them back where they were and lifts the tombstones. --no-undo keeps no copy.

    Examples:

    \b
        clawmem forget memory/2026-11-29.md#L7 --dry-run
        clawmem forget memory/2026-11-29.md#L7
        clawmem forget MEMORY.md#L6 --copies --yes
        clawmem forget --text "hunter2" --no-undo --yes
        clawmem forget --session s-42 --json --yes
        clawmem forget --list
        clawmem forget --undo f-20261201T123000-1a2b3c
    """
    import sys

    from clawmem.forget import forget as forget_core
    from clawmem.forget import undo as undo_core
    from clawmem.foundation.timeparse import local_now
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    targets = sum(v is not None for v in (anchor, text, session))
    if (undo is not None or list_forgets) and (targets or no_undo or copies):
        usage_error(ctx, "--undo and --list take no entry, --text, --session, --no-undo or --copies")
    if copies and anchor is None:
        usage_error(ctx, "--copies goes with an entry anchor (--text and --session always take every copy)")
    if undo is not None and list_forgets:
        usage_error(ctx, "give --undo ID or --list, not both")
    if undo is None and not list_forgets and targets != 1:
        usage_error(ctx, "say what to forget: an entry anchor, --text TEXT or --session ID (exactly one)")
    ws = Workspace.open(workspace)
    if list_forgets:
        found = undo_core.list_forgets(ws, local_now().date())
        if json_output:
            emit_json(found)
        else:
            _print_list(found)
        return
    if undo is not None:
        from clawmem.trust.authority import Caller

        restored = undo_core.undo(ws, undo, caller=Caller(from_terminal=sys.stdin.isatty(), confirmed=yes), dry_run=dry_run)
        if json_output:
            emit_json(restored)
        else:
            _print_undo(restored)
        return
    if not dry_run and not yes:
        _confirm(forget_core(ws, anchor=anchor, text=text, session=session, dry_run=True, copies=copies), json_output=json_output)
    result = forget_core(ws, anchor=anchor, text=text, session=session, dry_run=dry_run, keep_undo=not no_undo, copies=copies)
    if json_output:
        emit_json(result)
        return
    _print(result)


def _confirm(plan, *, json_output: bool) -> None:
    """Ask the person at the terminal, after showing what would go; without one, --yes is required (as promote)."""
    import sys

    from clawmem.foundation.errors import ExitCode
    from clawmem.trust.authority import Caller, require_owner

    require_owner(Caller(from_terminal=sys.stdin.isatty()), "forgetting")
    if not json_output:
        _print(plan)
    n = len(plan.removed) + len(plan.deleted_files)
    if not typer.confirm(f"Forget {n} entr{'y' if n == 1 else 'ies'} or file(s) for good?", default=False, err=True):
        sys.stderr.write("clawmem: nothing forgotten\n")
        raise typer.Exit(ExitCode.ERROR)


def _print(result) -> None:
    """The human report; every value taken from the files is printed inert, untrusted text framed."""
    from clawmem.trust.framing import frame_untrusted, inert

    out = []
    verb = "Would forget" if result.dry_run else "Forgot"
    n = len(result.removed)
    out.append(f"{verb} {n} entr{'y' if n == 1 else 'ies'}" + (" (dry run: nothing changed)" if result.dry_run else "") + ":")
    for r in result.removed:
        prov = f"{r.origin or '?'}/{r.session_kind or '?'}"
        citation = cite(r.path, r.line_start)
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
        if r.get("logs") or r.get("report"):
            out.append(f"Redacted {r.get('logs', 0)} log line(s){'; deleted .clawmem/report.html (`clawmem report` writes it again)' if r.get('report') else ''}.")
    if result.review:
        out.append(f"Not removed, needs manual review ({len(result.review)}):")
        out += [inert(f"  {cite(r.path, r.line)}: {r.reason}: {r.text}") for r in result.review]
    if result.id:
        out.append(
            f"Forget {result.id}: undo with `clawmem forget --undo {result.id}` until {result.undo_until}."
            if result.undo_until else f"Forget {result.id} kept no undo record: it cannot be undone."
        )
    print("\n".join(out))


def _print_list(found) -> None:
    if not found:
        print("No forgets recorded.")
    for f in found:
        state = "undone" if f.undone else (f"undoable until {f.undo_until}" if f.undoable else "not undoable")
        what = f"session {f.session}" if f.session else f"{f.entries} entr{'y' if f.entries == 1 else 'ies'}"
        print(f"{f.id}  {f.at}  {f.mode}: {what}, {f.hashes_tombstoned} hash(es) tombstoned; {state}")


def _print_undo(result) -> None:
    verb = "Would restore" if result.dry_run else "Restored"
    out = [f"{verb} {len(result.restored)} entr{'y' if len(result.restored) == 1 else 'ies'} of forget {result.id}" + (" (dry run: nothing changed)" if result.dry_run else "") + ":"]  # noqa: E501
    out += [f"  {cite(r.path, r.line_start)}" for r in result.restored]
    out += [f"{'Would recreate' if result.dry_run else 'Recreated'} {p}" for p in result.recreated_files]
    out += [f"Not restored: {c}" for c in result.conflicts]
    if result.session_lifted:
        out.append(f"Session {result.session_lifted} {'would be' if result.dry_run else 'is'} no longer tombstoned.")
    out.append(f"{result.hashes_lifted} tombstone(s) {'would be' if result.dry_run else ''} lifted: the text may be written and promoted again.".replace("  ", " "))
    print("\n".join(out))
