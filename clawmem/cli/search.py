"""``clawmem search``: ranked, explained, cited memory search.

The launcher runs plain invocations without Typer (``clawmem.fastlane.search``, which does the
work for both paths); this module declares the options, for help, completion and usage errors
and for the fast lane's parser (``clawmem/fastlane/options.json``, written by ``scripts/gen_docs.py``).
"""

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
    query: Annotated[str, typer.Argument(help="What to look for, or - to read it from standard input.")],
    limit: Annotated[Optional[int], typer.Option("--limit", "-n", min=1, max=200, help="Most results [default: search.limit].")] = None,
    min_score: Annotated[Optional[float], typer.Option("--min-score", min=0.0, help="Drop results below this score [default: search.min_score].")] = None,
    project: Annotated[Optional[list[str]], typer.Option("--project", help="Active repository key to boost (repeatable).")] = None,
    session: Annotated[Optional[str], typer.Option("--session", help="Your session: boost its active projects; what it is shown joins its lineage.")] = None,
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
    from clawmem.fastlane.search import run_command

    run_command(
        query=query, limit=limit, min_score=min_score, project=project, session=session, tier=tier.value,
        include_untrusted=include_untrusted, include_superseded=include_superseded, lexical=lexical, explain=explain,
        workspace=None if workspace is None else str(workspace), json_output=json_output,
    )
