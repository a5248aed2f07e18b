"""Directives the owner said in conversation, turned into ``USER.md`` entries.

"Always answer in British English", said by the owner in a chat, belongs in the user model;
nothing else in dreaming writes ``USER.md``. ``collect`` reads the eligible evidence and
``apply`` writes it through ``usermodel.set_directive`` (the one writer of ``USER.md``).

**Evidence.** Indexed episodic entries (transcript turns, daily-note entries) within
``dream.max_age_days`` that pass the sweep's own eligibility rule (``trust.eligibility.entry_reasons``:
trusted origin, interactive session, untainted file, not quarantined, not prose). Of those,
only the owner's words count: a transcript turn of origin ``owner`` whose speaker is the owner
(no label, a role label such as ``user``, or the one name every owner turn of that transcript
carries; in a chat between several named people nobody is known to be the owner), or a daily
note the owner wrote. An assistant's restatement ("Noted, I'll answer in British English") is
agent origin and never counts. An owner's typed directive is never a "recalled copy": saying an
old preference again is how the owner changes it back. Forgotten text is never read.

**Strong evidence.** An explicit directive from the owner in an interactive session is the
owner's own instruction about how to be treated, so one statement is enough: no recall count
and no recurrence (the deep gate exists to find what is worth keeping among things nobody asked
to keep). The same directive said again only refreshes ``observed``.

**What is a directive**, its normal form and its supersession key: ``directive_grammar.py``.

**Updates retire directives across files.** A key supersedes only a directive of the same key;
"we switched from npm to pnpm" names none. So the plain-language updates the owner typed
(``updates_said``, the same evidence rule, owner's words only) are checked against ``USER.md``:
a keyed directive said before an update that retires its value (``updates.retires``: "Always
use npm for installs") is retired (``usermodel.retire``, diary and pre-image kept), and a
directive an update said after it already replaces is never written.

**Agent proposals.** An MCP client may propose a directive (``propose``): a daily-note entry of
agent origin whose key is ``user.<key>``. It is promoted only when the owner said the same
directive too (then the owner's words are what is written) or when it passes the deep gate
(``gate.evaluate``, unchanged) with at least ``dream.min_recalls`` real recalls: the agent
repeating itself is not evidence. An agent proposal never rewrites a directive ``USER.md``
already holds, and never one the owner said differently.

**Never undo the owner.** ``apply`` leaves a key alone when ``USER.md`` changed it after the
directive was said (``user set``, a hand edit, ``user retire``): the owner's later deliberate
edit wins over an earlier sentence still inside the window. A key the owner already gave the
subject (``user set … --key lang`` for the language) is kept rather than a second line added,
and a line that already says the directive, keyed or not, is left as it is.

**Known limit.** The comparison uses when ``USER.md``'s line was written, not when its evidence
was said: a conflicting statement ingested after a sweep but said before it does not win.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from typing import Any

from clawmem.commands import usermodel
from clawmem.commands.notes import NoteResult
from clawmem.dream import credentials, gate, light, store, updates
from clawmem.dream.consolidate import Change
from clawmem.dream.directive_grammar import CLAUSES, HINT, OWNER_LABELS, PROPOSAL_PREFIX, derive_key, directive_in, directives_in
from clawmem.dream.standalone import observed_day
from clawmem.dream.store import Candidate, Evidence, Staging
from clawmem.dream.text import excerpt, sentences, similarity, speaker_label, without_label
from clawmem.entries import identity
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass
from clawmem.index.db import Index
from clawmem.storage import diary, ledger, ledger_records
from clawmem.storage.anchors import cite
from clawmem.storage.ledger_records import EntryRecord, is_kind
from clawmem.storage.workspace import Workspace
from clawmem.trust import eligibility

DIARY_TITLE = "user model: directives from conversation"
ADDED, CHANGED, REFRESHED, SUPERSEDED = "USER.md: added", "USER.md: rewritten in place", "USER.md: observed refreshed", "USER.md: superseded"
OWNER_REASON = (
    "the owner said it in an interactive session; an explicit directive from the owner is strong evidence, "
    "so one statement is enough (no recall count needed)"
)



@dataclass(frozen=True)
class Directive:
    """A directive for ``USER.md`` with its evidence: ``sources`` are ``path#Lx`` anchors."""

    text: str
    key: str
    sources: tuple[str, ...]
    observed: str  # ISO date of the latest statement
    reason: str  # why it is promoted: the explanation the diary gives
    origin: str = "owner"  # owner: the owner's words; agent: a proposal that passed the gate
    said_at: str = ""  # ISO time of the latest statement (compared with USER.md's own changes)
    session: str | None = None  # the session of the latest statement



