"""``clawmem index``: sync the files into the index."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def index(
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Re-read every file (recreates a corrupt index); provenance is replayed, never upgraded.")] = False,
    no_embed: Annotated[bool, typer.Option("--no-embed", help="Sync text only; leave embeddings for later.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary (for cron).")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Sync memory files into the index: only files whose content changed are re-read.

    On a terminal a progress bar on stderr names each phase (reading, indexing, loading the
    embedder, embedding) with its count and an ETA. Ctrl-C stops at once and leaves a consistent
    index: an interrupted sync is rolled back whole, vectors already computed are kept, and
    `clawmem status` counts the entries still unembedded (the next index embeds them).

    Examples:

    \b
        clawmem index
        clawmem index --rebuild
    """
    from clawmem.cli.progress import progress_bar
    from clawmem.index.maintain import run_index
    from clawmem.rules.output import elapsed, emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    with progress_bar("Indexing", quiet=quiet or json_output) as progress:
        report = run_index(ws, rebuild=rebuild, embed=not no_embed, progress=progress)
    if json_output:
        emit_json(report)
        return
    for warning in report.sync.warnings:
        print(f"Warning: {warning}", file=sys.stderr)
    if not quiet:
        s = report.sync
        print(
            f"Indexed {s.files_changed} changed of {s.files_seen} files ({s.entries_indexed} entries,"
            f" {s.files_removed} removed) in {elapsed(report.seconds)} (sync {elapsed(s.seconds)})"
            + (" after recreating a damaged index" if report.recreated else "")
        )
        if report.vectors is not None:
            v = report.vectors
            rate = f" ({v.per_second:.1f} entries/s)" if v.embedded else ""
            print(f"Embeddings ({v.embedder}): {v.embedded} computed in {elapsed(v.seconds)}{rate}, {v.from_cache} from cache"
                  + (" - embedder changed, vectors rebuilt" if v.rebuilt else ""))
        else:
            print(f"Embeddings not built: {report.embeddings}")
        if not s.ledger_intact:
            print("Warning: the provenance ledger is missing or replaced; unrecorded episodic lines are untrusted.")
        from clawmem.cli.advice import next_step

        next_step('clawmem search "WORDS"  (search, recall and dream also sync the index themselves)')
