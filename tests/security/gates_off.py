"""Run the real ``clawmem`` CLI with its provenance gates removed: the attack suite's control group.

TEST AND BENCHMARK ONLY. Production code has no switch for this: the gates are removed by
monkeypatching clawmem's own building blocks (one table, ``table``: each rule's function,
pattern or setting and what replaces it) before the CLI runs, so every other line of code
(parsing, files, ledger, index, search, dreaming, recall) is the real one. A replacement goes
wherever a loaded clawmem module bound the original by name, so the same table removes the
same gates in a fresh process (this script) and in the test process (``removed``, undone at
the end of its block).
``benchmarks/poisoning.py`` runs each attack through ``clawmem`` and through this wrapper to
show that the gates, not luck, are what stop the attacks.

Removed here, and nothing else:

1. provenance classification: every caller is the owner in an interactive session (the CLI's
   ``--origin`` and ``--session-kind`` are ignored, tool turns count as the sender's, ledger
   records and taint say owner, nothing is routed to quarantine);
2. the promotion-eligibility rule (everything is eligible) and the location floor;
3. neutralisation: comment and recall markers in text reach the files, and every frame, as written;
4. recall-loop prevention: marked blocks are kept and echoes are not dropped;
4b. frame nonces: clawmem's frames carry no nonce, so content that spells a closing tag closes them;
5. curated-tier-only, trusted-only trigger injection: any entry with a trigger may inject;
6. the line model and the strict turn grammar: readers split at every Unicode line boundary
   and a turn label may be indented, a heading, or a word that starts with a role;
7. the caller choosing the session: a ``session_id`` inside the records picks the transcript,
   and any caller may replace any transcript;
8. value validation before writing: arguments with invalid UTF-8, lone surrogates, times out
   of range, deep JSON, and control characters decoded from JSON escapes pass through;
9. raw-input validation: text input is decoded leniently whatever its size, bytes or control
   characters, session ids and dates are not checked, and a path argument may name any file;
10. the trusted-origin predicate: every origin class counts as trusted;
11. storage integrity: a failed append is not cut back, a torn last line or record is not
   repaired or recorded before the next append, links are followed, and the reply path's
   index statements wait the full busy timeout;
12. the external consolidator's leash (hole 5): any wording, structure, metadata or retirement
   citing a gated anchor is accepted, and the command runs in the workspace with its environment;
13. content origin: agent text restating untrusted text keeps the agent class;
14. the trusted-workspace rule: any enclosing ``.clawmem/`` is used, whoever wrote it (a clone's);
15. forget's reach beyond the memory files: returned untrusted hits, orphaned trigger phrases,
   log lines and the review page keep the forgotten text, and new files get the umask's mode;
16. session slots: a caller that claimed a session id first keeps it, and the owner's ingest of
   that session is refused;
17. tool-output cuts: one oversized tool result makes the whole transcript too large to ingest;
18. Markdown fences: a longer fence line closes the open fence (CommonMark's rule);
19. workspace identity: a trusted path stays trusted whatever workspace is there now;
20. bounded input: JSON is parsed however deep it nests, a hook reads all of stdin and its
   ``transcript_path`` whole (whatever its size or kind), and nothing catches what that raises;
21. number ranges: any number in ``clawmem.toml``, ``config set`` or ``intent add --budget/--cooldown``
   is taken as it is, and a config file is parsed without catching what the parser raises;
22. printable output: C0 and C1 controls are printed (and written in JSON) as they are stored,
   and C1 controls in raw input are stored as they came;
23. machine-local settings: a git-shared ``clawmem.toml`` may set the consolidator command and the
   cron schedule, and a schedule is any text starting with ``@`` or of five words;
24. ledger record shapes: any JSON object is a record, whatever the types of its fields;
25. recall identity: only an exact normalised copy of recalled text is an echo (a decorated one,
   or a fired intent's text, is new), and an unclosed recall marker runs to the end of the text.
26. team memory (``clawmem.trust.team``): a ledger record another copy wrote counts as this copy's, and a
   line that arrived in a commit without a record is hand-written here (no ``clawmem accept`` needed);
27. ledger rollback: a ledger lacking records this copy wrote (or with another id than it recorded)
   is taken as intact once the index that remembered it is deleted;
28. lineage and owner-means-typed: no agent turn or note inherits what its session was shown, and
   every user-role record is the owner's (the host's marks, a prompt hook's record, and a Markdown
   user turn after tool or system text are not consulted).
29. who speaks for the owner in ``USER.md``: any turn's words are the owner's typed words (a tool
   result, an assistant's answer), so they may set a directive or retire one by a plain-language update.

Usage: ``python tests/security/gates_off.py <clawmem arguments>``; in process, ``with gates_off.removed():``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

Row = tuple[object, str, object]  # (module or class, attribute, what replaces it)
_UNSET = object()


def table() -> list[Row]:
    """Every rule above as the rows that remove it, in one list (building it imports what it names)."""
    return [*core_rows(), *input_gate_rows(), *input_validation_rows(), *issue23_rows(), *bad_input_rows(), *late_rows(), *laundering_rows()]


def _holders(owner: object, name: str, value: object, modules: list[object]) -> list[object]:
    """``owner`` and every module of ``modules`` that binds ``value`` under ``name`` (writers bind helpers by name)."""
    return [owner, *(module for module in modules if module is not owner and vars(module).get(name, _UNSET) is value)]


def _clawmem_modules() -> list[object]:
    return [module for name, module in list(sys.modules.items()) if name.startswith("clawmem")]


def swap(rows: Iterable[Row]) -> list[tuple[object, str, object, object]]:
    """Put each row's replacement wherever a loaded clawmem module binds the original; what ``restore`` needs to undo it."""
    done = []
    modules = _clawmem_modules()
    for owner, name, replacement in rows:
        original = getattr(owner, name)
        for holder in _holders(owner, name, original, modules):
            setattr(holder, name, replacement)
        done.append((owner, name, original, replacement))
    return done


