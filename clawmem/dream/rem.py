"""REM phase: group staged candidates into themes, record reinforcement, write reflections.

A theme is a distinctive word that several candidates share: for each candidate, its most
widely shared content word that is not everywhere (at most ``MAX_SHARE`` of the candidates);
a candidate sharing nothing keeps its most distinctive word, so a fact that recurs on its
own is a theme of one. Reinforcement is how many independent contexts (session or day),
days and sessions the theme's evidence spans; only reinforced themes (two or more
contexts) are kept. The deep gate reads a theme's days as the multi-day recurrence signal of
its candidates, and reflections with evidence citations go to the diary. Nothing here
touches ``MEMORY.md``.
"""

from __future__ import annotations

from collections import Counter

from clawmem.dream.store import Candidate, Staging, Theme
from clawmem.dream.text import content_words, excerpt

MAX_SHARE = 0.2
MAX_CITATIONS = 5


def _label(words: set[str], df: Counter[str], cap: int) -> str | None:
    shared = [w for w in words if 2 <= df[w] <= cap]
    if shared:
        return max(shared, key=lambda w: (df[w], w))
    unique = [w for w in words if df[w] == 1]
    if unique:
        return max(unique, key=lambda w: (len(w), w))
    return min(words, key=lambda w: (df[w], w)) if words else None


def _theme(label: str, members: list[Candidate]) -> Theme:
    evidence = [e for c in members for e in c.evidence]
    contexts = {e.context for e in evidence}
    days = {e.day for e in evidence}
    sessions = {e.session_id or e.path for e in evidence}
    lead = max(members, key=lambda c: (len(c.contexts), c.last_seen, -c.id))
    citations: list[str] = []
    for c in sorted(members, key=lambda c: (-len(c.contexts), c.id)):
        citations += [s for s in c.sources(MAX_CITATIONS) if s not in citations]
        if len(citations) >= MAX_CITATIONS:
            break
    citations = citations[:MAX_CITATIONS]
    others = len(members) - 1
    reflection = (
        f"“{label}” recurs on {len(days)} day(s) in {len(sessions)} session(s): {excerpt(lead.wording, 160)}"
        + (f" (and {others} related candidate(s))" if others else "")
        + f" — evidence: {', '.join(citations)}"
    )
    return Theme(label, tuple(sorted(c.id for c in members)), len(contexts), len(days), len(sessions), reflection, tuple(citations))


def run(staging: Staging) -> list[Theme]:
    """Recompute every theme from the staged candidates; set each candidate's ``theme``."""
    candidates = sorted(staging.candidates.values(), key=lambda c: c.id)
    words = {c.id: content_words(c.text) for c in candidates}
    df: Counter[str] = Counter(w for ws in words.values() for w in ws)
    cap = max(2, int(len(candidates) * MAX_SHARE))
    groups: dict[str, list[Candidate]] = {}
    for c in candidates:
        label = _label(words[c.id], df, cap)
        c.theme = None
        if label is not None:
            groups.setdefault(label, []).append(c)
    themes = []
    for label, members in sorted(groups.items()):
        theme = _theme(label, members)
        if theme.contexts >= 2:
            themes.append(theme)
            for c in members:
                c.theme = label
    return themes
