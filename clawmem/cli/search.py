"""``clawmem search``: ranked, explained, cited memory search."""

from __future__ import annotations

import enum
from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


class Tier(str, enum.Enum):
    curated = "curated"
    episodic = "episodic"
    all = "all"


def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", min=1, max=200, help="Most results [default: search.limit].")] = None,
    min_score: Annotated[Optional[float], typer.Option("--min-score", min=0.0, help="Drop results below this score [default: search.min_score].")] = None,
    project: Annotated[Optional[list[str]], typer.Option("--project", help="Active repository key to boost (repeatable).")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="Boost the active projects of this session.")] = None,
    tier: Annotated[Tier, typer.Option("--tier", help="Which tier to search.")] = Tier.all,
    include_untrusted: Annotated[bool, typer.Option("--include-untrusted", help="Also return untrusted and system entries, framed as untrusted.")] = False,
    include_superseded: Annotated[bool, typer.Option("--include-superseded", help="Also return entries a newer entry with the same key replaced, marked with what replaced them.")] = False,  # noqa: E501
    lexical: Annotated[bool, typer.Option("--lexical", help="BM25 only: skip the embedding model.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="Show every signal behind each score.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Search memory: hybrid BM25 + vectors, x recency x importance x project, with citations.

    Examples:

    \b
        clawmem search "where do we deploy"
        clawmem search "build fails on arm64" --tier episodic --explain
        clawmem search "curl install script" --include-untrusted --json
        clawmem search "where do deploys go" --include-superseded
    """
    from clawmem.index.maintain import open_synced
    from clawmem.output import emit_json
    from clawmem.search import SearchOptions
    from clawmem.search import search as run_search
    from clawmem.workspace import Workspace

    ws = Workspace.open(workspace)
    active = list(project or [])
    if session:
        from clawmem.projects import active_set

        active += [k for k in active_set(ws, session) if k not in active]
    options = SearchOptions(
        limit=limit, min_score=min_score, tier=tier.value, include_untrusted=include_untrusted,
        include_superseded=include_superseded,
        active_projects=active, lanes="lexical" if lexical else "hybrid",
    )
    index, _ = open_synced(ws)
    with index:
        result = run_search(ws, index, query, options)
    if json_output:
        from clawmem.search import payload

        emit_json(payload(result, explain=explain))
        return
    _print_human(result, explain)


def _superseded_note(hit) -> str:
    if not hit.superseded:
        return ""
    from clawmem.framing import inert

    return f", superseded by {inert(hit.superseded_by['citation'])}" if hit.superseded_by else ", superseded"


def _print_human(result, explain: bool) -> None:
    import sys

    from clawmem.framing import inert, recall_block
    from clawmem.output import console

    if not sys.stdout.isatty():
        # agents read this: mark it so an echo is never re-extracted as a new memory
        blocks = [f"[{inert(h.citation)}] ({h.score:.2f}, {h.origin}{_superseded_note(h)})\n{h.framed_text}" for h in result.hits]
        if blocks:
            print(recall_block("\n\n".join(blocks)))
        for w in result.warnings:
            sys.stderr.write(f"clawmem: {w}\n")
        return
    out = console()
    for n, h in enumerate(result.hits, 1):
        tag = (" [untrusted]" if h.untrusted else "") + (" [superseded]" if h.superseded else "")
        out.print(f"[bold]{n}. {h.citation}[/bold]  score {h.score:.3f}  {h.origin}/{h.session_kind}{tag}")
        out.print(f"   {h.framed_text}", markup=False)
        if h.superseded_by:
            out.print(f"   superseded by {h.superseded_by['citation']}: {h.superseded_by['text']}", markup=False)
        if explain:
            s = h.signals
            out.print(
                f"   text {h.text_score:.3f}  vector {h.vector_score:.3f}  hybrid {s['hybrid']:.3f}  x recency {s['recency']:.3f}"
                f" (age {s['age_days']} d)  x importance {s['importance']:.2f}  x project {s['project']:.2f}"
                + ("  [lexical back-fill]" if h.backfill else "")
            )
    if not result.hits:
        out.print("No results.")
    for w in result.warnings:
        out.print(f"[yellow]note:[/yellow] {w}")
    out.print(f"[dim]mode: {result.mode}; recency decay: {result.decay}[/dim]")
