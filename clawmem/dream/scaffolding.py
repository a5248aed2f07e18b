"""What is never a memory: scaffolding, recall copies and non-facts, in one place.

The known failure of always-on memory tools is promoting their own machinery: candidate
lines with score metadata, transcript wrappers, cron and heartbeat reports, a dream diary
quoted back, recalled blocks. Every evidence unit passes ``reason`` before it is staged, and
the consolidation validator runs it again on every new ``MEMORY.md`` line, so junk is
refused on the way in and on the way out. Its last check is ``worth.reason``: social talk
and units that name nothing uncommon carry no information, however often they recur.
"""

from __future__ import annotations

import re

from clawmem.dream import worth
from clawmem.dream.text import content_words, words
from clawmem.entries import scaffold

MAX_UNIT_CHARS = 400  # a longer unit is not a compact entry
MIN_WORDS = 3
MIN_CONTENT_WORDS = 2
TOO_SHORT = "too short to be a memory"

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (reason, re.compile(pattern, re.IGNORECASE))
    for reason, pattern in (
        ("recalled copy (carries a recall or untrusted-content marker)", r"(?:<|&lt;)\s*/?\s*(?:clawmem-recall|untrusted-content)\b"),
        ("role label without content", r"^\**(?:user|assistant|system|tool|developer|function)\**\s*:?\s*$"),
        ("transcript wrapper", r"^(?:---|\.\.\.|#+\s*transcript\b.*|(?:session|session_kind|ingested_at|turns|turn|role|content|id|timestamp|speaker)\s*:\s*\S*)$"),
        ("transcript wrapper", r"^\{\s*\"(?:role|content|type|session|session_id|speaker)\"\s*:"),
        ("tool or system wrapper", r"^(?:<\s*/?\s*(?:tool_call|tool_result|function_calls?|system-reminder|system|invoke)\b|\[tool(?:_result|_call)?\s*[:\]]|```)"),
        ("score metadata", r"\b(?:score|confidence|recalls?|relevance|frequency|diversity|recency|richness|recurrence|weight|importance)\s*[=:]\s*-?\d"),
        ("candidate or dream output", r"^\[?(?:candidate|candidates|staged|promoted|merged|superseded|rejected|excluded|theme|reflection)\]?\s*(?:#?\d+\s*)?[:(\]]"),
        ("candidate or dream output", r"\bsources?\s*:\s*\S+#L\d"),
        ("candidate or dream output", r"\b(?:dream(?:ing)?\s+(?:sweep|phase|diary|report)|(?:light|rem|deep)\s+(?:phase|sleep)|consolidation\s+sweep)\b"),
        ("cron or heartbeat report", r"\[(?:cron|heartbeat|scheduled|scheduler|system|automation)\]|\bheartbeat(?:_ok|\.md)\b|^(?:cron|heartbeat)\b|\bcron\s+(?:job|run|report|task)\b|\bno_reply\b|\[\[\s*reply_to"),  # noqa: E501
        ("memory flush wrapper", r"^(?:pre-?compaction|memory flush|context (?:was )?compacted|conversation summary)\b"),
    )
)
# "Noted, I will answer in British English": the assistant acknowledging an instruction. The
# instruction is the owner's (USER.md); the promise is no fact about the world.
PROMISE = re.compile(r"^(?:i will|i'll|i am going to|i'm going to|i shall|i can|let me|i'd be happy to|happy to|i'll make sure)\b", re.IGNORECASE)
ASSISTANT = frozenset(("The assistant", "assistant"))
QUESTION = re.compile(r"\?\s*[\"')\]]*\s*$")
# A question that chat punctuation ended with "!" or nothing: "What do you and your friends like
# doing in New York!", "Did you end up going", "What does the Julio like girl do": an auxiliary
# after a question word, or "you" after one opening the sentence ("What I learned is …" asks nothing)
ASKED = re.compile(
    r"^(?:(?:and|so|but|oh|hey|well|also)[,!]?\s+)?(?:"
    r"(?:(?:what|how|why|where|when|who|which)(?:\s+[\w']+){0,2}?\s+|)(?:do|does|did|are|is|was|were|have|has|can|could|would|will|should)\s+(?:you|u|ya)\b|"
    r"(?:what|how|why|where|when|who|which)\s+(?:do|does|did|are|were|can|could|would|should)\s+(?:the|a|an|this|that|these|those|they|he|she|it|we|your|his|her|their|\w+'s)\b)",
    re.IGNORECASE,
)
LETTER = re.compile(r"[^\W\d_]")
ASKING = "a question, not a fact"


def asks(said: str) -> bool:
    """Whether ``said`` (what was said, no scaffolding) is a question, "?" or not (``ASKED``)."""
    return QUESTION.search(said) is not None or ASKED.match(said) is not None


def reason(text: str, vocabulary: worth.Vocabulary | None = None) -> str | None:
    """Why ``text`` (a cleaned evidence unit or MEMORY.md body) is not a memory; ``None`` if it may be one.

    The machinery patterns look at the text as written; every other rule looks at what was said
    (``scaffold.speech``: no timestamp, message id, speaker label or attribution), so no prefix
    changes a verdict. ``vocabulary`` (light passes the index's) also judges whether its words
    are all common."""
    stripped = text.strip()
    for why, pattern in PATTERNS:
        if pattern.search(stripped):
            return why
    said = worth.judged(stripped)
    record = scaffold.record(said)
    if record:
        return record
    if not LETTER.search(said):
        return "no words"
    if asks(said):
        return ASKING
    if len(stripped) > MAX_UNIT_CHARS:
        return f"longer than {MAX_UNIT_CHARS} characters (not a compact entry)"
    if scaffold.attributed_to(stripped) in ASSISTANT and PROMISE.match(said):
        return "the assistant's promise to act, not a fact"
    empty = worth.reason(said, vocabulary)
    if empty:
        return empty
    if len(words(said)) < MIN_WORDS or len(content_words(said)) < MIN_CONTENT_WORDS:
        return TOO_SHORT
    return None
