"""``clawmem forget``: remove an entry, every entry that says a text, or everything from a session.

Tombstones first. Before any file changes, the provenance ledger gets a tombstone for the
session (``ingest`` refuses it again) and for the normalised hash of every forgotten entry
and of each of its lines (``note add``, ``note flush`` and ``ingest`` drop them, so the text
does not come back from an agent's context). In session mode only lines of three or more
words are tombstoned one by one, so forgetting a chat does not block every future "thanks".

Then the files:

- episodic files (daily notes, quarantine, transcripts): a forgotten entry's lines are
  blanked, not deleted, so every other line keeps its number and the source anchors that
  ``MEMORY.md`` cites stay true; a forgotten session's transcript file is deleted;
- curated files (``MEMORY.md``, ``USER.md``): the entry's lines are removed by the same
  optimistic rewrite dreaming uses (hash re-check, pre-image, atomic rename);
- history: lines of ``DREAMS.md``, stored pre-images and the audit baseline that quote
  forgotten text are redacted; the removal itself is recorded in ``DREAMS.md`` by anchor,
  provenance and hash, never by text;
- the index: a sync drops the entries; staged dream evidence, recall events, cached vectors
  of forgotten text and vectors of re-numbered entries go too.

What else goes, and what is only reported:

- the target is a text, whatever file holds it: forgetting one entry forgets every entry
  with the same normalised text;
- a curated entry that is a verbatim copy of forgotten text, or all of whose source anchors
  point at forgotten lines, is removed with it;
- a curated entry that also cites other evidence (already merged with it), or that is a
  near-duplicate of forgotten text, is left in place and reported for manual review;
- when a curated entry is the target, evidence it cites that says something more than the
  entry (a transcript turn, say) is reported for review: a later dream could promote it again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from clawmem import ledger, loopguard
from clawmem.entries import grammar
from clawmem.errors import BadInput, Busy, IndexUnavailable, NotFound
from clawmem.workspace import Workspace, atomic_write, validate_session_id

FORGET_LOCK = "forget"
ATTEMPTS = 5
MIN_NEEDLE = 3  # characters of normalised text a --text match needs
SESSION_LINE_WORDS = 3  # session mode: lines shorter than this are not tombstoned one by one
NEAR_DUPLICATE = 90.0
UNTRUSTED = ("untrusted", "system")


@dataclass(frozen=True)
class Removed:
    """One forgotten entry (or prose line); ``text`` is an excerpt, framed by the CLI when untrusted."""

    path: str
    line_start: int
    line_end: int
    text: str
    text_hash: str
    origin: str | None
    session_kind: str | None
    session_id: str | None
    why: str
    untrusted: bool


@dataclass(frozen=True)
class Review:
    """An entry forget left in place: a person should decide."""

    path: str
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class ForgetResult:
    """What ``clawmem forget --json`` prints."""

    mode: str  # entry | text | session
    target: str
    dry_run: bool
    removed: list[Removed]
    deleted_files: list[str]
    review: list[Review]
    session_tombstoned: str | None
    hashes_tombstoned: int
    redacted: dict[str, int] = field(default_factory=dict)


# planning --------------------------------------------------------------------------------
@dataclass
class _Target:
    rel: str
    kind: str
    line_start: int
    line_end: int
    block: str  # entry | prose
    body: str
    why: str

    @property
    def hash(self) -> str:
        return loopguard.text_hash(self.body)

    @property
    def key(self) -> tuple[str, int]:
        return (self.rel, self.line_start)


def _excerpt(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _contains(needle: str, hay: str) -> bool:
    """Whole-word containment of one normalised text in another."""
    return bool(needle) and f" {needle} " in f" {hay} "


def _units(body: str, kind: str) -> list[str]:
    from clawmem.dream.text import units

    return units(body, transcript=kind == "transcript")


def _line_texts(body: str, kind: str) -> list[str]:
    """The lines of a body as writers hashed them (a transcript's first line without its speaker label)."""
    from clawmem.dream.text import TRANSCRIPT_LABEL

    lines = body.splitlines()
    if lines and kind == "transcript":
        lines[0] = TRANSCRIPT_LABEL.sub("", lines[0], count=1)
    return lines


class _Files:
    """Parsed memory files, read once per plan."""

    def __init__(self, ws: Workspace) -> None:
        from clawmem.index.sync import memory_files

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

    def target(self, rel: str, e: grammar.Entry, why: str) -> _Target:
        return _Target(rel, self.kind(rel), e.line_start, e.line_end, "entry", e.body, why)

    def prose(self, rel: str, start: int, end: int, match=None) -> list[_Target]:
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
                    found.append(_Target(rel, self.kind(rel), number, number, "prose", line.strip(), "text match" if match else "target"))
        return found


def _by_anchor(ws: Workspace, files: _Files, anchor: str) -> list[_Target]:
    from clawmem.audit import ANCHOR, parse_anchor

    match = ANCHOR.match(anchor.strip())
    if match is None and "#" not in anchor:
        raise BadInput(f"{anchor!r} is not an entry anchor", hint="give PATH#L12 as search and audit cite it, or use --text / --session")
    parsed = parse_anchor(ws, anchor)
    if parsed is None:
        ws.resolve_member(match["path"] if match else anchor.split("#", 1)[0])  # raises UnsafePath for traversal
        raise BadInput(f"{anchor!r} is not an entry anchor inside the workspace", hint="use PATH#L12 or PATH#L12-L14 (a .md memory file)")
    rel, start, end = parsed
    if rel not in files.files:
        raise NotFound(f"{rel} is not a memory file", hint="MEMORY.md, USER.md, memory/…, memory/quarantine/… or transcripts/…")
    found = [files.target(rel, e, "target") for e in files.entries(rel) if e.line_start <= end and e.line_end >= start]
    found += files.prose(rel, start, end)
    if not found:
        raise NotFound(f"no entry at {anchor}", hint=f"see the lines with `clawmem get {rel}#L{start} -C 3`")
    # the target is a text: the same entry anywhere else goes too
    wanted = {loopguard.normalise(t.body) for t in found if t.block == "entry"}
    for other in files.files:
        for e in files.entries(other):
            if loopguard.normalise(e.body) in wanted and (other, e.line_start) not in {t.key for t in found}:
                found.append(files.target(other, e, "same text as the target"))
    return found


def _by_text(files: _Files, text: str) -> list[_Target]:
    needle = loopguard.normalise(text)
    if len(needle) < MIN_NEEDLE:
        raise BadInput(f"--text {text!r} is too short to match safely", hint=f"give at least {MIN_NEEDLE} letters or digits")
    found = []
    for rel in files.files:
        found += [files.target(rel, e, "text match") for e in files.entries(rel) if _contains(needle, loopguard.normalise(e.body))]
        found += files.prose(rel, 1, 10**9, match=lambda line: _contains(needle, loopguard.normalise(line)))
    if not found:
        raise NotFound(f"no memory entry says {text!r}", hint="matching ignores case, punctuation and markup; try fewer words")
    return found


def _by_session(ws: Workspace, files: _Files, session: str) -> tuple[list[_Target], list[str]]:
    pairs: dict[str, set[str]] = {}
    for r in ledger.read(ws).records:
        if r.get("t") == "entry" and r.get("session") == session and isinstance(r.get("path"), str):
            pairs.setdefault(r["path"], set()).add(r.get("hash"))
    transcript = ws.rel(ws.transcript(session))
    deleted = [transcript] if transcript in files.files else []
    found = []
    for rel, hashes in pairs.items():
        if rel not in files.files:
            continue
        why = "session transcript" if rel == transcript else "written in the session"
        found += [files.target(rel, e, why) for e in files.entries(rel) if loopguard.text_hash(e.body) in hashes or rel == transcript]
    if transcript in files.files and transcript not in pairs:
        found += [files.target(transcript, e, "session transcript") for e in files.entries(transcript)]
    return found, deleted


def _follow_curated(ws: Workspace, files: _Files, targets: list[_Target], deleted: list[str]) -> tuple[list[_Target], list[Review]]:
    """Curated entries derived from forgotten evidence: removed when they are only that, else reviewed."""
    from clawmem.audit import parse_anchor
    from clawmem.dream.text import similarity

    chosen = {t.key for t in targets}
    spans: dict[str, list[tuple[int, int]]] = {}
    norms: set[str] = set()
    for t in targets:
        if t.kind not in ("memory", "user"):
            spans.setdefault(t.rel, []).append((t.line_start, t.line_end))
        norms.add(loopguard.normalise(t.body))
        norms.update(loopguard.normalise(u) for u in _units(t.body, t.kind))
    norms.discard("")

    def forgotten(anchor: tuple[str, int, int]) -> bool:
        rel, start, end = anchor
        return rel in deleted or any(a <= end and b >= start for a, b in spans.get(rel, ()))

    def dead(anchor: tuple[str, int, int]) -> bool:
        """Forgotten earlier: the file is gone or nothing is left at those lines."""
        rel, start, end = anchor
        return rel not in files.files or not any(e.line_start <= end and e.line_end >= start for e in files.entries(rel))

    extra: list[_Target] = []
    review: list[Review] = []
    for rel in (ws.rel(ws.memory_md), ws.rel(ws.user_md)):
        if rel not in files.files:
            continue
        for e in files.entries(rel):
            if (rel, e.line_start) in chosen:
                continue
            norm = loopguard.normalise(e.body)
            anchors = [a for a in (parse_anchor(ws, s) for s in e.sources) if a is not None]
            hits = [a for a in anchors if forgotten(a)]
            if hits and all(a in hits or dead(a) for a in anchors):
                extra.append(files.target(rel, e, "every source it cites is forgotten"))
            elif hits:
                cited = ", ".join(f"{p}#L{a}" for p, a, _ in hits)
                review.append(Review(rel, e.line_start, _excerpt(e.body), f"cites forgotten evidence ({cited}) but also other sources: merged, review by hand"))
            elif norm in norms and not anchors:
                extra.append(files.target(rel, e, "verbatim copy of forgotten text"))
            elif norm in norms or any(similarity(norm, n) >= NEAR_DUPLICATE for n in norms):
                review.append(Review(rel, e.line_start, _excerpt(e.body), "near-duplicate of forgotten text: review by hand"))
    return extra, review


def _follow_evidence(ws: Workspace, files: _Files, targets: list[_Target]) -> tuple[list[_Target], list[Review]]:
    """Evidence cited by a forgotten curated entry: the same text goes, anything richer is reviewed."""
    from clawmem.audit import parse_anchor

    chosen = {t.key for t in targets}
    extra: list[_Target] = []
    review: list[Review] = []
    for t in [t for t in targets if t.kind in ("memory", "user") and t.block == "entry"]:
        entry = next((e for e in files.entries(t.rel) if e.line_start == t.line_start), None)
        norm = loopguard.normalise(t.body)
        for source in entry.sources if entry else []:
            anchor = parse_anchor(ws, source)
            if anchor is None or anchor[0] not in files.files:
                continue
            rel, start, end = anchor
            for e in files.entries(rel):
                if not (e.line_start <= end and e.line_end >= start) or (rel, e.line_start) in chosen:
                    continue
                units = {loopguard.normalise(u) for u in _units(e.body, files.kind(rel))}
                if loopguard.normalise(e.body) == norm or units == {norm}:
                    extra.append(files.target(rel, e, "evidence saying the same as the target"))
                    chosen.add((rel, e.line_start))
                else:
                    review.append(Review(rel, e.line_start, _excerpt(e.body), f"evidence of the forgotten {t.rel}#L{t.line_start} says more than it: forget it too, or a later dream may promote the fact again"))
    return extra, review


def _texts(body: str, kind: str) -> list[str]:
    """The entry, each of its lines and each evidence unit: every form a writer may hash."""
    return [body, *_line_texts(body, kind), *_units(body, kind)]


def _surviving(files: _Files, targets: list[_Target]) -> set[str]:
    """Normalised forms of every text that stays in memory (entries not being forgotten)."""
    chosen = {t.key for t in targets}
    return {
        loopguard.normalise(text)
        for rel in files.files
        for e in files.entries(rel)
        if (rel, e.line_start) not in chosen
        for text in _texts(e.body, files.kind(rel))
    }


def _tombstone_hashes(targets: list[_Target], surviving: set[str], *, every_line: bool) -> dict[str, str]:
    """hash -> path of every text the writers must not store again.

    A text that stays in memory elsewhere (an entry not being forgotten) is not tombstoned:
    forgetting one session must not stop others from saying the same thing.
    """
    found: dict[str, str] = {}
    for t in targets:
        for i, text in enumerate(_texts(t.body, t.kind)):
            norm = loopguard.normalise(text)
            if not norm or (i and not every_line and len(norm.split()) < SESSION_LINE_WORDS):
                continue
            if norm not in surviving:
                found.setdefault(loopguard.text_hash(text), t.rel)
    return found


# applying ----------------------------------------------------------------------------------
def _blank_episodic(ws: Workspace, path: Path, targets: list[_Target]) -> list[_Target]:
    """Blank the targets' lines under the file's lock; return those not found as planned."""
    missed = []
    with ws.lock_file(path):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines(keepends=True)
        doc = grammar.parse(text)
        taken: set[int] = set()
        for t in targets:
            if t.block == "prose":
                ok = t.line_start <= len(lines) and lines[t.line_start - 1].strip() == t.body
                span = (t.line_start, t.line_end) if ok else None
            else:
                same = [e for e in doc.entries if loopguard.text_hash(e.body) == t.hash and e.line_start not in taken]
                exact = [e for e in same if e.line_start == t.line_start]
                e = (exact or same or [None])[0]
                span = (e.line_start, e.line_end) if e else None
            if span is None:
                missed.append(t)
                continue
            taken.add(span[0])
            for number in range(span[0], span[1] + 1):
                line = lines[number - 1]
                lines[number - 1] = line[len(line.rstrip("\r\n")):]
        atomic_write(path, "".join(lines).encode())
    return missed


def _rewrite_curated(ws: Workspace, path: Path, hashes: set[str]) -> str | None:
    """Remove entries with these hashes from a curated file; return the pre-image (relative)."""
    from clawmem import curated

    for _ in range(ATTEMPTS):
        snap = curated.snapshot(path)
        doc = grammar.parse(snap.text)
        doomed = {e.line_start for e in doc.entries if loopguard.text_hash(e.body) in hashes}
        if not doomed:
            return None
        new_text = "".join(b.raw for b in doc.blocks if not (isinstance(b, grammar.Entry) and b.line_start in doomed))
        result = curated.replace_if_unchanged(ws, snap, new_text, reason="forget")
        if result.written:
            return ws.rel(result.preimage) if result.preimage else None
    raise Busy(f"{path.name} kept changing while entries were being forgotten", hint="run the same forget again")


def _redact_diary(ws: Workspace, norms: set[str], stamp: str) -> int:
    """Replace DREAMS.md list lines that quote forgotten text (whole or as a shortened excerpt)."""
    path = ws.dreams_md
    if not path.exists() or not norms:
        return 0
    with ws.lock_file(path):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        count = 0
        for i, line in enumerate(lines):
            stripped = line.lstrip()
            if not stripped.startswith("- ") or "[forgotten" in stripped:
                continue
            norm = loopguard.normalise(stripped)
            short = loopguard.normalise(stripped.split("…", 1)[0]) if "…" in stripped else None
            if any(_contains(n, norm) for n in norms) or (short and len(short) >= 20 and any(n.startswith(short) for n in norms)):
                indent = line[: len(line) - len(stripped)]
                lines[i] = f"{indent}- [forgotten on {stamp}]" + line[len(line.rstrip('\r\n')):]
                count += 1
        if count:
            atomic_write(path, "".join(lines).encode())
    return count


def _redact_preimages(ws: Workspace, hashes: set[str]) -> int:
    count = 0
    if not ws.preimages_dir.is_dir():
        return 0
    for image in sorted(ws.preimages_dir.glob("*.md")):
        doc = grammar.parse(image.read_text(encoding="utf-8", errors="replace"))
        doomed = {e.line_start for e in doc.entries if loopguard.text_hash(e.body) in hashes}
        if doomed:
            atomic_write(image, "".join(b.raw for b in doc.blocks if not (isinstance(b, grammar.Entry) and b.line_start in doomed)).encode())
            count += 1
    return count


def _clean_index(ws: Workspace, hashes: set[str], changed: set[str], spans: set[tuple[str, int]]) -> None:
    """Sync, then drop what the index still holds of the forgotten text."""
    from clawmem.index.maintain import open_synced
    from clawmem.search.vectors import VEC_TABLE

    index, _ = open_synced(ws)
    with index:
        tables = {r["name"] for r in index.query("SELECT name FROM sqlite_master")}
        wanted = sorted(hashes)
        with index.transaction():
            for start in range(0, len(wanted), 400):
                part = wanted[start : start + 400]
                marks = ",".join("?" * len(part))
                index.execute(f"DELETE FROM recall_events WHERE text_hash IN ({marks})", part)
                index.execute(f"DELETE FROM recalled WHERE text_hash IN ({marks})", part)
                index.execute(f"DELETE FROM embedding_cache WHERE text_hash IN ({marks})", part)
                if "dream_evidence" in tables:
                    index.execute(f"DELETE FROM dream_evidence WHERE entry_hash IN ({marks}) OR unit_hash IN ({marks})", part + part)
            if "dream_evidence" in tables:  # staged evidence quoting a forgotten line, wherever its text also is
                index.executemany("DELETE FROM dream_evidence WHERE path = ? AND line_start = ?", sorted(spans))
            if "dream_candidates" in tables:
                gone = [r["id"] for r in index.query("SELECT id FROM dream_candidates WHERE id NOT IN (SELECT candidate_id FROM dream_evidence)")]
                index.execute("DELETE FROM dream_candidates WHERE id NOT IN (SELECT candidate_id FROM dream_evidence)")
                # a candidate keeps the wording of its first evidence: give it a remaining one
                index.execute(
                    "UPDATE dream_candidates SET text = (SELECT e.text FROM dream_evidence e WHERE e.candidate_id = dream_candidates.id "
                    "ORDER BY e.day DESC, e.path LIMIT 1)"
                )
                if "dream_themes" in tables:
                    import json

                    for row in index.query("SELECT label, candidates FROM dream_themes"):
                        if set(json.loads(row["candidates"])) & set(gone):
                            index.execute("DELETE FROM dream_themes WHERE label = ?", (row["label"],))
        if changed and index.load_vec() and VEC_TABLE in tables:
            # entries of a re-read file get new ids; a reused id must not keep another entry's vector
            marks = ",".join("?" * len(changed))
            with index.transaction():
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT id FROM entries WHERE path IN ({marks}))", sorted(changed))
                index.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)")


