"""Everything the review report shows, gathered from the workspace and the index as plain data.

Nothing here writes memory: the index is synced (as ``search`` and ``dream`` do) and then only
read. Staged candidates are judged by the deep gate's own functions (``dream.gate.evaluate``
on the stored staging), so the report shows the same signals and misses ``dream --explain``
would. Long lists are capped (each with its full count), so a large workspace gives a page of
bounded size.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter, defaultdict
from typing import Any

from clawmem.entries import grammar, identity
from clawmem.foundation.records import dataclass, field
from clawmem.index.db import Index
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance

MAX_CURATED = 300  # curated entries listed per file (MEMORY.md is budget-bound; a hand-grown file is not)
MAX_SOURCES = 4  # source excerpts per curated entry
MAX_EXCERPT_LINES = 6
MAX_SWEEPS = 10  # last sweeps shown, newest first
MAX_SWEEP_ITEMS = 20  # items per group of one sweep (promoted, rejected, …)
MAX_CANDIDATES = 50  # staged candidates, best score first
MAX_RECALLED = 25  # top recalled curated entries
MAX_NEVER = 50  # curated entries never recalled
MAX_UNTRUSTED = 50  # quarantined and untrusted lines, newest first
MAX_POINTS = 120  # points per growth chart (older days are merged)
MAX_PREIMAGES = 200  # newest MEMORY.md pre-images read for the size chart


@dataclass(frozen=True)
class Capped:
    """The first items of a longer list, and how many there are in all."""

    items: list[Any]
    total: int


@dataclass(frozen=True)
class Source:
    """Where one ``source`` anchor of a curated entry leads now, with the lines it points at."""

    anchor: str
    ident: str  # HTML id of the excerpt (``src-N``), made by clawmem, never from memory text
    state: str  # ok | moved | stale | missing | invalid (``audit``'s SourceTrace)
    origin: str | None
    session_kind: str | None
    kind: str | None
    lines: list[str]  # the excerpt, or empty when nothing is there any more
    framed: bool  # untrusted, system, quarantined or unknown: shown inside an untrusted frame


@dataclass(frozen=True)
class Lineage:
    """Another entry of the same supersession key, and which one replaces which."""

    path: str
    line: int
    text: str
    origin: str
    live: bool
    framed: bool


@dataclass(frozen=True)
class CuratedEntry:
    path: str
    line: int
    text: str
    origin: str | None
    session_kind: str | None
    hand_written: bool | None
    entered_at: str | None
    importance: int | None
    triggers: list[str]
    projects: list[str]
    key: str | None
    status: str | None
    sources: list[Source]
    sweeps: list[str]  # "2026-11-30 03:00 — promoted"
    lineage: list[Lineage]
    recalls: int  # times returned by search or recall
    echoes: int  # times it came back and was dropped as a copy
    injected: bool  # in the recalled set: injected at bootstrap, shown by ``get`` or returned
    by_source: dict[str, int]  # recall event source (search, recall, trigger) -> count
    last_recalled: str | None
    problems: list[str]


@dataclass(frozen=True)
class Sweep:
    """One dream sweep: its row in ``dream_sweeps`` and, when found, its ``DREAMS.md`` section."""

    started: str
    finished: str | None
    phases: str
    status: str
    counts: dict[str, Any]
    groups: dict[str, list[str]]  # Promoted / Merged / Superseded / Rejected / Themes -> items
    notes: list[str]  # other lines: fallback used, rewrite and pre-image, recovery


@dataclass(frozen=True)
class StagedCandidate:
    candidate_id: int
    text: str
    theme: str | None
    score: float
    rank: int | None
    signals: dict[str, float | int | str]
    failed: list[str]  # the thresholds it still misses (empty: it passes at the next sweep)
    sources: list[str]
    in_words: list[str]  # ``failed`` as ``dream`` says it ("needs 1 more recall …")
    last_sweep: str | None  # why the newest sweep rejected it after the gate (consolidation), from DREAMS.md


@dataclass(frozen=True)
class Dreaming:
    sweeps: Capped
    candidates: Capped
    themes: list[dict[str, Any]]
    weights: dict[str, float]
    thresholds: dict[str, float | int]


@dataclass(frozen=True)
class Recall:
    top: list[CuratedEntry]
    never: Capped  # of CuratedEntry: never returned, never injected
    curated: int
    recalled: int
    events_by_source: dict[str, int]
    untrusted_returned: int


@dataclass(frozen=True)
class Growth:
    entries: list[tuple[str, int]]  # day -> entries indexed by then (cumulative)
    memory_size: list[tuple[str, int]]  # pre-image or now -> MEMORY.md bytes
    memory_entries: list[tuple[str, int]]
    curated_share: list[tuple[str, float]]  # day -> share of returned hits that were curated entries


@dataclass(frozen=True)
class Untrusted:
    path: str
    line: int
    text: str
    origin: str
    kind: str
    session_kind: str


@dataclass(frozen=True)
class Report:
    workspace: str
    generated_at: str
    overview: dict[str, Any]
    warnings: list[str]
    curated: dict[str, Capped]  # MEMORY.md / USER.md -> entries
    dreaming: Dreaming
    recall: Recall
    growth: Growth
    untrusted: Capped
    sources: list[Source] = field(default_factory=list)  # every excerpt the page links to


def gather(ws: Workspace) -> Report:
    """Read the workspace and its (synced) index into one ``Report``."""
    from clawmem.audit.ledger_view import Ledger
    from clawmem.audit.mentions import diary_items
    from clawmem.commands.status import workspace_status
    from clawmem.foundation.timeparse import local_now
    from clawmem.index.maintain import open_synced

    index, _ = open_synced(ws)
    with index:
        status = workspace_status(ws, index)
        trail = _Trail(_recall_counts(index), diary_items(ws), Ledger.read(ws), {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")})
        curated = {rel: _curated(ws, index, rel, trail) for rel in ("MEMORY.md", "USER.md")}
        listed = [e for capped in curated.values() for e in capped.items]
        budget = _budget(ws)
        report = Report(
            workspace=str(ws.root),
            generated_at=local_now().isoformat(timespec="seconds"),
            overview={**_overview(status), **budget},
            warnings=[*status.warnings, *(n.message for n in status.notices), *_budget_warnings(budget), *_duplicate_warnings(ws, listed)],
            curated=curated,
            dreaming=_dreaming(ws, index),
            recall=_recall(index, listed),
            growth=_growth(ws, index),
            untrusted=_untrusted(index),
            sources=[s for e in listed for s in e.sources],
        )
    return report


# overview --------------------------------------------------------------------------------
def _overview(status: Any) -> dict[str, Any]:
    emb = status.embeddings
    return {
        "entries": status.entries,
        "by_tier": status.by_tier,
        "by_origin": status.by_origin,
        "by_session_kind": status.by_session_kind,
        "by_kind": status.by_kind,
        "files_indexed": status.files_indexed,
        "schema_version": status.schema_version,
        "last_sync": status.last_sync,
        "last_dream": status.last_dream,
        "ledger_intact": status.ledger_intact,
        "embedder": emb.get("model_id") or emb.get("backend"),
        "embedder_available": bool(emb.get("available")),
        "embedder_reason": emb.get("reason"),
    }


def _budget(ws: Workspace) -> dict[str, int]:
    """MEMORY.md's size as the budget counts it (``curated.budget_size``) and the budget (``dream.memory_chars``)."""
    from clawmem.storage.curated import budget_size

    text = ws.memory_md.read_text(encoding="utf-8", errors="replace") if ws.memory_md.is_file() else ""
    return {"memory_chars": budget_size(text), "memory_budget": ws.config.dream.memory_chars}