def restore(done: list[tuple[object, str, object, object]]) -> None:
    """Undo ``swap``, in reverse, wherever a replacement is bound (in a module imported since too)."""
    modules = _clawmem_modules()
    for owner, name, original, replacement in reversed(done):
        for holder in _holders(owner, name, replacement, modules):
            setattr(holder, name, original)


@contextlib.contextmanager
def removed(rows: Callable[[], list[Row]] = table) -> Iterator[None]:
    """The gates ``rows`` builds removed in this process until the block ends (the in-process control group)."""
    done = swap(rows())
    try:
        yield
    finally:
        restore(done)


def core_rows() -> list[Row]:
    """Rules 1-5, 10 and 11: provenance, eligibility, neutralisation, recall loops, frames, storage integrity."""
    from clawmem.commands import notes
    from clawmem.entries import neutralise as neutralise_module
    from clawmem.index import db
    from clawmem.storage import ledger_records, workspace
    from clawmem.trust import eligibility, framing, provenance
    from clawmem.trust import workspaces as trusted_workspaces

    real_entry, real_taint = ledger_records.entry_record, ledger_records.taint_record

    def entry_record(path, hash_, *, origin, session_kind, **fields):
        return real_entry(path, hash_, origin="owner", session_kind="interactive", **fields)

    return [
        (neutralise_module, "neutralise", lambda text: text),  # framing looks it up per call
        (ledger_records, "entry_record", entry_record),
        (ledger_records, "taint_record", lambda path, origin: real_taint(path, "owner")),
        (provenance, "location_floor", lambda kind: None),
        (eligibility, "promotion_eligibility", lambda **kw: eligibility.Eligibility(True, ())),
        (provenance, "classify_unrecorded", lambda kind, **kw: provenance.Classification("owner", "interactive", True)),
        (framing, "strip_marked", lambda text: (text, 0)),
        (framing, "new_nonce", lambda: ""),  # frames without a nonce: the first spelled closing tag ends them
        *torn_write_rows(),
        (workspace, "inside_workspace", lambda root, path: True),  # hole 8: links are followed, in and out of the workspace
        (workspace, "linked", lambda info: False),  # (the same rule as the index's folder listing asks it)
        (trusted_workspaces, "is_trusted", lambda root: True),  # rule 14: a cloned repository's workspace is used unasked
        (db, "bounded_wait", lambda deadline: None),  # hole 9: each index statement may wait the whole 5 s busy timeout
        (provenance, "caller_origin", lambda claimed, **kw: "owner"),
        (provenance, "role_origin", lambda role, sender_origin: "owner"),
        (notes, "blocked_hashes", lambda ws, hashes, **kw: notes.Blocked(set(), set())),
    ]


