"""The staging area in the index: candidates, their evidence, themes, sweeps and recall signals.

Phases work on an in-memory ``Staging`` loaded once per sweep and saved in one short
transaction at the end, so a sweep never holds the index's write lock while it thinks
(``recall`` logs events on every agent turn and must not wait for a dream). All SQL of
dreaming lives here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from typing import Any

from clawmem.dream.text import untimed
from clawmem.foundation.records import dataclass, field
from clawmem.foundation.timeparse import now_iso
from clawmem.index.db import Index
from clawmem.storage.anchors import cite
from clawmem.trust import provenance


def when(value: str | None) -> dt.datetime | None:
    """An ISO time or date as a naive local datetime (aware times are converted)."""
    if not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone().replace(tzinfo=None) if parsed.tzinfo else parsed


# Words that point back into the conversation a sentence came from ("the same workaround as
# before", "that fixed it again"): a wording with fewer of them reads better months later.
LEANING = re.compile(
    r"\b(?:same|before|again|above|earlier|previous(?:ly)?|aforementioned|that one|this one|it|this|that|these|those|"
    r"there|here|him|her|them|they|he|she)\b",
    re.IGNORECASE,
)
RICH_CHARS = 200  # longer than this is not more self-contained, only longer


def leaning(text: str) -> int:
    """How many words of ``text`` point back into its conversation (0: it stands on its own)."""
    return len(LEANING.findall(text))


@dataclass
class Evidence:
    """One eligible occurrence of a candidate: a unit of an entry in an episodic file."""

    path: str
    line_start: int
    line_end: int
    entry_hash: str  # text hash of the whole index entry: recall events are keyed by it
    unit_hash: str
    text: str
    origin: str
    session_id: str | None
    day: str
    observed_at: str | None
    similarity: float  # to the candidate when it joined (100 for the first or an exact repeat)
    importance: int | None = None
    triggers: tuple[str, ...] = ()
    key: str | None = None

    @property
    def ident(self) -> tuple[str, str, str]:
        return (self.path, self.entry_hash, self.unit_hash)

    @property
    def context(self) -> tuple[str, str]:
        """Independence: the same session on the same day is one occurrence, however often it repeats."""
        return (self.session_id or self.path, self.day)

    @property
    def anchor(self) -> str:
        return cite(self.path, self.line_start, self.line_end)

    @property
    def seen(self) -> dt.datetime:
        return when(self.observed_at) or dt.datetime.combine(dt.date.fromisoformat(self.day), dt.time(12))


@dataclass
class Candidate:
    """A group of near-duplicate eligible units, staged until the deep gate promotes it."""

    id: int
    text: str  # the first wording: what near-duplicates are matched against
    status: str  # staged | promoted
    staged_at: str
    evidence: list[Evidence] = field(default_factory=list)
    theme: str | None = None
    promoted_at: str | None = None

    @property
    def origin(self) -> str:
        return provenance.least_trusted(*(e.origin for e in self.evidence))

    @property
    def last_seen(self) -> dt.datetime:
        return max(e.seen for e in self.evidence)

    @property
    def contexts(self) -> set[tuple[str, str]]:
        return {e.context for e in self.evidence}

    @property
    def importance(self) -> int | None:
        values = [e.importance for e in self.evidence if e.importance is not None]
        return max(values) if values else None

    @property
    def triggers(self) -> list[str]:
        return list(dict.fromkeys(t for e in self.evidence for t in e.triggers))

    @property
    def key(self) -> str | None:
        keyed = [e for e in self.evidence if e.key]
        return max(keyed, key=lambda e: e.seen).key if keyed else None

    @property
    def wording(self) -> str:
        """The wording consolidation writes: the one that leans least on its conversation
        (``leaning``), then the richest, then the newest. The month an account was told in
        (``text.untimed``) is no richness: "(as of May 2023)" is not richer than "(as of June 2023)"."""
        return max(self.evidence, key=lambda e: (-leaning(e.text), min(len(untimed(e.text)), RICH_CHARS), e.seen)).text

    def sources(self, limit: int | None = None) -> list[str]:
        """Anchors, newest first, one per file before any file repeats."""
        first: list[Evidence] = []
        rest: list[Evidence] = []
        paths: set[str] = set()
        for e in sorted(self.evidence, key=lambda e: e.seen, reverse=True):
            (rest if e.path in paths else first).append(e)
            paths.add(e.path)
        return list(dict.fromkeys(e.anchor for e in first + rest))[:limit]


@dataclass(frozen=True)
class Theme:
    label: str
    candidates: tuple[int, ...]
    contexts: int
    days: int
    sessions: int
    reflection: str
    citations: tuple[str, ...]


@dataclass
class Staging:
    candidates: dict[int, Candidate]
    files: dict[str, str]  # path -> content hash light last read
    themes: list[Theme]
    last_id: int = 0  # ids are never reused within the staging tables
    among_people: frozenset[str] = frozenset()  # transcripts in which no agent speaks (``load``)

    def new_id(self) -> int:
        self.last_id += 1
        return self.last_id


@dataclass(frozen=True)
class Recall:
    """One search or injection that returned an entry: ``score`` relative to the best hit it
    returned (that one scores 1), and the query's word stems the entry held (None: not known)."""

    query_hash: str
    score: float
    day: str
    at: str
    matched: frozenset[str] | None = None


