"""A bounded core ranked by value: near the budget, a better candidate displaces the least valuable lines.

``MEMORY.md`` is injected into every session, so its budget is small (``dream.memory_chars``,
counted as ``size``: the text the bootstrap injects, metadata comments left out) and first
come, first served would let early chit-chat refuse later facts. Every line and
every gated candidate gets one comparable ``value`` in 0-1:

- importance (half): the line's ``importance`` comment, 5 when it has none;
- use (three tenths): the sources it cites plus how often the line (or the candidate's
  evidence) was recalled within the age window, log-scaled to ``dream.frequency_saturation``:
  the same measure on both sides, so a candidate is not preferred for being new;
- recency (a fifth): half-life ``dream.recency_half_life_days`` x ``DECAY_FACTOR`` on the
  date observed, so a line is not displaced for being a few weeks old.

A line may be displaced only if dreaming wrote it (it cites sources) and a candidate is worth
``MARGIN`` more than all the lines it displaces together (``cheapest_room`` picks them,
``worth_displacing`` decides), so each displacement raises the core's total value; a
hand-written line is the owner's and stays. The displaced line leaves ``MEMORY.md`` (its
evidence stays in the episodic tier, searchable); the diary and ``dream --explain`` say which
line and why, and ``clawmem promote ANCHOR`` on one of its sources brings it back.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from clawmem.entries import grammar, identity
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import dataclass, field
from clawmem.storage.curated import budget_size as size  # the budget's measure (dream and promote call it budget.size)

DEFAULT_IMPORTANCE = 5
DECAY_FACTOR = 6  # a line's recency halves over six gate half-lives (about three months by default)
MARGIN = 0.05  # a candidate must be worth this much more than the lines it displaces (no churn)
WEIGHTS = (0.5, 0.3, 0.2)  # importance, use, recency


@dataclass(frozen=True)
class Usage:
    """What the sweep knows about the curated lines: recalls by body hash, and today."""

    today: dt.date
    recalls: dict[str, int] = field(default_factory=dict)


def value(importance: int | None, uses: int, observed: str | None, usage: Usage, cfg: DreamConfig) -> float:
    """One line's (or candidate's) worth to the core, 0-1."""
    imp = (importance or DEFAULT_IMPORTANCE) / 10
    use = min(1.0, math.log1p(uses) / math.log1p(cfg.frequency_saturation))
    try:
        age = (usage.today - dt.date.fromisoformat(observed[:10])).days if observed else 0
    except ValueError:
        age = 0
    recency = 0.5 ** (max(0, age) / (cfg.recency_half_life_days * DECAY_FACTOR))
    return WEIGHTS[0] * imp + WEIGHTS[1] * use + WEIGHTS[2] * recency


def line_value(entry: grammar.Entry, usage: Usage, cfg: DreamConfig) -> float:
    observed = entry.observed[:10] if entry.observed else None
    return value(entry.importance, usage.recalls.get(identity.text_hash(entry.body), 0) + len(entry.sources), observed, usage, cfg)


def displaceable(entry: grammar.Entry) -> bool:
    """Dreaming's own active lines may be displaced; hand-written ones (no source) never."""
    return bool(entry.sources) and entry.status != "superseded"


def worth_displacing(worth: float, displaced: Sequence[float]) -> bool:
    """A candidate worth ``worth`` may take the place of lines worth ``displaced`` only if the
    core's total value rises by ``MARGIN``: one long candidate does not push out several lines
    worth more together."""
    return sum(displaced) <= worth - MARGIN


def cheapest_room(ranked: Sequence[tuple[float, grammar.Entry]], room: int) -> list[tuple[float, grammar.Entry]] | None:
    """The lines (``ranked`` by value, lowest first) whose removal frees ``room`` characters at
    the least total value: the cheapest single line that frees it alone, or the least valuable
    lines taken in turn, whichever is worth less together; [] when nothing needs to go, None when
    even all of them would not free it."""
    if room <= 0:
        return []
    options: list[list[tuple[float, grammar.Entry]]] = []
    single = next((pair for pair in ranked if size(pair[1].raw) >= room), None)
    if single is not None:
        options.append([single])
    taken: list[tuple[float, grammar.Entry]] = []
    freed = 0
    for pair in ranked:
        if freed >= room:
            break
        taken.append(pair)
        freed += size(pair[1].raw)
    if freed >= room:
        options.append(taken)
    return min(options, key=lambda lines: sum(v for v, _ in lines)) if options else None
