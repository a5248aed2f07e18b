"""One subject, one topic, one entry: a candidate joins the curated line about the same thing.

The duplicates left in ``MEMORY.md`` were restatements, not copies: one person's plan said on
several days in other words ("My goal is to give kids a loving home." / "It's been a dream to
adopt and provide a safe, loving home for kids who need it."). With the installed e5 embedder
(``Judge.cosine``, common scale) such restatements score 0.56-0.74, below different facts in
one frame ("I adopted a dog." / "I adopted a cat.", 0.84), so no cosine threshold can drop one
of two accounts without dropping facts. Nothing is dropped on a cosine alone. A gated
candidate and a line dreaming wrote (it cites sources) are about

- the same *subject* when they are attributed to the same speaker (``scaffold.attributed_to``);
- the same *topic* when they share at least ``dream.topic_words`` topic word stems (not the
  speaker's name, a number or a chat word of ``GENERIC``: "went", "amazing", "love") and, with
  an embedder, reach a cosine of ``dream.topic_cosine`` (text only: one more shared stem
  instead), or when they share a name and a word besides (``named``: "My Microsoft internship
  lasted three months." / "During my Microsoft internship, I took part in …" score 0.53, yet one
  thing is named in both; a place alone, "Los Angeles", is no topic), or when they were said
  within ``dream.topic_nearby_lines`` lines of one transcript (``nearby``: a speaker going on
  about the beach over their next turn, "we went to the beach recently. The kids had such a
  blast." / "Seeing my kids' faces so happy at the beach was the best!", 0.62; with an
  embedder, one shared stem is enough there at ``dream.topic_cosine``: "I think I would love
  to live in turkey" / "I went to turkey on vacation … I can see us living there", 0.76),
  unless they tell of different days ("today (2024-01-24)" and "today (2024-01-08)": two
  events, which one line would read as one day) or months ("last week (the week of
  2023-01-16)" and "(the week of 2023-07-31)"). Of several such lines the closest is taken.

Such a pair becomes one entry: the line as it was and the candidate's sentences that the line
does not already say (``restated``), in the order of the days they were said (``said_before``:
the candidate's sentences first when it was said on an earlier day), citing the sources of both. A sentence is already said
when the text rules of ``Judge.same_fact`` say so, or when nearly all its words are the line's
(at most ``RESTATED_NEW_SHARE`` new) with every number and name among them and the same
polarity, and it is no *substitution*: a sentence that differs from one of the line's in a word
or two on each side ("a cat" for "a dog") is another fact, whatever it shares. A candidate that
adds nothing merges into the line (only its anchors are added); a joined entry must stay within
``scaffolding.MAX_UNIT_CHARS``, else the candidate becomes a line of its own as before, unless
it was said a turn or two from the line's turn and names nothing the line does not (no name,
number or date: ``paraphrase.specific``): the speaker going on about what the line tells ("I'll
never forget seeing the characters I wrote acted out …" / "Seeing my characters come alive was
my favorite part …") merges into it (``GONE_ON``: the line gains its anchors while it has room
for sources) rather than stand beside it as a second line about the same moment; when it tells
more (more topic stems) and the line names nothing it does not, its wording becomes the line's
(``REWORDED``). One that names something new stays a line of its own.

**Containment, whatever the shared word count.** A short account shares too few stems to be a
topic ("I lost my job." beside a line telling how the speaker lost the job and started a
store), yet one of the pair says all the other does. So, for one subject, before the topic
test: a candidate whose every sentence the line already says (``restated``: its numbers,
names and dates among the line's words, most of its words the line's, no substitution) merges
into it; a candidate that says all of a line and more *absorbs* it: the entry becomes the
candidate's wording, citing the sources of both (``contains``, text rules only, so the
validator and any sweep agree with or without an embedder). Either needs at least
``MIN_CONTAINED_STEMS`` topic stems on the smaller side, so a bare "I went." contains nothing.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterable, Mapping

from clawmem.dream.paraphrase import Judge, negated, specific, substitution, unmatched
from clawmem.dream.scaffolding import MAX_UNIT_CHARS
from clawmem.dream.text import RESOLVED, TOLD_IN, WORD, content_words, sentences, untimed, words
from clawmem.dream.worth import SLOGAN
from clawmem.entries import grammar, scaffold
from clawmem.entries.words import stem
from clawmem.foundation.config import DreamConfig
from clawmem.storage.anchors import lines_of

# "today (2024-01-24)", "yesterday (2024-01-09)": a day a sentence's relative date was resolved to
# (``standalone.resolve_dates``); two accounts of different days are two events, not one topic
DAY = re.compile(r"\b(?:today|tonight|yesterday|last night|tomorrow|this (?:morning|afternoon|evening)) \((\d{4}-\d{2}-\d{2})\)", re.IGNORECASE)
MONTH_NUMBERS = {name: n for n, name in enumerate(calendar.month_name) if name}
ENDED = re.compile(r"[.!?…][\"'”’)\]]*$")  # a sentence's end, and any quote or bracket closing after it
RESTATED_NEW_SHARE = 0.4  # most of a sentence's topic words the line may lack for it to be a restatement
MIN_CONTAINED_STEMS = 2  # topic stems the contained side needs before containment means anything
JOINED = "joined (same subject and topic)"
MERGED = "merged (same subject and topic, nothing new)"
ABSORBED = "absorbed (the new account says all the line said and more)"
GONE_ON = "merged (the same topic a turn later, naming nothing new; the line has no room for more)"
REWORDED = "reworded (the same topic a turn later, told more fully; the line has no room for both)"


# the names of days and months: a date ("recently (as of May 2023)") is no topic, nor a name
DATES = frozenset(d.casefold() for d in (*calendar.day_name, *calendar.month_name[1:]))
# Chat words that name no topic (beside ``worth.SLOGAN``): two accounts sharing "went", "last",
# "amazing" and a date are not about the same thing
GENERIC = SLOGAN | DATES | frozenset(
    """
    last went made great like gonna seeing seen want wanted feel feeling felt good nice happy amazing awesome cool fun
    excited exciting glad super pretty know think thought going trying tried sounds looks year years month months week
    weeks works weekend recently lately finally actually definitely totally place thanks thank wow
    """.split()  # noqa: SIM905
)
# "helping" is "help", "lovely" is "love"; "marching" is no month
NO_TOPIC_PREFIXES = tuple(sorted(w for w in GENERIC - DATES if len(w) >= 4))


def _topical(word: str) -> bool:
    return word not in GENERIC and not word.startswith(NO_TOPIC_PREFIXES) and not any(ch.isdigit() for ch in word)


def stems(text: str) -> frozenset[str]:
    """The topic stems of what ``text`` says (the attribution and the speaker's name left out)."""
    name = (scaffold.attributed_to(text) or "").casefold()
    return frozenset(stem(w) for w in content_words(scaffold.speech(text)) if w != name and _topical(w))


# capitalised inside a sentence, yet no name of a topic: the speaker ("I", "Im"; ``WORD`` splits
# "I'm" into "I" and "m"), a day, a month
NOT_NAMES = frozenset({"i", "im"}) | DATES


def named(text: str) -> frozenset[str]:
    """The topic stems of the names in what ``text`` says: words capitalised past a sentence's
    first ("Microsoft", "Machu Picchu", "Turks and Caicos"), not "I", a day or a month."""
    found = set()
    for sentence in sentences(scaffold.speech(text)):
        for token in WORD.findall(sentence)[1:]:
            word = token.casefold()
            if token[0].isupper() and word not in NOT_NAMES and _topical(word):
                found.add(stem(word))
    return frozenset(found) & stems(text)


class Topics:
    """Decides whether a candidate is about a curated line's subject and topic, and what it adds (module doc)."""

    def __init__(self, cfg: DreamConfig, judge: Judge) -> None:
        self.cfg = cfg
        self.judge = judge

    def related(self, a: str, b: str, *, near: bool = False) -> float | None:
        """The pair's cosine (1.0 without an embedder) when ``a`` and ``b`` have the same named
        subject and topic, else None; ``near``: they were said close together (``nearby``)."""
        who = scaffold.attributed_to(a)
        if who is None or who != scaffold.attributed_to(b) or _other_days(a, b):
            return None
        common = stems(a) & stems(b)
        if len(common) < self.cfg.topic_words:
            # a turn or two apart, one shared topic word is enough when the embedder agrees
            # ("I think I would love to live in turkey" / "I went to turkey on vacation …")
            score = self.judge.cosine(a, b) if near and common else None
            return score if score is not None and score >= self.cfg.topic_cosine else None
        names = named(a) & named(b)
        if near or (names and common - names):
            return self.judge.cosine(a, b) or 1.0
        if self.judge.embedder is None:
            return 1.0 if len(common) > self.cfg.topic_words else None
        score = self.judge.cosine(a, b) or 0.0
        return score if score >= self.cfg.topic_cosine else None

    def partner(
        self,
        entries: Iterable[grammar.Entry],
        candidate: str,
        sources: Iterable[str] = (),
        said: Mapping[str, dt.datetime] | None = None,
    ) -> tuple[grammar.Entry, str | None, str] | None:
        """The line dreaming wrote (it cites sources, carries no key) that ``candidate`` (citing
        ``sources``) belongs to, the text it becomes (None: the line already says it all) and
        how (``MERGED``, ``ABSORBED``, ``JOINED``, ``GONE_ON``, ``REWORDED``): first a line
        containing the candidate or contained in it (module doc), else the closest line on its
        subject and topic; None when there is none or no join stays compact. ``said`` (when
        each anchor's line was said) puts a joined line's parts in the order of the days they were said."""
        mine = [e for e in entries if e.sources and not e.key and e.status != "superseded"]
        for e in mine:
            if contains(self.cfg, e.body, candidate):
                return e, None, MERGED
        for e in mine:
            if contains(self.cfg, candidate, e.body):
                return e, candidate, ABSORBED
        cited = tuple(sources)
        scored = []
        for e in mine:
            near = nearby(e.sources, cited, self.cfg.topic_nearby_lines)
            score = self.related(e.body, candidate, near=near)
            if score is not None:
                scored.append((score, e.line_start, near, e))
        too_long = []  # (near, line, what the candidate adds): every related line, once none could be joined
        for _, _, near, e in sorted(scored, key=lambda row: (-row[0], row[1])):
            added = self.additions(e.body, candidate)
            if not added:
                return e, None, MERGED
            body = _joined(e.body, added, first=said_before(cited, e.sources, said or {}))
            if len(body) <= MAX_UNIT_CHARS:
                return e, body, JOINED
            too_long.append((near, e, added))
        for near, e, added in too_long:
            if near and not _names(" ".join(added)) - _names(e.body):
                richer = not _names(e.body) - _names(candidate) and len(stems(candidate)) > len(stems(e.body))
                return (e, candidate, REWORDED) if richer else (e, None, GONE_ON)
        return None

    def restated(self, line: str, sentence: str) -> bool:
        """True when ``line`` already says what ``sentence`` says (module doc)."""
        line, sentence = untimed(line), untimed(sentence)  # the month it was told in is no word of what it says
        said = sentences(scaffold.speech(line))
        if any(self.judge.same_fact(old, sentence) for old in said):
            return True
        threshold = self.cfg.grounding_similarity
        topic = content_words(sentence)
        if not topic or not specific(sentence) <= set(words(line)):
            return False
        if negated(sentence) != negated(line):
            return False
        if any(substitution(old, sentence, threshold) for old in said):
            return False
        return len(unmatched(sentence, line, threshold)) <= RESTATED_NEW_SHARE * len(topic)

    def additions(self, line: str, candidate: str) -> list[str]:
        """The sentences of ``candidate`` that ``line`` does not already say."""
        return [s for s in sentences(scaffold.speech(candidate)) if not self.restated(line, s)]


def _joined(line: str, added: list[str], *, first: bool) -> str:
    """``line`` with the sentences ``added`` after it, or before it (``first``: said before it)
    and after its attribution ("Mel said: "), each ending as a sentence ends (``_ended``)."""
    told = scaffold.unattributed(line)
    parts = _told_once([*added, told] if first else [told, *added])
    return line[: len(line) - len(told)] + " ".join([*map(_ended, parts[:-1]), parts[-1]])


def _told_once(parts: list[str]) -> list[str]:
    """``parts`` with each month told in (``text.TOLD_IN``) given once, where it first comes: two
    accounts told in January joined read "… (as of January 2024). …", not the month twice."""
    seen: set[str] = set()

    def first(m: re.Match[str]) -> str:
        if m[0] in seen:
            return ""
        seen.add(m[0])
        return m[0]

    return [TOLD_IN.sub(first, part) for part in parts]


def _ended(text: str) -> str:
    """``text`` ending as a sentence ends, so what is joined after it reads as a sentence of its
    own: chat often has no full stop ("I recently watched a movie" + "The last Marvel movie …")."""
    text = text.rstrip()
    return text if ENDED.search(text) else f"{text}."


def said_before(a: Iterable[str], b: Iterable[str], said: Mapping[str, dt.datetime]) -> bool:
    """Whether the anchors ``a`` were first said on a day before the anchors ``b`` (``said``: when
    each anchor's line was said). A line joined in the order it was promoted can tell the days
    backwards: "Winter break is over …" (January) then "because of winter break, I get to sleep
    in" (December). Within a day the line keeps its opening: a turn's sentences minutes apart
    tell no story by their order, and the line's own was the one judged to stand first."""
    first_a, first_b = (min((said[x].date() for x in anchors if x in said), default=None) for anchors in (a, b))
    return first_a is not None and first_b is not None and first_a < first_b


def _names(text: str) -> set[str]:
    """The names, numbers and identifiers ``text`` says (``paraphrase.specific``), sentence by
    sentence, so a sentence's first word ("It felt like …") is no name."""
    return set().union(*(specific(s) for s in sentences(scaffold.speech(text))))


def nearby(a: Iterable[str], b: Iterable[str], lines: int) -> bool:
    """Whether an anchor of ``a`` and one of ``b`` cite one file within ``lines`` lines of each
    other: in a transcript of a chat between two, one speaker's next turn or the one after it."""
    spans = [span for anchor in a if (span := lines_of(anchor))]
    for anchor in b:
        other = lines_of(anchor)
        if other and any(path == other[0] and start - lines <= other[2] and other[1] <= end + lines for path, start, end in spans):
            return True
    return False


def _other_days(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` tell of different days (``DAY``: "It was my last day of school today
    (2024-01-24)" and "Today (2024-01-08) I caught up on schoolwork" joined would read as one day)
    or of different months (``months``: "Last week (the week of 2023-01-16) I volunteered at a
    shelter" and "Last week (the week of 2023-07-31) I volunteered at the homeless shelter")."""
    return _apart(set(DAY.findall(a)), set(DAY.findall(b))) or _apart(months(a), months(b))


def _apart(x: set[str], y: set[str]) -> bool:
    """Whether both sides name times and none in common."""
    return bool(x and y and not x & y)


def months(text: str) -> set[str]:
    """The months (``YYYY-MM``) of the times ``text``'s relative dates were resolved to
    (``text.RESOLVED``: "(2023-08-11)", "(the week of 2023-01-16)", "(April 2023)"; a season or a
    year alone tells no event apart); "as of June 2023" (some time before the day it was said)
    counts May as well."""
    found = set()
    for m in RESOLVED.finditer(text):
        if m["iso"]:
            found.add(m["iso"])
            continue
        if not m["month"]:
            continue
        number, year = MONTH_NUMBERS[m["month"]], int(m["year"])
        found.add(f"{year}-{number:02d}")
        if m["asof"]:
            found.add(f"{year}-{number - 1:02d}" if number > 1 else f"{year - 1}-12")
    return found


def contains(cfg: DreamConfig, whole: str, part: str) -> bool:
    """True when ``whole`` and ``part`` are one speaker's and ``whole`` says every sentence of
    ``part`` (module doc: containment); text rules only, so the sweep and the validator agree."""
    if scaffold.attributed_to(part) != scaffold.attributed_to(whole) or len(stems(part)) < MIN_CONTAINED_STEMS:
        return False
    return not Topics(cfg, Judge(cfg)).additions(whole, part)
