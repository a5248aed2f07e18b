"""The user model: ``USER.md`` holds imperative directives, one active line per key.

    - Always answer in British English. <!-- key: language --> <!-- observed: 2026-11-29 --> <!-- status: active -->

Why directives: a preference merely present in context stops being applied after a few
turns, while a restated directive keeps working (PrefEval). So an entry must start with an
imperative ("Always", "Never", "Prefer", ...); an observation ("The user likes tea") is refused.

Why in place: append-only preference history makes models answer from the stale value. A
changed preference rewrites its line (optimistic concurrency + pre-image, like dreaming);
the old text goes to the pre-image and to ``DREAMS.md``. ``retire`` removes the line for the
same reason: a superseded line left in a file that is loaded into every context is exactly
the stale value to avoid. History lives in ``.clawmem/preimages/`` and ``DREAMS.md``.
Lines marked ``<!-- status: superseded -->`` by hand are kept and never count as active.

Only owner or agent origin in an interactive session may shape the user model (the
promotion-eligibility rule, since ``USER.md`` is curated memory). ``USER.md`` is never
project-scoped.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from clawmem.entries import grammar, identity
from clawmem.entries.neutralise import neutralise
from clawmem.foundation.errors import BadInput, Busy, Forbidden, NotFound
from clawmem.foundation.records import dataclass
from clawmem.rules.inputs import decode_input
from clawmem.storage import curated, diary, ledger, ledger_records
from clawmem.storage.workspace import Workspace
from clawmem.trust import eligibility, framing, provenance

# First words accepted as an imperative (case-insensitive; "Please" in front is allowed).
DIRECTIVE_WORDS = (
    "always", "never", "prefer", "avoid", "use", "do", "don't", "do not", "dont", "keep", "address", "call",
    "answer", "write", "reply", "respond", "be", "stop", "start", "ask", "include", "omit", "skip", "show",
    "give", "format", "explain", "mention", "refer", "speak", "assume", "treat", "check", "confirm", "make",
    "put", "follow", "greet", "sign", "spell", "offer", "suggest", "limit", "summarise", "summarize", "only",
    "default", "remind", "send", "lead", "cite", "quote", "list", "name", "tell", "let", "wait", "double-check",
)
SHOWN_WORDS = ("always", "never", "prefer", "avoid", "use", "don't", "keep", "answer", "reply", "write", "be", "call")
KEY_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
MAX_DIRECTIVE_CHARS = 500
ATTEMPTS = 5  # optimistic rewrite retries when something else edits USER.md meanwhile
ACTIVE = "active"
SUPERSEDED = "superseded"


@dataclass(frozen=True)
class Directive:
    """One ``USER.md`` entry as ``user list --json`` shows it."""

    key: str | None
    text: str
    observed: str | None
    status: str  # active | superseded
    line: int


@dataclass(frozen=True)
class SetResult:
    """What ``user set`` did: ``added``, ``changed`` (rewritten in place), ``unchanged`` or, with
    ``refresh``, ``refreshed`` (same text, a later ``observed`` date written in place)."""

    action: str
    key: str
    text: str
    previous: str | None  # the directive it replaced (changed only)
    line: int
    origin: str
    preimage: str | None  # workspace-relative pre-image of USER.md (changed only)
    removed_duplicates: int  # other active lines with this key (hand-made) folded into this one


@dataclass(frozen=True)
class RetireResult:
    key: str
    text: str
    line: int
    origin: str
    preimage: str | None


def _first_word(text: str) -> str:
    words = text.split()
    return words[0].casefold().strip(",:;!.") if words else ""


def check_directive(text: str) -> str:
    """Return ``text`` as a one-line directive ending in punctuation, or refuse an observation."""
    line = " ".join(neutralise(text).split())
    if not line:
        raise BadInput("the directive is empty")
    if len(line) > MAX_DIRECTIVE_CHARS:
        raise BadInput(f"the directive is {len(line)} characters; at most {MAX_DIRECTIVE_CHARS}", hint="keep one short rule per key")
    words = line.replace("\u2019", "'").split()
    lowered = [w.casefold() for w in words]
    if lowered and lowered[0].strip(",") == "please" and len(words) > 1:
        lowered = lowered[1:]
    first = lowered[0].strip(",:;!.") if lowered else ""
    two = " ".join(lowered[:2])
    if first not in DIRECTIVE_WORDS and two not in DIRECTIVE_WORDS:
        raise BadInput(
            f"USER.md holds imperative directives, not observations: {line!r} starts with {words[0]!r}",
            hint='rephrase it as an instruction, e.g. "Prefer tea over coffee when suggesting drinks"; '
            "accepted first words include " + ", ".join(w.capitalize() for w in SHOWN_WORDS) + ", …",
        )
    return line


def check_key(key: str) -> str:
    value = key.strip().lower()
    if not KEY_PATTERN.match(value):
        raise BadInput(f"invalid key {key!r}", hint="use 1-64 letters, digits, '.', '_' or '-', e.g. --key language")
    return value


def check_writer(origin: str, session_kind: str) -> None:
    """The promotion-eligibility rule decides who may write curated memory directly."""
    provenance.check_provenance(origin, session_kind)
    verdict = eligibility.promotion_eligibility(origin=origin, session_kind=session_kind, file_taint=None)
    if not verdict.eligible:
        raise Forbidden(
            f"may not change the user model: {'; '.join(verdict.reasons)}",
            hint="only the owner or the agent, in an interactive session, shapes USER.md (pass --origin owner)",
        )


def _is_active(entry: grammar.Entry) -> bool:
    return entry.first("status") != SUPERSEDED


def directives(ws: Workspace) -> list[Directive]:
    """Every entry in ``USER.md``, in file order (no status annotation counts as active)."""
    if not ws.user_md.exists():
        return []
    doc = grammar.parse(ws.user_md.read_text(encoding="utf-8", errors="replace"))
    return [
        Directive(
            key=e.key.strip().lower() if e.key else None,
            text=" ".join(e.body.split()),
            observed=e.observed,
            status=ACTIVE if _is_active(e) else SUPERSEDED,
            line=e.line_start,
        )
        for e in doc.entries
    ]


def _keyed(doc: grammar.Document, key: str) -> list[grammar.Entry]:
    return [e for e in doc.entries if e.key and e.key.strip().lower() == key and _is_active(e)]


def _render(doc: grammar.Document, replace: dict[int, str]) -> str:
    """The document with some blocks (by ``line_start``) replaced; ``""`` removes a block."""
    out = []
    for block in doc.blocks:
        out.append(replace.get(block.line_start, block.raw) if isinstance(block, grammar.Entry) else block.raw)
    return "".join(out)


def _today(today: dt.date | None) -> dt.date:
    if today is not None:
        return today
    from clawmem.foundation.timeparse import now

    return now().date()


def set_directive(
    ws: Workspace,
    text: str,
    *,
    key: str,
    origin: str,
    session_kind: str = "interactive",
    session: str | None = None,
    today: dt.date | None = None,
    refresh: bool = False,
) -> SetResult:
    """Add the directive for ``key``, or rewrite that key's line in place if it changed.

    Afterwards exactly one active line carries ``key`` (hand-made duplicates are folded in).
    ``refresh``: the same directive observed again moves the line's ``observed`` date forward
    (dreaming: a directive the owner keeps repeating is current, not stale).
    """
    check_writer(origin, session_kind)
    key = check_key(key)
    text, _ = framing.strip_marked(decode_input(text, limit=ws.config.limits.max_note_bytes, what="directive"))
    text = check_directive(text)
    observed = _today(today).isoformat()
    new_line_meta = [("key", key), ("observed", observed), ("status", ACTIVE)]
    recorded = False
    for _ in range(ATTEMPTS):
        snap = curated.snapshot(ws.user_md)
        doc = grammar.parse(snap.text)
        current = _keyed(doc, key)
        if current and len(current) == 1 and identity.normalise(current[0].body) == identity.normalise(text):
            entry = current[0]
            if not (refresh and (entry.observed or "") < observed):
                return SetResult("unchanged", key, text, None, entry.line_start, origin, None, 0)
            refreshed = _refresh_observed(ws, snap, doc, entry, observed)
            if refreshed is None:
                continue
            return SetResult("refreshed", key, entry.body.strip(), None, entry.line_start, origin, ws.rel(refreshed), 0)
        if not recorded:  # provenance first, then the file
            record = ledger_records.entry_record(
                ws.rel(ws.user_md), identity.text_hash(text), origin=origin, session_kind=session_kind, session=session, observed=observed
            )
            ledger.append(ws, [record])
            recorded = True
        if not current:
            base = snap.text if not snap.text or snap.text.endswith("\n") else snap.text + "\n"
            new_text = base + grammar.render_entry(text, new_line_meta)
            line = new_text.count("\n")
            result = curated.replace_if_unchanged(ws, snap, new_text, reason=f"user set {key}")
            if result.written:
                assert result.preimage is not None  # a written rewrite always stored its pre-image
                return SetResult("added", key, text, None, line, origin, ws.rel(result.preimage), 0)
            continue
        first, extra = current[0], current[1:]
        marker = first.marker if first.marker in "-*+" else "-"
        replace = {first.line_start: grammar.render_entry(text, new_line_meta, marker=marker)}
        replace.update({e.line_start: "" for e in extra})
        new_text = _render(doc, replace)
        result = curated.replace_if_unchanged(ws, snap, new_text, reason=f"user set {key}")
        if not result.written:
            continue
        assert result.preimage is not None  # a written rewrite always stored its pre-image
        previous = " ".join(first.body.split())
        lines = [f"- key `{key}` ({origin}): the directive was rewritten in place.", f"- before: {previous}", f"- after: {text}"]
        lines += [f"- folded duplicate: {' '.join(e.body.split())}" for e in extra]
        lines.append(f"- pre-image: {ws.rel(result.preimage)}")
        diary.append(ws, f"user model: {key} changed", lines)
        return SetResult("changed", key, text, previous, first.line_start, origin, ws.rel(result.preimage), len(extra))
    raise Busy("USER.md kept changing while the directive was being written", hint="try again")


OBSERVED_COMMENT = re.compile(r"<!--\s*observed\s*:[^>]*?-->", re.IGNORECASE)


def _refresh_observed(ws: Workspace, snap: curated.Snapshot, doc: grammar.Document, entry: grammar.Entry, observed: str) -> Path | None:
    """Rewrite one line's ``observed`` comment in place, every other byte kept; the pre-image,
    or None when the file changed meanwhile (the caller retries)."""
    comment = f"<!-- observed: {observed} -->"
    raw = entry.raw
    if OBSERVED_COMMENT.search(raw):
        line = OBSERVED_COMMENT.sub(comment, raw, count=1)
    else:
        body = raw.rstrip("\r\n")
        line = f"{body} {comment}{raw[len(body):] or chr(10)}"
    result = curated.replace_if_unchanged(ws, snap, _render(doc, {entry.line_start: line}), reason=f"user refresh {entry.key}")
    return result.preimage if result.written else None


def retire(
    ws: Workspace, key: str, *, origin: str, session_kind: str = "interactive", session: str | None = None
) -> RetireResult:
    """Remove the active directive for ``key`` from ``USER.md`` (pre-image and ``DREAMS.md`` keep it)."""
    check_writer(origin, session_kind)
    key = check_key(key)
    for _ in range(ATTEMPTS):
        snap = curated.snapshot(ws.user_md)
        doc = grammar.parse(snap.text)
        current = _keyed(doc, key)
        if not current:
            raise NotFound(f"no active directive with key {key!r} in USER.md", hint="see them with `clawmem user list`")
        new_text = _render(doc, {e.line_start: "" for e in current})
        result = curated.replace_if_unchanged(ws, snap, new_text, reason=f"user retire {key}")
        if not result.written:
            continue
        assert result.preimage is not None  # a written rewrite always stored its pre-image
        retired = [" ".join(e.body.split()) for e in current]
        lines = [f"- key `{key}` ({origin}, session {session or '-'}): retired."]
        lines += [f"- was: {t}" for t in retired]
        lines.append(f"- pre-image: {ws.rel(result.preimage)}")
        diary.append(ws, f"user model: {key} retired", lines)
        return RetireResult(key, retired[0], current[0].line_start, origin, ws.rel(result.preimage))
    raise Busy("USER.md kept changing while the directive was being retired", hint="try again")