def _budget_warnings(b: dict[str, int]) -> list[str]:
    """MEMORY.md over its budget (what the hosts take is ``status``'s host-context warning, already listed)."""
    if b["memory_chars"] <= b["memory_budget"]:
        return []
    return [f"MEMORY.md is {b['memory_chars']:,} characters, over its budget of {b['memory_budget']:,} (dream.memory_chars): "
            "dreaming promotes nothing new until lines go; prune it (`clawmem demote` or `clawmem forget` a line)"]


def _duplicate_warnings(ws: Workspace, listed: list[CuratedEntry]) -> list[str]:
    """Curated lines one of which already says everything the other says: the deep phase's own
    dedupe rule (``dream.text.covers`` at ``dream.dedupe_similarity``), which hand edits bypass."""
    from clawmem.dream.text import covers, excerpt

    threshold = ws.config.dream.dedupe_similarity
    found = []
    for i, a in enumerate(listed):
        for b in listed[i + 1 :]:
            if covers(a.text, b.text, threshold) or covers(b.text, a.text, threshold):
                found.append(
                    f"near-duplicate curated lines: {cite(a.path, a.line)} and {cite(b.path, b.line)} ({excerpt(b.text, 80)}); "
                    "keep one (`clawmem forget` the other)"
                )
    return found


