"""How ``audit --ci`` reports findings to a CI system: plain lines, GitHub annotations, SARIF.

``text`` is ``Finding.render``, the compiler convention every problem matcher parses:
``PATH:LINE: error|warning: CHECK: WHAT`` (``PATH: …`` for a finding about the whole file);
``github`` is GitHub Actions' workflow-command syntax (``::error file=…,line=…,title=…::…``),
escaped as the runner requires so a message cannot forge a second command; ``sarif`` is one
SARIF 2.1.0 log (code scanning upload), one rule per check.
"""

from __future__ import annotations

import json

from clawmem.audit.results import Finding

FORMATS = ("text", "github", "sarif")


def line(f: Finding, level: str, fmt: str) -> str:
    """One finding as a line of ``fmt`` (``text`` or ``github``)."""
    return github_line(f, level) if fmt == "github" else f.render(level)
LEVELS = {"violation": "error", "warning": "warning"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULES = {
    "provenance": "A curated entry traces to untrusted or system content or a non-interactive session.",
    "preimage": "A curated entry left its file without a stored pre-image or a tombstone.",
    "annotation": "A curated entry has malformed metadata or a marker in its text.",
    "grounding": "A curated entry says something its source anchors do not.",
    "index": "The index disagrees with the files and the ledger.",
    "baseline": "The audit baseline is missing or cannot be stored.",
    "hand-edit": "A curated entry was added by hand (no ledger record).",
    "stale-source": "A source anchor no longer holds the entry's text.",
    "ledger": "The provenance ledger is missing or has no header.",
    "host-context": "The curated files render to more session-start context than an agent host takes.",
}


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def github_line(f: Finding, level: str) -> str:
    props = [f"file={_escape_property(f.path)}"]
    if f.line > 0:
        props.append(f"line={f.line}")
    props.append(f"title={_escape_property('clawmem ' + f.check)}")
    return f"::{LEVELS[level]} {','.join(props)}::{_escape_data(f.message)}"


def _result(f: Finding, level: str) -> dict:
    location: dict = {"artifactLocation": {"uri": f.path, "uriBaseId": "WORKSPACE"}}
    if f.line > 0:
        location["region"] = {"startLine": f.line}
    return {"ruleId": f.check, "level": LEVELS[level], "message": {"text": f.message}, "locations": [{"physicalLocation": location}]}


def sarif_log(violations: list[Finding], warnings: list[Finding], *, workspace: str, version: str) -> str:
    """One SARIF 2.1.0 log; ``WORKSPACE`` (the workspace root) is the base of every path."""
    from pathlib import Path

    used = sorted({f.check for f in [*violations, *warnings]} | {"provenance", "preimage", "annotation", "grounding", "index"})
    rules = [{"id": r, "shortDescription": {"text": RULES.get(r, r)}} for r in used]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "clawmem", "version": version, "rules": rules}},
                "originalUriBaseIds": {"WORKSPACE": {"uri": Path(workspace).as_uri() + "/"}},
                "results": [_result(f, "violation") for f in violations] + [_result(f, "warning") for f in warnings],
            }
        ],
    }
    return json.dumps(log, ensure_ascii=False, indent=2)
