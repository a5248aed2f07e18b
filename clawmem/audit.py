"""``clawmem audit``: what entered long-term memory, from where, and whether the rules held.

For every entry of ``MEMORY.md`` and ``USER.md`` the audit reads back, from the index, the
provenance ledger and ``DREAMS.md``: the entry's origin and session kind, when clawmem
recorded it, its source anchors with the origin and session kind of the evidence each one
points at, and the dream sweep (or user-model change) that put it there.

With ``--ci`` four checks decide the exit status (3 when any fails), one line per violation:

    clawmem: violation: <check>: <path>#L<n>: <what>

``#L0`` means the whole file. The checks, precisely:

provenance
    A curated entry whose own provenance (the index, replayed from the ledger) is untrusted
    or system, or comes from a non-interactive session; a curated file with an untrusted or
    system taint record; a source anchor whose evidence (the indexed unit at the anchor that
    still says the same thing, or the one it moved to) is untrusted or system, sits in
    quarantine, comes from a non-interactive session, or sits in a file tainted by untrusted
    or system content no later than the curated line was recorded.
preimage
    Nothing a rewrite drops may be lost. ``.clawmem/audit/baseline.json`` keeps each curated
    file as it was at the last audit that found it in order. Every entry that was in the file
    then and is gone now (removed or changed) must be recoverable: its text in a stored
    pre-image (``.clawmem/preimages/``: dreaming, ``user`` and ``forget`` write one before
    every rewrite) or tombstoned by ``clawmem forget``. Anything else - a hand edit, a tool
    writing the file directly - is a violation at the entry's old line. Entries *added* by
    hand (no ledger record) are inside the operator trust boundary: a warning only. The
    baseline advances past a file only when it has no violation; ``--accept`` first stores
    the previous version as a pre-image (so the owner's edit is recoverable), then advances.
    The first audit, or one after ``.clawmem/audit/`` was removed, establishes the baseline.
annotation
    A curated entry with a malformed annotation (``Entry.problems``: importance outside
    1-10, a project key with an unescaped ``;``, an unknown status, an unreadable date, an
    empty trigger, no text), conflicting repeated importance values, a ``source`` that is not
    a workspace anchor (``path#L12``, inside the workspace), or a raw recall or
    untrusted-content marker in its text.
index
    After a sync, the index must agree with the files and the ledger: no file still pending;
    every indexed unit (lines, text, hash, origin, session kind, metadata) equal to what a
    fresh rebuild from the files and the ledger produces; equal file taint; one full-text row
    per entry; vector rows flagged trusted exactly for owner and agent entries. A stale,
    half-written or tampered index (an edited origin column) fails here, and ``clawmem index
    --rebuild`` repairs it without upgrading anything.

``since`` limits the listing and the entry-level findings (provenance, annotation) to entries
that entered since then; file-level findings always count. An entry's time is its first
ledger record, else when an audit first saw it (hand-written lines).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clawmem import ledger, loopguard, provenance
from clawmem.entries import grammar
from clawmem.errors import Busy, UnsafePath
from clawmem.workspace import Workspace, atomic_write, sha256_bytes

CHECKS = ("provenance", "preimage", "annotation", "index")
BASELINE_VERSION = 1
AUDIT_LOCK = "audit"
ANCHOR = re.compile(r"^(?P<path>[^#\s]+?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
DIARY_SECTION = re.compile(r"^## (?P<when>.+?) — (?P<title>.+?)\s*$")
DIARY_GROUP = re.compile(r"^(?P<label>[A-Z][a-z]+) \(\d+\):\s*$")
DIARY_SOURCES = re.compile(r"\s+\(sources: [^()]*\)\s*$")
MARKER = re.compile(r"<\s*/?\s*(?:clawmem-recall|untrusted-content)\b", re.IGNORECASE)
SUPPORT_SIMILARITY = 60.0  # rapidfuzz token-set ratio at which an evidence unit still says the entry's text
COMPARED = (
    "text", "text_hash", "kind", "tier", "origin", "session_kind", "session_id", "hand_written", "observed_at",
    "supersession_key", "importance", "triggers", "projects", "sources", "status",
)
UNTRUSTED = ("untrusted", "system")


# results ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One violation or warning: which check, where (``line`` 0 = the whole file), and what."""

    check: str
    path: str
    line: int
    message: str

    def render(self, level: str = "violation") -> str:
        return f"clawmem: {level}: {self.check}: {self.path}#L{self.line}: {self.message}"