# curated core ----------------------------------------------------------------------------
def _recall_counts(index: Index) -> dict[str, dict[str, Any]]:
    """Per text hash of a curated entry: times returned, echoes, by event source, last time."""
    found: dict[str, dict[str, Any]] = defaultdict(lambda: {"times": 0, "echoes": 0, "by_source": {}, "last": None, "injected": False})
    for r in index.query(
        """SELECT r.text_hash, r.source, count(*) AS n, max(r.at) AS last FROM recall_events r
           WHERE r.text_hash IN (SELECT text_hash FROM entries WHERE tier = 'curated') GROUP BY r.text_hash, r.source"""
    ):
        row = found[r["text_hash"]]
        row["by_source"][r["source"]] = r["n"]
        if r["source"] != "echo":
            row["times"] += r["n"]
        row["last"] = max(filter(None, (row["last"], r["last"])), default=None)
    for r in index.query("SELECT text_hash, echoes, last_at FROM recalled WHERE text_hash IN (SELECT text_hash FROM entries WHERE tier = 'curated')"):
        row = found[r["text_hash"]]
        row["echoes"], row["injected"] = r["echoes"], True
        row["last"] = row["last"] or (r["last_at"] if row["times"] else None)
    return found


def _excerpt(ws: Workspace, rel: str | None, start: int | None, end: int | None) -> list[str]:
    if not rel or not start:
        return []
    try:
        lines = ws.resolve_member(rel).read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, ValueError):
        return []
    last = min(end or start, start + MAX_EXCERPT_LINES - 1)
    return lines[start - 1 : last]


@dataclass(frozen=True)
class _Trail:
    """What every curated entry's trail is read from, loaded once: recall counts, diary, ledger, taints."""

    recalls: dict[str, dict[str, Any]]
    diary: list[Any]  # clawmem.audit.mentions items
    ledger: Any  # clawmem.audit.ledger_view.Ledger
    taints: dict[str, str]


def _curated(ws: Workspace, index: Index, rel: str, trail: _Trail) -> Capped:
    from clawmem.audit.mentions import sweeps
    from clawmem.audit.sources import trace

    path = ws.root / rel
    if not path.is_file():
        return Capped([], 0)
    doc = grammar.parse(path.read_text(encoding="utf-8", errors="replace"))
    rows = {r["line_start"]: r for r in index.query("SELECT * FROM entries WHERE path = ? AND block = 'entry'", (rel,))}
    recalls, items, led, taints = trail.recalls, trail.diary, trail.ledger, trail.taints
    entries = []
    for n, entry in enumerate(doc.entries[:MAX_CURATED]):
        row = rows.get(entry.line_start) or {}
        text_hash = identity.text_hash(entry.body)
        sources = []
        for m, anchor in enumerate(entry.sources[:MAX_SOURCES]):
            t = trace(ws, index, anchor, entry.body, taints)
            sources.append(
                Source(
                    anchor, f"src-{rel.split('.')[0].lower()}-{n}-{m}", t.state, t.origin, t.session_kind, t.kind,
                    _excerpt(ws, t.path, t.line_start, t.line_end), provenance.shown_untrusted(t.origin, t.kind, t.file_taint),
                )
            )
        counts = recalls.get(text_hash) or {"times": 0, "echoes": 0, "by_source": {}, "last": None, "injected": False}
        entries.append(
            CuratedEntry(
                path=rel, line=entry.line_start, text=entry.body, origin=row.get("origin"), session_kind=row.get("session_kind"),
                hand_written=bool(row["hand_written"]) if row else None, entered_at=led.first_at.get((rel, text_hash)),
                importance=entry.importance, triggers=entry.triggers, projects=entry.projects, key=entry.key, status=entry.status,
                sources=sources, sweeps=[f"{s.when} — {s.action}" for s in sweeps(entry.body, items)],
                lineage=_lineage(index, entry.key, row.get("id")), recalls=counts["times"], echoes=counts["echoes"], injected=counts["injected"],
                by_source={k: v for k, v in counts["by_source"].items() if k != "echo"}, last_recalled=counts["last"],
                problems=entry.problems(),
            )
        )
    return Capped(entries, len(doc.entries))


