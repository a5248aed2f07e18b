"""Consolidation: gated candidates plus the current ``MEMORY.md`` become a revised file.

The built-in consolidator is deterministic and conservative: it never rewrites a line it
has no reason to touch. For each gated candidate, best first: a line with the same
supersession key is retired by the newer observation; a line that already says the same
thing gains the candidate's source anchors (merge); otherwise a compact new line is
appended, while the ``MEMORY.md`` budget allows. An external consolidator's file is read
back by ``describe``. Either output must pass ``validate``, else the sweep appends instead
(``fallback``).
"""

from __future__ import annotations

from dataclasses import dataclass

from clawmem import loopguard, provenance
from clawmem.config import DreamConfig
from clawmem.dream import scaffolding
from clawmem.dream.text import covers, excerpt
from clawmem.entries import grammar

MAX_SOURCES = 3
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


def _entries(text: str) -> list[grammar.Entry]:
    return grammar.parse(text).entries


def _splice(text: str, entry: grammar.Entry, replacement: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[: entry.line_start - 1]) + replacement + "".join(lines[entry.line_end :])


def _append(text: str, line: str) -> str:
    return text + ("" if not text or text.endswith("\n") else "\n") + line


def _observed(entry: grammar.Entry) -> str | None:
    when = grammar.parse_when(entry.observed) if entry.observed else None
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


def builtin(memory_text: str, proposals: list[Proposal], cfg: DreamConfig) -> Outcome:
    text = memory_text
    promoted, merged, superseded, rejected, used, new_bodies = [], [], [], [], [], []
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
        twin = next((e for e in entries if covers(e.body, p.text, cfg.dedupe_similarity)), None)
        if twin is not None:
            raw, added = _with_metadata(twin, p)
            text = _splice(text, twin, raw)
            merged.append(Change(twin.body, added, p.candidate_id, f"merged: {excerpt(p.text)}"))
            used.append(p.candidate_id)
            continue
        line = p.line()
        if len(_append(text, line)) > cfg.memory_chars:
            rejected.append((p.candidate_id, f"MEMORY.md budget of {cfg.memory_chars} characters is full"))
            continue
        text = _append(text, line)
        promoted.append(Change(p.text, p.sources, p.candidate_id))
        used.append(p.candidate_id)
        new_bodies.append((p.text, p.origin, p.observed))
    text, retired = _retire_duplicate_keys(text)
    superseded += retired
    return Outcome(text, tuple(promoted), tuple(merged), tuple(superseded), tuple(rejected), tuple(used), tuple(new_bodies))


def _retire_duplicate_keys(text: str) -> tuple[str, list[Change]]:
    """Entries already in the file that share a key (an earlier append fallback, a hand edit):
    the newest stays (by ``observed``, else the later line), the others are retired."""
    retired: list[Change] = []
    by_key: dict[str, list[grammar.Entry]] = {}
    for e in _entries(text):
        if e.key and e.status != "superseded":
            by_key.setdefault(e.key, []).append(e)
    doomed = []
    for key, group in by_key.items():
        if len(group) > 1:
            keep = max(group, key=lambda e: (_observed(e) or "", e.line_start))
            doomed += [e for e in group if e is not keep]
            retired += [Change(e.body, tuple(e.sources), None, f"replaced by: {excerpt(keep.body)}") for e in group if e is not keep]
    for e in sorted(doomed, key=lambda e: -e.line_start):
        text = _splice(text, e, "")
    return text, retired


def fallback(memory_text: str, proposals: list[Proposal], cfg: DreamConfig) -> Outcome:
    """Append-only: add each proposal not already present as a new line, within the budget."""
    text, promoted, merged, rejected, used, new_bodies, lines = memory_text, [], [], [], [], [], []
    for p in proposals:
        twin = next((e for e in _entries(text) if covers(e.body, p.text, cfg.dedupe_similarity)), None)
        if twin is not None:
            merged.append(Change(twin.body, (), p.candidate_id, "already in MEMORY.md (append-only sweep: anchors not added)"))
            used.append(p.candidate_id)
            continue
        line = p.line()
        if len(_append(text, line)) > cfg.memory_chars:
            rejected.append((p.candidate_id, f"MEMORY.md budget of {cfg.memory_chars} characters is full"))
            continue
        text = _append(text, line)
        lines.append(line)
        promoted.append(Change(p.text, p.sources, p.candidate_id))
        used.append(p.candidate_id)
        new_bodies.append((p.text, p.origin, p.observed))
    return Outcome(text, tuple(promoted), tuple(merged), (), tuple(rejected), tuple(used), tuple(new_bodies), tuple(lines))