# --- evidence --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Statement:
    """One directive found in one eligible entry."""

    text: str
    key: str
    row: Mapping[str, Any]
    said: dt.datetime

    @property
    def anchor(self) -> str:
        return cite(self.row["path"], self.row["line_start"], self.row["line_end"])


ROWS = """SELECT e.*, f.file_date FROM entries e JOIN files f ON f.path = e.path
          WHERE e.tier = 'episodic' AND e.kind IN ('transcript', 'daily') AND e.origin IN ('owner', 'agent')
            AND COALESCE(substr(e.observed_at, 1, 10), f.file_date, '9999') >= ?
          ORDER BY e.path, e.line_start"""


def _said(row: Mapping[str, Any]) -> dt.datetime | None:
    seen = store.when(row.get("observed_at"))
    if seen is not None:
        return seen
    day = observed_day(row)
    return dt.datetime.combine(day, dt.time(12)) if day else None


def _owner_labels(rows: Sequence[Mapping[str, Any]]) -> dict[str, str | None]:
    """Per transcript, the one speaker name all owner turns carry (None: several, so none is the owner)."""
    names: dict[str, set[str]] = {}
    for row in rows:
        label = speaker_label(row["text"]) if row["kind"] == "transcript" and row["origin"] == "owner" else None
        if label:
            names.setdefault(row["path"], set()).add(label.casefold())
    return {path: next(iter(found)) if len(found) == 1 else None for path, found in names.items()}


def _owner_typed(row: Mapping[str, Any], labels: dict[str, str | None]) -> bool:
    """A transcript turn the owner typed: owner origin, and the owner's label or none."""
    if row["origin"] != "owner":
        return False
    label = speaker_label(row["text"]) if row["kind"] == "transcript" else None
    return label is None or label.casefold() in OWNER_LABELS or labels.get(row["path"]) == label.casefold()


