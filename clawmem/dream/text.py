"""Text helpers of dreaming: evidence units, near-duplicate tests, key phrases and anchors.

Everything here is deterministic and cheap, so a sweep over thousands of notes stays fast
and two sweeps over the same files always agree.
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Iterable

from rapidfuzz import fuzz

from clawmem.entries import identity, scaffold
from clawmem.entries import lines as line_model
from clawmem.entries.neutralise import neutralise
from clawmem.entries.words import STOPWORDS, carries_content
from clawmem.foundation.records import dataclass

# What ``standalone.resolve_dates`` adds after a relative date ("today (2024-01-15)", "last week
# (the week of 2023-05-01)", "recently (as of May 2023)", "last summer (summer 2022)"): the day it
# meant, not the speaker's words, so no rule takes it for something the sentence names; its groups
# give the month it names (``topics.months``)
MONTHS = "|".join(calendar.month_name[1:])
RESOLVED = re.compile(
    rf" \((?:the week(?:end)? of |(?P<asof>as of ))?"
    rf"(?:(?P<iso>\d{{4}}-\d{{2}})-\d{{2}}|(?:(?P<month>{MONTHS})|spring|summer|fall|winter) (?P<year>\d{{4}})(?:/\d{{2}})?|\d{{4}})\)"
)
# "(as of May 2023)": the month an account was told in (``standalone.anchor_account``, "recently
# (as of May 2023)"), not what it tells: tellings in two months compare as one account
TOLD_IN = re.compile(rf" \(as of (?:{MONTHS}) \d{{4}}\)")

# Words that carry no topic: they never start or end a trigger phrase and do not count
# towards conceptual richness. Imperative filler ("run", "use") is here too, so a phrase
# like "make clean" wins over "run make".
WORD = re.compile(r"[^\W_]+(?:[.+#-][^\W_]+)*", re.UNICODE)
PHRASE_BREAK = re.compile(r"[,;:!?()\[\]{}\"“”'`|/]|\.(?:\s|$)|\s[-–—]\s")
# a capital opens the next sentence in any script a chat is written in ("… last week. Élise moved …")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9À-ÖØ-ÞΑ-ΩА-ЯЁ])")
COMMENT = re.compile(r"(?:<!--|&lt;!--).*?(?:-->|--&gt;)", re.DOTALL)
TRANSCRIPT_LABEL = re.compile(r"^\s*\**(?P<label>[^:\n*]{1,40})\**\s*:\s+")
RELAYED_NAME = re.compile(r"^\s*(?:\[[^\]\n]{1,40}\]\s*)*[^\W\d_][\w'.-]*(?: [^\W\d_][\w'.-]*){0,2}:\s")  # "Caroline: ", "[12:03] elise: "
# The owner asking for help with the work at hand (``worth.HELP`` drops such a sentence).
ASKING = (
    r"i\s+(?:really\s+|just\s+|also\s+|still\s+)?(?:need|could use|would like|'d like) (?:some\s+)?(?:help|guidance|advice|assistance)\b|"
    r"i'?m (?:just |still |also )?not sure (?:how|what|where|which|if|whether|about|why)\b|"
    r"i (?:just |also )?(?:want|'d like|would like) to make sure\b|"
    r"i (?:don'?t|do not) know (?:how|what|where|which|if|whether|why)\b"
)
# A sentence ends at . ! ? (or a run of them, closing quotes and brackets included) before
# whitespace and a letter, digit or opening quote, unless the word before the point is an
# abbreviation or an initial: "St. Moritz", "Dr. Lee", "e.g. Redis", "U.S. Army", "J. Smith".
# Points inside a token (v1.2, 3.14, ./configure, fly.io) are never followed by whitespace.
# A request put to the listener after a comma is a sentence of its own: "I chose vanilla JS for
# simplicity, can you help me implement the weather app" states a choice, then asks. So is a plea
# for help ("I'm structuring my site with semantic tags, and I want to make sure I'm using them
# correctly") and an invitation to look at what was shown after a comma or a dash: "Dyed my hair
# last week - come see!"
BOUNDARY = re.compile(  # chat text often starts a sentence in lower case, or with "É"
    r"[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[^\W_])|,(?=\s+(?i:(?:so|and|but)\s+)?(?i:can|could|would) you\b)"
    rf"|,(?=\s+(?i:(?:so|and|but)\s+)?(?i:{ASKING}))"
    r"|(?:,|\s[-–—])(?=\s+(?i:take a look|come (?:and )?(?:see|look)|check (?:it|this|them) out|see for yourself)\b)"
)
ABBREVIATIONS = frozenset(
    """
    mr mrs ms mx dr prof st mt ft sr jr rev fr sen gen col capt lt sgt gov pres hon messrs vs etc cf approx incl
    e.g i.e a.m p.m u.s u.k u.n e.u ph.d vol fig jan feb mar apr jun jul aug sep sept oct nov dec
    """.split()  # noqa: SIM905
)
ABBREVIATED = re.compile(r"(?:^|[\s(\[\"'“])(?P<word>(?:[^\W\d_]\.)*[^\W\d_]+)\.$")
# "[shares a photo: …]" captions of chat exports describe an image, not what anyone said
CAPTION = re.compile(r"\s*\[(?:shares?|shared|sends?|sent|posts?|posted)\s+(?:a|an|the)\s+(?:photo|picture|image|video|gif|sticker)\b[^\]]*\]", re.IGNORECASE)
# The count of a list said in prose, before a colon: "Two changes from the meeting. One: … Two: …"
COUNT = r"(?:one|two|three|four|five|first|second|third|fourth|fifth|finally|lastly)(?: thing)?"
COUNTED = re.compile(rf"^(?:and |ok |okay |also )?{COUNT}\s*:\s*", re.IGNORECASE)
# Conversational wrappers around a fact: "Remember we use Postgres 16." is "We use Postgres 16."
# ("Remember to …" is an instruction and keeps its verb.)
LEADING_WRAPPER = re.compile(
    r"^(?:(?:same (?:as|like) (?:before|last time|always)|remember (?:this|that)\b[^:]{0,40}:|remember(?: that)?(?=\s*[:,-]|\s+(?!to\b)\w)|just so you know|"
    r"(?:oh,? )?and(?: also)?,? so (?:it'?s|that it'?s) (?:written down|on record|said|noted)(?: somewhere)?|oh,? and|"
    r"fyi|btw|by the way|for the record|for context|quick context|as (?:i|we) (?:said|mentioned)(?: (?:before|earlier))?|"
    r"as (?:mentioned|discussed|noted)(?: (?:before|earlier))?)"
    r"(?:\s*[:,;.!—–-]+\s*|\s+|$)|(?:(?:and |also |oh,? and )?(?:just a |quick |friendly |a )?(?:reminder|note|heads[- ]up|update|context)(?: first)?|"
    r"nb|ps|again|also|ok(?:ay)?|so|anyway|noted|got it|understood|sure|will do|of course|absolutely|done|great|perfect|cool|alright|right|"
    # a greeting before the news: "Hey Jon, my store …", "Hi all, …"
    r"(?:hey|hi|hello|hiya|heya)(?:\s+[\w'’-]+)?(?=\s*[,—–-]\s*\S)|(?:a )?(?:quick |brief |short )?(?:intro|introduction))"
    r"\s*(?:[:,;.!—–-]+\s*|$)"
    # a transition that only moves the chat on: "One more:", "Next:", "While you're in there:", "Before you write it:",
    # and the count of a list said in prose ("Two changes from the meeting. One: … Two: …")
    # "Also we bumped Node to 22": an "also" before its subject only adds to the chat
    r"|also\s+(?=(?:we|i|our|my|the)\b)"
    r"|(?:and |ok |okay |also )?(?:one more(?: thing)?|(?:one thing )?before (?:anything|everything) else|one thing (?:first(?: of all)?|to know)|" + COUNT + "|"
    r"another(?: one| thing)?|next(?: up)?|last (?:bit|one|thing)(?: for today)?|"
    r"(?:quick|small|big|last|easy|weird) one|while (?:you'?re|we'?re|i'?m) (?:in there|at it|here|on it)|"
    # the work at hand as a time: "Before you write it:", "Before you start:", "When you do:"
    r"(?:before|when|once|as) (?:you|we) (?:start|begin|go|do|dive in|\w+ (?:it|that|this|them)))\s*:\s*"
    # a change of subject: "Separate thing, …", "On another note, …", "Unrelated: …"
    r"|(?:(?:a |one )?(?:separate|different|unrelated|new) (?:thing|topic|note|matter)|something else|unrelated|"
    r"on (?:a|another) (?:different |separate )?note|side ?note|switching gears|changing (?:the )?subject)\s*[:,;.—–-]\s*)",
    re.IGNORECASE,
)
# "Two house rules while you're in there: …" is "house rules: …": the count and the moment go, the label stays
COUNTED_RULES = re.compile(
    r"^(?:a couple of|a few|some|two|three|four|five)\s+(?P<label>(?:house |team )?(?:rules|conventions))"
    r"(?:,?\s+while (?:you'?re|we'?re|i'?m) (?:in there|at it|here|on it))?\s*:",
    re.IGNORECASE,
)
TRAILING_WRAPPER = re.compile(
    r"(?:[\s,;:-]*(?:\((?:attempt|try|take|round)\s*#?\d+\)|\((?:again|repeat|repeated|resent|edited|cont(?:inued|'d)?)\)|"
    r"\b(?:thanks|thank you|thx|ty|cheers)(?: (?:so|very) much)?(?: again)?(?: in advance)?))+[\s!.]*$",
    re.IGNORECASE,
)
# Turns an ingester labels as machinery, not speech (clawmem/transcripts writes these labels)
# A turn's Markdown structure: a fence (``entries.lines.fence``) opens or closes code, and a
# heading titles what follows; neither is a claim.
HEADING = re.compile(r"^#{1,6}\s")
# A list item or a line opening on a bold label ("- Validate input data.", "**Task 1:** Set up
# Flask", "2. **Caching**: use …"): a step of a formatted plan or outline, not running speech
ITEM = re.compile(r"^(?:[-*•+]\s|\d{1,2}[.)]\s|(?:\*\*|__)[^*_\n]{1,60}?[:：]?(?:\*\*|__)\s*[:：]?)")
CODE = "a code or configuration fragment"
HEADING_RECORD = "a Markdown heading, not a claim"
RECORD_LABELS = {
    "tool call": "a tool-call record", "function call": "a tool-call record", "tool result": "a tool result, not speech",
    "command output": "a tool result, not speech", "summary": "a summary the host wrote, not what anyone said",
    "compaction summary": "a summary the host wrote, not what anyone said",
}
LENGTH_RATIO = 0.6  # token-set ratio alone calls any subset a duplicate; this keeps lengths comparable
DIGITS = re.compile(r"\d")


def clean_unit(text: str) -> str:
    """One line of evidence as it may appear in MEMORY.md: no role label, no comments, inert."""
    text = identity.ROLE_PREFIX.sub("", COMMENT.sub(" ", text), count=1)
    return neutralise(" ".join(text.split()))


def strip_wrappers(text: str) -> str:
    """``text`` without the conversational wrappers around what it says (empty: it was only one)."""
    previous = None
    while text != previous:
        previous = text
        text = COUNTED_RULES.sub(r"\g<label>:", LEADING_WRAPPER.sub("", text, count=1).lstrip(), count=1)
        bare = TRAILING_WRAPPER.sub("", text).rstrip(" ,;:-–—")
        if bare != text:
            text = bare + ("." if bare and bare[-1].isalnum() else "")
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _abbreviation(word: str) -> bool:
    """An abbreviation a sentence goes on after ("Mr. Lee", "approx. 10"); an acronym in capitals
    ends one ("open the MR. And …", "it's in the ST. Then …")."""
    return word.casefold() in ABBREVIATIONS and not (len(word) > 1 and word.isupper())


def sentences(text: str) -> list[str]:
    """``text`` split into sentences, abbreviation-aware; joined with spaces they give back
    ``text`` with its whitespace runs collapsed (nothing lost, nothing repeated)."""
    flat = " ".join(text.split())
    found, start = [], 0
    for match in BOUNDARY.finditer(flat):
        head = flat[start : match.start() + 1]
        if flat[match.start()] == ".":
            word = ABBREVIATED.search(head)
            if word and (_abbreviation(word["word"]) or len(word["word"]) == 1 or "." in word["word"]):
                continue
        found.append(flat[start : match.end()])
        start = match.end() + 1
    if start < len(flat):
        found.append(flat[start:])
    return found


@dataclass(frozen=True)
class Piece:
    """One sentence of an entry (``said``, cleaned) and its evidence unit: ``said`` without its
    scaffolding and conversational wrappers (``unit`` is empty when the sentence was nothing but
    a wrapper). ``speaker`` is the name a chat-export label inside the text gave; ``record`` says
    why the sentence is not speech at all (a tool call, JSON, code), ``scaffold.record``; ``item``
    says it comes from a list item or a bold-labelled line (``ITEM``)."""

    said: str
    unit: str
    speaker: str | None = None
    record: str | None = None
    item: bool = False


def _piece(said: str, *, labels: bool, speaker: str | None = None, item: bool = False) -> Piece:
    bare = scaffold.strip(said, labels=labels)
    record = scaffold.record(bare.text)
    return Piece(said, "" if record else strip_wrappers(bare.text), bare.speaker or speaker, record, item)


def pieces(body: str, *, transcript: bool, relayed: bool = True) -> list[Piece]:
    """The sentences of an entry as dreaming reads them: a daily-note entry is one piece; a
    transcript turn (speaker label and image captions left out) is split into sentences, so the
    same workaround said inside different answers still lines up; a label inside an assistant's
    answer names a section, not a speaker. In a user's turn of a transcript that does not relay
    a chat (``relayed`` False, ``relays_chat``), a label names a speaker only on a quoted line
    ("> Jon: …") or when several lines of the turn carry one (a pasted exchange): "Emails: we
    moved to Postmark" is the user's own line about emails. A line that is a record
    (``scaffold.record``, any line inside a code fence, a Markdown heading) is one piece, never
    split into sentences."""
    if not transcript:
        said = clean_unit(body)
        return [_piece(said, labels=False)] if said else []
    label = (speaker_label(body) or "").casefold()
    if label in RECORD_LABELS or label.endswith(" tool call"):
        said = clean_unit(without_label(body))
        return [Piece(said, "", None, RECORD_LABELS.get(label, "a tool-call record"))] if said else []
    lines = body.splitlines()
    if lines:
        lines[0] = without_label(lines[0])
    pasted = relayed or label not in scaffold.ROLES or sum(scaffold.strip(line).speaker is not None for line in lines) > 1
    found = []
    speaker = None
    fenced: str | None = None  # the mark of the open code fence: every line inside is code, whatever it looks like
    for line in lines:
        mark = line_model.fence(line)
        if mark is not None and fenced in (None, mark):
            fenced = None if fenced else mark
            found.append(Piece(line.strip(), "", speaker, CODE))
            continue
        flat = clean_unit(CAPTION.sub("", line))
        if not flat:
            continue
        if fenced or HEADING.match(flat):
            found.append(Piece(flat, "", speaker, CODE if fenced else HEADING_RECORD))
            continue
        # in an answer, "**Objective**: …" labels a section; in the user's own words, "Emails: …" a topic
        head = scaffold.strip(flat, labels=label != "assistant" and (pasted or scaffold.QUOTE.match(flat) is not None))
        speaker = head.speaker or speaker
        item = ITEM.match(head.text if head.speaker else flat) is not None
        if scaffold.record(head.text):
            found.append(_piece(head.text, labels=False, speaker=speaker, item=item))
            continue
        for sentence in sentences(head.text):
            said = clean_unit(sentence)
            if said:
                found.append(_piece(said, labels=False, speaker=speaker, item=item))
    return found


def relays_chat(turns: Iterable[str]) -> bool:
    """Whether a transcript relays a chat between people through role-labelled turns ("user:
    Caroline: …", "user: elise: …", a bridge's export): most of its turns open with a
    name after their role. A coding session where one message of many opens "Emails: …" does
    not; a file of one such turn may, as the words alone cannot tell."""
    named = total = 0
    for turn in turns:
        total += 1
        named += RELAYED_NAME.match(without_label(turn)) is not None
    return named > total / 2


def units(body: str, *, transcript: bool) -> list[str]:
    """Evidence units of an entry (``pieces`` that say something once their wrappers are gone)."""
    return [p.unit for p in pieces(body, transcript=transcript) if p.unit]


def without_label(body: str) -> str:
    """A transcript turn without the speaker label it starts with ("user: ", "Caroline: ")."""
    return TRANSCRIPT_LABEL.sub("", body, count=1)


def speaker_label(body: str) -> str | None:
    """The speaker label a transcript turn starts with ("Caroline", "user"), if any."""
    match = TRANSCRIPT_LABEL.match(body)
    return match["label"].strip() if match else None


def words(text: str) -> list[str]:
    return [w.casefold() for w in WORD.findall(text)]


def content_words(text: str) -> set[str]:
    """Topic-bearing words (``entries.words.carries_content``)."""
    return {w for w in words(text) if carries_content(w)}


def _numbers(tokens: list[str]) -> set[str]:
    return {t for t in tokens if DIGITS.search(t)}


def similarity(a_norm: str, b_norm: str) -> float:
    """Near-duplicate score 0-100 of two ``identity.normalise``d texts.

    Token-set ratio (word order and repetition do not matter), but 0 when the lengths differ
    a lot (a subset is not a duplicate) or the numbers differ ("web-1" and "web-2" are
    different servers, however alike the sentences are).
    """
    ta, tb = a_norm.split(), b_norm.split()
    if not ta or not tb:
        return 0.0
    if min(len(ta), len(tb)) / max(len(ta), len(tb)) < LENGTH_RATIO:
        return 0.0
    if (DIGITS.search(a_norm) or DIGITS.search(b_norm)) and _numbers(ta) != _numbers(tb):
        return 0.0
    return fuzz.token_set_ratio(a_norm, b_norm)


def covers(existing: str, candidate: str, threshold: float) -> bool:
    """True when ``existing`` already says everything ``candidate`` says (safe to merge into it)."""
    a, b = identity.normalise(existing), identity.normalise(candidate)
    if a == b:
        return True
    return similarity(a, b) >= threshold and content_words(candidate) <= content_words(existing)


def key_phrases(text: str, df: dict[str, int], total: int, *, limit: int = 3) -> list[str]:
    """Up to ``limit`` distinctive 1-3 word phrases a person would type ("build fails", "make clean").

    Phrases never cross punctuation or start/end on a stop word; each word scores its inverse
    document frequency among staged candidates; two-word phrases are preferred; chosen phrases
    share no word, so three triggers cover three aspects of the entry.
    """
    scored: list[tuple[float, int, str, frozenset[str]]] = []
    position = 0
    for run in PHRASE_BREAK.split(text):
        tokens = words(run)
        for size in (1, 2, 3):
            for start in range(len(tokens) - size + 1):
                gram = tokens[start : start + size]
                position += 1
                if gram[0] in STOPWORDS or gram[-1] in STOPWORDS or any(len(w) < 2 for w in gram):
                    continue
                if size == 1 and (len(gram[0]) < 4 or gram[0].isdigit()):
                    continue
                idf = sum(math.log((1 + total) / (1 + df.get(w, 0))) + 1 for w in gram) / size
                bonus = {1: 0.8, 2: 1.2, 3: 1.0}[size]
                scored.append((idf * bonus, position, " ".join(gram), frozenset(gram)))
    chosen: list[str] = []
    used: set[str] = set()
    for _, _, phrase, gram_words in sorted(scored, key=lambda s: (-s[0], s[1])):
        if gram_words & used or phrase in chosen:
            continue
        chosen.append(phrase)
        used |= gram_words
        if len(chosen) == limit:
            break
    return chosen


def document_frequency(texts: Iterable[str]) -> tuple[dict[str, int], int]:
    df: dict[str, int] = {}
    total = 0
    for text in texts:
        total += 1
        for word in set(words(text)):
            df[word] = df.get(word, 0) + 1
    return df, total


def untimed(text: str) -> str:
    """``text`` without the months its accounts were told in (``TOLD_IN``)."""
    return TOLD_IN.sub("", text)


def excerpt(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