def _record(t: _Target, rows: dict[tuple[str, int], dict]) -> Removed:
    row = rows.get(t.key) or {}
    origin = row.get("origin")
    return Removed(
        t.rel, t.line_start, t.line_end, _excerpt(t.body), t.hash, origin, row.get("session_kind"), row.get("session_id"),
        t.why, origin in UNTRUSTED or t.kind == "quarantine",
    )


def _diary_lines(result: ForgetResult, preimages: list[str]) -> list[str]:
    out = [f"Forgot ({result.mode}): {len(result.removed)} entr{'y' if len(result.removed) == 1 else 'ies'}; the text is not repeated here."]
    for r in result.removed[:50]:
        prov = f"{r.origin or '?'}/{r.session_kind or '?'}" + (f", session {r.session_id}" if r.session_id else "")
        out.append(f"- {r.path}#L{r.line_start} ({prov}; hash {r.text_hash[:10]}) — {r.why}")
    if len(result.removed) > 50:
        out.append(f"- … and {len(result.removed) - 50} more")
    out += [f"- deleted {p}" for p in result.deleted_files]
    if result.session_tombstoned:
        out.append(f"- session {result.session_tombstoned} tombstoned: it is never ingested again")
    out.append(f"- {result.hashes_tombstoned} text hash(es) tombstoned: note, flush and ingest will not store them again")
    redacted = result.redacted
    if redacted.get("dreams") or redacted.get("preimages") or redacted.get("baseline"):
        out.append(
            f"- redacted {redacted.get('dreams', 0)} earlier line(s) of DREAMS.md, {redacted.get('preimages', 0)} pre-image(s) "
            f"and {redacted.get('baseline', 0)} audit baseline entr(y/ies)"
        )
    out += [f"- curated pre-image (redacted): {p}" for p in preimages]
    for r in result.review:
        out.append(f"- needs manual review: {r.path}#L{r.line} — {r.reason}")
    return out


