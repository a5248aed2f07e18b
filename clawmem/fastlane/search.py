"""``clawmem search`` without Typer: the run and the output both paths print (``clawmem.fastlane`` parses).

In a terminal the list is styled with rich, each hit as written (a person reads it; no frames
or escapes); in a pipe it is the same list as plain, stable text (every explanation kept), hit
text inert and untrusted hits inside their own untrusted-content frame, exactly as ``--json``
carries them. Warnings go to stderr in a pipe.
The piped list keeps the recall marker around it: agents read pipes, and an agent flushing
what it read must not store it again (tests/security M01, M09, M10 succeed without it).
"""

from __future__ import annotations

import os
import sys
from typing import Any


def run_command(
    *,
    query: str,
    limit: int | None = None,
    min_score: float | None = None,
    project: list[str] | None = None,
    session: str | None = None,
    tier: str = "all",
    include_untrusted: bool = False,
    include_superseded: bool = False,
    lexical: bool = False,
    explain: bool = False,
    workspace: str | None = None,
    json_output: bool = False,
) -> int:
    """Search and print; clawmem errors propagate to the caller's handler."""
    if not lexical:
        # Before numpy loads: OpenBLAS starts a thread per core as it loads (about as long as
        # the rest of the import on two busy cores), and a search's products are one query's,
        # each row summed by one thread either way. recall's vector lane does the same.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from clawmem.index.freshness import fresh
    from clawmem.search import SearchOptions, active_projects, query_text
    from clawmem.search import search as run_search
    from clawmem.storage.workspace import Workspace, validate_session_id

    if session is not None:
        validate_session_id(session)
    text = query_text(query)
    ws = Workspace.open(workspace)
    options = SearchOptions(
        limit=limit, min_score=min_score, tier=tier, include_untrusted=include_untrusted, include_superseded=include_superseded,
        active_projects=active_projects(ws, project or (), session), lanes="lexical" if lexical else "hybrid", session=session,
    )
    with fresh(ws) as index:
        result = run_search(ws, index, text, options)
    if json_output:
        from clawmem.rules.output import emit_json
        from clawmem.search import payload

        emit_json(payload(result, explain=explain))
    else:
        print_result(result, explain)
    return 0


def _lines(result: Any, explain: bool, *, person: bool) -> list[tuple[str, str]]:
    """(style, text) per printed line: the layout both a terminal and a pipe get. A person reads each
    hit as written (controls made visible); a pipe gets it inert and untrusted hits framed, as ``--json``."""
    from clawmem.rules.inputs import printable
    from clawmem.trust.framing import inert

    lines: list[tuple[str, str]] = []
    for n, h in enumerate(result.hits, 1):
        tag = (" [untrusted]" if h.untrusted else "") + (" [superseded]" if h.superseded else "")
        lines.append(("bold", f"{n}. {inert(h.citation)}  score {h.score:.3f}  {h.origin}/{h.session_kind}{tag}"))
        lines.extend(("", f"   {line}") for line in (printable(h.text) if person else h.framed_text).split("\n"))
        if h.superseded_by:
            lines.append(("", f"   superseded by {h.superseded_by['citation']}: {h.superseded_by['text']}"))
        if explain:
            s = h.signals
            lines.append(("", (
                f"   text {h.text_score:.3f}  vector {h.vector_score:.3f}  hybrid {s['hybrid']:.3f}  x recency {s['recency']:.3f}"
                + (" (curated or undated: no decay)" if s["age_days"] is None else f" (age {s['age_days']} d)")
                + f"  x importance {s['importance']:.2f}  x project {s['project']:.2f}"
                + "".join(f"  x {name} {value:.2f}" for name, value in s["boosts"].items())
                + ("  [lexical back-fill]" if h.backfill else "")
            )))
            moved = _moved_by(s, shown=n)
            if moved:
                lines.append(("", f"   moved by {moved}"))
    if not result.hits:
        lines.append(("", "No results."))
    return lines


def _moved_by(signals: dict, *, shown: int) -> str:
    """The retrieval signals that moved a hit, in words: feedback words, the passage that lifted it,
    its best sentence (late interaction), and diversity (MMR), which lists a hit below a lower score
    when it repeats a hit above it."""
    parts = []
    rank = signals.get("score_rank")
    if rank is not None and rank != shown:
        parts.append(f"diversity: {rank}{_ordinal(rank)} by score, shown {shown}{_ordinal(shown)}"
                     + (" (it repeats a hit above)" if rank < shown else " (higher scores repeat the hits above)"))
    if signals["feedback_terms"]:
        parts.append(f"feedback {signals['feedback']:.3f} ({', '.join(signals['feedback_terms'])})")
    if signals["session"] is not None:
        parts.append(f"passage {signals['session']:.3f} (turns near its session's best matches)")
    if signals.get("piece"):
        sentence = signals["piece"]["sentence"]
        parts.append(f"sentence {signals['piece']['score']:.3f} \"{sentence if len(sentence) <= 80 else sentence[:79] + '…'}\"")
    return "; ".join(parts)


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def print_result(result: Any, explain: bool) -> None:
    """The human layout: rich in a terminal, the same lines as plain text in a pipe."""
    footer = f"mode: {result.mode}; recency decay: {result.decay}"
    if not explain and any(h.signals.get("score_rank") not in (None, n) for n, h in enumerate(result.hits, 1)):
        footer += "; order: diversified (a hit repeating one above is listed lower; --explain shows each move)"
    if not sys.stdout.isatty():
        body = "".join(f"{text}\n" for _, text in _lines(result, explain, person=False)) + footer
        if result.hits:  # agents read pipes: marked, an echo of this list is never stored as a new memory
            from clawmem.trust.framing import recall_block

            body = recall_block(body)
        sys.stdout.write(body + "\n")
        for w in result.warnings:
            sys.stderr.write(f"clawmem: {w}\n")
        return
    from rich.text import Text

    from clawmem.rules.output import console

    out = console()
    for style, text in _lines(result, explain, person=True):
        out.print(Text(text, style=style))
    out.print(Text(footer, style="dim"))
    notes = console(stderr=True)  # notices on stderr, apart from the results
    for w in result.warnings:
        notes.print(Text.assemble(("note:", "yellow"), f" {w}"))
