"""``clawmem get``: read a bounded excerpt of a memory file."""

from __future__ import annotations

from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt, session_option


def get(
    anchor: Annotated[str, typer.Argument(help="PATH, PATH#L12, PATH#L12-L20, PATH:12 or PATH:12-20 (as search and note add cite it); absolute paths inside the workspace work too.")],  # noqa: E501  Typer help text kept on one line
    context: Annotated[int, typer.Option("--context", "-C", min=0, max=100, help="Extra lines before and after.")] = 0,
    max_lines: Annotated[int, typer.Option("--max-lines", min=1, max=200, help="Most lines returned.")] = 200,
    session: Annotated[str | None, session_option("The session reading it: untrusted lines shown taint that session's later agent notes [default: the host's, from its environment].")] = None,  # noqa: E501  Typer help text kept on one line
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Print a bounded part of a memory file, such as the lines around a search hit.

    On a terminal the lines are shown as written, numbered. In a pipe (what agents read) they
    come inside a recall block (and untrusted ones inside an untrusted-content frame): an agent
    that flushes them back does not store them a second time.

    Examples:

    \b
        clawmem get memory/2026-11-29.md#L3
        clawmem get memory/2026-11-29.md:3-5
        clawmem get transcripts/s-42.md#L5-L9 -C 2 --json
    """
    import sys

    from clawmem.commands.excerpt import get_excerpt, payload, render, render_for_person
    from clawmem.rules.output import emit_json, is_terminal
    from clawmem.storage.workspace import Workspace

    excerpt = get_excerpt(Workspace.open(workspace), anchor, context=context, max_lines=max_lines, session=session)
    if json_output:
        emit_json(payload(excerpt))
        return
    print(render_for_person(excerpt) if is_terminal(sys.stdout) else render(excerpt))
