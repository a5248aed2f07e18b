"""Light phase: stage eligible evidence from episodic files changed since the last sweep.

Only files whose content hash differs from what the previous light phase read are opened
(new daily notes, new transcripts, hand edits), so a nightly sweep reads one day of notes,
not thirty, plus files holding an entry recalled within the age window that is not staged:
a fact said months ago and looked up now reaches the gate. A unit is too old only when it
was neither said nor recalled within ``dream.max_age_days``. Each entry is checked before anything else: quarantine, prose, an ineligible
origin or session kind, a tainted file, a recalled copy (``trust.eligibility.entry_reasons``,
the one rule), scaffolding and units that carry no information (``scaffolding.reason``, which
ends with ``worth.reason``) are excluded and never staged, each with its reason. A unit is
staged in the wording that stands on its own (``standalone``: wrappers gone, speaker named,
relative dates resolved), the text grounding later compares a curated line with. An
eligible unit joins the candidate it near-duplicates (``text.similarity`` at
``dream.dedupe_similarity``, said by the same speaker, and no ``paraphrase.substitution``:
"adopted a cat" is not "adopted a dog") or starts a new one. Evidence of lines that disappeared
(edited, forgotten) is dropped, so a forgotten fact cannot be promoted later.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter

from clawmem.dream import credentials, scaffolding, standalone, store, worth
from clawmem.dream.directive_grammar import states_directive
from clawmem.dream.paraphrase import substitution
from clawmem.dream.store import Candidate, Evidence, Staging
from clawmem.dream.text import excerpt, relays_chat, similarity, speaker_label, untimed
from clawmem.entries import identity
from clawmem.entries.words import STOPWORDS
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import now_iso
from clawmem.index.db import Index
from clawmem.storage import ledger
from clawmem.storage.anchors import cite
from clawmem.storage.workspace import Workspace
from clawmem.trust import eligibility, provenance


@dataclass(frozen=True)
class Exclusion:
    """One unit never staged, and why; ``text`` is None for untrusted or quarantined content."""

    source: str
    reason: str
    text: str | None


@dataclass(frozen=True)
class LightResult:
    units_staged: int  # new evidence units
    excluded: dict[str, int]  # reason -> units excluded among the files read
    touched: frozenset[int]  # candidates that gained evidence
    exclusions: tuple[Exclusion, ...] = ()  # each of them, in reading order


class Matcher:
    """Near-duplicate lookup with blocking: a duplicate must share most of a unit's words.

    Two texts at least ``threshold`` alike share most content words, so probing the postings
    of just over half of a unit's content words (the rarest first) finds every duplicate that
    shares words, and only those sharing at least half of the smaller word set are scored,
    without comparing against every candidate.
    """

    def __init__(self, candidates: dict[int, Candidate], threshold: float) -> None:
        self.threshold = threshold
        self.exact: dict[str, int] = {}
        self.postings: dict[str, set[int]] = {}
        self.norms: dict[int, str] = {}
        self.keys: dict[int, set[str]] = {}
        self.speakers: dict[int, str | None] = {}
        for c in candidates.values():
            self.add(c.id, c.text, standalone.speaker(c.text))

    @staticmethod
    def _keys(norm: str) -> set[str]:
        tokens = set(norm.split())
        return (tokens - STOPWORDS) or tokens

    @staticmethod
    def form(text: str) -> str:
        """What two tellings compare by: the comparison form, without the month the account was
        told in (``text.untimed``), so the same words told in May and in June are one account."""
        return identity.normalise(untimed(text))

    def add(self, cid: int, text: str, speaker: str | None) -> None:
        norm = self.form(text)
        self.exact.setdefault(norm, cid)
        self.norms[cid] = norm
        self.speakers[cid] = speaker
        self.keys[cid] = self._keys(norm)
        for token in self.keys[cid]:
            self.postings.setdefault(token, set()).add(cid)

    def find(self, text: str, speaker: str | None) -> tuple[int, float] | None:
        """The candidate ``text`` near-duplicates, said by the same ``speaker`` (two people saying
        alike is two accounts, not one)."""
        norm = self.form(text)
        if norm in self.exact:
            return self.exact[norm], 100.0
        mine = self._keys(norm)
        keys = sorted(mine, key=lambda t: (len(self.postings.get(t, ())), t))
        probe: set[int] = set()
        for token in keys[: len(keys) // 2 + 1]:
            probe |= self.postings.get(token, set())
        best: tuple[int, float] | None = None
        for cid in sorted(probe):
            theirs = self.keys[cid]
            if self.speakers[cid] != speaker:
                continue
            if 2 * len(mine & theirs) < min(len(mine), len(theirs)) or substitution(norm, self.norms[cid], self.threshold):
                continue  # a substitution ("a dog" / "a cat") is another fact, however alike the words
            score = similarity(norm, self.norms[cid])
            if score >= self.threshold and (best is None or score > best[1]):
                best = (cid, score)
        return best


def _day(row: dict, now: dt.datetime) -> tuple[str | None, str]:
    """The unit's observed time (if recorded) and day: observed, else the daily note's date."""
    seen = store.when(row["observed_at"])
    if seen is not None:
        return seen.isoformat(timespec="seconds"), seen.date().isoformat()
    return None, row["file_date"] or now.date().isoformat()


class _RecalledCopies:
    """A line is a recalled copy when its text was handed out from elsewhere before it was written."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.first_at = {r["text_hash"]: r["first_at"] for r in index.query("SELECT text_hash, first_at FROM recalled")}

    def __call__(self, row: dict) -> bool:
        first = store.when(self.first_at.get(row["text_hash"]))
        seen = store.when(row["observed_at"])
        if first is None or seen is None or seen <= first:
            return False
        paths = {r["path"] for r in self.index.query("SELECT DISTINCT path FROM recall_events WHERE text_hash = ?", (row["text_hash"],))}
        return row["path"] not in paths