@dataclass(frozen=True)
class SourceTrace:
    """Where one ``source`` anchor of a curated entry leads today.

    ``state``: ``ok`` (the unit at the anchor says the entry's text), ``moved`` (it says it
    at other lines of the same file), ``stale`` (the file no longer says it: edited or
    forgotten), ``missing`` (no such file), ``invalid`` (not a workspace anchor).
    """

    anchor: str
    state: str
    path: str | None = None
    line_start: int | None = None
    line_end: int | None = None
    kind: str | None = None
    origin: str | None = None
    session_kind: str | None = None
    session_id: str | None = None
    file_taint: str | None = None


@dataclass(frozen=True)
class SweepRef:
    """A ``DREAMS.md`` section that names the entry (``action``: promoted, merged, changed)."""

    when: str
    title: str
    action: str
    diary_line: int


@dataclass(frozen=True)
class AuditEntry:
    path: str
    line_start: int
    line_end: int
    text: str
    text_hash: str
    origin: str | None
    session_kind: str | None
    session_id: str | None
    hand_written: bool | None
    untrusted: bool
    entered_at: str | None  # first ledger record, else when an audit first saw it
    importance: int | None
    triggers: list[str]
    projects: list[str]
    key: str | None
    status: str | None
    sources: list[SourceTrace]
    sweeps: list[SweepRef]
    problems: list[str]


@dataclass(frozen=True)
class AuditReport:
    """What ``clawmem audit --json`` prints."""

    workspace: str
    since: str | None
    checks: list[str]
    entries: list[AuditEntry]
    violations: list[Finding]
    warnings: list[Finding]
    baseline: dict[str, str]  # curated file -> established | unchanged | advanced | held | accepted

    @property
    def ok(self) -> bool:
        return not self.violations


# small helpers ---------------------------------------------------------------------------
def _when(value: str | None) -> dt.datetime | None:
    """An ISO time or date as a naive local datetime (aware values converted)."""
    if not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone().replace(tzinfo=None) if parsed.tzinfo else parsed


