"""Word-level rules the trigger lane's vector matching leans on: cheap, deterministic, regex only.

A sentence embedding of a two-to-five word trigger is a weak signal on its own (e5 puts
"thanks!" as close to "sphinx_rtd_theme" as a real rewording of the failure is to "linker
error"), so a vector match also has to agree with the words (``clawmem.recall.triggers``):

- ``reports_problem``: a trigger that names a failure ("linker error", "connection refused")
  matches by meaning only a message that reports one ("linking breaks on the ARM machine"),
  never "let's plan the release";
- ``anchored``: the message shares a word stem with the phrase ("linking" ~ "linker", "ARM"
  ~ "arm64", "certs" ~ "certificate");
- ``Conflicts``: a message naming a different identifier of the same kind ("__atomic_load_4"
  for "__atomic_load_8", "arm32" for "arm64") is about another thing, however alike it reads.
"""

from __future__ import annotations

import re

from clawmem.index.tokens import STOPWORDS

# A message (or phrase) that reports a failure. Wider than ``clawmem.dream.problems.PROBLEM``,
# which picks the texts whose words become triggers: a person rewording a failure says
# "breaks", "refuses", "gets killed", "keeps using a stale cache".
PROBLEM = re.compile(
    r"\b(?:errors?|errno|fail(?:s|ed|ing|ures?)?|undefined|unresolved|unresolvable|cannot|can'?t|can not|could(?:n'?t| not)|unable"
    r"|exceptions?|traceback|panic(?:ked|s)?|segfault(?:ed|s)?|segmentation fault|crash(?:es|ed|ing)?|broken|broke|breaks?|breaking"
    r"|does(?:n'?t| not)|won'?t|will not|did(?:n'?t| not)|isn'?t|aren'?t|not working|not found|no such|no module|denied|refus(?:es|ed|ing|al)"
    r"|reject(?:s|ed|ion)?|timed out|times? ?outs?|timing out|exit (?:code|status)|abort(?:ed|s)?|fatal|missing|invalid|died|dies|dying"
    r"|killed|oom|stuck|hangs?|hanging|hung|freez(?:es|ing)|frozen|complains?|blows? up|blew up|stale|wrong|bug(?:gy|s)?|problems?"
    r"|leaks?|leaking|corrupt(?:ed|ion)?|mismatch(?:es|ed)?|conflicts?|expired?|unreachable|unavailable|forbidden|warnings?|blocked"
    r"|already in use|in use|no space|(?:ran|runs?|running) out of|out of (?:memory|disk|space)|permission|not allowed|unauthori[sz]ed|chokes?)\b"
    r"|\b\w+(?:Error|Exception)\b|\b__\w+|\b\w+\.\w+:\d+",
    re.IGNORECASE,
)
# Words too common to anchor a match: failure words (every failure says them) and chatter.
WEAK = frozenset(
    """
    error errors fail fails failed failing failure failures broken broke break breaks crash crashed crashes died dies build builds
    building built bug bugs issue issues problem problems again still thanks thank work works working worked wrong getting thing
    things stuff something anything everything said says told noted quick context fyi btw please help want need make made
    """.split()  # noqa: SIM905
)
WORD = re.compile(r"\w+", re.UNICODE)
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
DIGITS = re.compile(r"\d+")
STEM = 4  # shortest shared prefix that makes two words one stem (link: linker, linking)
STEM_SHARE = 0.6  # and it covers this share of the shorter word
IDENTIFIER_RATIO = 80.0  # rapidfuzz ratio at which two identifiers are the same kind (arm64 ~ amd64)


def reports_problem(text: str) -> bool:
    """True when ``text`` says something failed ("the ARM64 build won't link", "connection refused")."""
    return bool(PROBLEM.search(text.replace("’", "'")))


def exact_only(word: str) -> bool:
    """Identifiers, numbers and codes (``__atomic_load_8``, ``arm64``, ``e0425``) name one thing:
    ``__atomic_load_4`` or ``arm32`` is another thing, however alike it looks."""
    return "_" in word or any(c.isdigit() for c in word)


def content_words(text: str) -> list[str]:
    """Words that carry content: no stop word, three characters or more, or an identifier
    ("linker error": two; "__atomic_load_8": one)."""
    return [w for w in WORD.findall(text) if w.casefold() not in STOPWORDS and (len(w) > 2 or exact_only(w))]


def stems(text: str) -> set[str]:
    """The word stems ``text`` can anchor a match with: each word, and each part of an identifier
    (``sphinx_rtd_theme``: sphinx, rtd, theme; ``arm64``: arm; ``ModuleNotFoundError``: module,
    found), casefolded, three characters or more, no stop word, no ``WEAK`` word."""
    found: set[str] = set()
    for word in WORD.findall(text):
        for piece in word.split("_"):
            for part in CAMEL.split(piece):
                found.update(p.casefold() for p in DIGITS.sub(" ", part).split())
    return {p for p in found if len(p) >= 3 and p not in STOPWORDS and p not in WEAK}


def same_stem(a: str, b: str, prefix: int = STEM, share: float = STEM_SHARE) -> bool:
    """Equal, or sharing a prefix of at least ``prefix`` letters that covers ``share`` of the shorter word."""
    if a == b:
        return True
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return common >= prefix and common >= share * min(len(a), len(b))


def anchored(phrase_stems: set[str], message_stems: set[str]) -> bool:
    """True when the message holds a stem of the phrase (equal, or sharing a long prefix)."""
    return any(same_stem(p, m) for p in phrase_stems for m in message_stems)


def identifiers(text: str) -> set[str]:
    """The exact-only words of ``text``, casefolded."""
    return {w.casefold() for w in WORD.findall(text) if exact_only(w)}


def _same_kind(a: str, b: str) -> bool:
    """Two different identifiers that name things of one kind: the same letters around other
    digits (``__atomic_load_4``/``__atomic_load_8``, ``e0425``/``e0433``) or spelled almost alike
    (``arm64``/``amd64``, ``__atomic_store_8``/``__atomic_load_8``). Bare numbers only against a
    number of the same length (port 5433 is not port 5432; "2 times" says nothing about it)."""
    if a.isdigit() or b.isdigit():
        return a.isdigit() and b.isdigit() and len(a) == len(b)
    if DIGITS.sub("", a) == DIGITS.sub("", b):
        return True
    from rapidfuzz import fuzz  # deferred: recall's lexical lane has loaded it already

    return fuzz.ratio(a, b) >= IDENTIFIER_RATIO


class Conflicts:
    """Whether the message names another thing of a kind an entry's triggers name, and not the entry's own:
    "undefined symbol __atomic_load_4 on arm32" against a fix for ``__atomic_load_8``.

    Asked of every trigger entry on every turn: which of the message's identifiers each entry
    identifier is of a kind with is worked out once per turn, not once per entry.
    """

    def __init__(self, message_identifiers: set[str]) -> None:
        self.message = message_identifiers
        self.kin: dict[str, tuple[str, ...]] = {}  # an entry identifier -> the message's identifiers of its kind

    def __call__(self, entry_identifiers: frozenset[str]) -> bool:
        """An identifier of the entry the message lacks is of a kind with one the message names and the entry lacks."""
        for mine in entry_identifiers:
            if mine in self.message:
                continue
            kin = self.kin.get(mine)
            if kin is None:
                kin = self.kin[mine] = tuple(other for other in self.message if _same_kind(mine, other))
            if any(other not in entry_identifiers for other in kin):
                return True
        return False