# loading ---------------------------------------------------------------------------------
def load(index: Index) -> Staging:
    candidates = {
        r["id"]: Candidate(r["id"], r["text"], r["status"], r["staged_at"], theme=r["theme"], promoted_at=r["promoted_at"])
        for r in index.query("SELECT id, text, status, staged_at, theme, promoted_at FROM dream_candidates")
    }
    for r in index.query("SELECT * FROM dream_evidence ORDER BY candidate_id, day, path, line_start"):
        candidates[r["candidate_id"]].evidence.append(
            Evidence(
                r["path"], r["line_start"], r["line_end"], r["entry_hash"], r["unit_hash"], r["text"], r["origin"],
                r["session_id"], r["day"], r["observed_at"], r["similarity"], r["importance"],
                tuple(json.loads(r["triggers"] or "[]")), r["supersession_key"],
            )
        )
    files = {r["path"]: r["content_hash"] for r in index.query("SELECT path, content_hash FROM dream_files")}
    themes = [
        Theme(r["label"], tuple(json.loads(r["candidates"])), r["contexts"], r["days"], r["sessions"], r["reflection"], tuple(json.loads(r["citations"])))
        for r in index.query("SELECT * FROM dream_themes ORDER BY label")
    ]
    among_people = frozenset(
        r["path"]
        for r in index.query("SELECT path FROM entries WHERE path LIKE 'transcripts/%' GROUP BY path HAVING max(origin = 'agent') = 0")
    )
    return Staging({i: c for i, c in candidates.items() if c.evidence}, files, themes, max(candidates, default=0), among_people)


def recalls(index: Index, since_day: str) -> dict[tuple[str, str], list[Recall]]:
    """Recall events since ``since_day`` by (entry text hash, path); echoes are not usefulness.

    A score is taken relative to the best hit of the same search (one query, one moment): the
    hybrid blend's scale differs by query and its best hit rarely scores over 0.8, so a raw
    score says less about how well an entry answered than its distance from the best answer.
    """
    found: dict[tuple[str, str], list[Recall]] = {}
    for r in index.query(
        """SELECT text_hash, path, query_hash, day, at, matched,
                  coalesce(score / nullif(max(score) OVER (PARTITION BY query_hash, at), 0), 0) AS relative
           FROM recall_events WHERE day >= ? AND source != 'echo'""",
        (since_day,),
    ):
        matched = frozenset(r["matched"].split()) if r["matched"] else None
        found.setdefault((r["text_hash"], r["path"]), []).append(Recall(r["query_hash"], r["relative"], r["day"], r["at"], matched))
    return found