def _lineage(index: Index, key: str | None, own_id: int | None) -> list[Lineage]:
    """The other entries of the same supersession key (``index.supersession`` decided who wins)."""
    from clawmem.index.supersession import is_live

    if not key or not key.strip():
        return []
    rows = index.query(
        """SELECT id, path, line_start, text, origin, kind, status, superseded_by FROM entries
           WHERE lower(trim(supersession_key)) = lower(trim(?)) ORDER BY coalesce(observed_at, ''), path, line_start""",
        (key,),
    )
    return [
        Lineage(r["path"], r["line_start"], r["text"], r["origin"], is_live(r), provenance.shown_untrusted(r["origin"], r["kind"]))
        for r in rows if r["id"] != own_id
    ][:MAX_SOURCES * 2]


# dreaming --------------------------------------------------------------------------------
def _minute(stamp: str | None) -> str:
    """A stored time as the diary writes its headings (local ``YYYY-MM-DD HH:MM``)."""
    from clawmem.audit.ledger_view import when

    moment = when(stamp)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


def _refused(items: list[str]) -> dict[str, str]:
    """The newest sweep's rejections as DREAMS.md lists them (``dream.sweep_record.lines``): excerpt -> reason."""
    found = {}
    for item in items:
        what, sep, why = item.partition(" — ")
        if sep:
            found[what] = why.split(" (sources: ")[0]
    return found


def _dreaming(ws: Workspace, index: Index) -> Dreaming:
    from clawmem.dream import gate, store
    from clawmem.dream.text import excerpt
    from clawmem.foundation.timeparse import local_now
    from clawmem.storage.diary import sections

    cfg = ws.config.dream
    diary = [s for s in sections(ws) if s.title == "dream sweep"]  # DREAMS.md's sweep sections, oldest first
    total = index.scalar("SELECT count(*) FROM dream_sweeps")
    rows = index.query("SELECT * FROM dream_sweeps ORDER BY id DESC LIMIT ?", (MAX_SWEEPS,))
    sweeps = []
    for r in rows:
        # a sweep's diary section is headed by a minute between its start and its end
        lo, hi = _minute(r["started_at"]), _minute(r["finished_at"] or r["started_at"])
        section = next((s for s in reversed(diary) if lo <= s.when <= hi), None) if lo else None
        groups = {k: v[:MAX_SWEEP_ITEMS] for k, v in (section.groups() if section else {}).items()}
        sweeps.append(
            Sweep(r["started_at"], r["finished_at"], r["phases"], r["status"], json.loads(r["summary"] or "{}"), groups, list(section.notes) if section else [])
        )
    now = local_now()
    refused = _refused(sweeps[0].groups.get("Rejected", []) if sweeps else [])
    staging = store.load(index)
    since_day = (now - dt.timedelta(days=cfg.max_age_days)).date().isoformat()
    verdicts = gate.evaluate(staging, store.recalls(index, since_day), store.taints(index), cfg, now)
    staged = sorted(
        (
            StagedCandidate(cid, staging.candidates[cid].wording, staging.candidates[cid].theme, round(v.score, 4), v.rank,
                            v.signals.as_dict(), list(v.failed), staging.candidates[cid].sources(MAX_SOURCES), list(v.in_words),
                            None if v.failed else refused.get(excerpt(staging.candidates[cid].wording, 100)))
            for cid, v in verdicts.items()
        ),
        key=lambda c: (bool(c.failed), -c.score, c.candidate_id),
    )
    themes = [
        {"label": t.label, "reflection": t.reflection, "candidates": len(t.candidates), "days": t.days, "sessions": t.sessions}
        for t in sorted(staging.themes, key=lambda t: (-t.contexts, t.label))[:MAX_SWEEP_ITEMS]
    ]
    weights = {name: getattr(cfg, f"weight_{name}") for name in ("relevance", "frequency", "diversity", "recency", "recurrence", "richness")}
    thresholds = {name: getattr(cfg, name) for name in ("min_score", "min_recalls", "min_diversity", "max_age_days", "max_promotions")}
    return Dreaming(Capped(sweeps, total), Capped(staged[:MAX_CANDIDATES], len(staged)), themes, weights, thresholds)