def late_rows() -> list[Row]:
    """Rules 10, 13, 5, 6 (records read as speech), 12 and 29."""
    from clawmem.dream import consolidate, directives, external, grounding, standalone
    from clawmem.dream import text as dream_text
    from clawmem.entries import scaffold
    from clawmem.trust import eligibility, provenance

    never = re.compile(r"(?!)")
    return [
        (provenance, "is_trusted", lambda origin: True),  # and every rule asking it: its SQL form, the display rule, eligibility, taint
        (directives, "_owner_typed", lambda row, labels: True),  # rule 29: a tool result or an answer speaks for the owner
        (eligibility, "injectable_sql", lambda entry, taint: "1"),  # any entry with a trigger may inject, whatever its tier, origin or file
        (scaffold, "record", lambda text: None),  # tool calls, JSON, code and program output read as speech
        (dream_text, "RECORD_LABELS", {}),  # a tool turn is speech like any other
        (standalone, "DEPENDENT", never),  # every sentence stands on its own
        (standalone, "OBJECT_PRONOUN", never),
        (grounding, "ungrounded", lambda text, evidence, threshold: None),  # a line need not say what its evidence says
        (consolidate, "structure_problems", lambda old_doc, new_doc: []),  # headings, prose, nested items may be added
        (consolidate, "retirement_problems", lambda old_doc, new_doc, proposals: []),  # supersede without a gated key
        (consolidate, "metadata_problems", lambda e, before, cited, anchors: []),  # invented triggers, keys, anchors
        (external, "isolated", lambda data: contextlib.nullcontext((Path(os.environ["CLAWMEM_WORKSPACE"]), dict(os.environ)))),  # runs in the workspace
    ]


LOOSE_TURN = r"^\s*(?:#{1,6}\s*)?\**\s*(?P<plain>user|assistant|system|tool|developer|function)\s*\**\s*:?\**\s*(?P<text>.*)$(?P<bold>(?!))?(?P<boldcolon>(?!))?"