def last_recalls(index: Index, since_day: str) -> dict[tuple[str, str], dt.datetime]:
    """When each (entry text hash, path) was last recalled since ``since_day`` (echoes aside)."""
    rows = index.query(
        "SELECT text_hash, path, max(at) AS at FROM recall_events WHERE day >= ? AND source != 'echo' GROUP BY text_hash, path", (since_day,)
    )
    found = {(r["text_hash"], r["path"]): when(r["at"]) for r in rows}
    return {k: v for k, v in found.items() if v is not None}


def recalled_entries(index: Index, since_day: str) -> list[dict[str, Any]]:
    """Episodic entries returned by search or recall since ``since_day``, with how often."""
    return index.query(
        """SELECT e.path, e.line_start, e.line_end, e.text, e.kind, e.block, e.status, e.origin, e.session_kind,
                  count(r.id) AS recalls
           FROM recall_events r JOIN entries e ON e.text_hash = r.text_hash AND e.path = r.path
           WHERE r.day >= ? AND r.source != 'echo' AND e.tier = 'episodic'
           GROUP BY e.id ORDER BY e.path, e.line_start""",
        (since_day,),
    )


def taints(index: Index) -> dict[str, str]:
    return {r["path"]: r["origin"] for r in index.query("SELECT path, origin FROM file_taint")}


# saving ----------------------------------------------------------------------------------
def save(index: Index, staging: Staging, verdicts: dict[int, Any]) -> None:
    """Replace the staging tables with ``staging`` in one transaction (with each candidate's signals)."""
    with index.transaction():
        for table in ("dream_evidence", "dream_candidates", "dream_files", "dream_themes"):
            index.execute(f"DELETE FROM {table}")
        rows: list[tuple[Any, ...]] = []
        evidence: list[tuple[Any, ...]] = []
        for c in staging.candidates.values():
            v = verdicts.get(c.id)
            rows.append((
                c.id, c.text, c.status, c.theme, v.score if v else None,
                json.dumps(v.signals.as_dict()) if v else None, json.dumps(list(v.failed)) if v else None,
                c.staged_at, c.promoted_at,
            ))
            evidence.extend(
                (
                    c.id, e.path, e.line_start, e.line_end, e.entry_hash, e.unit_hash, e.text, e.origin, "interactive",
                    e.session_id, e.day, e.observed_at, e.similarity, e.importance,
                    json.dumps(list(e.triggers), ensure_ascii=False) if e.triggers else None, e.key,
                )
                for e in c.evidence
            )
        index.executemany("INSERT INTO dream_candidates VALUES (?,?,?,?,?,?,?,?,?)", rows)
        index.executemany("INSERT INTO dream_evidence VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", evidence)
        index.executemany("INSERT INTO dream_files VALUES (?, ?)", list(staging.files.items()))
        stamp = now_iso()
        index.executemany(
            "INSERT INTO dream_themes VALUES (?,?,?,?,?,?,?,?)",
            [
                (t.label, json.dumps(list(t.candidates)), t.contexts, t.days, t.sessions, t.reflection, json.dumps(list(t.citations)), stamp)
                for t in staging.themes
            ],
        )


# sweeps ----------------------------------------------------------------------------------
def start_sweep(index: Index, phases: tuple[str, ...]) -> int:
    """Record a running sweep; mark sweeps left 'running' by a killed process as aborted."""
    with index.transaction():
        index.execute("UPDATE dream_sweeps SET status = 'aborted' WHERE status = 'running'")
        index.execute(
            "INSERT INTO dream_sweeps(started_at, pid, phases, status) VALUES (?, ?, ?, 'running')",
            (now_iso(), os.getpid(), ",".join(phases)),
        )
        return index.conn.last_insert_rowid()


def finish_sweep(index: Index, sweep_id: int, summary: dict[str, Any]) -> None:
    with index.transaction():
        stamp = now_iso()
        index.execute(
            "UPDATE dream_sweeps SET status = 'done', finished_at = ?, summary = ? WHERE id = ?",
            (stamp, json.dumps(summary, ensure_ascii=False), sweep_id),
        )
        index.set_meta("last_dream", stamp)