def forget(
    ws: Workspace,
    *,
    anchor: str | None = None,
    text: str | None = None,
    session: str | None = None,
    dry_run: bool = False,
) -> ForgetResult:
    """Forget one entry (``anchor``), every entry saying ``text``, or everything from ``session``."""
    given = [(m, v) for m, v in (("entry", anchor), ("text", text), ("session", session)) if v is not None]
    if len(given) != 1:
        raise BadInput("say what to forget: an entry anchor, --text TEXT or --session ID (exactly one)")
    mode, target = given[0]
    if mode == "session":
        target = validate_session_id(target)
    with ws.lock(FORGET_LOCK):
        files = _Files(ws)
        deleted: list[str] = []
        if mode == "entry":
            targets = _by_anchor(ws, files, target)
        elif mode == "text":
            targets = _by_text(files, target)
        else:
            targets, deleted = _by_session(ws, files, target)
        review: list[Review] = []
        more, reviewed = _follow_evidence(ws, files, targets)
        targets += more
        review += reviewed
        more, reviewed = _follow_curated(ws, files, targets, deleted)
        targets += more
        review += reviewed
        unique: dict[tuple[str, int], _Target] = {}
        for t in targets:
            unique.setdefault(t.key, t)
        targets = sorted(unique.values(), key=lambda t: (t.rel, t.line_start))
        review = [r for r in review if (r.path, r.line) not in unique]
        surviving = _surviving(files, targets)
        tombs = _tombstone_hashes(targets, surviving, every_line=mode != "session")
        rows = _provenance_rows(ws)
        result = ForgetResult(
            mode, target, dry_run, [_record(t, rows) for t in targets], deleted, review,
            target if mode == "session" else None, len(tombs),
        )
        if dry_run:
            return result
        stamp = ledger.now_iso()
        records = [{"t": "tombstone", "session": target, "at": stamp}] if mode == "session" else []
        records += [{"t": "tombstone", "hash": h, "path": rel, "at": stamp} for h, rel in sorted(tombs.items())]
        ledger.append(ws, records)

        missed: list[_Target] = []
        changed: set[str] = set()
        preimages: list[str] = []
        by_file: dict[str, list[_Target]] = {}
        for t in targets:
            by_file.setdefault(t.rel, []).append(t)
        for rel, group in by_file.items():
            path = files.files[rel].path
            if rel in deleted:
                with ws.lock_file(path):
                    path.unlink(missing_ok=True)
            elif files.kind(rel) in ("memory", "user"):
                image = _rewrite_curated(ws, path, {t.hash for t in group})
                if image:
                    preimages.append(image)
            else:
                missed += _blank_episodic(ws, path, group)
            changed.add(rel)
        for rel in deleted:
            if rel not in changed:
                with ws.lock_file(files.files[rel].path):
                    files.files[rel].path.unlink(missing_ok=True)
                changed.add(rel)
        review += [Review(t.rel, t.line_start, _excerpt(t.body), "changed while it was being forgotten: not removed") for t in missed]
        # what is gone for good: forgotten texts that no surviving entry still says
        kept = [t for t in targets if t not in missed]
        norms = {loopguard.normalise(x) for t in kept for x in _texts(t.body, t.kind)} - surviving - {""}
        hashes = set(tombs) | {loopguard.text_hash(t.body) for t in kept if loopguard.normalise(t.body) in norms}
        if mode == "text":
            norms.add(loopguard.normalise(target))
        # a short forgotten line ("ok") must not redact every diary line that contains the word
        norms = {n for n in norms if len(n) >= 12 or len(n.split()) >= 3}
        from clawmem.audit import redact_baseline

        redacted = {
            "dreams": _redact_diary(ws, norms, dt.date.today().isoformat()),
            "preimages": _redact_preimages(ws, hashes),
            "baseline": redact_baseline(ws, hashes),
        }
        try:
            _clean_index(ws, hashes, changed, {(t.rel, t.line_start) for t in kept})
        except IndexUnavailable:
            pass  # a damaged index is rebuilt from the files, which no longer hold the text

        result = ForgetResult(
            mode, target, False, [r for r in result.removed if (r.path, r.line_start) not in {t.key for t in missed}],
            deleted, review, result.session_tombstoned, len(tombs), redacted,
        )
        from clawmem import curated

        curated.append_diary(ws, f"forget {mode}", _diary_lines(result, preimages))
    return result


def _provenance_rows(ws: Workspace) -> dict[tuple[str, int], dict]:
    """Index provenance of every entry, for the report (empty when the index is unusable)."""
    from clawmem.index.maintain import open_synced

    try:
        index, _ = open_synced(ws)
    except IndexUnavailable:
        return {}
    with index:
        return {
            (r["path"], r["line_start"]): r
            for r in index.query("SELECT path, line_start, origin, session_kind, session_id FROM entries")
        }
