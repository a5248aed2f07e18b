"""Event-intent matching for ``clawmem recall``: deterministic, no model call, one transaction.

The rule: the message must contain every term of at least one trigger phrase (case, simple
plural and verb endings, and stop words inside a phrase ignored; CJK as bigrams, so it works
on unsegmented text). It runs on every agent turn, so it stays cheap:

1. prefilter: one FTS5 query for intents whose trigger stems share a term with the message
   (``intents_fts`` holds the same stems the rule compares, so it can only over-select);
   for a very long message, a scan of the (few) live event intents is cheaper and selects
   a superset too, so the result is the same either way;
2. the rule itself, in plain Python, plus state, scope, expiry, cooldown and budget;
3. survivors are re-read, re-checked and their fires recorded (count, time, ledger) in one
   ``BEGIN IMMEDIATE`` transaction, so two turns at once can never overspend a budget.

Trigger embeddings are not used: matching is lexical only.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from clawmem.foundation.records import dataclass
from clawmem.index.db import Index
from clawmem.index.tokens import WORD, cjk_runs, fts_text
from clawmem.intents import store
from clawmem.intents.model import LIVE_STATES, aware, stamp, unstamp
from clawmem.intents.terms import phrase_terms, stem
from clawmem.storage.workspace import Workspace
from clawmem.trust import framing

# Above this many distinct message terms, scanning live intents beats one huge FTS OR query.
FTS_MAX_TERMS = 128


@dataclass(frozen=True)
class IntentHit:
    """An event intent that fired for this message (recall injects ``text`` as hidden context)."""

    id: int
    text: str
    keywords: tuple[str, ...]  # all its trigger phrases
    matched: str  # the phrase whose every term the message contains
    fires: int  # fires so far, this one included
    budget: int


@dataclass(frozen=True)
class MessageWords:
    stems: frozenset[str]
    cjk_chars: frozenset[str]  # single CJK characters, for one-character trigger phrases

    @property
    def terms(self) -> list[str]:
        """What the prefilter looks up: every stem and every single CJK character."""
        return sorted(self.stems | self.cjk_chars)


def message_words(message: str) -> MessageWords:
    """Tokenise like ``query_terms`` (CJK runs as bigrams), in linear time for long messages."""
    words = {w.casefold() for w in WORD.findall(fts_text(message))}
    chars = frozenset(ch for run in cjk_runs(message) for ch in run)
    return MessageWords(frozenset(stem(w) for w in words), chars)


def _candidates(index: Index, words: MessageWords) -> list[dict[str, Any]]:
    """Live event intents sharing a term with the message (a superset of those that match)."""
    terms = words.terms
    if len(terms) > FTS_MAX_TERMS:
        return index.query(f"SELECT * FROM intents WHERE kind = 'event' AND state IN {LIVE_STATES} ORDER BY id")
    expression = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    return index.query(
        f"SELECT i.* FROM intents_fts JOIN intents i ON i.id = intents_fts.rowid"
        f" WHERE intents_fts MATCH ? AND i.kind = 'event' AND i.state IN {LIVE_STATES}",
        (expression,),
    )


def matching_phrase(phrases: list[str], words: MessageWords) -> tuple[str, int] | None:
    """The first phrase (most terms first) all of whose terms are in the message, with its size."""
    best: tuple[str, int] | None = None
    for phrase in phrases:
        terms = phrase_terms(phrase)
        if terms and all(t in words.stems or t in words.cjk_chars for t in terms) and (best is None or len(terms) > best[1]):
            best = (phrase, len(terms))
    return best


def _same(scope: str | None, given: str | None) -> bool:
    return scope is None or (given is not None and scope.casefold() == given.strip().casefold())


def eligible(row: dict[str, Any], now: dt.datetime, channel: str | None, sender: str | None) -> bool:
    """State, scope, expiry, cooldown and budget: may this event intent fire at ``now``?"""
    current = stamp(now)
    if row["kind"] != "event" or row["state"] not in LIVE_STATES:
        return False
    if row["state"] == "pending" and (row["due_at"] is None or row["due_at"] > current):
        return False
    if row["expires_at"] <= current or row["fires"] >= row["budget"]:
        return False
    if row["last_fired_at"] and unstamp(row["last_fired_at"]) + dt.timedelta(seconds=row["cooldown_s"]) > aware(now):
        return False
    return _same(row["channel"], channel) and _same(row["sender"], sender)


def match_for_recall(
    ws: Workspace,
    index: Index,
    message: str,
    *,
    channel: str | None = None,
    sender: str | None = None,
    now: dt.datetime | None = None,
    limit: int | None = None,
) -> list[IntentHit]:
    """Fire the armed event intents this message triggers (at most ``intents.max_per_turn``).

    Deterministic and model-free. Each hit's fire is recorded (count, time, ledger) before it
    is returned, so the caller injects exactly what was counted. Recall-marked blocks in the
    message are ignored, so injected context cannot re-trigger an intent.
    """
    cap = ws.config.intents.max_per_turn if limit is None else min(limit, ws.config.intents.max_per_turn)
    if cap <= 0:
        return []
    moment = aware(now) if now is not None else store.current_time()
    message, _ = framing.strip_marked(message)
    words = message_words(message)
    if not words.stems and not words.cjk_chars:
        return []
    store.ensure_restored(ws, index)
    candidates = []
    for row in _candidates(index, words):
        if not eligible(row, moment, channel, sender):
            continue
        found = matching_phrase(json.loads(row["keywords"]), words)
        if found:
            candidates.append((-found[1], row["id"], found[0]))
    if not candidates:
        return []
    candidates.sort()
    hits: list[IntentHit] = []
    when = stamp(moment)
    with index.transaction():
        chosen: list[tuple[dict[str, Any], str]] = []
        for _, intent_id, phrase in candidates:
            if len(chosen) >= cap:
                break
            fresh = store.fetch_row(index, intent_id)  # re-read under the write lock: another turn may have fired it
            if fresh is not None and eligible(fresh, moment, channel, sender):
                chosen.append((fresh, phrase))
        store.record_fires(ws, index, [(row["id"], when) for row, _ in chosen])
        for row, phrase in chosen:
            hits.append(
                IntentHit(
                    id=row["id"],
                    text=row["text"],
                    keywords=tuple(json.loads(row["keywords"])),
                    matched=phrase,
                    fires=row["fires"] + 1,
                    budget=row["budget"],
                )
            )
    return hits
