"""``clawmem audit``: where every curated entry came from; ``--ci`` fails on violations."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt
from clawmem.storage.anchors import cite


class Format(str, enum.Enum):
    text = "text"
    github = "github"
    sarif = "sarif"


def audit(
    since: Annotated[str | None, typer.Option("--since", help="Only entries that entered since DATE (2026-11-29, or a phrase like '7 days ago').")] = None,
    ci: Annotated[bool, typer.Option("--ci", help="Print one line per violation and exit 3 when there is any.")] = False,
    output_format: Annotated[Format, typer.Option("--format", help="How --ci prints findings: text (PATH:LINE: error: ...), github (Actions annotations) or sarif (a SARIF 2.1.0 log on stdout).")] = Format.text,  # noqa: E501  Typer help text kept on one line
    strict: Annotated[bool, typer.Option("--strict", help="With --ci, warnings (hand edits, a new baseline, stale sources) fail too.")] = False,
    accept: Annotated[bool, typer.Option("--accept", help="Take the curated files as they are as the baseline (hand removals kept as a pre-image; noted in DREAMS.md).")] = False,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Audit MEMORY.md and USER.md: provenance, sources and the sweep behind every entry.

    Each entry is traced through the index, the provenance ledger and DREAMS.md: its origin
    and session kind, when it was recorded, its source anchors and the provenance of the
    evidence they point at, and the dream sweep that promoted it. Five checks run every
    time: provenance (no curated entry traces to untrusted or system content or to a
    non-interactive session), preimage (no entry left a curated file without a stored
    pre-image), annotation (no malformed metadata), grounding (an entry says only what its
    sources say) and index (the index agrees with the files and the ledger). With --ci
    findings read "PATH:LINE: error: CHECK: WHAT" ("PATH: ..." for the whole file), the form
    CI problem matchers parse; --format github prints GitHub Actions annotations and
    --format sarif one SARIF 2.1.0 log. The baseline (.clawmem/audit/baseline.json) is what
    the preimage check compares with: commit it. The audit only reads: init writes the
    baseline, clawmem's own rewrites carry it along, and only --accept moves it past a hand
    edit (recorded in DREAMS.md), so every audit reports the edit until then; in a git
    checkout without one (a fresh clone) the audit reports a baseline violation.

    Exit status: 0 (with --ci: no violations, and with --strict no warnings), 3 with --ci
    when there are violations, 1 on an error (no workspace, index locked), 2 on bad usage.

    Examples:

    \b
        clawmem audit
        clawmem audit --since 2026-11-01 --json
        clawmem audit --ci
        clawmem audit --ci --strict --format github
        clawmem audit --ci --format sarif > clawmem.sarif
        clawmem audit --accept
    """
    import sys

    from clawmem.audit import parse_since, run_audit
    from clawmem.foundation.errors import ExitCode
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    if not ci and (strict or output_format is not Format.text):
        raise typer.BadParameter("applies to --ci only (add --ci)", param_hint="'--strict' / '--format'")
    if json_output and output_format is not Format.text:
        raise typer.BadParameter("--json prints the whole report; --format is for --ci lines", param_hint="'--format'")
    ws = Workspace.open(workspace)
    report = run_audit(ws, since=parse_since(ws, since), accept=accept)
    if json_output:
        emit_json({**_as_dict(report), "ok": report.ok})
        if ci:
            for v in report.violations:
                sys.stderr.write(v.render() + "\n")
    elif ci:
        _print_ci(report, output_format.value, strict=strict)
    else:
        _print(report)
    if ci and report.failed(strict=strict):
        raise typer.Exit(ExitCode.VIOLATIONS)


def _print_ci(report, fmt: str, *, strict: bool) -> None:
    """Findings for a CI log: violations on stdout; warnings on stdout too when they fail (--strict)."""
    import sys

    from clawmem import __version__
    from clawmem.audit.formats import line, sarif_log

    if fmt == "sarif":
        sys.stdout.write(sarif_log(report.violations, report.warnings, workspace=report.workspace, version=__version__) + "\n")
    else:
        for v in report.violations:
            sys.stdout.write(line(v, "violation", fmt) + "\n")
        warn_to = sys.stdout if strict or fmt == "github" else sys.stderr
        for w in report.warnings:
            warn_to.write(line(w, "warning", fmt) + "\n")
    n = len(report.entries)
    verdict = "no violations" if report.ok else f"{len(report.violations)} violation(s)"
    warned = f", {len(report.warnings)} warning(s){' (failing: --strict)' if strict and report.warnings else ''}" if report.warnings else ""
    sys.stderr.write(f"clawmem: audit: {n} curated entr{'y' if n == 1 else 'ies'}, {verdict}{warned}\n")


def _as_dict(report) -> dict:
    from clawmem.rules.output import to_jsonable

    return to_jsonable(report)


def _print(report) -> None:
    """The human report; every value taken from the files is printed inert, untrusted text framed."""
    from textwrap import indent

    from clawmem.trust.framing import frame_untrusted, inert

    out = []
    for e in report.entries:
        head = f"{inert(cite(e.path, e.line_start))}  {e.origin or '?'}/{e.session_kind or '?'}"
        if e.session_id:
            head += f"  session {inert(e.session_id)}"
        head += "  hand-written" if e.hand_written else ""
        head += f"  entered {e.entered_at}" if e.entered_at else ""
        out.append(head)
        if e.untrusted:
            out.append(indent(frame_untrusted(e.text, cite(e.path, e.line_start)), "  "))
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
            out.append(f"  {s.action} by {inert(s.title)} {s.when} ({cite('DREAMS.md', s.diary_line)})")
        for s in e.sources:
            if s.state in ("ok", "moved"):
                where = f" -> {cite(s.path, s.line_start)}" if s.state == "moved" else ""
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
    out.append(f"{n} curated entr{'y' if n == 1 else 'ies'} audited; "
               + ("no violations." if report.ok else f"{len(report.violations)} violation(s) (`clawmem audit --ci` exits 3)."))
    print("\n".join(out))