def run(ws: Workspace, index: Index, staging: Staging, *, now: dt.datetime) -> LightResult:
    cfg = ws.config.dream
    oldest = now - dt.timedelta(days=cfg.max_age_days)
    files = {
        r["path"]: r
        for r in index.query("SELECT path, kind, content_hash, file_date FROM files WHERE tier = 'episodic' ORDER BY file_date, path")
    }
    recalled = store.last_recalls(index, oldest.date().isoformat())
    staged_entries = {(e.entry_hash, e.path) for c in staging.candidates.values() for e in c.evidence}
    # a file is read again when it changed, or when something in it was recalled that is not
    # staged (said long ago, pruned, looked up now): every recall reaches the gate
    unstaged = {path for (entry, path) in recalled if (entry, path) not in staged_entries}
    changed = [p for p, r in files.items() if staging.files.get(p) != r["content_hash"] or p in unstaged]
    stale = set(changed) | (set(staging.files) - set(files))
    # Evidence of changed or vanished files is dropped and re-read: lines may have moved, been
    # edited or forgotten, or the file may have been tainted since. A unit still there rejoins
    # the candidate it belonged to.
    owner: dict[tuple[str, str, str], tuple[Candidate, float]] = {}
    for c in staging.candidates.values():
        owner.update((e.ident, (c, e.similarity)) for e in c.evidence if e.path in stale)
        c.evidence = [e for e in c.evidence if e.path not in stale]

    taint = store.taints(index)
    forgotten = ledger.tombstones(ws).hashes  # a hand-written copy of forgotten text stays forgotten
    copies = _RecalledCopies(index)
    matcher = Matcher(staging.candidates, cfg.dedupe_similarity)
    vocabulary = worth.Vocabulary(index, common_share=cfg.common_word_share, min_entries=cfg.vocabulary_min_entries)
    excluded: Counter[str] = Counter()
    exclusions: list[Exclusion] = []
    touched: set[int] = set()
    staged = 0
    for path in changed:
        rows = index.query(
            """SELECT e.*, f.file_date FROM entries e JOIN files f ON f.path = e.path
               WHERE e.path = ? ORDER BY e.line_start""",
            (path,),
        )
        relayed = relays_chat(r["text"] for r in rows if r["kind"] == "transcript")
        for row, before in zip(rows, [None, *rows], strict=False):  # each row and the one before it
            reasons = eligibility.entry_reasons(row, taint.get(path), copies(row))
            observed, day = _day(row, now)
            shown = not provenance.shown_untrusted(row["origin"], row["kind"])
            for read in standalone.read(row, relayed=relayed, replying=_users_turn(before)):
                unit = read.text
                why = reasons[0] if reasons else (read.reason or (scaffolding.reason(unit, vocabulary) if unit else "only a conversational wrapper"))
                if why is None and states_directive(read.piece.said):
                    why = standalone.DIRECTIVE
                said = {row["text_hash"], identity.text_hash(read.piece.said), identity.text_hash(read.piece.unit), identity.text_hash(unit)}
                if why is None and said & forgotten:
                    why = "forgotten (clawmem forget)"
                seen = store.when(observed) or dt.datetime.combine(dt.date.fromisoformat(day), dt.time(12))
                if why is None and seen < oldest and (row["text_hash"], path) not in recalled:
                    why = f"older than {cfg.max_age_days} days and not recalled since"
                if why is not None:
                    excluded[why] += 1
                    source = cite(path, row["line_start"], row["line_end"])
                    quoted = shown and not credentials.found(read.piece.said)  # --explain never prints a secret either
                    exclusions.append(Exclusion(source, why, excerpt(read.piece.said) if quoted else None))
                    continue
                evidence = Evidence(
                    path, row["line_start"], row["line_end"], row["text_hash"], identity.text_hash(unit), unit,
                    row["origin"], row["session_id"], day, observed, 100.0, row["importance"],
                    tuple(json.loads(row["triggers"] or "[]")), row["supersession_key"],
                )
                candidate, evidence.similarity = owner.get(evidence.ident, (None, 100.0))
                if candidate is None:
                    speaker = standalone.speaker(unit)
                    match = matcher.find(unit, speaker)
                    if match is None:
                        candidate = Candidate(staging.new_id(), unit, "staged", now_iso())
                        staging.candidates[candidate.id] = candidate
                        matcher.add(candidate.id, candidate.text, speaker)
                    else:
                        candidate = staging.candidates[match[0]]
                        evidence.similarity = match[1]
                if evidence.ident in {e.ident for e in candidate.evidence}:
                    continue  # the same unit twice in one entry is one occurrence
                if evidence.ident not in owner:
                    staged += 1
                    touched.add(candidate.id)
                candidate.evidence.append(evidence)
    for path in stale:
        staging.files.pop(path, None)
    staging.files.update({p: files[p]["content_hash"] for p in changed})
    _prune(staging, oldest, recalled)
    return LightResult(staged, dict(excluded), frozenset(touched & set(staging.candidates)), tuple(exclusions))


def _users_turn(row: dict | None) -> bool:
    """Whether ``row`` is a turn of the user's in a transcript (what an answer right after it replies to)."""
    return row is not None and row["kind"] == "transcript" and (speaker_label(row["text"]) or "").casefold() == "user"


def _prune(staging: Staging, oldest: dt.datetime, recalled: dict[tuple[str, str], dt.datetime]) -> None:
    """Drop candidates left without evidence, or neither said nor recalled within the age window
    (bounded staging; a fact looked up every month stays however long ago it was said)."""
    def alive(c: Candidate) -> bool:
        last = max([c.last_seen, *(recalled[k] for k in {(e.entry_hash, e.path) for e in c.evidence} if k in recalled)])
        return last >= oldest

    for cid in [c.id for c in staging.candidates.values() if not c.evidence or not alive(c)]:
        del staging.candidates[cid]
