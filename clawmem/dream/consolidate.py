"""Consolidation: gated candidates plus the current ``MEMORY.md`` become a revised file.

The built-in consolidator is deterministic and conservative: it never rewrites a line it
has no reason to touch. For each gated candidate, best first: a line with the same
supersession key is retired by the newer observation; lines whose value a plain-language
update retires ("we moved deploys from fly.io to render", ``updates``) are removed; a line that already says the same
thing, hand-written or not, gains the candidate's source anchors and keeps its text (merge:
``paraphrase.Judge``, by normalised text and, with an embedder, vectors); a line dreaming
wrote about the same speaker and topic is joined by the sentences the candidate adds
(``topics``); otherwise a compact new line is appended, displacing less valuable lines dreaming wrote when the
``MEMORY.md`` budget is full (``budget``). An external
consolidator's file is read back by ``describe``. Either output must pass ``validate``,
else the sweep appends instead (``fallback``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping

from clawmem.dream import budget, grounding, scaffolding, updates, verbatim
from clawmem.dream.paraphrase import Judge
from clawmem.dream.text import covers, excerpt
from clawmem.dream.topics import Topics, contains
from clawmem.entries import grammar, identity
from clawmem.foundation import timeparse
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import dataclass
from clawmem.trust import provenance

MAX_SOURCES = 3
JOINED_SOURCES = 2 * MAX_SOURCES  # a line two candidates joined cites both
MAX_TRIGGERS = 3


@dataclass(frozen=True)
class Proposal:
    """A gated candidate, ready to become one ``MEMORY.md`` line."""

    candidate_id: int
    text: str
    sources: tuple[str, ...]  # the anchors the line carries (at most MAX_SOURCES)
    evidence: tuple[str, ...]  # every anchor (for the diary and validation)
    importance: int
    triggers: tuple[str, ...]
    key: str | None
    origin: str
    observed: str  # ISO date of the newest evidence
    score: float
    wordings: tuple[str, ...] = ()  # every distinct wording of the evidence: what a line citing it may say
    recalls: int = 0  # times its evidence was recalled in the age window (the budget's use signal)

    @property
    def said(self) -> tuple[str, ...]:
        return self.wordings or (self.text,)

    def line(self) -> str:
        meta = [("source", s) for s in self.sources] + [("importance", str(self.importance))]
        if self.triggers:
            meta.append(("trigger", ", ".join(self.triggers)))
        if self.key:
            meta.append(("key", self.key))
        return grammar.render_entry(self.text, meta)


@dataclass(frozen=True)
class Change:
    """One thing a sweep did or would do to ``MEMORY.md`` (the report and the diary list these)."""

    text: str
    sources: tuple[str, ...] = ()
    candidate_id: int | None = None
    detail: str | None = None


@dataclass(frozen=True)
class Outcome:
    """A consolidation result: the revised file and what changed (for the report and ledger)."""

    text: str  # the whole revised file
    promoted: tuple[Change, ...] = ()
    merged: tuple[Change, ...] = ()
    superseded: tuple[Change, ...] = ()
    rejected: tuple[tuple[int, str], ...] = ()  # (candidate id, reason)
    used: tuple[int, ...] = ()  # candidates now represented in MEMORY.md
    new_bodies: tuple[tuple[str, str, str | None], ...] = ()  # (body, origin, observed) of new lines: for the ledger
    appended: tuple[str, ...] = ()  # the append fallback: lines to add at the end instead of a rewrite
    displaced: tuple[Change, ...] = ()  # lines a more valuable candidate pushed out of the budget


def _entries(text: str) -> list[grammar.Entry]:
    return grammar.parse(text).entries


def _splice(text: str, entry: grammar.Entry, replacement: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[: entry.line_start - 1]) + replacement + "".join(lines[entry.line_end :])


def _append(text: str, line: str) -> str:
    return text + ("" if not text or text.endswith("\n") else "\n") + line


def _observed(entry: grammar.Entry) -> str | None:
    when = timeparse.parse_when(entry.observed) if entry.observed else None
    return when.date().isoformat() if when else None


def _with_metadata(entry: grammar.Entry, p: Proposal) -> tuple[str, tuple[str, ...]]:
    """The entry's own lines plus the proposal's new anchors (and triggers/importance it lacks)."""
    added = tuple(s for s in p.sources if s not in entry.sources)[: max(0, MAX_SOURCES - len(entry.sources))]
    comments = [f"<!-- source: {grammar.clean_value(s)} -->" for s in added]
    if entry.importance is None:
        comments.append(f"<!-- importance: {p.importance} -->")
    room = MAX_TRIGGERS - len(entry.triggers)
    new_triggers = [t for t in p.triggers if t not in entry.triggers][: max(0, room)]
    if new_triggers:
        comments.append(f"<!-- trigger: {grammar.clean_value(', '.join(new_triggers))} -->")
    raw = entry.raw.rstrip("\r\n")
    ending = entry.raw[len(raw) :] or "\n"
    return (raw + "".join(f" {c}" for c in comments) + ending if comments else entry.raw), added


def _home(
    entries: list[grammar.Entry], p: Proposal, judge: Judge, topics: Topics, said: Mapping[str, dt.datetime]
) -> tuple[grammar.Entry, str | None, str] | None:
    """The line ``p`` belongs to, the text it becomes (None: unchanged) and what happened: a line
    that already says it (``Judge.twin``), else a line dreaming wrote on its subject that holds it,
    is held by it or shares its topic (``Topics.partner``, its parts in the order ``said`` gives)."""
    twin = judge.twin(entries, p.text)
    if twin is not None:
        return twin, None, "merged"
    return None if p.key else topics.partner(entries, p.text, p.sources, said)


def _joined(entry: grammar.Entry, body: str, p: Proposal, *, update: updates.Update | None = None) -> str:
    """The line ``entry`` becomes when ``p`` joins it (``topics``) or gives it a new value
    (``update``): the text, the sources of both (at most ``JOINED_SOURCES``), the higher importance
    and the triggers of both (without those giving the attribute its old value)."""
    sources = list(dict.fromkeys([*entry.sources, *p.sources]))[:JOINED_SOURCES]
    meta = [("source", s) for s in sources] + [("importance", str(max(entry.importance or 0, p.importance)))]
    kept = [t for t in entry.triggers if update is None or updates.restated(update, t) is None]
    triggers = list(dict.fromkeys([*kept, *p.triggers]))[:MAX_TRIGGERS]
    if triggers:
        meta.append(("trigger", ", ".join(triggers)))
    return grammar.render_entry(body, meta)


def _make_room(revised: str, keep: str, p: Proposal, cfg: DreamConfig, usage: budget.Usage) -> tuple[str, list[Change]] | None:
    """``revised`` (the file with ``p``'s line, whose text is ``keep``) with the displaceable other
    lines removed that make room at the least total value, when together they are worth
    ``budget.MARGIN`` less than ``p`` (so the core's total value rises: one long candidate does
    not push out several lines worth more together); None when that cannot make room (nothing is
    removed then)."""
    worth = budget.value(p.importance, p.recalls + len(p.sources), p.observed, usage, cfg)
    ranked = sorted(
        ((budget.line_value(e, usage, cfg), e) for e in _entries(revised) if budget.displaceable(e) and e.body != keep),
        key=lambda pair: (pair[0], pair[1].line_start),
    )
    doomed = budget.cheapest_room(ranked, budget.size(revised) - cfg.memory_chars)
    if doomed is None or not budget.worth_displacing(worth, [v for v, _ in doomed]):
        return None
    for _, e in sorted(doomed, key=lambda pair: -pair[1].line_start):
        revised = _splice(revised, e, "")
    return revised, [
        Change(e.body, tuple(e.sources), p.candidate_id, f"displaced (value {v:.2f}; the candidate is worth {worth:.2f}) by: {excerpt(p.text)}")
        for v, e in doomed
    ]


def builtin(
    memory_text: str,
    proposals: list[Proposal],
    cfg: DreamConfig,
    *,
    judge: Judge | None = None,
    usage: budget.Usage | None = None,
    origins: Mapping[str, str] | None = None,
    said: Mapping[str, dt.datetime] | None = None,
) -> Outcome:
    """The deterministic consolidator; ``judge`` (text only by default) finds lines a candidate
    repeats or shares a subject and topic with (``topics``), ``usage`` (recalls of the curated
    lines) lets a better candidate displace a line when the budget is full (``budget``), and
    ``origins`` (text hash -> origin of the curated lines) gives a joined line the least trusted
    origin of its parts (a line it does not know counts as the agent's); ``said`` (anchor -> when
    its line was said) orders a joined line's parts as they were said."""
    text = memory_text
    judge = judge or Judge(cfg)
    topics = Topics(cfg, judge)
    origins = origins or {}
    promoted, merged, superseded, rejected, used, new_bodies, displaced = [], [], [], [], [], [], []
    newest_by_key: dict[str, Proposal] = {}
    for p in proposals:
        if p.key and (p.key not in newest_by_key or p.observed > newest_by_key[p.key].observed):
            newest_by_key[p.key] = p
    for p in proposals:
        if p.key and newest_by_key[p.key] is not p:
            rejected.append((p.candidate_id, f"a newer gated candidate has the same key {p.key!r}"))
            continue
        entries = _entries(text)
        same_key = [e for e in entries if p.key and e.key == p.key and e.status != "superseded"]
        if any((_observed(e) or "") > p.observed for e in same_key):
            rejected.append((p.candidate_id, f"MEMORY.md has a newer entry with the key {p.key!r}"))
            continue
        if same_key:
            line = p.line()
            for old in reversed(same_key[1:]):
                text = _splice(text, old, "")
            text = _splice(text, same_key[0], line)
            superseded += [Change(e.body, tuple(e.sources), p.candidate_id, f"replaced by: {excerpt(p.text)}") for e in same_key]
            promoted.append(Change(p.text, p.sources, p.candidate_id, f"supersedes {len(same_key)} entry(ies) with key {p.key!r}"))
            used.append(p.candidate_id)
            new_bodies.append((p.text, p.origin, p.observed))
            continue
        text, retired, rewritten = _retire_by_update(text, p)
        superseded += retired
        if rewritten:  # the update is said in the line it gave the new value to, and cited there
            new_bodies += [(new, provenance.least_trusted(p.origin, origins.get(identity.text_hash(old), "agent")), p.observed) for old, new in rewritten]
            merged.append(Change(rewritten[0][1], p.sources, p.candidate_id, f"gave it the new value: {excerpt(p.text)}"))
            used.append(p.candidate_id)
            continue
        entries = _entries(text)
        home = _home(entries, p, judge, topics, said or {})
        joined: tuple[grammar.Entry, str] | None = None  # the line the candidate joins, and how
        if home is None:
            revised, kept = _append(text, p.line()), p.text
        else:
            into, body, how = home
            if body is None:  # the line already says it all: it gains the anchors
                raw, added = _with_metadata(into, p)
                text = _splice(text, into, raw)
                merged.append(Change(into.body, added, p.candidate_id, f"{how}: {excerpt(p.text)}"))
                used.append(p.candidate_id)
                continue
            revised, kept, joined = _splice(text, into, _joined(into, body, p)), body, (into, how)
        if budget.size(revised) > cfg.memory_chars:
            room = _make_room(revised, kept, p, cfg, usage) if usage is not None else None
            if room is None:
                rejected.append((p.candidate_id, f"MEMORY.md budget of {cfg.memory_chars} characters is full of lines worth as much or more"))
                continue
            revised, pushed = room
            displaced += pushed
        text = revised
        used.append(p.candidate_id)
        if joined is None:
            promoted.append(Change(p.text, p.sources, p.candidate_id))
            new_bodies.append((p.text, p.origin, p.observed))
            continue
        into, how = joined
        merged.append(Change(into.body, tuple(s for s in p.sources if s not in into.sources), p.candidate_id, f"{how}: {excerpt(p.text)}"))
        new_bodies.append((kept, provenance.least_trusted(p.origin, origins.get(identity.text_hash(into.body), "agent")), p.observed))
    text, retired = _retire_duplicate_keys(text)
    superseded += retired
    return Outcome(
        text, tuple(promoted), tuple(merged), tuple(superseded), tuple(rejected), tuple(used), tuple(new_bodies), displaced=tuple(displaced)
    )


def _retire_by_update(text: str, p: Proposal) -> tuple[str, list[Change], list[tuple[str, str]]]:
    """Lines a gated plain-language update retires (``updates.retires``), observed no later than
    it, recorded as superseded with the update as their successor: removed from the file, or,
    when the update gives an attribute a new value, rewritten with it (``updates.restated``: the
    line's other facts stay, and it gains the update's anchors). Also (old text, new text) of
    each rewritten line."""
    update = updates.parse(p.text)
    if update is None:
        return text, [], []
    doomed = [
        e for e in _entries(text)
        if e.status != "superseded" and (_observed(e) or "") <= p.observed and updates.retires(update, e.body)
    ]
    changes, rewritten = [], []
    for e in sorted(doomed, key=lambda e: e.line_start, reverse=True):
        body = updates.restated(update, e.body)
        text = _splice(text, e, _joined(e, body, p, update=update) if body else "")
        how = f"rewritten as “{excerpt(body)}” by the update" if body else "retired by the update"
        changes.append(Change(e.body, tuple(e.sources), p.candidate_id, f"{how}: {excerpt(p.text)}"))
        rewritten += [(e.body, body)] if body else []
    return text, changes[::-1], rewritten[::-1]


def _retire_duplicate_keys(text: str) -> tuple[str, list[Change]]:
    """Entries already in the file that share a key (an earlier append fallback, a hand edit):
    the newest stays (by ``observed``, else the later line), the others are retired."""
    retired: list[Change] = []
    by_key: dict[str, list[grammar.Entry]] = {}
    for e in _entries(text):
        if e.key and e.status != "superseded":
            by_key.setdefault(e.key, []).append(e)
    doomed = []
    for group in by_key.values():
        if len(group) > 1:
            keep = max(group, key=lambda e: (_observed(e) or "", e.line_start))
            doomed += [e for e in group if e is not keep]
            retired += [Change(e.body, tuple(e.sources), None, f"replaced by: {excerpt(keep.body)}") for e in group if e is not keep]
    for e in sorted(doomed, key=lambda e: -e.line_start):
        text = _splice(text, e, "")
    return text, retired


def fallback(memory_text: str, proposals: list[Proposal], cfg: DreamConfig, *, judge: Judge | None = None) -> Outcome:
    """Append-only: add each proposal not already present (``judge``) as a new line, within the budget."""
    judge = judge or Judge(cfg)
    text, promoted, merged, rejected, used, new_bodies, lines = memory_text, [], [], [], [], [], []
    for p in proposals:
        twin = judge.twin(_entries(text), p.text)
        if twin is not None:
            merged.append(Change(twin.body, (), p.candidate_id, "already in MEMORY.md (append-only sweep: anchors not added)"))
            used.append(p.candidate_id)
            continue
        line = p.line()
        if budget.size(_append(text, line)) > cfg.memory_chars:
            rejected.append((p.candidate_id, f"MEMORY.md budget of {cfg.memory_chars} characters is full"))
            continue
        text = _append(text, line)
        lines.append(line)
        promoted.append(Change(p.text, p.sources, p.candidate_id))
        used.append(p.candidate_id)
        new_bodies.append((p.text, p.origin, p.observed))
    return Outcome(text, tuple(promoted), tuple(merged), (), tuple(rejected), tuple(used), tuple(new_bodies), tuple(lines))


def _kept(block: grammar.Block) -> tuple[str, ...]:
    """A block as far as meaning goes (line endings, trailing spaces, BOM and NFC aside)."""
    return tuple(verbatim.loose(line) for line in block.lines)


def _retire_keys(old_doc: grammar.Document, proposals: list[Proposal]) -> set[str]:
    """Keys whose older entries a rewrite may retire: a gated candidate's, or one the file
    already gives two active entries (an earlier append fallback, a hand edit)."""
    active = Counter(e.key for e in old_doc.entries if e.key and e.status != "superseded")
    return {p.key for p in proposals if p.key} | {k for k, n in active.items() if n > 1}


def describe(memory_text: str, new_text: str, proposals: list[Proposal], cfg: DreamConfig) -> Outcome:
    """Read an external consolidator's file back as changes (new lines, retired and merged ones)."""
    old_doc = grammar.parse(memory_text)
    old, new = old_doc.entries, _entries(new_text)
    old_hashes = {identity.text_hash(e.body) for e in old}
    new_hashes = {identity.text_hash(e.body) for e in new}
    by_anchor = {a: p for p in proposals for a in p.evidence}
    promoted, merged, superseded, used, new_bodies = [], [], [], [], []
    for e in new:
        cited = [by_anchor[s] for s in e.sources if s in by_anchor]
        used += [p.candidate_id for p in cited if p.candidate_id not in used]
        if identity.text_hash(e.body) not in old_hashes:
            # a line that extends an old one holds that line's text too, whose origin this cannot see
            extends = "agent" if _extended(e, old, cfg) else None
            origin = provenance.least_trusted(*(p.origin for p in cited), extends) if cited else "agent"
            observed = max((p.observed for p in cited), default=None)
            promoted.append(Change(e.body, tuple(e.sources), cited[0].candidate_id if cited else None))
            new_bodies.append((e.body, origin, observed))
    retire = _retire_keys(old_doc, proposals) & {e.key for e in new if e.key and e.status != "superseded"}
    marked = {identity.text_hash(e.body) for e in new if e.status == "superseded"}
    for e in old:
        if identity.text_hash(e.body) in new_hashes:
            if e.status != "superseded" and identity.text_hash(e.body) in marked:
                superseded.append(Change(e.body, tuple(e.sources), None, f"marked superseded (key {e.key!r})"))
            continue
        if e.key and e.key in retire:
            superseded.append(Change(e.body, tuple(e.sources), None, f"retired by the entry with key {e.key!r}"))
        elif any(covers(n.body, e.body, cfg.dedupe_similarity) for n in new):
            merged.append(Change(e.body, tuple(e.sources), None, "merged into another entry"))
    return Outcome(new_text, tuple(promoted), tuple(merged), tuple(superseded), (), tuple(used), tuple(new_bodies))


def structure_problems(old_doc: grammar.Document, new_doc: grammar.Document) -> list[str]:
    """Only entry lines may change: headings, prose and front matter stay as they were, in
    order, and every new or changed entry is a single line (no nested structure)."""
    problems = []
    pending = [_kept(b) for b in old_doc.blocks if b.kind not in ("entry", "blank")]
    for block in (b for b in new_doc.blocks if b.kind not in ("entry", "blank")):
        if pending and pending[0] == _kept(block):
            pending.pop(0)
        else:
            problems.append(f"line {block.line_start} is neither an entry nor text kept from MEMORY.md (a new or moved {block.kind})")
    if pending:
        problems.append(f"it drops {len(pending)} heading(s) or text block(s) of MEMORY.md")
    old_entries = {_kept(e) for e in old_doc.entries}
    problems += [
        f"line {e.line_start}: a new or changed entry must be one line"
        for e in new_doc.entries
        if _kept(e) not in old_entries and len(e.lines) > 1
    ]
    return problems


def retirement_problems(old_doc: grammar.Document, new_doc: grammar.Document, proposals: list[Proposal]) -> list[str]:
    """Supersession needs a key a gated candidate carries (``_retire_keys``): no entry is marked
    superseded, or dropped for another entry with its key, on the consolidator's word alone."""
    allowed = _retire_keys(old_doc, proposals)
    active_old = {identity.text_hash(e.body): e for e in old_doc.entries if e.status != "superseded"}
    new_hashes = {identity.text_hash(e.body) for e in new_doc.entries}
    new_keys = {e.key for e in new_doc.entries if e.key and e.status != "superseded"}
    problems = []
    for e in new_doc.entries:
        before = active_old.get(identity.text_hash(e.body))
        if e.status == "superseded" and before is not None and not (before.key and before.key in allowed):
            problems.append(f"line {e.line_start} marks an entry superseded that no gated candidate's key retires")
    for h, e in active_old.items():
        if h not in new_hashes and e.key and e.key in new_keys and e.key not in allowed:
            problems.append(f"it retires the entry at line {e.line_start} by key {e.key!r}, which no gated candidate carries")
    return problems


def _values(key: str, value: str) -> list[str]:
    """A metadata comment's values as compared: a trigger list split into phrases."""
    return [t.strip().casefold() for t in re.split(r"[,;]", value) if t.strip()] if key == "trigger" else [value.strip()]


def metadata_problems(e: grammar.Entry, before: grammar.Entry | None, cited: list[Proposal], anchors: set[str]) -> list[str]:
    """A new or changed line carries only metadata its cited candidates (or its own old line) had:
    no invented trigger, importance, key, project, date or status, no anchor outside the gated evidence."""
    old_meta = set(before.meta) if before else set()
    allowed = {
        "source": anchors,
        "key": {p.key for p in cited if p.key},
        "importance": {str(p.importance) for p in cited},
        "observed": {p.observed for p in cited},
        "trigger": {t.casefold() for p in cited for t in p.triggers},
        "status": {"active", "superseded"} if before else {"active"},
    }
    for key, value in old_meta:  # each value the old line had may stay (a joined line keeps both lines' triggers)
        allowed.setdefault(key, set()).update(_values(key, value))
    problems = []
    for key, value in e.meta:
        if (key, value) in old_meta:
            continue
        if key not in allowed or not set(_values(key, value)) <= allowed[key]:
            problems.append(f"line {e.line_start} adds <!-- {key}: {excerpt(value, 40)} --> that no cited candidate carries")
    return problems


def validate(memory_text: str, new_text: str, proposals: list[Proposal], cfg: DreamConfig, displaced: tuple[Change, ...] = ()) -> list[str]:
    """Why a rewrite must not replace ``MEMORY.md`` (empty when it may).

    It must fit the budget, change only entry lines (``structure_problems``), lose at most
    ``max_loss_fraction`` of the existing entries (retired by a gated key or update, displaced
    by a more valuable candidate, or merged into a line that covers them does not count as lost), retire nothing by key without a gated
    candidate carrying the key (``retirement_problems``), and every new or changed line must
    be a memory citing gated evidence, saying only what that evidence says
    (``grounding.ungrounded``) with only its metadata (``metadata_problems``): nothing
    invented, no scaffolding, no markup smuggled into text.
    """
    problems = []
    if budget.size(new_text) > cfg.memory_chars:
        problems.append(f"{budget.size(new_text)} characters exceed the MEMORY.md budget of {cfg.memory_chars}")
    old_doc, new_doc = grammar.parse(memory_text), grammar.parse(new_text)
    problems += structure_problems(old_doc, new_doc)
    problems += retirement_problems(old_doc, new_doc, proposals)
    kept = {_kept(e) for e in old_doc.entries}
    by_hash = {identity.text_hash(e.body): e for e in old_doc.entries}
    new_hashes = {identity.text_hash(e.body) for e in new_doc.entries}
    dropped = [e.body for h, e in by_hash.items() if h not in new_hashes]
    by_anchor: dict[str, list[Proposal]] = {}  # one turn can hold several claims: an anchor may cite several candidates
    for p in proposals:
        for a in p.evidence:
            by_anchor.setdefault(a, []).append(p)
    stated = [u for u in (updates.parse(p.text) for p in proposals) if u is not None]
    for e in new_doc.entries:
        if _kept(e) in kept:
            continue
        before = by_hash.get(identity.text_hash(e.body))
        cited = list({id(p): p for s in e.sources for p in by_anchor.get(s, ())}.values())
        grown = _extended(e, old_doc.entries, cfg) or _restated(e, old_doc.entries, stated)
        problems += _line_problems(e, before, cited, set(by_anchor), dropped, cfg, grown)
    new_entries = new_doc.entries
    retire = _retire_keys(old_doc, proposals) & {e.key for e in new_entries if e.key and e.status != "superseded"}
    pushed = {identity.text_hash(c.text) for c in displaced}
    lost = [
        e for e in old_doc.entries
        if identity.text_hash(e.body) not in new_hashes
        and not (e.key and e.key in retire)
        and not any(updates.retires(u, e.body) for u in stated)
        and identity.text_hash(e.body) not in pushed
        and not any(covers(n.body, e.body, cfg.dedupe_similarity) or _extended(n, [e], cfg) for n in new_entries)
    ]
    if old_doc.entries and len(lost) / len(old_doc.entries) > cfg.max_loss_fraction:
        problems.append(
            f"it loses {len(lost)} of {len(old_doc.entries)} existing entries (more than {cfg.max_loss_fraction:.0%})"
        )
    return problems


def _extended(e: grammar.Entry, old: list[grammar.Entry], cfg: DreamConfig) -> grammar.Entry | None:
    """The active old line ``e`` adds to: ``e`` opens with its whole text (a join) or says all
    it said and more (an absorption, or a join that put an earlier day's account first:
    ``topics.contains``). It is kept, not lost, and ``e`` may carry its metadata."""
    return next(
        (
            o for o in old
            if o.status != "superseded" and len(e.body) > len(o.body) and (e.body.startswith(o.body) or contains(cfg, e.body, o.body))
        ),
        None,
    )


def _restated(e: grammar.Entry, old: list[grammar.Entry], stated: list[updates.Update]) -> grammar.Entry | None:
    """The active old line ``e`` is with a gated update's new value in it (``updates.restated``):
    the same line, so ``e`` may carry its metadata."""
    return next((o for o in old if o.status != "superseded" and any(updates.restated(u, o.body) == e.body for u in stated)), None)


def _line_problems(
    e: grammar.Entry,
    before: grammar.Entry | None,
    cited: list[Proposal],
    anchors: set[str],
    dropped: list[str],
    cfg: DreamConfig,
    extends: grammar.Entry | None = None,
) -> list[str]:
    """What is wrong with one new or changed line (``before``: the old line with the same text;
    ``extends``: the old line it adds sentences to, whose metadata it may keep)."""
    problems = []
    if not cited and not (before is not None and e.status == "superseded"):  # a retirement: ``retirement_problems``
        problems.append(f"line {e.line_start} cites no gated evidence")
    if before is None:
        why = scaffolding.reason(e.body)
        if why:
            problems.append(f"line {e.line_start} is not a memory ({why})")
        if any(marker in e.body.casefold() for marker in ("<!--", "-->", "<clawmem")):
            problems.append(f"line {e.line_start} carries markup in its text")
        if cited:
            why = grounding.ungrounded(e.body, [w for p in cited for w in p.said] + dropped, cfg.grounding_similarity)
            if why:
                problems.append(f"line {e.line_start} is not grounded in the candidates it cites: {why}")
    problems += metadata_problems(e, before or extends, cited, anchors)
    problems += [f"line {e.line_start}: {p}" for p in e.problems()]
    return problems
