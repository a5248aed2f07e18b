"""``clawmem audit``: where every curated entry came from; ``--ci`` fails on violations."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt


def audit(
    since: Annotated[Optional[str], typer.Option("--since", help="Only entries that entered since DATE (2026-11-29, or a phrase like '7 days ago').")] = None,
    ci: Annotated[bool, typer.Option("--ci", help="Print one line per violation and exit 3 when there is any.")] = False,
    accept: Annotated[bool, typer.Option("--accept", help="Accept entries removed by hand since the last audit: keep the old version as a pre-image.")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Audit MEMORY.md and USER.md: provenance, sources and the sweep behind every entry.

    Each entry is traced through the index, the provenance ledger and DREAMS.md: its origin
    and session kind, when it was recorded, its source anchors and the provenance of the
    evidence they point at, and the dream sweep that promoted it. Four checks run every
    time: provenance (no curated entry traces to untrusted or system content or to a
    non-interactive session), preimage (no entry left a curated file without a stored
    pre-image), annotation (no malformed metadata) and index (the index agrees with the
    files and the ledger). Violations read
    "clawmem: violation: <check>: <path>#L<n>: <what>" (#L0: the whole file).

    Exit status: 0 (with --ci: no violations), 3 with --ci when there are violations, 1 on an
    error (no workspace, index locked), 2 on bad usage.

    Examples:

    \b
        clawmem audit
        clawmem audit --since 2026-11-01 --json
        clawmem audit --ci
        clawmem audit --accept
    """
    import datetime as dt
    import sys

    from clawmem.audit import run_audit
    from clawmem.errors import BadInput, ExitCode
    from clawmem.output import emit_json
    from clawmem.workspace import Workspace

    ws = Workspace.open(workspace)
    start = None
    if since is not None:
        from clawmem.timeparse import local_now, parse_time

        try:
            start = parse_time(since, timezone=ws.config.intents.timezone)
        except BadInput as err:
            raise BadInput(f"cannot read --since {since!r}", hint="use a date like 2026-11-29 or a phrase like '7 days ago'") from err
        if start > local_now() + dt.timedelta(days=1):
            raise BadInput(f"--since {since!r} is in the future", hint="give a date in the past")
    report = run_audit(ws, since=start, accept=accept)
    if json_output:
        emit_json({**_as_dict(report), "ok": report.ok})
        if ci:
            for v in report.violations:
                sys.stderr.write(v.render() + "\n")
    elif ci:
        for v in report.violations:
            sys.stdout.write(v.render() + "\n")
        for w in report.warnings:
            sys.stderr.write(w.render("warning") + "\n")
        verdict = "no violations" if report.ok else f"{len(report.violations)} violation(s)"
        sys.stderr.write(f"clawmem: audit: {len(report.entries)} curated entr{'y' if len(report.entries) == 1 else 'ies'}, {verdict}\n")
    else:
        _print(report)
    if ci and not report.ok:
        raise typer.Exit(ExitCode.VIOLATIONS)


def _as_dict(report) -> dict:
    from clawmem.output import to_jsonable

    return to_jsonable(report)


def _print(report) -> None:
    """The human report; every value taken from the files is printed inert, untrusted text framed."""
    from textwrap import indent

    from clawmem.framing import frame_untrusted, inert

    out = []
    for e in report.entries:
        head = f"{inert(e.path)}#L{e.line_start}  {e.origin or '?'}/{e.session_kind or '?'}"
        if e.session_id:
            head += f"  session {inert(e.session_id)}"
        head += "  hand-written" if e.hand_written else ""
        head += f"  entered {e.entered_at}" if e.entered_at else ""
        out.append(head)
        if e.untrusted:
            out.append(indent(frame_untrusted(e.text, f"{e.path}#L{e.line_start}"), "  "))
        else:
            out.append(f"  {inert(e.text)}")
        meta = []
        if e.importance is not None:
            meta.append(f"importance {e.importance}")
        if e.triggers:
            meta.append("trigger: " + ", ".join(e.triggers))
        if e.projects:
            meta.append("project: " + ", ".join(e.projects))
        if e.key:
            meta.append(f"key {e.key}")
        if meta:
            out.append("  " + inert(" · ".join(meta)))
        for s in e.sweeps:
            out.append(f"  {s.action} by {inert(s.title)} {s.when} (DREAMS.md#L{s.diary_line})")
        for s in e.sources:
            if s.state in ("ok", "moved"):
                where = f" -> {s.path}#L{s.line_start}" if s.state == "moved" else ""
                session = f", session {s.session_id}" if s.session_id else ""
                out.append(inert(f"  source {s.anchor}{where}: {s.origin}/{s.session_kind} {s.kind}{session}"))
            else:
                out.append(f"  source {inert(s.anchor)}: {s.state}")
        out.append("")
    if not report.entries:
        out.append("No curated entries" + (f" entered since {report.since}." if report.since else "."))
        out.append("")
    if report.violations:
        out.append(f"Violations ({len(report.violations)}):")
        out += [inert(v.render()) for v in report.violations]
    if report.warnings:
        out.append(f"Warnings ({len(report.warnings)}):")
        out += [inert(w.render("warning")) for w in report.warnings]
    n = len(report.entries)
    out.append(f"{n} curated entr{'y' if n == 1 else 'ies'} audited; " + ("no violations." if report.ok else f"{len(report.violations)} violation(s) (`clawmem audit --ci` exits 3)."))
    print("\n".join(out))