def describe(memory_text: str, new_text: str, proposals: list[Proposal], cfg: DreamConfig) -> Outcome:
    """Read an external consolidator's file back as changes (new lines, retired and merged ones)."""
    old = _entries(memory_text)
    new = _entries(new_text)
    old_hashes = {loopguard.text_hash(e.body) for e in old}
    new_hashes = {loopguard.text_hash(e.body) for e in new}
    by_anchor = {a: p for p in proposals for a in p.evidence}
    promoted, merged, superseded, used, new_bodies = [], [], [], [], []
    for e in new:
        cited = [by_anchor[s] for s in e.sources if s in by_anchor]
        used += [p.candidate_id for p in cited if p.candidate_id not in used]
        if loopguard.text_hash(e.body) not in old_hashes:
            origin = provenance.least_trusted(*(p.origin for p in cited)) if cited else "agent"
            observed = max((p.observed for p in cited), default=None)
            promoted.append(Change(e.body, tuple(e.sources), cited[0].candidate_id if cited else None))
            new_bodies.append((e.body, origin, observed))
    new_keys = {e.key for e in new if e.key}
    for e in old:
        if loopguard.text_hash(e.body) in new_hashes:
            continue
        if e.key and e.key in new_keys:
            superseded.append(Change(e.body, tuple(e.sources), None, f"retired by the entry with key {e.key!r}"))
        elif any(covers(n.body, e.body, cfg.dedupe_similarity) for n in new):
            merged.append(Change(e.body, tuple(e.sources), None, "merged into another entry"))
    return Outcome(new_text, tuple(promoted), tuple(merged), tuple(superseded), (), tuple(used), tuple(new_bodies))


def validate(memory_text: str, new_text: str, proposals: list[Proposal], cfg: DreamConfig) -> list[str]:
    """Why a rewrite must not replace ``MEMORY.md`` (empty when it may).

    It must parse as entries (any other text must be kept from the old file), fit the budget,
    lose at most ``max_loss_fraction`` of the existing entries (retired by a key or merged into
    a line that covers them does not count as lost), and every new line must be a memory
    citing gated evidence: nothing invented, no scaffolding, no metadata smuggled into text.
    """
    problems = []
    if len(new_text) > cfg.memory_chars:
        problems.append(f"{len(new_text)} characters exceed the MEMORY.md budget of {cfg.memory_chars}")
    old_doc, new_doc = grammar.parse(memory_text), grammar.parse(new_text)
    kept_raw = {b.raw for b in old_doc.blocks}
    for block in new_doc.blocks:
        if block.kind in ("text", "frontmatter") and block.raw not in kept_raw:
            problems.append(f"line {block.line_start} is neither an entry nor text kept from MEMORY.md")
    old_hashes = {loopguard.text_hash(e.body) for e in old_doc.entries}
    allowed = {a for p in proposals for a in p.evidence}
    for e in new_doc.entries:
        if loopguard.text_hash(e.body) in old_hashes:
            continue
        why = scaffolding.reason(e.body)
        if why:
            problems.append(f"line {e.line_start} is not a memory ({why})")
        if any(marker in e.body.casefold() for marker in ("<!--", "-->", "<clawmem")):
            problems.append(f"line {e.line_start} carries markup in its text")
        if not set(e.sources) & allowed:
            problems.append(f"line {e.line_start} cites no gated evidence")
        problems += [f"line {e.line_start}: {p}" for p in e.problems()]
    new_entries = new_doc.entries
    new_hashes = {loopguard.text_hash(e.body) for e in new_entries}
    new_keys = {e.key for e in new_entries if e.key}
    lost = [
        e for e in old_doc.entries
        if loopguard.text_hash(e.body) not in new_hashes
        and not (e.key and e.key in new_keys)
        and not any(covers(n.body, e.body, cfg.dedupe_similarity) for n in new_entries)
    ]
    if old_doc.entries and len(lost) / len(old_doc.entries) > cfg.max_loss_fraction:
        problems.append(
            f"it loses {len(lost)} of {len(old_doc.entries)} existing entries (more than {cfg.max_loss_fraction:.0%})"
        )
    return problems