# recall ----------------------------------------------------------------------------------
def _recall(index: Index, listed: list[CuratedEntry]) -> Recall:
    recalled = [e for e in listed if e.recalls]
    never = [e for e in listed if not e.recalls and not e.injected]
    by_source = {r["source"]: r["n"] for r in index.query("SELECT source, count(*) AS n FROM recall_events GROUP BY source ORDER BY source")}
    return Recall(
        top=sorted(recalled, key=lambda e: (-e.recalls, e.path, e.line))[:MAX_RECALLED],
        never=Capped(never[:MAX_NEVER], len(never)),
        curated=len(listed),
        recalled=len(recalled),
        events_by_source=by_source,
        untrusted_returned=index.scalar("SELECT count(*) FROM returned_untrusted"),
    )


# growth ----------------------------------------------------------------------------------
def _bucketed(points: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """At most ``MAX_POINTS`` points: keep evenly spaced ones, always the last."""
    if len(points) <= MAX_POINTS:
        return points
    step = len(points) / MAX_POINTS
    picked = [points[int(i * step)] for i in range(MAX_POINTS - 1)]
    return [*picked, points[-1]]


def _growth(ws: Workspace, index: Index) -> Growth:
    from clawmem.storage import curated

    per_day = index.query(
        """SELECT coalesce(f.file_date, substr(e.observed_at, 1, 10), substr(f.indexed_at, 1, 10)) AS day, count(*) AS n
           FROM entries e JOIN files f ON f.path = e.path GROUP BY day ORDER BY day"""
    )
    running, entries = 0, []
    for r in per_day:
        running += r["n"]
        if r["day"]:
            entries.append((r["day"], running))
    size, count = [], []
    for pre in curated.preimages(ws, ws.memory_md)[-MAX_PREIMAGES:]:
        stamp = pre.name.split("-", 1)[0]
        when = dt.datetime.strptime(stamp[:15], "%Y%m%dT%H%M%S").strftime("%Y-%m-%d %H:%M") if len(stamp) >= 15 else stamp
        data = pre.read_bytes()
        size.append((when, len(data)))
        count.append((when, len(grammar.parse(data.decode("utf-8", errors="replace")).entries)))
    if ws.memory_md.is_file():
        data = ws.memory_md.read_bytes()
        size.append(("now", len(data)))
        count.append(("now", len(grammar.parse(data.decode("utf-8", errors="replace")).entries)))
    hits: Counter[str] = Counter()
    curated_hits: Counter[str] = Counter()
    for r in index.query(
        """SELECT r.day, count(*) AS n, sum(r.text_hash IN (SELECT text_hash FROM entries WHERE tier = 'curated')) AS c
           FROM recall_events r WHERE r.source != 'echo' GROUP BY r.day ORDER BY r.day"""
    ):
        hits[r["day"]], curated_hits[r["day"]] = r["n"], r["c"] or 0
    share = [(day, round(curated_hits[day] / hits[day], 4)) for day in sorted(hits)]
    return Growth(_bucketed(entries), _bucketed(size), _bucketed(count), _bucketed(share))


# quarantine and untrusted ----------------------------------------------------------------
def _untrusted(index: Index) -> Capped:
    where = provenance.shown_untrusted_sql()
    total = index.scalar(f"SELECT count(*) FROM entries WHERE {where}")
    rows = index.query(
        f"""SELECT path, line_start, text, origin, kind, session_kind FROM entries WHERE {where}
            ORDER BY coalesce(observed_at, '') DESC, path DESC, line_start DESC LIMIT ?""",
        (MAX_UNTRUSTED,),
    )
    return Capped([Untrusted(r["path"], r["line_start"], r["text"], r["origin"], r["kind"], r["session_kind"]) for r in rows], total)
