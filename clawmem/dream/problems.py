"""Problem statements behind a fix, turned into trigger phrases.

A workaround is needed when its problem comes back, and then the person types the error,
not the fix: "undefined symbol __atomic_load_8 on arm64", not "add -latomic". So when a
promoted fact answers a problem, its triggers come from the problem statements next to its
evidence: the entry just before it in the same file and session (the user's previous turn,
the previous daily-note entry of that session) and any problem clause inside the evidence's
own entry ("if the build fails with undefined reference errors, …").

Everything is deterministic. A text is a problem statement when it has an error-ish marker
(``PROBLEM``). Only lines that pass ``trust.eligibility.promotion_eligibility`` (and are not in
quarantine) may feed triggers: an untrusted tool turn quoting an "error" must never choose
the words that make a curated entry auto-inject. Phrases quoted in more of the candidate's
independent occurrences win; identifiers (``__atomic_load_8``, ``arm64``, ``E0425``) weigh
more than plain words; a phrase made only of generic words ("build fails", "thanks") is
never a trigger.

What a trigger may be (``symptom_triggers``, what the sweep attaches to a promoted line): words
of the problem side (the error, the failing command, the component), never the wrapping of the
line it came from: attribution ("Caroline said"), conversational wrappers ("noted", "quick
context", "fyi", "just so you know"), image captions ("[shares a photo of …]"), speaker names
or timestamps (``clean``). Every trigger holds at least two content words; an identifier on
its own ("__atomic_load_8") is kept only beside a phrase that says the symptom in plain words
("undefined symbol", "linker error", "pytest crashed"), the phrase recall's vector lane can
match a rewording against (``clawmem.recall.triggers``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from clawmem.dream import worth
from clawmem.dream.consolidate import MAX_TRIGGERS
from clawmem.dream.store import Candidate, Evidence, taints
from clawmem.dream.text import CAPTION, PHRASE_BREAK, TRANSCRIPT_LABEL, key_phrases, without_label
from clawmem.entries import scaffold
from clawmem.entries.words import STOPWORDS
from clawmem.foundation.records import dataclass
from clawmem.index.db import Index
from clawmem.recall import symptoms
from clawmem.trust import eligibility, provenance

# Error-ish wording: any of these makes a text (or, inside a fix, a clause) a problem statement.
PROBLEM = re.compile(
    r"\b(?:errors?|errno|fail(?:s|ed|ing|ures?)?|undefined|unresolved|cannot|can'?t|can not|could(?:n'?t| not)|unable"
    r"|exceptions?|traceback|panic(?:ked|s)?|segfault(?:ed|s)?|segmentation fault|crash(?:es|ed|ing)?|broken|broke"
    r"|does(?:n'?t| not) work|won'?t|will not|did(?:n'?t| not) work|not working|not found|no such|denied|refused"
    r"|timed out|time ?out|exit (?:code|status)|abort(?:ed|s)?|fatal|missing|invalid|died)\b"
    r"|\b\w+(?:Error|Exception)\b|\b__\w+|\b\w+\.\w+:\d+",
    re.IGNORECASE,
)
# Words that say nothing about *which* problem: never a trigger on their own, never at a
# phrase's edge. Problem markers are here too: "fails" alone would fire on every failure.
GENERIC = frozenset(
    {
        "thanks", "thank", "great", "cool", "nice", "awesome", "remember", "again", "ugh", "hmm", "hi", "hello", "hey",
        "ok", "okay", "yeah", "help", "idea", "ideas", "fix", "fixed", "fixes", "build", "builds", "building", "built",
        "fail", "fails", "failed", "failing", "failure", "failures", "error", "errors", "broken", "broke", "break",
        "breaks", "work", "works", "worked", "working", "problem", "problems", "issue", "issues", "bug", "bugs", "wrong",
        "weird", "went", "still", "same", "like", "something", "anything", "everything", "happened", "happens", "happen",
        "morning", "evening", "tonight", "now", "just", "know", "think", "any", "why", "mess", "stuff", "thing", "things",
        "machine", "laptop", "box", "cannot", "unable", "crash", "crashed", "crashes", "died", "dies", "dead", "red",
        "green", "known", "classic", "getting",
    }
)
# Words that say how a line reached memory, not what it is about: who said it, its wrapper, its
# caption, when. They never enter a trigger and a phrase never runs across them (``clean``).
NOISE = frozenset(
    {
        # attribution (speaker labels and names: ``clean``, ``said``)
        "said", "says", "told", "tells", "asked", "asks", "mentioned", "mentions", "noted", "replied", "replies", "wrote",
        "explained", "reckons", "according",
        # wrappers
        "fyi", "btw", "quick", "reminder", "heads", "ps", "nb", "anyway", "basically", "apparently",
        # captions (bracketed ones go whole: ``BRACKETED``; "image" or "attachment" may name a component)
        "photo", "photos", "screenshot", "screenshots", "sticker", "gif", "shares", "sharing",
        # time
        "am", "pm", "ago", "earlier", "later", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "weekend",
        "month", "months", "year", "years", "morning", "afternoon", "evening", "night", "tonight", "monday", "tuesday",
        "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "april", "june", "july", "august",
        "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
        "nov", "dec",
    }
)
_NAME = r"[A-Z][\w'’-]*"
_SPEECH = (
    r"said|says|say|told|tells|asked|asks|mentioned|mentions|noted|notes|shared|shares|wrote|writes|replied|replies|added|adds"
    r"|explained|explains|reported|reports|confirmed|confirms|suggested|suggests|thinks|thought|reckons|claims|claimed|pointed out"
)
# "Caroline said (that)", "she mentioned", "according to Melanie": the speaker and the verb
ATTRIBUTION = re.compile(
    rf"(?:\b(?P<name>{_NAME})|\b(?:he|she|they|i|we|you|someone|somebody|user|assistant|the user|the assistant))\s+(?:{_SPEECH})\b(?:\s+that\b)?"
    rf"|\baccording to\s+(?P<source>{_NAME})\b",
)
WRAPPER = re.compile(
    r"\b(?:just so you know|for your information|by the way|for the record|for context|quick context|some context|context:|"
    r"heads[- ]up|quick note|side note|note to self|note that|noted|(?:friendly |quick )?reminder|as (?:i|we|you) (?:said|mentioned|noted)"
    r"|as (?:mentioned|discussed|noted)|fyi|btw|nb|ps)\b",
    re.IGNORECASE,
)
BRACKETED = re.compile(
    r"[\[(][^\])]*\b(?:photo|picture|image|video|gif|sticker|screenshot|attachment|voice|audio|shares?|shared|sends?|sent|posts?|posted)\b[^\])]*[\])]",
    re.IGNORECASE,
)
TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?(?!\w)|\b\d{1,2}\s*[ap]\.?m\b\.?"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
    r"|\b\d+\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+ago\b",
    re.IGNORECASE,
)
BREAK = " | "  # what a removed span leaves: a phrase break (``PHRASE_BREAK`` has "|")
WORD = re.compile(r"\w+", re.UNICODE)
CAMEL = re.compile(r"[a-z][A-Z]")
MAX_WORDS = 5  # a longer quote is rarely typed again word for word
PLAIN_WORDS = 4  # a plain-words symptom ("undefined symbol", "docs build stopped") is short
NEGATION = frozenset({"no", "not", "cannot", "unable", "never"})  # may open a symptom: "no module named", "cannot open shared"
PROBLEM_TRIGGERS = MAX_TRIGGERS  # a fix's triggers all come from its problem when it has one
# Words a symptom may end on though they name no problem alone: "linker error", "pytest crashed",
# "docs build". The rest of GENERIC (thanks, laptop, again, …) never edges a phrase.
SYMPTOM_EDGE = frozenset(
    {
        "error", "errors", "fail", "fails", "failed", "failing", "failure", "failures", "broken", "broke", "break", "breaks",
        "crash", "crashed", "crashes", "died", "dies", "build", "builds", "building", "built", "bug", "bugs", "issue", "issues",
        "problem", "problems",
    }
)


@dataclass(frozen=True)
class Phrase:
    """A trigger candidate: its words (casefolded, its identity), as written, and how specific."""

    words: tuple[str, ...]
    text: str
    weight: float
    position: int


def identifier_weight(token: str) -> float:
    """3 for code identifiers (``__atomic_load_8``, ``KeyError``), 2 for letters mixed with
    digits (``arm64``, ``E0425``), 0 for anything else (a plain word weighs 1)."""
    if "_" in token.strip("_") or token.startswith("__") or CAMEL.search(token):
        return 3.0
    if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
        return 2.0
    return 0.0


def _weight(token: str) -> float:
    """How much a word says about which problem this is (0: it may not open or close a phrase)."""
    word = token.casefold()
    if word in STOPWORDS or word in GENERIC or word in NOISE:
        return 0.0
    if identifier_weight(token):
        return identifier_weight(token)
    return 1.0 if len(word) > 2 or word.isdigit() else 0.0


def is_generic(phrase: str) -> bool:
    """True when no word of ``phrase`` is specific ("build fails", "thanks again")."""
    return not any(_weight(t) for t in WORD.findall(phrase))


ROLES = frozenset({"user", "assistant", "human", "ai", "system", "tool", "bot", "owner", "agent", "me"})
ROLE_LABEL = re.compile(rf"^\s*\**(?:{'|'.join(sorted(ROLES))})\**\s*:\s+", re.IGNORECASE | re.MULTILINE)


def said(text: str, *, transcript: bool) -> str:
    """What a line says, its speakers left out: a transcript turn loses the labels ingest wrote
    ("Caroline: …", "user: …") and the labelled names wherever they recur. Only transcripts: in a
    daily note "Postgres: connection refused" is the component, not a speaker."""
    if not transcript:
        return text
    lines: list[str] = []
    names: set[str] = set()
    for line in text.splitlines():
        label = TRANSCRIPT_LABEL.match(line)
        if label:
            names.update(w for w in WORD.findall(label["label"]) if w.casefold() not in ROLES)
            line = BREAK + line[label.end() :]
        lines.append(line)
    text = "\n".join(lines)
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}\b", BREAK, text, flags=re.IGNORECASE)
    return text


def speakers(text: str) -> set[str]:
    """Names ``text`` attributes words to: "<Name> said", "according to <Name>"."""
    names: set[str] = set()
    for m in ATTRIBUTION.finditer(text):
        name = m["name"] or m["source"]
        if name:
            names.update(w.casefold() for w in WORD.findall(name))
    return names


def clean(text: str) -> str:
    """``text`` without what wraps the problem: role labels ("user: …"), attribution ("Caroline said
    that", and that name anywhere), wrappers ("quick context:", "fyi", "just so you know"),
    captions ("[shares a photo of …]"), timestamps and every ``NOISE`` word. Each removed span
    becomes a phrase break, so no phrase runs across it. Each line's leading machinery goes first
    through ``scaffold.strip``, the normaliser every judgement shares; the patterns here then
    take what sits inside a line. (Named speakers' labels: ``said``.)"""
    names = speakers(text)
    text = "\n".join(scaffold.strip(line, labels=False).text for line in text.replace("’", "'").splitlines())  # one normaliser first
    text = ROLE_LABEL.sub(BREAK, text)
    for pattern in (CAPTION, BRACKETED, TIMESTAMP, ATTRIBUTION, WRAPPER):
        text = pattern.sub(BREAK, text)

    def keep(m: re.Match[str]) -> str:
        word = m[0].casefold()
        return BREAK if word in NOISE or word in names else m[0]

    return WORD.sub(keep, text)


def content_words(phrase: str) -> list[str]:
    """Words of ``phrase`` that carry content: no stop word, no ``NOISE``, at least three
    characters or a digit ("linker", "error", "arm64", "5432"; not "on", "ld", "said")."""
    return [t for t in WORD.findall(phrase) if _content(t)]


def _content(token: str) -> bool:
    word = token.casefold()
    if word in STOPWORDS or word in NOISE:
        return False
    if word in GENERIC and word not in SYMPTOM_EDGE:
        return False
    return len(word) > 2 or any(c.isdigit() for c in word)


def standalone(token: str) -> bool:
    """An identifier specific enough to stand alone beside a plain symptom: code (``__atomic_load_8``,
    ``KeyError``, ``tenant_id``) or an error code (``E0425``); not a platform name (``arm64``)."""
    return identifier_weight(token) == 3.0 or (identifier_weight(token) == 2.0 and sum(c.isdigit() for c in token) >= 3)


def is_plain(phrase: str) -> bool:
    """A symptom in plain words: two content words or more, no code identifier, not generic
    ("undefined symbol", "linker error", "arm64 build"; not "build fails", not "__x_y failed")."""
    tokens = WORD.findall(phrase)
    return len(content_words(phrase)) >= 2 and not is_generic(phrase) and not any(identifier_weight(t) == 3.0 for t in tokens)


def acceptable(phrase: str) -> bool:
    """A trigger on its own terms: no word that wraps a line (``NOISE``), not generic, no talk
    (``worth.social``: "long time no see", "see you soon" would fire on every greeting), and two
    content words or more, or one standalone identifier (kept only beside a plain phrase)."""
    tokens = WORD.findall(phrase)
    if not tokens or any(t.casefold() in NOISE for t in tokens) or is_generic(phrase) or clean(phrase).count("|"):
        return False
    if worth.social(phrase):
        return False
    return len(content_words(phrase)) >= 2 or (len(tokens) == 1 and standalone(tokens[0]))


def _states_problem(phrase: str) -> bool:
    """The phrase itself names a failure ("linker error", "no module named", "connection refused"),
    as recall's vector lane reads it (``clawmem.recall.symptoms``): a fix whose triggers do is
    matched by meaning only against a message that reports a failure."""
    return symptoms.reports_problem(phrase)


def plain_phrases(text: str) -> list[Phrase]:
    """Plain-words symptoms of one problem text: 2..PLAIN_WORDS words that open and close on a
    content word (a failure word may close one: "linker error", "docs build"), hold a specific
    word and no code identifier. Their weight is the number of specific words."""
    found: list[Phrase] = []
    position = 0
    for run in PHRASE_BREAK.split(clean(text)):
        tokens = WORD.findall(run)
        content = [_content(t) for t in tokens]
        for start in range(len(tokens)):
            position += 1
            if not content[start] and tokens[start].casefold() not in NEGATION:
                continue
            for end in range(start + 1, min(len(tokens), start + PLAIN_WORDS)):
                if not content[end]:
                    continue
                gram = " ".join(tokens[start : end + 1])
                if is_plain(gram):
                    specific = sum(1 for t in tokens[start : end + 1] if _weight(t))
                    found.append(Phrase(tuple(t.casefold() for t in tokens[start : end + 1]), gram, float(specific), position))
    return found


def phrases(text: str) -> list[Phrase]:
    """Trigger candidates of one problem text: runs of 2..MAX_WORDS words that open and close on
    a specific word and hold two of them, plus each identifier on its own (``clean`` first)."""
    found: list[Phrase] = []
    position = 0
    for run in PHRASE_BREAK.split(clean(text)):
        tokens = WORD.findall(run)
        weights = [_weight(t) for t in tokens]
        for start, token in enumerate(tokens):
            position += 1
            if not weights[start]:
                continue
            if identifier_weight(token):
                found.append(Phrase((token.casefold(),), token, weights[start], position))
            for end in range(start + 1, min(len(tokens), start + MAX_WORDS)):
                span = weights[start : end + 1]
                if weights[end] and sum(1 for w in span if w) >= 2:
                    gram = tokens[start : end + 1]
                    found.append(Phrase(tuple(t.casefold() for t in gram), " ".join(gram), sum(span), position))
    return found


def problem_text(text: str, *, whole: bool) -> str:
    """The problem part of ``text``: all of it when it states a problem (``whole``, for the turn
    before a fix), else only its clauses that do (for the fix's own entry)."""
    if whole:
        said = scaffold.speech(without_label(text))
        return text if PROBLEM.search(text) and not ADVICE.match(said) else ""
    return " | ".join(c for c in PHRASE_BREAK.split(text) if PROBLEM.search(c))


COLUMNS = "path, line_start, text, kind, origin, session_kind"
# "If the build fails …, run make clean": conditional advice names a problem but is a fix itself,
# never the problem statement behind the turn after it
ADVICE = re.compile(r"^[\W_]*(?:if|when|whenever|in case)\b", re.IGNORECASE)


def _said(row: dict) -> str:
    return said(row["text"], transcript=row["kind"] == "transcript")


class Problems:
    """Looks up the problem statements of a candidate's evidence in the index (one sweep)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.taint = taints(index)
        self.seen: dict[tuple[str, str, int], dict | None] = {}

    def _eligible(self, row: dict) -> bool:
        """The one rule, applied to a line that would lend its words to a curated entry.

        Only trust is asked here: a line searched for before lends words, not evidence (light
        already keeps recalled copies out of the evidence count)."""
        if provenance.location_floor(row["kind"]) is not None:
            return False
        return eligibility.promotion_eligibility(
            origin=row["origin"], session_kind=row["session_kind"], file_taint=self.taint.get(row["path"]),
        ).eligible

    def _before(self, e: Evidence) -> dict | None:
        """The previous entry of the same session, when it states a problem and may lend words
        (asked once per evidence line and sweep: triggers and absorbed problems both need it)."""
        if e.session_id is None:
            return None
        where = (e.path, e.session_id, e.line_start)
        if where not in self.seen:
            rows = self.index.query(
                f"SELECT {COLUMNS} FROM entries WHERE path = ? AND session_id = ? AND line_start < ? ORDER BY line_start DESC LIMIT 1",
                where,
            )
            self.seen[where] = next((r for r in rows if self._eligible(r) and problem_text(_said(r), whole=True)), None)
        return self.seen[where]

    def texts(self, e: Evidence) -> list[str]:
        """Problem texts around one piece of evidence: its own entry's problem clauses and the
        previous entry of the same session when that states a problem (speakers left out: ``said``)."""
        own = self.index.query(f"SELECT {COLUMNS} FROM entries WHERE path = ? AND line_start = ?", (e.path, e.line_start))
        found = [problem_text(_said(r), whole=False) for r in own if self._eligible(r)]
        before = self._before(e)
        if before is not None:
            found.append(problem_text(_said(before), whole=True))
        return [t for t in found if t]

    def statements(self, c: Candidate) -> set[tuple[str, int]]:
        """(path, line) of the problem statements the candidate's evidence answers."""
        found = (self._before(e) for e in c.evidence)
        return {(r["path"], r["line_start"]) for r in found if r is not None}

    def triggers(self, c: Candidate, limit: int = PROBLEM_TRIGGERS) -> list[str]:
        """The candidate's problem as triggers (``choose_symptoms``): what ``symptom_triggers`` gets."""
        by_context: dict[tuple[str, str], list[str]] = {}
        for e in c.evidence:
            by_context.setdefault(e.context, []).extend(self.texts(e))
        return choose_symptoms(by_context.values(), limit)


def choose(contexts: Iterable[list[str]], limit: int) -> list[str]:
    """Up to ``limit`` phrases, those quoted in the most independent occurrences first.

    When some phrase recurs, one-off phrases are dropped (chatter differs between sessions,
    the error does not). Then more specific, then earlier. Chosen phrases share no specific
    word, except that an identifier may also stand alone (it survives any rewording).
    """
    support: dict[tuple[str, ...], int] = {}
    best: dict[tuple[str, ...], Phrase] = {}
    for texts in contexts:
        seen = {p.words: p for t in texts for p in phrases(t)}
        for words, p in seen.items():
            support[words] = support.get(words, 0) + 1
            if words not in best or p.position < best[words].position:
                best[words] = p
    if not support:
        return []
    floor = 2 if max(support.values()) >= 2 else 1
    ranked = sorted((p for w, p in best.items() if support[w] >= floor), key=lambda p: (-support[p.words], -p.weight, p.position))
    chosen: list[Phrase] = []
    used: set[str] = set()
    for p in ranked:
        specific = {w for w in p.words if _weight(w)}
        if any(p.words == q.words for q in chosen) or (specific & used and len(p.words) > 1):
            continue
        chosen.append(p)
        used |= specific
        if len(chosen) == limit:
            break
    return [p.text for p in chosen]


def _supported(contexts: Iterable[list[str]], extract) -> tuple[dict[tuple[str, ...], int], dict[tuple[str, ...], Phrase]]:
    """How many independent contexts quote each phrase ``extract`` finds, and its earliest form."""
    support: dict[tuple[str, ...], int] = {}
    best: dict[tuple[str, ...], Phrase] = {}
    for texts in contexts:
        seen = {p.words: p for t in texts for p in extract(t)}
        for words, p in seen.items():
            support[words] = support.get(words, 0) + 1
            if words not in best or p.position < best[words].position:
                best[words] = p
    return support, best


def choose_symptoms(contexts: Iterable[list[str]], limit: int = MAX_TRIGGERS) -> list[str]:
    """Up to ``limit`` triggers for the problem quoted in ``contexts`` (one list of texts per
    independent occurrence), in this order:

    1. the most specific phrase quoted in the most occurrences ("undefined symbol __atomic_load_8
       on arm64");
    2. a plain-words symptom when 1 is not one ("undefined symbol"): what a rewording is matched against;
    3. standalone identifiers ("__atomic_load_8"), only once a plain phrase is chosen;
    4. more phrases sharing no specific word with those chosen.

    As in ``choose``, when some phrase recurs the one-off phrases are dropped (chatter differs
    between sessions, the error does not). Every phrase passes ``acceptable``.
    """
    contexts = [list(texts) for texts in contexts]
    support, best = _supported(contexts, phrases)
    plain_support, plain_best = _supported(contexts, plain_phrases)
    for words, n in plain_support.items():
        if words not in support:
            support[words], best[words] = n, plain_best[words]
    if not support:
        return []
    floor = 2 if max(support.values()) >= 2 else 1

    def rank(p: Phrase) -> tuple:
        return (-support[p.words], not _states_problem(p.text), -p.weight, len(p.words), p.position)

    pool = sorted((p for w, p in best.items() if support[w] >= floor and acceptable(p.text)), key=rank)
    multi = [p for p in pool if len(p.words) > 1]
    plain = [p for p in multi if is_plain(p.text)]
    ids = [p for p in pool if len(p.words) == 1]
    chosen: list[Phrase] = multi[:1]
    if plain and not any(is_plain(p.text) for p in chosen):
        # the plain companion: one naming the failure ("linker error") and adding words of its own if any
        taken = {w for p in chosen for w in p.words}
        chosen.append(min(plain, key=lambda p: (bool(set(p.words) & taken), not _states_problem(p.text), rank(p))))
    if any(is_plain(p.text) for p in chosen):
        chosen += ids[: max(0, limit - len(chosen))]
    used = {w for p in chosen for w in p.words if _weight(w)}
    for p in multi:
        if len(chosen) >= limit:
            break
        specific = {w for w in p.words if _weight(w)}
        if p not in chosen and not specific & used:
            chosen.append(p)
            used |= specific
    return [p.text for p in chosen[:limit]]


def symptom_triggers(text: str, problem_phrases: Iterable[str], df: dict[str, int], total: int) -> tuple[str, ...]:
    """Triggers for a promoted line whose evidence named none (``clawmem.dream.sweep.proposal``).

    The problem it answers comes first and alone (``problem_phrases``: ``Problems.triggers``): what
    the person types when the failure comes back. A line with no problem side gets phrases of its
    own words (``key_phrases`` of the ``clean``ed line), under the same rules: no attribution,
    wrapper, caption, speaker name or timestamp; two content words or more; never generic; an
    identifier alone only beside a plain-words symptom. Nothing acceptable: no trigger (the line
    still loads at bootstrap and is found by search; it just never injects itself).
    """
    found = _valid([p for p in problem_phrases if acceptable(p)])
    if not found:
        own = clean(text)
        found = _valid([p for p in key_phrases(own, df, total, limit=2 * MAX_TRIGGERS) if acceptable(p) and len(content_words(p)) >= 2])
    return tuple(found[:MAX_TRIGGERS])


def _valid(found: list[str]) -> list[str]:
    """``found`` deduplicated, standalone identifiers dropped unless a plain phrase is among them."""
    found = list(dict.fromkeys(found))
    if any(is_plain(p) for p in found):
        return found
    return [p for p in found if len(content_words(p)) >= 2]