def input_gate_rows() -> list[Row]:
    """Rules 6-8: the line model, the turn grammar, the session chosen by the caller, values validated before writing."""
    import datetime as dt
    import types

    from clawmem import launcher
    from clawmem.commands import ingest, projects
    from clawmem.entries import lines
    from clawmem.foundation import timeparse
    from clawmem.rules import inputs
    from clawmem.storage import workspace
    from clawmem.transcripts import parse

    real_ingest = ingest.ingest

    def content_picks_session(ws, data, *, session=None, fallback_session=None, **kw):
        raw = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        for line in raw.splitlines():
            try:
                named = json.loads(line).get("session_id")
            except (ValueError, AttributeError):
                continue
            if named:
                session = session or named
        return real_ingest(ws, data, session=session, fallback_session=fallback_session, **kw)

    return [
        (lines, "split", lambda text, keepends=False: text.splitlines(keepends=keepends)),  # every Unicode boundary
        (lines, "flatten_breaks", lambda text: text),
        (parse, "MD_TURN", re.compile(LOOSE_TURN, re.IGNORECASE)),
        (parse, "FENCE", re.compile(r"(?!)")),  # fences suspend nothing
        (ingest, "ingest", content_picks_session),
        (ingest, "check_replaceable", lambda records, session, rel, origin, tombstoned: None),
        (launcher, "_checked_argv", lambda argv: argv),
        (inputs, "check_encodable", lambda value, what: value),
        (parse, "clean_text", lambda value, what: value),
        (parse, "_check_depth", lambda line, number: None),
        (timeparse, "check_time_range", lambda when, what: when),
        (parse, "from_epoch", lambda seconds, what: dt.datetime.fromtimestamp(seconds)),
        (workspace, "SESSION_ID", types.SimpleNamespace(fullmatch=re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$").match)),  # "$" admits a final newline
        (projects, "redact_remote", lambda url: url.strip()),
    ]


def issue23_rows() -> list[Row]:
    """Rules 15-19 and 25-28: each rule function of issue 23 replaced by what the code did before it."""
    from clawmem.commands import ingest
    from clawmem.forget import apply, run
    from clawmem.foundation import config
    from clawmem.storage import durable
    from clawmem.transcripts import claude_code, markdown, sessions
    from clawmem.trust import sessions as trust_sessions
    from clawmem.trust import typed
    from clawmem.trust import workspaces as trusted_workspaces

    never = re.compile(r"(?!)")
    return [
        (apply, "scrub_index_copies", lambda index, tables, hashes, norms: None),
        (run, "scrub_file_copies", lambda ws, norms: {}),
        (apply, "scrub_file_copies", lambda ws, norms: {}),
        (config, "PRIVATE_FILE_MODE", 0o666),
        (durable, "create_private", lambda path: False),
        (ingest, "session_slot", sessions.unbound_slot),
        *tool_cut_rows(),
        (markdown, "closes_fence", markdown.commonmark_closes),
        (trusted_workspaces, "matches", trusted_workspaces.path_matches),
        (trust_sessions, "derived_notes", lambda records, session, turns, times: []),  # nor is it judged again when its session is ingested
        (claude_code, "HOST_TAG", never),  # the harness's blocks in a user record are the owner's words
        (claude_code, "HOST_PREAMBLE", never),
        *markdown_user_rows(),
        (typed, "host_marked_typed", lambda origin, prompt_source, *, marked: True),  # every user text record is the owner's
        (typed, "typed_only", lambda turn, prompts, *, rest_speaker: [turn]),  # every user message is the owner's
        *recall_identity_rows(),
        *team_rows(),
    ]


def torn_write_rows() -> list[Row]:
    """Hole 3 (rule 11): a failed append is not cut back, and a torn tail is neither repaired nor recorded."""
    from clawmem.storage import durable

    return [
        (durable, "cut_back", lambda fd, size: None),  # a failed append (disk full) leaves its half line
        (durable, "torn_tail", lambda path: b""),  # no tail repair, so the next append glues onto a torn one
    ]


def storage_fix_rows() -> list[Row]:
    """Only the storage fix of hole 3 removed (not in ``table``): torn writes, and unaccounted lines
    classified by the rule from before the fix (a curated file's, or a daily note's while the ledger
    is intact, are the owner's), so an upgrade is seen to come from the tear itself."""
    from clawmem.trust import provenance

    def classify_unrecorded(kind, *, ledger_intact, **ignored):
        hand = kind in provenance.CURATED_KINDS or (kind == "daily" and ledger_intact)
        return provenance.Classification("owner" if hand else "untrusted", "interactive", True)

    return [*torn_write_rows(), (provenance, "classify_unrecorded", classify_unrecorded)]


def tool_cut_rows() -> list[Row]:
    """Rule 17: tool output is not cut, so one oversized tool result makes the whole transcript too large."""
    from clawmem.transcripts import cuts, parse

    return [
        (parse, "cut_oversized", cuts.uncut),
        (parse, "cut_records", lambda chunks: (chunks, 0)),
    ]


def markdown_user_rows() -> list[Row]:
    """Rule 28, in part: every user turn is the owner's (a prompt hook's record is not ground truth, nor is Markdown suspect)."""
    from clawmem.trust import typed

    return [(typed, "owner_turns", lambda turns, fmt, prompts: list(turns))]


def laundering_rows() -> list[Row]:
    """Rules 13 and 28, hole 6: agent text restating untrusted text keeps the agent class, and no agent
    turn or note inherits what its session was shown."""
    from clawmem.transcripts import live
    from clawmem.trust import content_origin, lineage

    return [
        (content_origin, "restates", lambda text, source, cfg=None: False),  # no text is untrusted-derived
        (lineage, "verdicts", lambda turns, exposed_by=None: [lineage.Verdict() for _ in turns]),  # no agent turn inherits an exposure
        (live, "exposure", lambda ws, session: None),  # an agent's note never inherits its session's exposure
    ]


def recall_veto_rows() -> list[Row]:
    """Hole 6 (not in ``table``, where ``is_trusted`` removes it with the rest): an untrusted hit joins the
    recalled set, so what a search returned from the web can veto the owner's writes."""
    from clawmem.index import recalls

    return [(recalls, "joins_recalled_set", lambda origin: True)]


def team_rows() -> list[Row]:
    """Rules 26-27: whatever a pull brings is this copy's, and only the index remembers the ledger."""
    from clawmem.trust import team

    return [
        (team, "counts_here", lambda found, record: True),  # a record another copy wrote (or planted) counts as written
        (team, "unrecorded_origin", lambda hands, rel, lines, text_hash, origin, line_start: origin),  # a committed line is hand-written here
        (team, "rollback", lambda state, ledger_id, found: None),  # a rolled-back or swapped ledger looks intact to a new index
    ]


def recall_identity_rows() -> list[Row]:
    """Rule 25: echoes are caught by exact hash only, and an unclosed recall marker swallows the rest."""
    from clawmem.trust import echoes, framing

    return [
        (echoes, "injected_copy", lambda form, injected, rules: False),
        (framing, "unclosed_end", lambda text, opening: len(text)),
    ]


def bad_input_rows() -> list[Row]:
    """Rules 20-24: each bad-input and team-config rule of issue 23 replaced by what the code did before it."""
    import tomllib

    from clawmem.commands import cron
    from clawmem.foundation import config, jsonbound
    from clawmem.hosts import background, command, hook
    from clawmem.intents import schedule, validation
    from clawmem.rules import inputs
    from clawmem.storage import ledger

    return [
        (jsonbound, "loads", lambda data, *, max_depth: json.loads(data)),
        (command, "outcome_of", lambda event, host, workspace, budget_ms: hook.run(event, host, sys.stdin.buffer.read(), workspace=workspace, budget_ms=budget_ms)),
        (background, "read_transcript", lambda path, limit, degraded: path.read_bytes()),
        (background, "refuse", lambda path, most: None),
        (config, "check_number", lambda key, value, low, high, default: None),
        (config, "read_toml", lambda path: tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}),
        (validation, "check_fire_limits", lambda budget, cooldown_s: None),
        (schedule, "checked_duration", lambda seconds, text: round(seconds)),
        (inputs, "printable", lambda text: text),
        (inputs, "neutral_c1", lambda text: text),
        (inputs, "json_printable", lambda document: document),
        (config, "refuse_shared_executables", lambda data, path, root: None),
        (cron, "check_schedule", lambda schedule: schedule.strip()),
        (ledger, "shape_problem", lambda record: None if isinstance(record, dict) else "not an object"),
    ]


def input_validation_rows() -> list[Row]:
    """Rule 9: raw input decoded leniently, session ids and dates unchecked, any path taken."""
    import datetime as dt

    from clawmem.commands import ingest
    from clawmem.rules import inputs
    from clawmem.storage import anchors, workspace

    def lenient_decode(data, *, limit, what="input"):
        return data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data

    def unlimited_read(source, *, limit, what):
        return sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()

    return [
        (inputs, "decode_input", lenient_decode),
        (inputs, "read_source", unlimited_read),
        (workspace, "validate_session_id", lambda session: session),
        (ingest, "check_kept_size", lambda ws, turns: None),  # a transcript over the limit once its tool output is cut is kept whole
        (workspace, "validate_date", lambda value: dt.date.fromisoformat(value)),
        (workspace.Workspace, "resolve_member", lambda self, relpath: self.root / relpath),
        (anchors, "_relative", lambda ws, given: given),  # an absolute path is taken as given, inside or not
    ]


def main() -> None:
    """``gates_off.py [--rows NAME] ARGS``: ``clawmem ARGS`` without the gates ``NAME`` builds (default: ``table``)."""
    rows = table
    if sys.argv[1:2] == ["--rows"]:
        rows = globals()[sys.argv[2]]
        del sys.argv[1:3]
    swap(rows())
    from clawmem.launcher import main as clawmem_main

    sys.argv[0] = "clawmem"
    clawmem_main()


if __name__ == "__main__":
    main()
