"""What a forget removes and what it only reports, decided before any file changes; the hashes to tombstone."""

from __future__ import annotations

from clawmem.entries import grammar, identity
from clawmem.forget.results import Review
from clawmem.foundation.errors import BadInput, NotFound
from clawmem.foundation.records import dataclass
from clawmem.storage import ledger
from clawmem.storage.anchors import cite
from clawmem.storage.ledger_records import EntryRecord, is_kind
from clawmem.storage.workspace import Workspace

MIN_NEEDLE = 3  # characters of normalised text a --text match needs
SESSION_LINE_WORDS = 3  # session mode: lines shorter than this are not tombstoned one by one


@dataclass
class Target:
    rel: str
    kind: str
    line_start: int
    line_end: int
    block: str  # entry | prose
    body: str
    why: str

    @property
    def hash(self) -> str:
        return identity.text_hash(self.body)

    @property
    def key(self) -> tuple[str, int]:
        return (self.rel, self.line_start)


def excerpt(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def contains(needle: str, hay: str) -> bool:
    """Whole-word containment of one normalised text in another."""
    return bool(needle) and f" {needle} " in f" {hay} "


def _units(body: str, kind: str) -> list[str]:
    from clawmem.dream.text import units

    return units(body, transcript=kind == "transcript")


def _line_texts(body: str, kind: str) -> list[str]:
    """The lines of a body as writers hashed them (a transcript's first line without its speaker label)."""
    from clawmem.dream.text import without_label

    lines = body.splitlines()
    if lines and kind == "transcript":
        lines[0] = without_label(lines[0])
    return lines


class Files:
    """Parsed memory files, read once per plan."""

    def __init__(self, ws: Workspace) -> None:
        from clawmem.index.files import memory_files

        self.ws = ws
        self.files = {mf.rel: mf for mf in memory_files(ws)}
        self._docs: dict[str, grammar.Document] = {}

    def doc(self, rel: str) -> grammar.Document:
        if rel not in self._docs:
            self._docs[rel] = grammar.parse(self.files[rel].path.read_text(encoding="utf-8", errors="replace"))
        return self._docs[rel]

    def kind(self, rel: str) -> str:
        return self.files[rel].kind

    def entries(self, rel: str) -> list[grammar.Entry]:
        return [e for e in self.doc(rel).entries if e.body.strip()]

    def target(self, rel: str, e: grammar.Entry, why: str) -> Target:
        return Target(rel, self.kind(rel), e.line_start, e.line_end, "entry", e.body, why)

    def prose(self, rel: str, start: int, end: int, match=None) -> list[Target]:
        """Non-blank lines of text blocks (episodic files only) in a line range."""
        if self.kind(rel) in ("memory", "user"):
            return []
        found = []
        for block in self.doc(rel).blocks:
            if block.kind != "text":
                continue
            for offset, line in enumerate(block.lines):
                number = block.line_start + offset
                if start <= number <= end and line.strip() and (match is None or match(line)):
                    found.append(Target(rel, self.kind(rel), number, number, "prose", line.strip(), "text match" if match else "target"))
        return found


def by_anchor(ws: Workspace, files: Files, anchor: str) -> list[Target]:
    from clawmem.storage.anchors import parse

    where = parse(ws, anchor, lines_required=True)
    rel, start, end = where.rel, where.start, where.end
    assert start is not None and end is not None  # lines_required=True
    if rel not in files.files:
        raise NotFound(f"{rel} is not a memory file", hint="MEMORY.md, USER.md, memory/…, memory/quarantine/… or transcripts/…")
    found = [files.target(rel, e, "target") for e in files.entries(rel) if e.line_start <= end and e.line_end >= start]
    found += files.prose(rel, start, end)
    if not found:
        raise NotFound(f"no entry at {anchor}", hint=f"see the lines with `clawmem get {cite(rel, start)} -C 3`")
    # the target is a text: the same entry anywhere else goes too
    wanted = {identity.normalise(t.body) for t in found if t.block == "entry"}
    for other in files.files:
        for e in files.entries(other):
            if identity.normalise(e.body) in wanted and (other, e.line_start) not in {t.key for t in found}:
                found.append(files.target(other, e, "same text as the target"))
    return found


def by_text(files: Files, text: str) -> list[Target]:
    needle = identity.normalise(text)
    if len(needle) < MIN_NEEDLE:
        raise BadInput(f"--text {text!r} is too short to match safely", hint=f"give at least {MIN_NEEDLE} letters or digits")
    found = []
    for rel in files.files:
        found += [files.target(rel, e, "text match") for e in files.entries(rel) if contains(needle, identity.normalise(e.body))]
        found += files.prose(rel, 1, 10**9, match=lambda line: contains(needle, identity.normalise(line)))
    if not found:
        raise NotFound(f"no memory entry says {text!r}", hint="matching ignores case, punctuation and markup; try fewer words")
    return found


def by_session(ws: Workspace, files: Files, session: str) -> tuple[list[Target], list[str]]:
    pairs: dict[str, set[str]] = {}
    for r in ledger.read(ws).records:
        if is_kind(r, EntryRecord) and r.get("session") == session and isinstance(r.get("path"), str):
            pairs.setdefault(r["path"], set()).add(str(r.get("hash")))
    from clawmem.transcripts.sessions import session_files

    deleted = session_files(files.files, session)  # the plain transcript and every other sender's slot
    found = []
    for rel, hashes in pairs.items():
        if rel not in files.files:
            continue
        why = "session transcript" if rel in deleted else "written in the session"
        found += [files.target(rel, e, why) for e in files.entries(rel) if identity.text_hash(e.body) in hashes or rel in deleted]
    for transcript in deleted:
        if transcript not in pairs:
            found += [files.target(transcript, e, "session transcript") for e in files.entries(transcript)]
    return found, deleted


def follow_curated(ws: Workspace, files: Files, targets: list[Target], deleted: list[str]) -> tuple[list[Target], list[Review]]:
    """Curated entries derived from forgotten evidence: removed when they are only that, else reviewed."""
    from clawmem.audit.sources import parse_anchor
    from clawmem.dream.text import similarity

    chosen = {t.key for t in targets}
    spans: dict[str, list[tuple[int, int]]] = {}
    norms: set[str] = set()
    for t in targets:
        if t.kind not in ("memory", "user"):
            spans.setdefault(t.rel, []).append((t.line_start, t.line_end))
        norms.add(identity.normalise(t.body))
        norms.update(identity.normalise(u) for u in _units(t.body, t.kind))
    norms.discard("")

    def forgotten(anchor: tuple[str, int, int]) -> bool:
        rel, start, end = anchor
        return rel in deleted or any(a <= end and b >= start for a, b in spans.get(rel, ()))

    def dead(anchor: tuple[str, int, int]) -> bool:
        """Forgotten earlier: the file is gone or nothing is left at those lines."""
        rel, start, end = anchor
        return rel not in files.files or not any(e.line_start <= end and e.line_end >= start for e in files.entries(rel))

    extra: list[Target] = []
    review: list[Review] = []
    for rel in (ws.rel(ws.memory_md), ws.rel(ws.user_md)):
        if rel not in files.files:
            continue
        for e in files.entries(rel):
            if (rel, e.line_start) in chosen:
                continue
            norm = identity.normalise(e.body)
            anchors = [a for a in (parse_anchor(ws, s) for s in e.sources) if a is not None]
            hits = [a for a in anchors if forgotten(a)]
            if hits and all(a in hits or dead(a) for a in anchors):
                extra.append(files.target(rel, e, "every source it cites is forgotten"))
            elif hits:
                cited = ", ".join(cite(p, a) for p, a, _ in hits)
                review.append(Review(rel, e.line_start, excerpt(e.body), f"cites forgotten evidence ({cited}) but also other sources: merged, review by hand"))
            elif norm in norms and not anchors:
                extra.append(files.target(rel, e, "verbatim copy of forgotten text"))
            elif norm in norms or any(similarity(norm, n) >= ws.config.dream.dedupe_similarity for n in norms):
                review.append(Review(rel, e.line_start, excerpt(e.body), "near-duplicate of forgotten text: review by hand"))
    return extra, review


def follow_evidence(ws: Workspace, files: Files, targets: list[Target]) -> tuple[list[Target], list[Review]]:
    """Evidence cited by a forgotten curated entry: the same text goes, anything richer is reviewed."""
    from clawmem.audit.sources import parse_anchor

    chosen = {t.key for t in targets}
    extra: list[Target] = []
    review: list[Review] = []
    for t in [t for t in targets if t.kind in ("memory", "user") and t.block == "entry"]:
        entry = next((e for e in files.entries(t.rel) if e.line_start == t.line_start), None)
        norm = identity.normalise(t.body)
        for source in entry.sources if entry else []:
            anchor = parse_anchor(ws, source)
            if anchor is None or anchor[0] not in files.files:
                continue
            rel, start, end = anchor
            for e in files.entries(rel):
                if not (e.line_start <= end and e.line_end >= start) or (rel, e.line_start) in chosen:
                    continue
                units = {identity.normalise(u) for u in _units(e.body, files.kind(rel))}
                if identity.normalise(e.body) == norm or units == {norm}:
                    extra.append(files.target(rel, e, "evidence saying the same as the target"))
                    chosen.add((rel, e.line_start))
                else:
                    review.append(Review(rel, e.line_start, excerpt(e.body), f"evidence of the forgotten {cite(t.rel, t.line_start)} says more than it: forget it too, or a later dream may promote the fact again"))  # noqa: E501
    return extra, review


def forgotten_texts(body: str, kind: str) -> list[str]:
    """The entry, each of its lines and each evidence unit: every form a writer may hash."""
    return [body, *_line_texts(body, kind), *_units(body, kind)]


def surviving_texts(files: Files, targets: list[Target]) -> set[str]:
    """Normalised forms of every text that stays in memory (entries not being forgotten)."""
    chosen = {t.key for t in targets}
    return {
        identity.normalise(text)
        for rel in files.files
        for e in files.entries(rel)
        if (rel, e.line_start) not in chosen
        for text in forgotten_texts(e.body, files.kind(rel))
    }


def tombstone_hashes(targets: list[Target], surviving: set[str], *, every_line: bool) -> dict[str, str]:
    """hash -> path of every text the writers must not store again.

    A text that stays in memory elsewhere (an entry not being forgotten) is not tombstoned:
    forgetting one session must not stop others from saying the same thing.
    """
    found: dict[str, str] = {}
    for t in targets:
        for i, text in enumerate(forgotten_texts(t.body, t.kind)):
            norm = identity.normalise(text)
            if not norm or (i and not every_line and len(norm.split()) < SESSION_LINE_WORDS):
                continue
            if norm not in surviving:
                found.setdefault(identity.text_hash(text), t.rel)
    return found


@dataclass
class Plan:
    """What a forget will remove, what it only flags for review, and which hashes it tombstones."""

    mode: str
    target: str
    targets: list[Target]
    deleted: list[str]
    review: list[Review]
    surviving: set[str]
    tombs: dict[str, str]


def make_plan(ws: Workspace, files: Files, mode: str, target: str, *, copies: bool) -> Plan:
    """Find the targets, follow them into evidence and curated copies; reads only.

    An anchor without ``copies`` keeps only what it names: the copies found are reviewed.
    """
    deleted: list[str] = []
    if mode == "entry":
        targets = by_anchor(ws, files, target)
    elif mode == "text":
        targets = by_text(files, target)
    else:
        targets, deleted = by_session(ws, files, target)
    review: list[Review] = []
    more, reviewed = follow_evidence(ws, files, targets)
    targets += more
    review += reviewed
    more, reviewed = follow_curated(ws, files, targets, deleted)
    targets += more
    review += reviewed
    if mode == "entry" and not copies:
        review += [Review(t.rel, t.line_start, excerpt(t.body), f"{t.why}: kept (`forget --copies` takes it too)") for t in targets if t.why != "target"]
        targets = [t for t in targets if t.why == "target"]
    unique: dict[tuple[str, int], Target] = {}
    for t in targets:
        unique.setdefault(t.key, t)
    targets = sorted(unique.values(), key=lambda t: (t.rel, t.line_start))
    review = [r for r in review if (r.path, r.line) not in unique]
    surviving = surviving_texts(files, targets)
    tombs = tombstone_hashes(targets, surviving, every_line=mode != "session")
    return Plan(mode, target, targets, deleted, review, surviving, tombs)