def _excerpt(text: str, limit: int = 80) -> str:
    from clawmem.entries.neutralise import neutralise

    flat = " ".join(neutralise(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def parse_anchor(ws: Workspace, anchor: str) -> tuple[str, int, int] | None:
    """``path#L12`` / ``path#L12-L14`` inside the workspace -> (relative path, start, end); else None."""
    match = ANCHOR.match(anchor.strip())
    if not match:
        return None
    try:
        path = ws.resolve_member(match["path"])
    except UnsafePath:
        return None
    if path.suffix != ".md":
        return None
    start = int(match["start"])
    end = int(match["end"] or start)
    if start < 1 or end < start:
        return None
    return ws.rel(path), start, end


# the index check -------------------------------------------------------------------------
def _sync(ws: Workspace, index) -> None:
    from filelock import Timeout

    from clawmem.index.sync import sync

    try:
        sync(ws, index)
    except Timeout as err:
        raise Busy("another clawmem process holds the index lock; the audit needs a synced index") from err


def _rows(index) -> tuple[dict[str, str], dict[tuple, dict], dict[str, str]]:
    files = {r["path"]: r["content_hash"] for r in index.query("SELECT path, content_hash FROM files")}
    units: dict[tuple, dict] = {}
    for row in index.query(f"SELECT id, path, line_start, line_end, block, {', '.join(COMPARED)} FROM entries"):
        units[(row["path"], row["line_start"], row["line_end"], row["block"])] = row
    taint = {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")}
    return files, units, taint


def _reference(ws: Workspace, index) -> tuple[dict[str, str], dict[tuple, dict], dict[str, str]]:
    """What a fresh rebuild from the files and the ledger gives (in a throwaway database)."""
    from clawmem.index import migrations
    from clawmem.index.db import Index
    from clawmem.index.sync import sync

    with tempfile.TemporaryDirectory(prefix="clawmem-audit-") as tmp:
        ref = Index(Path(tmp) / "reference.db")
        try:
            migrations.apply(ref)
            # the live index remembers whether the ledger was ever lost or replaced (sticky)
            ref.set_meta("ledger_id", index.meta("ledger_id"))
            ref.set_meta("ledger_intact", index.meta("ledger_intact", "1"))
            try:
                sync(ws, ref, rebuild=True)
            except Exception as err:
                from filelock import Timeout

                if isinstance(err, Timeout):
                    raise Busy("another clawmem process holds the index lock") from err
                raise
            return _rows(ref)
        finally:
            ref.close()


def _describe(row: dict) -> str:
    return f"{row['block']} at lines {row['line_start']}-{row['line_end']}"


def check_index(ws: Workspace, index) -> list[Finding]:
    """Sync, then compare the index with a rebuild from the files and the ledger."""
    from clawmem.index.sync import pending_changes

    for _ in range(3):  # a writer appending during the audit: sync again rather than report a race
        _sync(ws, index)
        expected = _reference(ws, index)
        actual = _rows(index)
        if actual[0] == expected[0]:
            break
    found: list[Finding] = []
    for rel in pending_changes(ws, index):
        found.append(Finding("index", rel, 0, "the file changed but the index was not updated by a sync"))
    (_, want, want_taint), (_, have, have_taint) = expected, actual
    for key in sorted(set(want) | set(have), key=lambda k: (k[0], k[1], k[2], k[3])):
        w, h = want.get(key), have.get(key)
        if h is None:
            found.append(Finding("index", key[0], key[1], f"the index lacks the file's {_describe(w)}"))
        elif w is None:
            found.append(Finding("index", key[0], key[1], f"the index holds an {_describe(h)} that the file does not have"))
        elif (h["origin"], h["session_kind"]) != (w["origin"], w["session_kind"]):
            found.append(
                Finding(
                    "index", key[0], key[1],
                    f"the index says {h['origin']}/{h['session_kind']}; the files and ledger say {w['origin']}/{w['session_kind']}",
                )
            )
        else:
            differ = [c for c in COMPARED if h[c] != w[c]]
            if differ:
                found.append(Finding("index", key[0], key[1], f"the index's {', '.join(differ)} differ from the file and ledger"))
    for rel in sorted(set(want_taint) | set(have_taint)):
        if want_taint.get(rel) != have_taint.get(rel):
            found.append(
                Finding("index", rel, 0, f"the index records taint {have_taint.get(rel)}; the ledger says {want_taint.get(rel)}")
            )
    for row in index.query("SELECT path, line_start FROM entries WHERE id NOT IN (SELECT rowid FROM entries_fts) ORDER BY path, line_start"):
        found.append(Finding("index", row["path"], row["line_start"], "the entry has no full-text row (keyword search cannot find it)"))
    orphans = index.scalar("SELECT count(*) FROM entries_fts WHERE rowid NOT IN (SELECT id FROM entries)")
    if orphans:
        entries, fts = index.scalar("SELECT count(*) FROM entries"), index.scalar("SELECT count(*) FROM entries_fts")
        found.append(Finding("index", ".clawmem/index.db", 0, f"{fts} full-text rows for {entries} entries: {orphans} belong to no entry"))
    found += _check_vectors(index)
    return found


def _check_vectors(index) -> list[Finding]:
    from clawmem.search.vectors import VEC_TABLE

    try:
        if not index.scalar("SELECT count(*) FROM sqlite_master WHERE name = ?", (VEC_TABLE,)) or not index.load_vec():
            return []
        rows = index.query(
            f"SELECT e.path, e.line_start, e.origin, v.trusted FROM {VEC_TABLE} v JOIN entries e ON e.id = v.rowid "
            "WHERE v.trusted != (e.origin IN ('owner', 'agent')) ORDER BY e.path, e.line_start"
        )
    except Exception:  # the vector lane is optional; an unloadable extension is not a disagreement
        return []
    return [
        Finding("index", r["path"], r["line_start"], f"its vector is flagged {'trusted' if r['trusted'] else 'untrusted'} but the entry is {r['origin']}")
        for r in rows
    ]


# the ledger, read once -------------------------------------------------------------------
@dataclass
class _Ledger:
    intact: bool
    first_at: dict[tuple[str, str], str] = field(default_factory=dict)  # (path, hash) -> first record time
    taints: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)  # path -> [(origin, at)]
    tombstoned: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, ws: Workspace) -> _Ledger:
        read = ledger.read(ws)
        found = cls(read.ledger_id is not None)
        for r in read.records:
            kind = r.get("t")
            if kind == "entry" and isinstance(r.get("path"), str) and isinstance(r.get("hash"), str):
                found.first_at.setdefault((r["path"], r["hash"]), r.get("at"))
            elif kind == "taint" and isinstance(r.get("path"), str):
                found.taints.setdefault(r["path"], []).append((r.get("origin"), r.get("at")))
            elif kind == "tombstone" and isinstance(r.get("hash"), str):
                found.tombstoned.add(r["hash"])
        return found

    def tainted_before(self, path: str, moment: str | None) -> str | None:
        """The least trusted untrusted/system taint of ``path`` recorded no later than ``moment`` (any, if None)."""
        limit = _when(moment)
        bad = [
            origin for origin, at in self.taints.get(path, ())
            if origin in UNTRUSTED and (limit is None or (_when(at) or dt.datetime.min) <= limit)
        ]
        return provenance.least_trusted(*bad) if bad else None


# the preimage check and its baseline -----------------------------------------------------
def baseline_path(ws: Workspace) -> Path:
    return ws.state_dir / "audit" / "baseline.json"


def load_baseline(ws: Workspace) -> dict[str, Any]:
    try:
        data = json.loads(baseline_path(ws).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def save_baseline(ws: Workspace, files: dict[str, Any]) -> None:
    payload = {"version": BASELINE_VERSION, "files": files}
    atomic_write(baseline_path(ws), json.dumps(payload, ensure_ascii=False, indent=1).encode())


def _hashes(text: str) -> dict[str, grammar.Entry]:
    return {loopguard.text_hash(e.body): e for e in grammar.parse(text).entries if e.body.strip()}


def _preimage_hashes(ws: Workspace, path: Path, wanted: set[str]) -> set[str]:
    """Which of ``wanted`` some stored pre-image of ``path`` holds (newest first, stops when all found)."""
    from clawmem.curated import preimages

    found: set[str] = set()
    for image in reversed(preimages(ws, path)):
        if found >= wanted:
            break
        try:
            found |= wanted & set(_hashes(image.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return found


@dataclass
class _PreimageOutcome:
    violations: list[Finding]
    warnings: list[Finding]
    files: dict[str, Any]
    states: dict[str, str]


def check_preimages(ws: Workspace, led: _Ledger, *, accept: bool) -> _PreimageOutcome:
    from clawmem import curated

    files = load_baseline(ws)
    out = _PreimageOutcome([], [], dict(files), {})
    now = ledger.now_iso()
    for path in (ws.memory_md, ws.user_md):
        rel = ws.rel(path)
        data = path.read_bytes() if path.exists() else b""
        text = data.decode("utf-8", errors="replace")
        sha = sha256_bytes(data)
        current = _hashes(text)
        base = files.get(rel) if isinstance(files.get(rel), dict) else None
        if base is None or not isinstance(base.get("text"), str):
            out.warnings.append(Finding("baseline", rel, 0, "no audit baseline yet: established now; later changes are checked against it"))
            state, advance = "established", True
            first_seen: dict[str, str] = {}
        elif base.get("sha256") == sha:
            state, advance = "unchanged", True
            first_seen = dict(base.get("first_seen") or {})
        else:
            first_seen = dict(base.get("first_seen") or {})
            old = _hashes(base["text"])
            gone = {h: e for h, e in old.items() if h not in current}
            explained = (set(gone) & led.tombstoned) | _preimage_hashes(ws, path, set(gone) - led.tombstoned)
            lost = [(h, e) for h, e in gone.items() if h not in explained]
            for h, e in current.items():
                if h not in old and (rel, h) not in led.first_at:
                    out.warnings.append(Finding("hand-edit", rel, e.line_start, "entry added by hand (no ledger record); inside the operator trust boundary"))
            if lost and accept:
                snap = curated.Snapshot(path, base["text"].encode(), sha256_bytes(base["text"].encode()))
                image = curated.store_preimage(ws, snap, reason="audit-accept")
                curated.append_diary(
                    ws, f"audit: accepted an edit of {rel}",
                    [f"- {len(lost)} entr{'y' if len(lost) == 1 else 'ies'} removed or changed outside clawmem since the audit of "
                     f"{base.get('audited_at')}; the previous version is kept as {ws.rel(image)}."],
                )
                for h, e in lost:
                    out.warnings.append(Finding("preimage", rel, e.line_start, f"accepted: entry removed without a pre-image, now kept in {ws.rel(image)}"))
                state, advance = "accepted", True
            elif lost:
                for h, e in sorted(lost, key=lambda p: p[1].line_start):
                    out.violations.append(
                        Finding(
                            "preimage", rel, e.line_start,
                            f"entry removed or changed without a pre-image since the audit of {base.get('audited_at')}: "
                            f"\"{_excerpt(e.body)}\" (was line {e.line_start}; if the edit was yours, run `clawmem audit --accept`)",
                        )
                    )
                state, advance = "held", False
            else:
                state, advance = "advanced", True
        for h in current:
            first_seen.setdefault(h, led.first_at.get((rel, h)) or now)
        if advance:
            out.files[rel] = {"sha256": sha, "text": text, "audited_at": now, "first_seen": {h: first_seen[h] for h in current}}
        else:
            out.files[rel] = {**base, "first_seen": first_seen}
        out.states[rel] = state
    return out


def redact_baseline(ws: Workspace, hashes: set[str]) -> int:
    """Drop entries with these text hashes from the stored baseline (``clawmem forget``); return how many."""
    files = load_baseline(ws)
    removed = 0
    for rel, base in files.items():
        if not isinstance(base, dict) or not isinstance(base.get("text"), str):
            continue
        doc = grammar.parse(base["text"])
        doomed = {e.line_start for e in doc.entries if loopguard.text_hash(e.body) in hashes}
        if not doomed:
            continue
        text = "".join(b.raw for b in doc.blocks if b.line_start not in doomed or not isinstance(b, grammar.Entry))
        removed += len(doomed)
        seen = {h: v for h, v in (base.get("first_seen") or {}).items() if h not in hashes}
        files[rel] = {**base, "text": text, "sha256": sha256_bytes(text.encode()), "first_seen": seen}
    if removed:
        save_baseline(ws, files)
    return removed


# DREAMS.md ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _DiaryItem:
    when: str
    title: str
    action: str
    line: int
    norm: str  # normalised item text (detail and sources included)
    prefix: str | None  # normalised text before "…" when the diary shortened it


def diary_items(ws: Workspace) -> list[_DiaryItem]:
    """The promoted, merged and changed lines of every ``DREAMS.md`` section."""
    try:
        lines = ws.dreams_md.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    items: list[_DiaryItem] = []
    when = title = label = None
    for number, line in enumerate(lines, 1):
        section = DIARY_SECTION.match(line)
        if section:
            when, title, label = section["when"], section["title"], None
            continue
        group = DIARY_GROUP.match(line)
        if group:
            label = group["label"].lower()
            continue
        if not line.startswith("- ") or when is None:
            continue
        body = DIARY_SOURCES.sub("", line[2:])
        if title == "dream sweep" and label in ("promoted", "merged"):
            action = label
        elif title.startswith("user model:") and body.startswith("after: "):
            action, body = "changed", body[len("after: "):]
        else:
            continue
        short = body.split("…", 1)[0] if "…" in body else None
        items.append(_DiaryItem(when, title, action, number, loopguard.normalise(body), loopguard.normalise(short) if short else None))
    return items


def _sweeps(body: str, items: list[_DiaryItem]) -> list[SweepRef]:
    norm = loopguard.normalise(body)
    if not norm:
        return []
    found = []
    for item in items:
        if item.norm.startswith(norm) or (item.prefix and len(item.prefix) >= 20 and norm.startswith(item.prefix)):
            found.append(SweepRef(item.when, item.title, item.action, item.line))
    return found


# source anchors ----------------------------------------------------------------------------
def _supports(body: str, row: dict) -> bool:
    """True when the indexed unit still says the curated entry's text (a dream unit is a sentence of it)."""
    from clawmem.dream.text import similarity, units

    want = loopguard.normalise(body)
    if not want:
        return False
    for unit in units(row["text"], transcript=row["kind"] == "transcript") or [row["text"]]:
        have = loopguard.normalise(unit)
        if have == want or want in have or similarity(want, have) >= SUPPORT_SIMILARITY:
            return True
    return False


def _trace(ws: Workspace, index, anchor: str, body: str, taints: dict[str, str]) -> SourceTrace:
    parsed = parse_anchor(ws, anchor)
    if parsed is None:
        return SourceTrace(anchor, "invalid")
    rel, start, end = parsed
    rows = index.query("SELECT * FROM entries WHERE path = ? ORDER BY line_start", (rel,))
    if not rows:
        return SourceTrace(anchor, "missing" if not (ws.root / rel).exists() else "stale", rel, start, end)
    at_anchor = [r for r in rows if r["line_start"] <= end and r["line_end"] >= start and _supports(body, r)]
    state = "ok"
    if not at_anchor:
        at_anchor = sorted((r for r in rows if _supports(body, r)), key=lambda r: abs(r["line_start"] - start))[:1]
        state = "moved"
    if not at_anchor:
        return SourceTrace(anchor, "stale", rel, start, end)
    row = min(at_anchor, key=lambda r: provenance.TRUST_RANK[r["origin"]])
    return SourceTrace(
        anchor, state, rel, row["line_start"], row["line_end"], row["kind"], row["origin"], row["session_kind"],
        row["session_id"], taints.get(rel),
    )


# the audit ---------------------------------------------------------------------------------
def _entry_findings(e: AuditEntry, led: _Ledger, rel: str) -> tuple[list[Finding], list[Finding]]:
    violations, warnings = [], []
    where = (rel, e.line_start)
    if e.origin in UNTRUSTED:
        violations.append(Finding("provenance", *where, f"entry traces to {e.origin} content"))
    if e.session_kind is not None and e.session_kind != "interactive":
        violations.append(Finding("provenance", *where, f"entry comes from a {e.session_kind} session"))
    for s in e.sources:
        if s.state in ("stale", "missing"):
            warnings.append(Finding("stale-source", *where, f"source {s.anchor} no longer holds this text ({s.state}: edited, moved away or forgotten)"))
            continue
        if s.state == "invalid":
            continue  # an annotation violation
        reasons = []
        if s.kind == "quarantine":
            reasons.append("is in quarantine")
        if s.origin in UNTRUSTED:
            reasons.append(f"is {s.origin} content")
        if s.session_kind != "interactive":
            reasons.append(f"comes from a {s.session_kind} session")
        tainted = led.tainted_before(s.path, e.entered_at)
        if tainted:
            reasons.append(f"sits in a file tainted by {tainted} content")
        if reasons:
            moved = f" (now at {s.path}#L{s.line_start})" if s.state == "moved" else ""
            violations.append(Finding("provenance", *where, f"source {s.anchor}{moved} {' and '.join(reasons)}"))
    for problem in e.problems:
        violations.append(Finding("annotation", *where, problem))
    return violations, warnings


def _problems(ws: Workspace, entry: grammar.Entry) -> list[str]:
    found = list(entry.problems())
    values = {v.strip() for v in entry.values("importance")}
    if len(values) > 1:
        found.append(f"importance given {len(entry.values('importance'))} times with different values ({', '.join(sorted(values))})")
    for source in entry.sources:
        if parse_anchor(ws, source) is None:
            found.append(f"source {source!r} is not a workspace anchor like memory/2026-11-29.md#L12")
    if MARKER.search(entry.body):
        found.append("entry text carries a recall or untrusted-content marker (injected context pasted back)")
    return found


def run_audit(ws: Workspace, *, since: dt.datetime | None = None, accept: bool = False) -> AuditReport:
    """Audit the curated files: provenance of every entry, and the four ``--ci`` checks."""
    from clawmem.index.db import Index

    with ws.lock(AUDIT_LOCK):
        with Index.open(ws) as index:
            index_findings = check_index(ws, index)
            led = _Ledger.read(ws)
            outcome = check_preimages(ws, led, accept=accept)
            taints = {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")}
            items = diary_items(ws)
            entries: list[AuditEntry] = []
            violations: list[Finding] = []
            warnings: list[Finding] = list(outcome.warnings)
            for path in (ws.memory_md, ws.user_md):
                rel = ws.rel(path)
                if not path.exists():
                    continue
                first_seen = (outcome.files.get(rel) or {}).get("first_seen") or {}
                rows = {r["line_start"]: r for r in index.query("SELECT * FROM entries WHERE path = ? AND block = 'entry'", (rel,))}
                file_taint = taints.get(rel)
                if file_taint in UNTRUSTED:
                    violations.append(Finding("provenance", rel, 0, f"the file is tainted by {file_taint} content (a flush or writer recorded it)"))
                doc = grammar.parse(path.read_text(encoding="utf-8", errors="replace"))
                for entry in doc.entries:
                    row = rows.get(entry.line_start)
                    text_hash = loopguard.text_hash(entry.body)
                    entered = led.first_at.get((rel, text_hash)) or first_seen.get(text_hash)
                    if since is not None and (_when(entered) or since) < since:
                        continue
                    audited = AuditEntry(
                        path=rel, line_start=entry.line_start, line_end=entry.line_end, text=entry.body, text_hash=text_hash,
                        origin=row["origin"] if row else None, session_kind=row["session_kind"] if row else None,
                        session_id=row["session_id"] if row else None, hand_written=bool(row["hand_written"]) if row else None,
                        untrusted=bool(row and row["origin"] in UNTRUSTED), entered_at=entered,
                        importance=entry.importance, triggers=entry.triggers, projects=entry.projects, key=entry.key,
                        status=entry.status, sources=[_trace(ws, index, s, entry.body, taints) for s in entry.sources],
                        sweeps=_sweeps(entry.body, items), problems=_problems(ws, entry),
                    )
                    entries.append(audited)
                    bad, notes = _entry_findings(audited, led, rel)
                    violations += bad
                    warnings += notes
        if not led.intact:
            warnings.append(Finding("ledger", ".clawmem/provenance.jsonl", 0, "the provenance ledger is missing or has no header: unrecorded episodic lines count as untrusted"))
        violations = index_findings + outcome.violations + violations
        try:
            save_baseline(ws, outcome.files)
        except OSError as err:
            warnings.append(Finding("baseline", ".clawmem/audit/baseline.json", 0, f"cannot store the audit baseline: {err.strerror}"))
    return AuditReport(
        workspace=str(ws.root),
        since=since.isoformat(timespec="seconds") if since else None,
        checks=list(CHECKS),
        entries=entries,
        violations=violations,
        warnings=warnings,
        baseline=outcome.states,
    )