def _proposed(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A tagged proposal's directive and key (the text is already a directive)."""
    key = (row["supersession_key"] or "")[len(PROPOSAL_PREFIX):]
    text = directive_in(row["text"], habitual=True)
    try:
        return [(text, usermodel.check_key(key))] if text else []
    except BadInput:
        return []


def _eligible(
    ws: Workspace, index: Index, now: dt.datetime, wanted: Callable[[Mapping[str, Any]], bool], forgotten: Set[str]
) -> Iterator[tuple[dict[str, Any], dt.datetime, bool]]:
    """The ``wanted`` episodic rows said within ``dream.max_age_days`` that pass the sweep's own
    eligibility rule and are not ``forgotten`` (tombstoned hashes), with when each was said and
    whether the owner typed it."""
    now = now.astimezone().replace(tzinfo=None) if now.tzinfo else now
    oldest = now - dt.timedelta(days=ws.config.dream.max_age_days)
    rows = [dict(r) for r in index.query(ROWS, (oldest.date().isoformat(),))]
    taint = store.taints(index)
    copies = light._RecalledCopies(index)  # the sweep's recalled-copy test (agent rows only: module docstring)
    labels = _owner_labels(rows)
    for row in rows:
        if not wanted(row):
            continue
        said = _said(row)
        if said is None or not oldest <= said <= now or row["text_hash"] in forgotten:  # a sweep sees nothing said after its `now`
            continue
        if eligibility.entry_reasons(row, taint.get(row["path"]), row["origin"] != "owner" and copies(row)):
            continue
        yield row, said, _owner_typed(row, labels)


def _is_proposal(row: Mapping[str, Any]) -> bool:
    return (row["supersession_key"] or "").startswith(PROPOSAL_PREFIX) and row["kind"] == "daily"


def _may_direct(row: Mapping[str, Any]) -> bool:
    """A row that may hold a directive: an agent's tagged proposal, or anyone else's words with a directive's hint."""
    return _is_proposal(row) or (row["origin"] != "agent" and HINT.search(row["text"]) is not None)


def _may_update(row: Mapping[str, Any]) -> bool:
    return row["origin"] == "owner" and updates.parse(row["text"]) is not None


def statements(ws: Workspace, index: Index, now: dt.datetime) -> list[Statement]:
    """Every directive in eligible evidence within ``dream.max_age_days``, oldest first; none that
    gives a credential's value (``credentials.found``: ``USER.md`` is injected into every session)."""
    forgotten = ledger.tombstones(ws).hashes
    found: list[Statement] = []
    for row, said, owner_typed in _eligible(ws, index, now, _may_direct, forgotten):
        if _is_proposal(row):
            pairs = _proposed(row)
        elif owner_typed:
            pairs = [(d, derive_key(d)) for d in directives_in(row["text"], transcript=row["kind"] == "transcript")]
        else:
            pairs = []
        found += [Statement(text, key, row, said) for text, key in pairs if identity.text_hash(text) not in forgotten and not credentials.found(text)]
    return sorted(found, key=lambda s: (s.said, s.row["path"], s.row["line_start"]))


@dataclass(frozen=True)
class SaidUpdate:
    """A plain-language update the owner typed ("we switched from pandas to polars"): it retires
    the ``USER.md`` directives said before it that state the value it replaces (``updates.retires``)."""

    update: updates.Update
    text: str
    anchor: str
    said: dt.datetime
    session: str | None


def updates_said(ws: Workspace, index: Index, now: dt.datetime) -> list[SaidUpdate]:
    """Every update the owner typed in eligible evidence within ``dream.max_age_days``, oldest first.
    Only the owner's words count, as for directives: an agent's "Noted, you moved to polars" is not one."""
    found = []
    for row, said, owner_typed in _eligible(ws, index, now, _may_update, ledger.tombstones(ws).hashes):
        if not owner_typed:
            continue
        said_text = without_label(row["text"]) if row["kind"] == "transcript" else row["text"]  # "user:" is no subject
        for sentence in sentences(said_text):
            update = updates.parse(sentence)
            if update is not None:
                found.append(SaidUpdate(update, sentence, cite(row["path"], row["line_start"], row["line_end"]), said, row.get("session_id")))
    return sorted(found, key=lambda u: u.said)


# --- deciding --------------------------------------------------------------------------------
def _same(a: str, b: str, threshold: float) -> bool:
    na, nb = identity.normalise(a), identity.normalise(b)
    return na == nb or similarity(na, nb) >= threshold


def _owner_directive(said: list[Statement], threshold: float) -> Directive:
    """The newest thing the owner said for a key, with every time it was said."""
    latest = said[-1]
    repeats = [s for s in said if _same(s.text, latest.text, threshold)]
    replaced = [s for s in said if not _same(s.text, latest.text, threshold)]
    reason = OWNER_REASON + (f"; said {len(repeats)} times, last on {latest.said.date().isoformat()}" if len(repeats) > 1 else "")
    if replaced:
        reason += f"; replaces what the owner said before ({excerpt(replaced[-1].text, 60)} at {replaced[-1].anchor})"
    return _directive(latest, repeats, reason, "owner")


def _directive(latest: Statement, evidence: list[Statement], reason: str, origin: str) -> Directive:
    sources = tuple(dict.fromkeys(s.anchor for s in sorted(evidence, key=lambda s: s.said, reverse=True)))
    return Directive(
        latest.text, latest.key, sources, latest.said.date().isoformat(), reason, origin, latest.said.isoformat(timespec="seconds"),
        latest.row.get("session_id"),
    )


def _gate(ws: Workspace, index: Index, proposals: list[Statement], now: dt.datetime) -> tuple[bool, str]:
    """Whether an agent's proposal passes the deep gate with real recalls (``gate.evaluate``, unchanged)."""
    cfg = ws.config.dream
    evidence = [
        Evidence(
            s.row["path"], s.row["line_start"], s.row["line_end"], s.row["text_hash"], identity.text_hash(s.text), s.text, s.row["origin"],
            s.row["session_id"], s.said.date().isoformat(), s.row["observed_at"], 100.0, s.row["importance"], (), s.key,
        )
        for s in proposals
    ]
    candidate = Candidate(1, proposals[-1].text, "staged", ledger_records.now_iso(), evidence)
    since = (now - dt.timedelta(days=cfg.max_age_days)).date().isoformat()
    verdict = gate.evaluate(Staging({1: candidate}, {}, []), store.recalls(index, since), store.taints(index), cfg, now)[1]
    failed = list(verdict.failed)
    if verdict.signals.recalls < cfg.min_recalls:
        failed.append(f"recalls {verdict.signals.recalls} < {cfg.min_recalls} (an agent proposal needs real recalls, not repetition)")
    return not failed, "; ".join(failed) or f"score {verdict.score:.2f} with {verdict.signals.recalls} recalls"


def collect(ws: Workspace, index: Index, now: dt.datetime) -> list[Directive]:
    """The directives eligible evidence supports, newest per key (module docstring)."""
    now = now.astimezone().replace(tzinfo=None) if now.tzinfo else now
    threshold = ws.config.dream.dedupe_similarity
    by_key: dict[str, list[Statement]] = {}
    for s in statements(ws, index, now):
        by_key.setdefault(s.key, []).append(s)
    found = []
    for _, said in sorted(by_key.items()):
        owner = [s for s in said if s.row["origin"] == "owner"]
        agent = [s for s in said if s.row["origin"] == "agent"]
        if owner:
            directive = _owner_directive(owner, threshold)
            echoed = [s for s in agent if _same(s.text, directive.text, threshold)]
            if echoed:
                directive = dataclasses.replace(directive, reason=f"{directive.reason}; the agent proposed it too ({echoed[-1].anchor})")
            found.append(directive)
        elif agent:
            latest = agent[-1]
            same = [s for s in agent if _same(s.text, latest.text, threshold)]
            passed, why = _gate(ws, index, same, now)
            if passed:
                found.append(_directive(latest, same, f"proposed by the agent, not said by the owner; passed the deep gate ({why})", "agent"))
    return found


# --- writing ---------------------------------------------------------------------------------
def _line_times(ws: Workspace) -> dict[str, dt.datetime]:
    """When each text was last written to ``USER.md`` (by text hash, from the provenance ledger)."""
    rel = ws.rel(ws.user_md)
    times: dict[str, dt.datetime] = {}
    for r in ledger.read(ws).records:
        at = store.when(r.get("at"))
        if is_kind(r, EntryRecord) and r.get("path") == rel and at is not None:
            times[r["hash"]] = max(at, times.get(r["hash"], at))
    return times


def _retired(ws: Workspace) -> dict[str, dt.datetime]:
    """When each key was last retired (``user retire`` writes a ``DREAMS.md`` section)."""
    found: dict[str, dt.datetime] = {}
    for item in diary.items(ws):
        match = re.fullmatch(r"user model: (?P<key>\S+) retired", item.title)
        when = store.when(item.when.replace(" ", "T"))
        if match and when is not None:
            found[match["key"]] = max(when, found.get(match["key"], when))
    return found


def _plan(d: Directive, current: usermodel.Directive | None, changed: dt.datetime | None, retired: dt.datetime | None) -> str | None:
    """What to do with ``d`` given ``USER.md``: add, change, refresh or nothing (None)."""
    said = store.when(d.said_at) or dt.datetime.combine(dt.date.fromisoformat(d.observed), dt.time(23, 59))
    if current is None:
        return None if retired is not None and retired >= said else "added"
    if identity.normalise(current.text) == identity.normalise(d.text):
        return "refreshed" if (current.observed or "") < d.observed else None
    if d.origin != "owner" or (changed is not None and changed >= said):
        return None  # an agent never rewrites a directive; the owner's later edit of USER.md wins
    return "changed"


def _changes(d: Directive, action: str, previous: str | None) -> list[Change]:
    detail = {"added": ADDED, "changed": CHANGED, "refreshed": REFRESHED}[action]
    out = [Change(d.text, d.sources, None, f"{detail} (key {d.key!r}, origin {d.origin}): {d.reason}")]
    if action == "changed" and previous is not None:
        out.append(Change(previous, (), None, f"{SUPERSEDED} (key {d.key!r}): replaced by: {excerpt(d.text)}"))
    return out


def _target(d: Directive, lines: list[usermodel.Directive]) -> tuple[Directive, usermodel.Directive | None] | None:
    """``d`` under the key ``USER.md`` already gives its subject, with that key's line; None when an
    unkeyed line (which only a hand edit can change) already says it."""
    keyed = [line for line in lines if line.key]
    same = [line for line in keyed if line.key == d.key] or [line for line in keyed if derive_key(line.text) == d.key]
    if same:  # "user set … --key lang" named the slot first: the owner's key is kept
        return dataclasses.replace(d, key=same[0].key or d.key), same[0]
    said = identity.normalise(d.text)
    return None if any(identity.normalise(line.text) == said for line in lines) else (d, None)


def _retiring(update_list: Sequence[SaidUpdate], text: str, said: dt.datetime) -> SaidUpdate | None:
    """The newest update said after ``said`` that retires ``text``, if any."""
    return next((u for u in reversed(update_list) if u.said > said and updates.retires(u.update, text)), None)


def _retire_stale(ws: Workspace, directives: Sequence[Directive], update_list: Sequence[SaidUpdate], *, dry_run: bool) -> list[Change]:
    """Retire the keyed ``USER.md`` directives a later owner update replaces, through
    ``usermodel.retire`` (its ``DREAMS.md`` section keeps the key from being re-added by what was
    said before). A line's statement time is its directive's ``said_at`` when this sweep saw it
    said, else the start of its ``observed`` day. Unkeyed lines are a hand edit's to change."""
    said_at = {identity.normalise(d.text): store.when(d.said_at) for d in directives}
    changes = []
    for line in usermodel.directives(ws):
        if line.status != usermodel.ACTIVE or not line.key or not line.observed:
            continue
        said = said_at.get(identity.normalise(line.text)) or dt.datetime.fromisoformat(line.observed)
        update = _retiring(update_list, line.text, said)
        if update is None:
            continue
        if not dry_run:
            usermodel.retire(ws, line.key, origin="owner", session=update.session)
        changes.append(Change(line.text, (update.anchor,), None, f"{SUPERSEDED} (key {line.key!r}): retired by the owner's update: {excerpt(update.text)}"))
    return changes


def apply(
    ws: Workspace, directives: Sequence[Directive], *, dry_run: bool, record: bool = True, retiring: Sequence[SaidUpdate] = ()
) -> list[Change]:
    """Write the directives to ``USER.md`` through ``usermodel.set_directive``, in place per key,
    then retire the ones a later owner update replaces (``retiring``: ``updates_said``), and say
    why in a ``DREAMS.md`` section of its own (``record``; a sweep whose own section lists the
    changes passes False); ``dry_run`` returns the same changes and writes nothing. A directive
    an update said after it already replaces is not written at all."""
    lines = [line for line in usermodel.directives(ws) if line.status == usermodel.ACTIVE]
    times, retired = _line_times(ws), _retired(ws)
    mtime = dt.datetime.fromtimestamp(ws.user_md.stat().st_mtime) if ws.user_md.exists() else None
    changes: list[Change] = []
    current = [d for d in directives if _retiring(retiring, d.text, store.when(d.said_at) or dt.datetime.fromisoformat(d.observed)) is None]
    for found in sorted(current, key=lambda d: d.key):
        target = _target(found, lines)
        if target is None:
            continue
        d, line = target
        changed = (times.get(identity.text_hash(line.text)) or mtime) if line else None
        action = _plan(d, line, changed, retired.get(d.key))
        if action is None:
            continue
        previous = line.text if line else None
        if not dry_run:
            result = usermodel.set_directive(
                ws, d.text, key=d.key, origin=d.origin, session=d.session, today=dt.date.fromisoformat(d.observed), refresh=True
            )
            if result.action == "unchanged":
                continue
            action, previous = result.action, result.previous or previous
        changes += _changes(d, action, previous)
    changes += _retire_stale(ws, current, retiring, dry_run=dry_run)
    if changes and record and not dry_run:
        diary.append(ws, DIARY_TITLE, _diary_lines(changes))
    return changes


def _diary_lines(changes: list[Change]) -> list[str]:
    """Items ``audit`` traces: an added line is an ``after:`` item, as ``user set`` writes one."""
    out = []
    for label, prefix in (("Added", ADDED), ("Changed", CHANGED), ("Refreshed", REFRESHED)):
        chosen = [c for c in changes if (c.detail or "").startswith(prefix)]
        if chosen:
            out.append(diary.group(label, len(chosen)))
            lead = "after: " if label == "Added" else ""
            out += [f"- {lead}{c.text} — {(c.detail or '')[len(prefix):].lstrip()}{diary.sources(c.sources[:3])}" for c in chosen]
    return out


def promoted(changes: Iterable[Change]) -> tuple[Change, ...]:
    """The directives written (added or rewritten in place): ``DreamReport.promoted``."""
    return tuple(c for c in changes if (c.detail or "").startswith((ADDED, CHANGED)))


def superseded(changes: Iterable[Change]) -> tuple[Change, ...]:
    """The directives a newer one replaced: ``DreamReport.superseded``."""
    return tuple(c for c in changes if (c.detail or "").startswith(SUPERSEDED))


# --- proposals (MCP) -------------------------------------------------------------------------
def propose(ws: Workspace, text: str, *, session: str | None = None, session_kind: str = "interactive") -> NoteResult:
    """Record an agent's proposed directive as a tagged daily-note entry of agent origin.

    Never ``USER.md`` and never the owner's origin: an MCP client is automation, so its proposal
    waits for the owner's own words or for the deep gate (module docstring).
    """
    from clawmem.commands.notes import add_note

    parts = [c for s in sentences(" ".join(text.split())) for c in CLAUSES.split(s) if c.strip()]
    directive = directive_in(parts[0], habitual=True) if len(parts) == 1 else None
    if directive is None:
        raise BadInput(
            f"not one standing directive about the user: {excerpt(' '.join(text.split()), 80)!r}",
            hint="propose one imperative the owner asked for that stands on its own, e.g. 'Always answer in British English' or "
            "'Prefer pnpm over npm'; not a task, a question or a rule about this conversation only",
        )
    return add_note(ws, directive, origin="agent", session_kind=session_kind, session=session, key=PROPOSAL_PREFIX + derive_key(directive))
