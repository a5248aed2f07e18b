"""``clawmem promote``: the owner puts one episodic entry into MEMORY.md by hand."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt

YesOpt = Annotated[bool, typer.Option("--yes", help="Confirm you are the operator when not at a terminal (agents must not pass it).")]


def promote(
    anchor: Annotated[str, typer.Argument(help="The entry to promote: PATH#L12, PATH#L12-L14 or PATH:12, as search and note add cite it.", show_default=False)],
    force_untrusted: Annotated[
        bool,
        typer.Option(
            "--force-untrusted",
            help="Promote it although dreaming never would (untrusted or system origin, quarantine, a non-interactive session, a tainted file): you vouch for it.",
        ),
    ] = False,
    importance: Annotated[int | None, typer.Option("--importance", min=1, max=10, help="Importance of the line [default: the entry's own, else 5].")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the line that would be written; change nothing.")] = False,
    yes: YesOpt = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Promote one entry into MEMORY.md now: the owner's decision, not the agent's.

    The entry is copied as a curated line citing it (with the importance, triggers and key it
    carries); a line already saying the same thing gains the anchor instead. It must fit the
    MEMORY.md budget (dream.memory_chars). The line goes through the dream write path under
    the sweep lock, and is recorded in the provenance ledger as the owner's decision and in
    DREAMS.md. Refused when not run at a terminal unless you add --yes; the MCP server has
    no promote tool. Content dreaming would never promote needs --force-untrusted, and
    `clawmem audit` keeps reporting where it came from.

    Examples:

    \b
        clawmem promote memory/2026-11-28.md#L4 --dry-run
        clawmem promote transcripts/s1.md#L13 --importance 8
        clawmem promote memory/quarantine/2026-11-28.md#L3 --force-untrusted
    """
    import sys

    from clawmem.dream.promote import promote as promote_core
    from clawmem.foundation.errors import warn
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace
    from clawmem.trust.authority import Caller

    ws = Workspace.open(workspace)
    caller = Caller(from_terminal=sys.stdin.isatty(), confirmed=yes)
    result = promote_core(ws, anchor, caller=caller, force=force_untrusted, importance=importance, dry_run=dry_run)
    if result.overridden:
        warn(f"warning: promoting content dreaming would never promote ({'; '.join(result.overridden)}): on your word only")
    if json_output:
        emit_json(result)
        return
    _print(result)


def _print(result) -> None:
    from clawmem.trust.framing import frame_untrusted, inert

    verb = {
        "added": "Added", "merged": "Merged into an existing line", "superseded": "Added (superseding older lines with its key)",
        "unchanged": "Already in MEMORY.md, nothing to do",
    }[result.action]
    text = frame_untrusted(result.text, result.anchor) if result.untrusted else inert(result.text)
    lead = "Dry run (nothing written): would be " + verb.lower() if result.dry_run and result.action != "unchanged" else verb
    print(f"{lead}: {text}")
    if result.line and not result.untrusted:  # the text is neutralised: its only comments are our own metadata
        print(f"  MEMORY.md: {result.line}")
    print(f"  MEMORY.md at {result.memory_chars} / {result.memory_budget} characters" + (f"; pre-image {result.preimage}" if result.preimage else ""))
