"""Deep gate: preconditions first, then weighted signals, then every threshold must pass.

Preconditions (not penalties): a candidate whose evidence is not promotion-eligible *now*
(origin, session kind, file taint; ``trust.eligibility.promotion_eligibility``), that a newer
observation with the same supersession key contradicts, or whose value a newer plain-language
update retires (``updates``: "we moved deploys from fly.io to render") is excluded before
anything is ranked. Untrusted content is never staged in the first place, so no amount of recall can
lift it.

Signals, each 0-1, weighted by ``dream.weight_*``:

- relevance: mean of the candidate's retrieval scores, each relative to the best hit of its
  search (``store.recalls``), and of the similarity of each independent re-occurrence
  (finding the fact again in another session or day is a retrieval that hit);
- frequency: encounters = recalls + independent occurrences, log-scaled (10 saturate);
- query diversity: distinct queries + independent occurrences, log-scaled (5 saturate);
- recency: half-life ``dream.recency_half_life_days`` on the newest evidence or recall;
- multi-day recurrence: distinct days of the candidate's evidence and recalls, or of its
  REM theme when that is larger; 1 day = 0, 2 = 0.5, 3 or more = 1;
- conceptual richness: distinct content words, 8 saturate.

**Recurrence counts as evidence.** An independent occurrence is a distinct (session, day)
among a candidate's near-duplicate group (a session with no id counts per file). Each one
counts towards the recall threshold (``min_recalls`` applies to encounters) and the
diversity threshold (``min_diversity`` applies to distinct queries + occurrences), alongside
real recalls. So a workaround met in three sessions on three days can pass with no search at
all, while one note repeated in one session cannot.

**A recall credits the claims that answered it.** A search returns a whole turn; it counts
for the turn's claims that hold one of the query's words the turn matched on (``credited``),
so "Portuguese and German are coming later this year", said beside the rule a search found,
does not ride on that rule's recalls. A hit found by meaning alone, sharing no word, credits
every claim of its turn.

Thresholds: score >= ``min_score``, encounters >= ``min_recalls``, queries + occurrences >=
``min_diversity``, age <= ``max_age_days``, and at most ``max_promotions`` per sweep by rank.
An owner's explicit decision, plain-language update, statement about themselves or introduction
of their project (``strong_evidence``) is exempt from the first three.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
from collections.abc import Sequence

from clawmem.dream import credentials, store, updates, worth
from clawmem.dream.store import Candidate, Recall, Staging
from clawmem.dream.text import content_words, excerpt, sentences
from clawmem.entries import scaffold
from clawmem.entries.words import stems
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import dataclass
from clawmem.trust import eligibility, provenance


@dataclass(frozen=True)
class Signals:
    relevance: float
    frequency: float
    diversity: float
    recency: float
    recurrence: float
    richness: float
    recalls: int
    occurrences: int
    encounters: int
    queries: int
    days: int
    age_days: float
    strong: str | None = None  # why no recalls are needed (``strong_evidence``)

    def as_dict(self) -> dict[str, float | int | str]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in vars(self).items() if v is not None}


@dataclass(frozen=True)
class Verdict:
    candidate_id: int
    score: float
    signals: Signals
    failed: tuple[str, ...]  # empty: passed every gate
    excluded: bool  # failed a precondition, so it was never ranked
    rank: int | None
    in_words: tuple[str, ...] = ()  # ``failed`` as a person reads it: what it still needs

    @property
    def passed(self) -> bool:
        return not self.failed


# An owner's explicit decision or stated convention ("we're switching the wire format from JSON to
# postcard", "we bumped MSRV to 1.80", "Rule for this codebase: …", "Two house rules while you're in
# there: …", "how releases work here") is strong evidence: said once in an interactive owner
# session it needs no recalls, no repetition and no score. Eligibility, age and the per-sweep
# rank limit still apply, and ``--explain`` names the rule.
DECISION = re.compile(
    r"\b(?:we|i|the team)(?:'ve| have|'re| are)?\s+(?:decided|chose|picked|agreed|settled on|standardi[sz]ed on|standardi[sz]ing on|"
    r"going with|went with|will use|switching|switched|moving|moved|migrated|migrating|bumped|upgraded|pinned|dropped|adopted|"
    r"deprecated|retired|replaced|no longer)\b"
    r"|^(?:(?:a|one|two|three|four|five|some|a few|a couple of|more|another|our|the|my)\s+)?(?:decision|rule|convention|policy|house rule)s?\b[^:]{0,40}[:—–-]"
    r"|\bhow \w+(?: \w+)? works? here\b"
    r"|\bmake (?:it|this|that) (?:a|the|our|the house) (?:rule|convention|policy|standard)\b",
    re.IGNORECASE,
)
STRONG = "an owner's explicit decision: strong evidence, no recalls needed"
# An owner's statement of a fact about themselves, told to their agent ("My name is Priya Raman",
# "I'm the tech lead on billing", "I work at Acme", "I live in Leeds"), is strong evidence too:
# said once, it is what the agent should not have to ask again.
ROLE = (
    r"engineer|developer|dev|programmer|designer|architect|lead|manager|maintainer|founder|co-founder|cto|ceo|owner|"
    r"student|researcher|scientist|analyst|consultant|contractor|freelancer|admin|administrator|sre|intern|author|editor|"
    r"teacher|professor|lecturer|nurse|doctor|lawyer|accountant"
)
SELF = re.compile(
    r"^(?:my (?:name|pronouns|time ?zone|email|e-mail|handle|username|role|job title|title|team|manager|employer|company) (?:is|are)\b"
    r"|i(?:'m| am) (?:called|based in|from|located in)\b|i live in\b|i work (?:at|for|as)\b|i work on (?:the )?[\w-]+ team\b"
    rf"|i(?:'m| am) (?:a|an|the) (?:[\w-]+ ){{0,3}}?(?:{ROLE})s?\b"
    # "I'm Joost, backend lead at Portline": a name, then the role
    rf"|i(?:'m| am) (?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?, (?:(?:a|an|the|our) )?(?:[\w-]+ ){{0,3}}?(?:{ROLE})s?\b)",
    re.IGNORECASE,
)
ABOUT_THEMSELVES = "an owner's explicit statement about themselves: strong evidence, no recalls needed"
# An owner's plain-language update told to the agent ("they're switching off the SFTP", "we no
# longer use Redis") retires what it replaces only once it is promoted; until then the stale line
# is injected into every session, so the update needs no recalls either.
UPDATE = "an owner's plain-language update: strong evidence, no recalls needed (it retires what it replaces)"
# An owner's introduction of the project they work on ("Project: rivet — a file sync tool in Rust",
# "millrace is the data pipeline for Pedala", ``worth.INTRODUCTION``) is said once, at the start,
# and is what every later session needs first.
INTRODUCED = "an owner's introduction of their project: strong evidence, no recalls needed"


def strong_evidence(c: Candidate, among_people: frozenset[str] = frozenset()) -> str | None:
    """Why the candidate needs no recalls (``DECISION``, an update, ``SELF`` or a project's introduction said by the owner), else None.

    A decision, an update or a statement about themselves told to the agent (in a note, or in a
    session where the agent speaks) is strong evidence. In a transcript where no agent speaks
    (``among_people``: a chat between people, ingested as the owner's) "I decided to go to the
    garden" is one person's account of their day, not a decision for the agent to keep: such
    words earn their place by recalls.
    """
    said = [scaffold.speech(e.text) for e in c.evidence if e.origin == "owner" and e.path not in among_people]
    if any(DECISION.search(text) for text in said):
        return STRONG
    if any(updates.parse(text) for text in said):
        return UPDATE
    if any(SELF.match(sentence) for text in said for sentence in sentences(text)):  # after a "Hoi!"
        return ABOUT_THEMSELVES
    return INTRODUCED if any(map(worth.introduces, said)) else None


def credited(recall: Recall, claim_stems: frozenset[str]) -> bool:
    """Whether a recall of a claim's turn counts for the claim: it holds a word the turn matched
    the query on, or the match was by meaning alone (nothing to tell the turn's claims apart)."""
    return not recall.matched or bool(recall.matched & claim_stems)


def _log_scale(count: int, saturation: int) -> float:
    return min(1.0, math.log1p(count) / math.log1p(saturation))


def signals(c: Candidate, events: list[Recall], theme_days: int, cfg: DreamConfig, now: dt.datetime) -> Signals:
    by_context: dict[tuple[str, str], tuple[dt.datetime, float]] = {}
    for e in c.evidence:
        seen, sim = by_context.get(e.context, (e.seen, 0.0))
        by_context[e.context] = (min(seen, e.seen), max(sim, e.similarity))
    reoccurrences = [sim / 100 for _, sim in sorted(by_context.values())[1:]]
    hits = [min(1.0, max(0.0, r.score)) for r in events] + reoccurrences
    last = max([c.last_seen, *(store.when(r.at) or c.last_seen for r in events)])
    age = max(0.0, (now - last).total_seconds() / 86400)
    days = len({e.day for e in c.evidence} | {r.day for r in events})
    queries = len({r.query_hash for r in events})
    return Signals(
        relevance=sum(hits) / len(hits) if hits else 0.0,
        frequency=_log_scale(len(events) + len(by_context), cfg.frequency_saturation),
        diversity=_log_scale(queries + len(by_context), cfg.diversity_saturation),
        recency=0.5 ** (age / cfg.recency_half_life_days),
        recurrence=min(1.0, (max(days, theme_days) - 1) / max(1, cfg.recurrence_saturation_days - 1)),
        richness=min(1.0, len(content_words(c.wording)) / cfg.richness_saturation),
        recalls=len(events),
        occurrences=len(by_context),
        encounters=len(events) + len(by_context),
        queries=queries,
        days=days,
        age_days=age,
    )


def weighted(s: Signals, cfg: DreamConfig) -> float:
    return (
        cfg.weight_relevance * s.relevance
        + cfg.weight_frequency * s.frequency
        + cfg.weight_diversity * s.diversity
        + cfg.weight_recency * s.recency
        + cfg.weight_recurrence * s.recurrence
        + cfg.weight_richness * s.richness
    )


def newer_updates(staging: Staging) -> list[tuple[Candidate, updates.Update]]:
    """The staged or promoted candidates that state a plain-language update (``updates.parse``)."""
    found = ((c, updates.parse(c.wording)) for c in staging.candidates.values())
    return [(c, u) for c, u in found if u is not None]


def preconditions(c: Candidate, staging: Staging, taint: dict[str, str], stated: Sequence[tuple[Candidate, updates.Update]] = ()) -> list[str]:
    """Reasons the candidate may not be ranked at all (empty when it may): ineligible evidence, a
    credential's value, a newer observation with its key, or a newer plain-language update that retires what it says."""
    file_taint = min((taint[e.path] for e in c.evidence if e.path in taint), key=provenance.TRUST_RANK.__getitem__, default=None)
    reasons = list(eligibility.promotion_eligibility(origin=c.origin, session_kind="interactive", file_taint=file_taint).reasons)
    if secret := credentials.reason(c.wording):
        reasons.append(secret)  # staged by a version that read claims without it
    if c.key:
        newer = [
            o for o in staging.candidates.values()
            if o.id != c.id and o.key == c.key and (o.last_seen, o.id) > (c.last_seen, c.id)
        ]
        if newer:
            reasons.append(f"a newer observation has the same key {c.key!r}")
    for o, update in stated:
        if o.id != c.id and o.last_seen > c.last_seen and updates.retires(update, c.wording):
            reasons.append(f"superseded by a newer statement: {excerpt(o.wording, 80)}")
            break
    return reasons


def evaluate(
    staging: Staging, recalls: dict[tuple[str, str], list[Recall]], taint: dict[str, str], cfg: DreamConfig, now: dt.datetime
) -> dict[int, Verdict]:
    """A verdict for every staged (not yet promoted) candidate; ranks among those that passed."""
    theme_days = {c: t.days for t in staging.themes for c in t.candidates}
    stated = newer_updates(staging)
    pending: list[tuple[Candidate, Signals, float, list[str], list[str], bool]] = []
    for c in staging.candidates.values():
        if c.status != "staged":
            continue
        keys = {(e.entry_hash, e.path) for e in c.evidence}
        own = stems(scaffold.speech(c.wording))
        events = [r for k in sorted(keys) for r in recalls.get(k, ()) if credited(r, own)]
        s = signals(c, events, theme_days.get(c.id, 0), cfg, now)
        score = weighted(s, cfg)
        excluded = preconditions(c, staging, taint, stated)
        failed = list(excluded)
        strong = strong_evidence(c, staging.among_people)
        words = list(excluded)
        if not excluded:
            for numbers, said in shortfalls(s, score, cfg, needs_recalls=strong is None):
                failed.append(numbers)
                words.append(said)
        if strong is not None:
            s = dataclasses.replace(s, strong=strong)
        pending.append((c, s, score, failed, words, bool(excluded)))
    verdicts: dict[int, Verdict] = {}
    ranked = sorted((p for p in pending if not p[3]), key=lambda p: (-p[2], p[0].id))
    rank_of = {p[0].id: i for i, p in enumerate(ranked, 1)}
    for c, s, score, reasons, words, was_excluded in pending:
        rank = rank_of.get(c.id)
        if rank is not None and rank > cfg.max_promotions:
            reasons = words = [f"rank {rank} is over the limit of {cfg.max_promotions} promotions per sweep"]
        verdicts[c.id] = Verdict(c.id, score, s, tuple(reasons), was_excluded, rank, tuple(words))
    return verdicts


def _more(count: int, what: str) -> str:
    """``1 more recall``, ``2 more recalls``; ``search or session`` becomes ``searches or sessions``."""
    if count == 1:
        return f"{count} more {what}"
    return f"{count} more " + " or ".join(w + ("es" if w.endswith("h") else "s") for w in what.split(" or "))


def shortfalls(s: Signals, score: float, cfg: DreamConfig, *, needs_recalls: bool = True) -> list[tuple[str, str]]:
    """Each threshold the candidate misses, as (the numbers ``--explain`` shows, what it still needs in words)."""
    found: list[tuple[str, str]] = []
    if needs_recalls:
        if score < cfg.min_score:
            found.append((f"score {score:.2f} < {cfg.min_score:.2f}", f"score {score:.2f} < {cfg.min_score:.2f}"))
        if s.encounters < cfg.min_recalls:
            found.append((
                f"encounters {s.encounters} < {cfg.min_recalls} (recalls + occurrences)",
                f"needs {_more(cfg.min_recalls - s.encounters, 'recall')} (a search that finds it, or a mention in another session or on another day)",
            ))
        diversity = s.queries + s.occurrences
        if diversity < cfg.min_diversity:
            found.append((
                f"diversity {diversity} < {cfg.min_diversity} (distinct queries + occurrences)",
                f"needs {_more(cfg.min_diversity - diversity, 'distinct search or session')}",
            ))
    if s.age_days > cfg.max_age_days:
        found.append((
            f"age {s.age_days:.0f} days > {cfg.max_age_days}",
            f"last seen {s.age_days:.0f} days ago; only what was seen in the last {cfg.max_age_days} days is promoted",
        ))
    return found
