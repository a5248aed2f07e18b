"""The grammar of an owner's directive: which sentence states one, its normal form, its key.

Only words: no index, no staging, no ``USER.md``. ``directives.py`` collects and applies what it
finds; ``light.py`` and ``standalone.py`` ask it whether a sentence is a directive.

**What is a directive** (per sentence of ``text.pieces``, once speaker labels, timestamps,
emphasis and conversational wrappers are gone; clauses joined by ``;`` or "and never …" apart,
unless only the whole sentence states a rule: "we don't do X; we do Y"):

- ``always …``, ``never …``, ``don't/do not …`` (at least two words after it, or ``don't ever``),
  ``stop …ing``, ``I prefer …`` / ``I'd prefer …``, ``I'd rather …`` ("I'd rather you didn't X"
  is "Don't X", "I'd rather you run/used X" with a known verb "Always run X" / "Use X"), a
  leading or trailing ``from now on`` / ``going forward`` / ``in future`` / ``from here on`` or a
  trailing ``, ever`` (then any imperative), ``you should always …``, and ``when(ever)/while X,
  Y`` or ``…: Y`` with Y a rule of its own (kept as "Always Y when X"; a "while" that points into
  the conversation keeps it out). "While we're on X", "speaking of X" change the subject: a known
  topic becomes a topic label ("while we're on commit messages: never mention Claude" is "Never
  mention Claude (commit messages)."), any other, and "while you're at it", is dropped. The verb a
  habit word leaves out is put back (``_implied_verb``): a backticked command is run ("Don't ever
  `terraform apply` without a plan file" is "Never run `terraform apply` without a plan file."),
  a one-word code span, a value of a known kind or a named style (a case, UTC, ISO 8601, semver,
  imperative, conventional) used ("Dates: always UTC" is "Always use UTC (dates)."); an unknown
  word stays as said ("always local time");
- with one of those markers (or "as a rule", or a rule label) also a statement of how
  things are done (``_stated``): a passive habit, "<things> get(s)/is/are/should be written|done|
  built|tested|formatted|linted|run|installed|managed|documented in/with/using/via X" ("New Python
  code gets written in polars from now on" is "Write new Python code in polars.", key
  ``dataframe.python``; "Always build …" for a verb USER.md does not open with), a plan for a
  value of a known kind ("we'll use pnpm from here on", "we're using …", "let's go with …": "Use
  pnpm."), and "no X" ("No gitmoji in commit messages from now on" is "Don't use gitmoji in commit
  messages."). Without a marker "the build gets done in CI" is a fact, "we'll use pnpm" a plan;
- ``please …`` (or "pls", "please, please", "please just"; a trailing "please" counts the same:
  "Keep commit messages short please") only as a standing request: a habitual marker right after
  it ("please always", "please don't ever", "please stop …ing", "from now on"), or a style verb
  (use, answer, reply, call, address, keep, be, speak, spell, avoid, prefer, …; "write" only with
  a preposition) with a general object: no ``the/this/that/it/my/our …``. "Please fix the login
  bug" and "Put it in the Makefile please" are tasks.

Emphasis before a rule comes off ("let me be very clear about prod: never …", "just to be clear,").
Right after a sentence that retires a value of a known kind without naming its replacement, a
directive for that kind that rules nothing out says what it replaces (``_instead_of``): "We're
dropping poetry. Use uv from now on." is "Use uv, not poetry." And "the <noun> (file)" in a directive
is the one file or folder the turn named before whose path holds that noun (``_file_named``): "The
list comes from seeds/stations.csv. … Don't edit the seed yourself." is "Don't edit the seed
(seeds/stations.csv) yourself."

Anywhere in a turn: an acknowledgement or concession before it ("ok thanks — please don't ever
commit secrets", "nice, …", "I know polars is fashionable, but …") and a filler after it ("…
though", "…, ok", "…, just so you know") come off, and so do a reason after a comma or colon
("please don't ever force-push, it rewrites history" is "Never force-push.") and a complaint
about the agent ("Keep answers short, you're rambling again"); "…, ok?" stays a question.

**Standing without a marker** (``_standing``, tried only when no habit word matched): a plain
imperative is a request, so it counts only with something that makes it standing, and always with
a general object (no ``the/this/my …``, nothing about now, no one-off word such as staging, prod,
migration, branch, PR):

- a contrast, "X, not Y" / "X rather than Y" / "X instead of Y", after a style or tool verb (a tool
  verb such as run or install only with "with/using/via"): "Use tabs, not spaces";
- a team convention said with its contrast or exclusion, "we (always/just …) <verb> X, not Y", the
  verb a style or tool verb, do, store or put in the present tense: "we do CTEs, not nested
  subqueries" is "Do CTEs, not nested subqueries." ("we always …" keeps "Always"; "we do use"
  is "Use"), and so is its mirror with the same verb twice, "we don't do nested subqueries, we
  do CTEs" (also after ";", a dash or "but", "any more" and "instead" dropped; "we don't mock
  X, we use Y" has no contrast to say). "Them" right after the verb is what a kind's value is
  used on: "we write them with Vitest, not Jest" is "Write tests with Vitest, not Jest."
  (``KIND_TOPICS``; "we write them in TypeScript" still points back). Without a contrast "we use
  X" is a fact of the stack (MEMORY.md); "we did/used …", "we're using", "we'll …", "Sam does …"
  and "we do both, not one" stay out;
- a decision for a value of a known kind, by the owner or the team: "we're going with polars
  after all", "we've settled on Vitest", "I'm switching to zsh", "we've decided on pnpm for
  everything" are "Use polars." … (``DECISION``; "after all", "in the end", "instead", "then"
  dropped). Only a value of ``KINDS`` makes it a rule: "we're going with the blue one" is a
  choice of the moment, and so is "… for this script";
- an exclusion, "X only, no/not/never Y" after a comma, semicolon or dash (also "only X, no Y",
  "no Y, X only", "use/stick to X only, no Y", "X please — no Y"): a choice of one or two words,
  "Use" put before a bare one, a trailing ", until/unless …" kept: "pandas only, no polars" is
  "Use pandas only, no polars.", "named exports only in components, please, no default exports"
  "Use named exports only in components, no default exports.". The scope of a task ("docs only,
  no code changes", "tests only, no implementation yet", ``TASK_SCOPE``), one-off words and
  "this/now" stay out;
- a standing scope, leading or trailing: "for everything", "everywhere", "by default", "as a rule",
  "in this repo/codebase/project", "in docs/answers/comments …", with a style verb or a tool verb
  with "with": "Use uv for everything", "Use British spelling in docs"; a part of the project ("for
  the legacy app", "in the billing service", ``_COMPONENTS``) before or after any directive: "For
  the legacy app, always use npm" is "Always use npm for the legacy app.", keyed by that part
  (``package-manager.node.legacy-app``), so it never replaces the rule for everything;
- a rule label ("Rule for this codebase:", "Convention here:", "House rule:"; a marker for a
  statement too: "House rule: new code gets written in TypeScript"), or "we always/never/
  don't/prefer …" with such a scope or a trailing "here": "In this repo we never …";
- a switch to a value of a known kind or a backticked command: "go back to plain `cargo test`",
  "switch to pnpm for everything" (written "Use …");
- a style of answers: "keep answers short", "Reply in French", "No emojis" (a style noun, or any
  general noun under a scope or rule label, or in a topic with a house style: "No gitmoji in PR
  titles"), and a noun phrase asked for with "please" or a scope:
  "British English please, in docs as well as answers", "Shorter answers, please";
- a topic label, "<topic>: <rule>", the topic (``TOPIC_LABEL``: up to two words and a plural or
  mass noun with a house style, such as commit messages, branch names, PR titles, imports, tests,
  dates, naming) kept so that the line stands alone. A rule said as a clause (a habit word,
  "please …", "we …", a standing imperative) is that directive, "them/it" read as the topic and
  the topic in brackets unless the line names it: "Commit messages: never mention Claude" is
  "Never mention Claude (commit messages).", "Tests: we write them with Vitest, not Jest" "Write
  tests with Vitest, not Jest.". Otherwise the words must be a style spec (``STYLE_SPEC``:
  "please", "only", a placeholder pattern, a case, a mood or tense, a length limit, a named
  standard; for a value of a known kind a contrast too): a value of a known kind is "Use …"
  ("Indentation: tabs, not spaces" "Use tabs, not spaces (indentation)."), "no" and a style noun
  "Don't use …", anything else "Format <topic>: …": "Commit messages: imperative mood, under 72
  chars, please" is "Format commit messages: imperative mood, under 72 chars.", "Branch names:
  feature/<ticket>-<slug>" "Format branch names: feature/<ticket>-<slug>."; examples after a dash
  are left out. A singular topic ("Commit message: fix: …" names this commit's), a report (no
  spec, or a pronoun or auxiliary: "Tests: 12 passed, 2 failed", "Branch names: main, develop",
  "Commit messages: mine are imperative") and a possessive ("Your commit messages: too long")
  stay out.

Complaints ("you're rambling again"), bare words ("Tabs."), hedges ("Maybe use …"), "we" reports
without a scope, and one-off tasks ("Run the tests", "Switch to the dev branch") stay out. The
line keeps the words said, as an imperative USER.md accepts: "No emojis" becomes "Don't use
emojis.", "Shorter answers, please" "Keep answers shorter.", a rule label's scope is kept in
brackets, and a verb USER.md does not open with gets "Always" ("Always run tests with `cargo
nextest run`, not `cargo test`."). Test runners are kinds too, and a kind value after
"with/using/via/in" names the slot ("run tests with nextest" ``test-runner.rust``).

Not directives: questions, quoted text (a sentence opening with a quote mark, ``>`` or a
backtick, or with an unbalanced quote), hypotheticals ("if I always …"), reports ("I never got
it to work", "never heard of it": past tense or no verb after the marker), stock phrases ("never
mind", "don't worry"), third parties ("My boss: always use tabs", "Sam prefers tabs", and in a
transcript a name inside the turn: "Sam: pandas only, no polars" is Sam's), and directives that
point into the conversation ("never do that", "always use this format", "… for now", "… today",
"… next time"): ``USER.md`` is read in every session, so a line must stand alone. So "please
don't ever print those values" stays out, however firmly it is said: "those values" are
whatever this conversation was showing, and the line would mean nothing in the next session;
"please don't ever print secrets" and "please don't ever commit secrets" are directives.

**Normal form**: an imperative ending in a full stop, "please" and "from now on" dropped: "I
prefer tabs over spaces" becomes "Prefer tabs over spaces.", "I'd rather use pnpm than npm"
"Prefer to use pnpm rather than npm.", "do not" "Don't".

**Supersession key** (``derive_key``): the slot a directive fills, never its value, so that a
changed preference shares the key of the old one. When the directive's first object is a value
of a known kind of mutually exclusive choices (``KINDS``: a natural language, a JavaScript or
Python package manager, indentation, unit system, temperature scale, quote style, editor, shell,
tone, test runner, Python dataframe library, named or default JavaScript exports), the kind is
the key, whatever the verb or polarity: "answer in British English", "reply in French" and "use
British spelling" share ``language``; "use pnpm instead of npm", "use npm"
and "prefer yarn" share ``package-manager.node`` (the key ``user set --key language`` uses).
Otherwise the key is the verb (reply/respond as answer; prefer, avoid, stick to, default to,
switch to as use) with the owner pronoun and preposition that frame the slot, plus the first
topic word of its object: "call me Sam" ``call-me``, "address me as Dr Lee" ``address-me-as``,
"never use emoji" and "prefer not to use emoji" ``use-emoji``, "keep answers short"
``keep-answers``, "answer in bullet points" ``answer-in-bullet``. So "we write them with Vitest,
not Jest" shares ``test-runner.js`` with a later "switch to Jest", "pandas only, no polars"
``dataframe.python`` with "polars only, no pandas", and a topic's style spec is keyed by its topic
("Format commit messages: …" ``format-commit``): a later spec for the same topic replaces it, and
"we do CTEs, not nested subqueries" is ``do-ctes``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from clawmem.commands import usermodel
from clawmem.dream import updates
from clawmem.dream.text import ABBREVIATIONS, TRANSCRIPT_LABEL, pieces, sentences, strip_wrappers
from clawmem.entries import scaffold
from clawmem.foundation.errors import BadInput

PROPOSAL_PREFIX = "user."  # the daily-note key of an agent's proposed directive: user.<USER.md key>
MAX_KEY = 64 - len(PROPOSAL_PREFIX)
MAX_WORDS = 40  # a longer "sentence" is prose that happens to start with "always", not a rule

# --- the words the rules are made of ---------------------------------------------------------
OWNER_LABELS = frozenset({"user", "human", "owner", "me", "i"})
WRAPPER_LABELS = frozenset({"note", "reminder", "ps", "nb", "fyi", "btw", "important", "preference", "pref", "style", "tip", "update", "correction"})
LABEL_NOT_SPEAKER = frozenset("always never please don't dont do i i'd from stop prefer when whenever you going in keep avoid use".split())  # noqa: SIM905
HABIT_MARKERS = ("always", "never", "don't", "dont", "do not", "stop", "avoid", "keep", "from now on", "going forward", "in future", "in the future")
STYLE_VERBS = frozenset(
    """use answer reply respond speak address call keep spell sign cite avoid prefer stick default be refer greet format write talk
    stay switch""".split()  # noqa: SIM905
)
VERB_LIKE = frozenset(w for w in usermodel.DIRECTIVE_WORDS if " " not in w) | STYLE_VERBS | frozenset(
    "have get see read work go stick hear receive chat communicate type code build run deploy test commit push pin add remove".split()  # noqa: SIM905
)
NOT_VERBS = frozenset(
    """a an the i you he she it we they me my your his her its our their this that these those there here is are was were been being
    has have had will would can could should shall may might must does did mind again ever once yet really so too very sure ok okay
    fine true same enough more less like as if when then than and or but not no never always worry worries worried bother panic
    know knew think thought understand understood remember care happy glad welcome good great nice""".split()  # noqa: SIM905
)
NOT_AFTER_DONT = frozenset("forget worry bother panic mind know think understand remember care get see want need like have".split())  # noqa: SIM905
IRREGULAR_PAST = frozenset(
    """got went saw knew thought came found took gave said told heard felt left lost made meant met paid sent spent stood won wrote
    spoke broke chose drove ate fell forgot brought bought caught taught fought sold held built began drank rang sang swam did was
    were had""".split()  # noqa: SIM905
)
ED_BASE = frozenset({"embed", "shed", "bed", "wed", "shred", "speed", "need", "feed", "seed", "heed", "proceed", "exceed", "succeed", "bleed", "breed"})
DEICTIC_OBJECTS = frozenset({"this", "that", "these", "those", "it", "them", "here", "there", "one"})
SPECIFIC = frozenset({"the", "this", "that", "these", "those", "it", "them", "my", "our", "his", "her", "their", "its"})
OWNER_PRONOUNS = frozenset({"me", "us"})
PREPOSITIONS = frozenset({"in", "with", "to", "as", "by", "on", "at", "for", "from", "using", "via", "into", "about", "before", "after", "without", "under"})
DETERMINERS = frozenset({"the", "a", "an", "your", "my", "our", "only", "just", "proper", "always", "some", "any", "plain"})
ADJECTIVES = frozenset(
    """short long brief concise detailed verbose terse simple plain clear small big large more less fewer many few new old good bad
    single double formal informal casual polite direct blunt friendly technical full complete exact precise shorter longer quick
    fast slow correct explicit relevant extra unnecessary excessive all every each no""".split()  # noqa: SIM905
)
SLOT_END = frozenset({"instead", "over", "than", "rather", "when", "whenever", "if", "unless", "and", "or", "but", "because", "even", "except", "not", "no", "always", "never"})
VERB_CANON = {
    "reply": "answer", "respond": "answer", "prefer": "use", "avoid": "use", "choose": "use", "pick": "use", "stick": "use",
    "default": "use", "switch": "use", "utilise": "use", "utilize": "use", "summarize": "summarise",
}
ING_BASE = {
    "using": "use", "preferring": "prefer", "writing": "write", "answering": "answer", "replying": "reply", "responding": "respond",
    "adding": "add", "putting": "put", "making": "make", "giving": "give", "saying": "say", "calling": "call", "asking": "ask",
}
# Values of one kind exclude each other: the kind names the slot ("answer in French" replaces
# "answer in British English"); a value may be followed by one of the kind's own nouns.
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "language": (
        frozenset(
            """english british american australian canadian french german spanish italian portuguese dutch polish russian
            ukrainian chinese mandarin cantonese japanese korean arabic hindi turkish swedish norwegian danish finnish greek hebrew
            czech hungarian romanian vietnamese thai indonesian welsh irish catalan esperanto latin""".split()  # noqa: SIM905
        )
        | {"british english", "american english", "australian english", "canadian english", "uk english", "us english"},
        frozenset({"english", "spelling", "spellings", "language"}),
    ),
    "package-manager.node": (frozenset({"npm", "pnpm", "yarn", "bun"}), frozenset({"package", "packages"})),
    "package-manager.python": (frozenset({"pip", "uv", "poetry", "pdm", "conda", "pipenv", "rye", "hatch"}), frozenset({"package", "packages"})),
    "indentation": (frozenset({"tabs", "tab", "spaces", "2 spaces", "4 spaces", "two spaces", "four spaces"}), frozenset({"indentation", "indent", "indents"})),
    "units": (frozenset({"metric", "imperial", "si"}), frozenset({"units", "unit", "system", "measurements"})),
    "temperature": (frozenset({"celsius", "fahrenheit", "centigrade"}), frozenset({"degrees", "temperatures"})),
    "quotes": (frozenset({"single quotes", "double quotes"}), frozenset({"strings"})),
    "editor": (frozenset({"vim", "neovim", "nvim", "emacs", "vscode", "vs code", "nano", "helix", "sublime text", "zed"}), frozenset({"editor"})),
    "shell": (frozenset({"bash", "zsh", "fish", "powershell"}), frozenset({"shell", "scripts"})),
    "tone": (frozenset({"formal", "informal", "casual"}), frozenset({"tone", "register", "style", "language"})),
    "test-runner.rust": (frozenset({"cargo test", "cargo nextest", "nextest"}), frozenset({"run", "runner"})),
    "test-runner.python": (frozenset({"pytest", "unittest", "nose2"}), frozenset({"runner"})),
    "test-runner.js": (frozenset({"jest", "vitest", "mocha"}), frozenset({"runner"})),
    "dataframe.python": (frozenset({"pandas", "polars"}), frozenset({"dataframe", "dataframes"})),
    "exports.js": (frozenset({"named exports", "default exports", "named export", "default export"}), frozenset()),
}
# What "them" stands for when a value of the kind says it: "we write them with Vitest, not Jest" writes tests
KIND_TOPICS = {
    "test-runner.rust": "tests", "test-runner.python": "tests", "test-runner.js": "tests",
    "package-manager.node": "packages", "package-manager.python": "packages",
}
ANSWER_KINDS = frozenset({"language", "tone", "units", "temperature"})  # kinds of how answers are written: a bare choice of one is standing
PLURALS = {"emojis": "emoji", "emoticons": "emoticon"}  # the same topic whichever number it was said in
TOKEN = re.compile(r"[a-z0-9]+(?:['.+#-][a-z0-9]+)*")
QUOTE_OPENERS = "\"'“”‘’`«»„>"
DOUBLE_QUOTES = re.compile(r"[\"“”«»„]")
EMPHASIS = re.compile(r"(?<![\w*_<>])[*_]{1,3}|[*_]{1,3}(?![\w*_<>])")  # "test_<unit>_<behaviour>" is a pattern, not emphasis
LEAD_IN = re.compile(
    r"^(?:(?:no|nope)\s*[,:;.!-]+\s*|(?:thanks|thank you|thx|ty|ta|cheers|nice|good|fine|lgtm|looks good|sounds good|fair enough)\s*(?:[,:;.!]+|\s[—–-])\s*|"
    r"(?:you know what|oh and|and also|one more thing|one last thing|one thing|for the record|just so it'?s said|just so you know|"
    # emphasis before a rule: "let me be very clear about prod:", "just to be clear,"
    r"(?:let me|i want to|i'?d like to|(?:just )?to) be (?:very |really |perfectly |absolutely |crystal |100% )?clear(?: (?:about|on) [\w.-]+(?: [\w.-]+)?)?|"
    r"side note|and|but|oh|ok|okay|so|also|well|yeah|yes|hey|actually|honestly|"
    r"frankly|personally|seriously)\b\s*[,:;.!—–-]*\s*)+",  # "But yes — I'd rather you …"
    re.IGNORECASE,
)
HABIT_LEAD = re.compile(
    r"^(?:from now on|going forward|from here on(?: out)?|henceforth|in (?:the )?future|in general|generally|as a rule)\b\s*[,:;-]*\s*", re.IGNORECASE
)
HABIT_TAIL = re.compile(
    r"(?:[\s,;-]*\b(?:from now on|going forward|from here on(?: out)?|henceforth|in (?:the )?future)|\s*,\s*ever)\s*[.!]*$", re.IGNORECASE
)  # "No emoji in commit messages, ever."
PLEASE_TAIL = re.compile(r"[\s,;-]*\bplease\s*[.!]*$", re.IGNORECASE)
PLEASE_ANYWHERE = re.compile(r"[\s,]*\bplease\b", re.IGNORECASE)  # its comma goes with it, the next one stays: "X please, no Y"
PLS = re.compile(r"\b(?:pls|plz)\b", re.IGNORECASE)
PLEASE_AGAIN = re.compile(r"^(?:(?:please|just|kindly)\b[\s,]*)+", re.IGNORECASE)  # "please, please don't …", "please just don't …"
FILLER_TAIL = re.compile(r"[\s,;-]*\b(?:though|ok|okay|fyi|btw|just so you know)\s*[.!]*$", re.IGNORECASE)  # "…, ok?" stays a question
# "please don't ever force-push, it rewrites history": the reason after a comma, colon or dash is a sentence of its own,
# and so is a complaint about the agent ("keep answers short, you're rambling again")
REASON_TAIL = re.compile(
    r"(?:\s*[,:]|\s+[—–-])\s+(?:because|since|it|it's|it'll|that's|they|they're|they'll|you're|you are|you keep|you've been|you always)\b.*$", re.IGNORECASE
)
YOU_LEAD = re.compile(
    r"^(?:you should|you must|you need to|you'll|you will|i want you to|i'd like you to|i would like you to|make sure to|make sure you|"
    r"be sure to|remember to)\s+",
    re.IGNORECASE,
)


def _condition_first(openers: str) -> re.Pattern[str]:
    """A sentence that opens on a condition (one of ``openers``), then a comma or colon and the rest."""
    return re.compile(rf"^(?P<cond>(?:{openers})\s+[^,:]{{3,80}})[,:]\s*(?P<rest>.+)$", re.IGNORECASE)


WHEN_FIRST = _condition_first("when|whenever|every time|while")
# "If a query would scan more than 10 GB, stop and ask me", "When CI is red, ping me": what the
# agent does towards the owner under a condition is how they want to work, a standing rule ("If
# the build fails, run make clean" is a procedure: a fact of the project, not of the owner)
CONDITION_FIRST = _condition_first("if|when|whenever|every time|any ?time")
OWNER_CONDITION = re.compile(r"\s(?:if|when|whenever|every time|any ?time)\s+(?P<cond>.+?)[.!]*$", re.IGNORECASE)
ALWAYS_LEAD = re.compile(r"^always\s+", re.IGNORECASE)
# what a condition's key leaves out: its function words, "you", and how much ("more than about 10 GB")
CONDITION_FILLER = frozenset(
    "a an the you your we our it is are be been would will can could should do does did any some more than less about over under".split()  # noqa: SIM905
)
TO_THE_OWNER = re.compile(
    r"^(?:(?:please|just|always|first)\s+)?(?:stop,?\s+and\s+|stop\s+)?(?:ask|check with|tell|ping|warn|alert|notify|consult|wait for|talk to)\s+me\b",
    re.IGNORECASE,
)
# "while we're on tests: …", "while you're at it, …": a change of subject, not a condition (a known topic is kept as a label)
ASIDE = re.compile(
    r"^(?:while (?:you|we)(?:'re| are) (?:on(?: the subject of)?|at)|speaking of|on the subject of)\s+(?P<topic>[^,:]{1,40}?)\s*[,:]\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
# "I know polars is fashionable, but pandas only, no polars": what the owner grants before the rule is not the rule
CONCESSION = re.compile(
    r"^(?:(?:i know|i get|i see|i realise|i realize|i understand|sure|granted|fair enough|yes|yeah)\b[^,]{0,80},"
    r"|[^—–]{1,60}\s[—–])\s*but\s+(?P<rest>\S.*)$",  # "Tz is fine — but in general, ask me before …"
    re.IGNORECASE,
)
PREFER = re.compile(r"^i(?:'d| would)?(?: (?:much|really|generally|always|usually|strongly|definitely))? prefer\s+(?P<rest>.+)$", re.IGNORECASE)
RATHER = re.compile(r"^i(?:'d| would)(?: much)? rather\s+(?P<rest>.+)$", re.IGNORECASE)
CLAUSES = re.compile(
    r"\s*;\s*|,?\s+(?:and|but)\s+(?=(?:always|never|don't|do not|please)\b)"
    r"|(?:(?<=from now on)|(?<=going forward)|(?<=henceforth)),\s+(?:and|but)\s+",  # "New code uses Req from now on, and HTTPoison goes …"
    re.IGNORECASE,
)
# "Use uv from now on — `uv add`, `uv run`": what follows a dash spells out the rule before it, or
# adds to it ("Never push to main — always a PR"); it is a rule of its own only after a wrapper
# ("Quick note — never push to main"), never an elliptical tail of a statement ("… in BIGINT
# columns — never floats")
DASH = re.compile(r"\s+[—–]\s+")
MAX_DASH_LEAD_WORDS = 3
# What a topic label may name ("Commit messages: …"): things with a house style, never a person
_TOPIC_HEADS = (
    r"names|messages|titles|descriptions|docstrings|comments|dates|timestamps|headings|strings|identifiers|ids|tags|commits|branches|"
    r"imports|exports|tests|testing|dependencies|dataframes|variables|functions|classes|constants|columns|endpoints|routes|urls|naming|"
    r"formatting|indentation|line length|code style"
)
HINT = re.compile(
    r"\b(?:always|never|don'?t|do not|please|pls|plz|prefer|rather|from now on|going forward|future|henceforth|stop|not|instead|no|keep|answer|reply|"
    r"respond|speak|talk|rule|convention|policy|here|repo|repository|codebase|project|everything|everywhere|default|board|answers|docs|code|switch|"
    r"back|revert|going with|settled|decided|gone with|switching|switched|moving to|moved to|sticking|standardi[sz]|"
    rf"{_TOPIC_HEADS})\b",
    re.IGNORECASE,
)
TIME_DEICTIC = re.compile(
    r"\b(?:now|right now|for now|today|tonight|tomorrow|yesterday|yet|at the moment|(?:last|next) time|this|these|those)\b(?! on\b)", re.IGNORECASE
)
CODE_SPAN = re.compile(r"`[^`]*`")
# "Don't go rewriting the client just for that": the reason is in the conversation
POINTER_TAIL = re.compile(r"\b(?:for|because of|like|about|over|after) (?:that|it|them)\s*[.!]*$", re.IGNORECASE)

# --- sentences -------------------------------------------------------------------------------
def _low(word: str) -> str:
    return word.casefold().strip(",;:!.")


def _is_verb(word: str, *, after_dont: bool = False) -> bool:
    """Whether ``word`` can open an imperative: not a pronoun, auxiliary, stock phrase or past tense."""
    low = _low(word)
    if not low or not low[0].isalpha() or low in NOT_VERBS or low in IRREGULAR_PAST or (after_dont and low in NOT_AFTER_DONT):
        return False
    return not (low.endswith("ed") and low not in ED_BASE and not low.endswith("eed"))


def _now(text: str) -> bool:
    """Whether ``text`` speaks of now ("for now", "this", "today"); a code span is a literal ("`git log --since=yesterday`")."""
    return bool(TIME_DEICTIC.search(CODE_SPAN.sub("``", text)))


def _stands_alone(body: list[str]) -> bool:
    """A directive read in another session must not point into this conversation."""
    rest = [_low(w) for w in body[1:]]
    while rest and rest[0] in OWNER_PRONOUNS:
        rest = rest[1:]
    if rest and rest[0] in DEICTIC_OBJECTS:
        return False
    return not _now(" ".join(body)) and not POINTER_TAIL.search(" ".join(body))


def _implied_verb(body: list[str]) -> list[str]:
    """``body`` with the verb a habit word left out put back: a backticked command is run ("never `git push -f`"), a
    backticked name used ("never `any`"), and so is a value of a known kind or a named style ("always UTC", "never
    tabs"), unless an object follows it ("always lowercase the tags")."""
    if body[:1] and body[0].startswith("`"):
        span = CODE_SPAN.match(" ".join(body))
        return ["run" if span and " " in span[0] else "use", *body]
    if not body or _low(body[0]) in VERB_LIKE or (len(body) > 1 and _low(body[1]) in DETERMINERS | SPECIFIC):
        return body
    return ["use", *body] if _kind_value(body) or NAMED_STYLE.match(" ".join(body)) else body


def _imperative(body: list[str], lead: str | None, *, min_words: int = 1, after_dont: bool = False) -> str | None:
    """``lead`` + ``body`` when ``body`` opens with a verb (``_implied_verb``) and stands alone."""
    body = _implied_verb(body)
    if len(body) < min_words or not _is_verb(body[0], after_dont=after_dont) or not _stands_alone(body):
        return None
    return " ".join(([lead] if lead else []) + body)


def _please(body: list[str], habitual: bool) -> str | None:
    """A request after "please": standing with a habit marker, else a style verb with a general object."""
    rest = PLEASE_AGAIN.sub("", " ".join(body).lstrip(", "))
    if lead := HABIT_LEAD.match(rest):
        return _detect(rest[lead.end():], habitual=True)
    low = rest.casefold()
    if any(low == m or low.startswith(m + " ") or low.startswith(m + ",") for m in HABIT_MARKERS):
        return _detect(rest, habitual=True)
    words = rest.split()
    if habitual:
        return _detect(rest, habitual=True)
    if not words or _low(words[0]) not in STYLE_VERBS:
        return None
    if _low(words[0]) == "write" and (len(words) < 2 or _low(words[1]) not in PREPOSITIONS):
        return None
    if any(_low(w) in SPECIFIC for w in words[1:]):
        return None
    return _imperative(words, None)


def _rather(rest: str) -> str | None:
    """ "I'd rather …" as a preference, when it can be said as an imperative."""
    low = rest.casefold()
    for prefix in ("you didn't ", "you did not "):
        if low.startswith(prefix):
            return _imperative(rest[len(prefix):].split(), "Don't")
    if low.startswith("you "):  # "I'd rather you run …", "I'd rather you used …", "I'd rather you always …"
        words = rest.split()[1:]
        if words[:1] and _low(words[0]) in ("always", "never"):
            return _detect(" ".join(words))
        verb = _base(words[0]) if words else None
        found = _imperative([verb, *words[1:]], None) if verb else None
        return _say(found) if found else None
    if low.startswith("not "):
        return _imperative(rest[4:].split(), "Prefer not to")
    body = rest.split()
    if _low(body[0]) in VERB_LIKE:
        return _imperative(re.sub(r"\bthan\b", "rather than", rest).split(), "Prefer to")
    if _low(body[0]) in DEICTIC_OBJECTS or not _stands_alone(["prefer", *body]):
        return None
    return "Prefer " + re.sub(r"\bthan\b", "over", rest)


def _base(word: str) -> str | None:
    """A known verb in its base form, said in it or in a regular past tense ("used", "stopped", "replied")."""
    low, known = _low(word), VERB_LIKE | WE_VERBS
    stems = (low, *((low[:-1], low[:-2], low[:-3], low[:-3] + "y") if low.endswith("ed") else ()))
    return next((stem for stem in stems if stem in known), None)


def _prefer(rest: str) -> str | None:
    body = rest.split()
    first = _low(body[0])
    if first in {"it", "that", "if", "when", "you", "him", "her", "them", "this", "those", "these"} or not _stands_alone(["prefer", *body]):
        return None
    return "Prefer " + rest


def _detect(s: str, *, habitual: bool = False) -> str | None:
    """The directive ``s`` states, in its raw imperative form (``_finish`` normalises it)."""
    words = s.split()
    if not words:
        return None
    low = [_low(w) for w in words]
    first = low[0]
    if first == "please":
        return _please(words[1:], habitual)
    if first == "always":
        return _imperative(words[1:], "Always")
    if first == "never":
        body = words[2:] if low[1:2] == ["ever"] else words[1:]
        return _imperative(body, "Never")
    if first in ("don't", "dont") or low[:2] == ["do", "not"]:
        body = words[2:] if low[:2] == ["do", "not"] else words[1:]
        ever = next((i for i, w in enumerate(body) if _low(w) != "ever"), len(body))  # "don't ever, ever force-push"
        if ever:
            return _imperative(body[ever:], "Never")
        return _imperative(body, "Don't", min_words=1 if habitual else 2, after_dont=True)
    if first == "stop" and len(low) > 1 and low[1].endswith("ing") and len(low[1]) > 4:
        return _imperative(words, None)
    if prefer := PREFER.match(s):
        return _prefer(prefer["rest"])
    if rather := RATHER.match(s):
        return _rather(rather["rest"])
    if first == "no" and habitual and len(words) > 1:  # "No gitmoji in commit messages from now on"
        return _no(words[1:], "rule")
    if please := PLEASE_TAIL.search(s):  # "Keep commit messages short please" as "Please keep commit messages short"
        return _please(s[: please.start()].split(), habitual)
    if habitual:
        return _stated(s, marked=True) or _marked_imperative(words)
    return None


def _marked_imperative(words: list[str]) -> str | None:
    """An imperative after a habit marker. One with a known verb USER.md does not open with gets "Always" ("From now on,
    deploy with Render" is "Always deploy with Render."); a label ("Commit messages: …", "Sam says …") is none."""
    found = _imperative(words, None)
    if found and _low(words[0]) in VERB_LIKE and not any(w.endswith(":") for w in words[:3]):
        return _say(found)
    return found


# --- standing directives without a habit word (module docstring: "Standing without a marker") --
_TARGETS = r"(?:answers?|replies|responses|explanations|summaries|docs|documentation|comments|commit messages|messages|prose|code)"
_COMPONENTS = r"(?:app|apps|service|services|api|backend|frontend|client|server|repo|package|module|crate|library|site|cli|monorepo|mobile app|web app)"
_PART = rf"(?:[\w.-]+ ){{0,2}}?{_COMPONENTS}"  # "legacy app", "billing service": a part of the project
_FOR_PART = r"(?:for|in) (?:the|our) "
SCOPE = re.compile(
    r"(?P<scope>for everything|for all (?:projects|repos|code|commands|scripts|installs)|everywhere|across the (?:board|codebase|repo|project)|"
    r"by default|as a rule|in general|in (?:this|our|the) (?:repo|repository|codebase|code ?base|project)|"
    # a part of the project: "for the legacy app", "in the billing service"
    rf"{_FOR_PART}{_PART}|"
    rf"in (?:your |all |every |all your )?{_TARGETS}(?:,? (?:as well as|and|or|and in|as well as in) (?:your |all )?{_TARGETS})*)",
    re.IGNORECASE,
)
SCOPE_LEAD = re.compile(rf"^{SCOPE.pattern}\s*[,:;-]?\s+", re.IGNORECASE)
SCOPE_TAIL = re.compile(rf"[\s,;-]+{SCOPE.pattern}$", re.IGNORECASE)
DROPPED_SCOPES = frozenset({"as a rule", "in general"})  # markers, like "from now on": nothing to keep in the line
RULE_LABEL = re.compile(
    # "Two things about how I like to work: …", "My preferences: …": the owner's own ways, announced
    r"^(?:(?:(?:a|one|two|three|four|a couple of|a few|some)\s+)?(?:things?\s+)?(?:about\s+)?how i (?:like|want|prefer) (?:to work|things done|it done)"
    r"|(?:(?:my|a couple of|a few|some|two|three)\s+)?(?:working )?preferences"
    r"|(?:(?:house|team|project|repo|codebase|coding|style) )?(?:rule|convention|policy|standard)s?"
    r"(?P<scope> (?:for|in) (?:this|the|our) (?:repo|repository|codebase|code ?base|project|code)| here)?)\s*:\s*",
    re.IGNORECASE,
)
WE_HABIT = re.compile(r"^we (?P<habit>always|never|don't|do not|dont|prefer)\b\s*(?P<rest>.*)$", re.IGNORECASE)  # "we use X" is a fact of the stack (MEMORY.md)
CONTRAST = re.compile(r"(?:,\s*not\b|\s+not\s+(?=\S)|\brather than\b|\binstead of\b)", re.IGNORECASE)
SWITCH = re.compile(r"^(?:go back to|switch back to|switch over to|switch to|move to|revert to|change to)\s+(?P<rest>.+)$", re.IGNORECASE)
CONTRAST_VERBS = STYLE_VERBS | frozenset("run install test lint format indent name spell quote type import log build".split())  # noqa: SIM905
TOOL_VERBS = frozenset("run install test lint format build type".split())  # noqa: SIM905 - standing only with a tool: "run tests with nextest"
TOOL_PREPOSITION = re.compile(r"\b(?:with|using|via)\b", re.IGNORECASE)
ONE_OFF = frozenset(
    """staging prod production migration branch pr ticket issue bug release commit hotfix deploy deployment server db database
    file folder directory function class script meeting email""".split()  # noqa: SIM905
)
STYLE_NOUNS = frozenset(
    """emoji emojis emoticons tables headings headers preamble preambles apologies disclaimers caveats jargon fluff filler
    exclamation em dashes markdown semicolons summaries recaps""".split()  # noqa: SIM905
)
NOT_A_RULE = frozenset("thanks thank idea problem problems worries worry way need one more longer matter doubt wonder rush luck clue".split())  # noqa: SIM905
ANSWER_NOUNS = frozenset("answers answer replies responses explanations summaries docs comments messages sentences paragraphs".split())  # noqa: SIM905
ANSWER_VERBS = frozenset({"answer", "reply", "respond", "speak", "talk"})
NP_ADJECTIVE = re.compile(r"^(?P<adj>(?:much |a bit |more |less )?[a-z]+(?:er|est)?|more [a-z]+|less [a-z]+)\s+(?P<noun>[a-z]+)$", re.IGNORECASE)
# "we do CTEs, not nested subqueries": how the team works, standing once it says what it rules out
WE_CONVENTION = re.compile(r"^we\s+(?:(?P<always>always)\s+|(?:just|generally|normally|usually)\s+)?(?P<rest>\S.*)$", re.IGNORECASE)
WE_VERBS = CONTRAST_VERBS | frozenset({"do", "store", "put"})
VAGUE_OBJECTS = frozenset("both either neither all everything nothing something anything more less much enough".split())  # noqa: SIM905 - "we do both, not one"
# "we don't do nested subqueries, we do CTEs": the mirror of a convention with its contrast, one verb said twice
WE_INSTEAD = re.compile(
    r"^we (?:don't|dont|do not) (?P<verb>\S+) (?P<x>[^,;—–]+?)(?:\s+(?:any ?more|any longer))?\s*(?:[,;]|\s[—–-])\s*(?:(?:but|instead)\s+)?"
    r"we (?P<always>always )?(?P<verb2>\S+) (?P<y>.+?)(?:\s+instead)?$",
    re.IGNORECASE,
)
# "new Python code gets written in polars from now on": a habit said in the passive, the participle and its verb
PARTICIPLES = {
    "written": "write", "done": "do", "built": "build", "tested": "test", "formatted": "format", "linted": "lint", "run": "run",
    "installed": "install", "managed": "manage", "documented": "document",
}
PASSIVE = re.compile(
    rf"^(?P<thing>\S+(?:\s+\S+){{0,3}}?)\s+(?:gets?|is|are|(?:should|must|will) be)\s+(?P<done>{'|'.join(PARTICIPLES)})\s+"
    r"(?P<how>(?:in|with|using|via)\s+\S.*)$",
    re.IGNORECASE,
)
# "all user-facing text goes in the ARB files from now on": where a kind of thing is kept, said as a habit
GOES = re.compile(r"^(?P<thing>\S+(?:\s+\S+){0,4}?)\s+(?:goes|go|(?:should|must|will) go)\s+(?P<where>(?:in|into|through)\s+\S.*)$", re.IGNORECASE)
PLACING = {"in": "Put", "into": "Put", "through": "Pass"}
PERSONAL = frozenset("i you he she it we they me him her us them this that these those".split())  # noqa: SIM905
# "new code uses Req from now on": the same habit in the active voice, the thing first, "use" its only verb
USES = re.compile(r"^(?P<thing>\S+(?:\s+\S+){0,3}?)\s+(?:uses|use|(?:should|must|will) use)\s+(?P<value>\S+(?:\s+\S+){0,3})$", re.IGNORECASE)
REPORTING_VERBS = frozenset("says said thinks reckons wants insists claims suggests mentioned told asked".split())  # noqa: SIM905 - "Sam says new code gets …"
# "we're going with polars after all", "we've settled on Vitest": a decision, standing when it names a value of a known
# kind; "we'll use …", "we're using …", "let's use …" say a plan, standing only with a habit marker
_DECIDED = (
    r"(?:'re|'m| are| am) (?:going with|switching to|moving to|sticking with|sticking to|standardi[sz]ing on)|"
    r"(?:'ve| have)? (?:settled on|decided on|gone with|switched to|moved to|standardi[sz]ed on)"
)
_PLANNED = r"(?:'ll| will)? (?:use|go with|stick with|stick to)|(?:'re|'m| are| am) (?:using|going to use)"
DECISION = re.compile(rf"^(?:we|i|let's)(?:{_DECIDED}|(?P<planned>{_PLANNED}))\s+(?P<value>\S.*)$", re.IGNORECASE)
DECISION_TAIL = re.compile(r"[\s,]+(?:after all|in the end|then|instead|for good)$", re.IGNORECASE)
# "pandas only, no polars", "no polars, pandas only": a choice and the alternative it excludes
EXCLUSION = re.compile(
    r"^(?P<x>[^,;—–]+?)\s*(?:[,;]|\s[—–-])\s*(?:(?:and|but)\s+)?(?P<neg>no|not|never)\s+(?P<y>[^,;—–]+?)(?P<until>,\s*(?:until|unless)\s[^,;—–]+)?$", re.IGNORECASE
)
EXCLUSION_FIRST = re.compile(r"^(?P<neg>no)\s+(?P<y>[^,;—–]+?)\s*(?:[,;]|\s[—–-])\s*(?P<x>[^,;—–]+)$", re.IGNORECASE)
ONLY = re.compile(r"(?<![\w-])only(?![\w-])", re.IGNORECASE)  # not "read-only"
# the chosen thing: a noun phrase of one or two words ("Sam uses pandas only" is a report), "only" and a place it holds in
CHOICE = re.compile(
    r"^(?:only\s+(?P<after>\S+(?:\s+\S+)??)|(?P<before>\S+(?:\s+\S+)??)(?:\s+only)?)(?:\s+(?:in|for|on|inside|outside|across|within)\s+\S.*)?$",
    re.IGNORECASE,
)
TASK_SCOPE = frozenset("changes change edits edit code refactors refactoring fixes fix implementation review reviews plan reads writes merges pushes".split())  # noqa: SIM905 - "docs only, no code changes" scopes a task
TOPIC_LABEL = re.compile(rf"^(?P<topic>(?:[a-z][\w./-]*\s+){{0,2}}(?:{_TOPIC_HEADS}))\s*:\s+(?P<body>\S.*)$", re.IGNORECASE)
NO_PLACE = re.compile(rf"\s+in\s+(?:[a-z][\w./-]*\s+){{0,2}}(?:{_TOPIC_HEADS})$", re.IGNORECASE)  # "No gitmoji in PR titles": a topic, not a task
# a report, not a spec, after a topic label: "Commit messages: mine are imperative", "Tests: they pass"
REPORT_WORDS = frozenset(
    """i you he she it we they me him them mine yours ours theirs is are was were been being has have had will would can could should
    may might must does did""".split()  # noqa: SIM905
)
# a style said by its name, a value rather than a verb: "always UTC" uses UTC, "always snake_case" uses snake_case
NAMED_STYLE = re.compile(
    r"\b(?:(?:snake|kebab|camel|pascal|title|sentence|lower|upper|screaming)[ _-]?case|imperative|conventional|iso ?8601|utc|semver)\b", re.IGNORECASE
)
# an order of the parts of a pattern: "the ticket id first, then a short summary"
ORDER = re.compile(r"\bfirst,? (?:then|and then|followed by)\b", re.IGNORECASE)
# what makes the words after a topic label a style rule rather than a report ("Tests: 12 passed"): "please" or "only", a
# placeholder pattern, a case, a mood or tense, a length limit, a named standard, an order ("the ticket id first, then …")
STYLE_SPEC = re.compile(
    rf"\bplease\b|(?<![\w-])only(?![\w-])|<\w[\w -]*>|\{{\w[\w -]*\}}|{NAMED_STYLE.pattern}|\b(?:mood|tense|style|prefix(?:ed)?|suffix(?:ed)?)\b|"
    r"(?:\bunder|\bmax(?:imum)?|\bat most|\bno (?:more|longer) than|\bup to|\bbelow|\bwithin|\bless than|<=?)\s*\d+|\b\d+\s*(?:chars?|characters|words|lines|columns)\b"
    rf"|{ORDER.pattern}",
    re.IGNORECASE,
)


def _general(words: list[str], *, one_off: bool = False) -> bool:
    """No specific object ("the", "this", "my …"), nothing about now, and (``one_off``) no word of a one-off task."""
    low = [_low(w) for w in words]
    if any(w in SPECIFIC for w in low) or _now(" ".join(words)) or not _stands_alone(words or [""]):
        return False
    return not (one_off and any(w in ONE_OFF for w in low))


def _say(body: str) -> str:
    """``body`` as USER.md accepts it: a verb USER.md does not open with gets "Always" ("Always run tests with …")."""
    first = _low(body.split()[0])
    return body if first in usermodel.DIRECTIVE_WORDS else "Always " + body[0].lower() + body[1:]


def _kind_value(words: list[str]) -> str | None:
    tokens = _tokens(" ".join(words))
    while tokens[:1] and tokens[0] in DETERMINERS:
        tokens = tokens[1:]
    return _kind(tokens)


def _scoped(s: str) -> tuple[str, str | None]:
    """``s`` without one leading or trailing standing scope ("for everything", "in this repo", "in docs and answers"), and the scope."""
    if lead := SCOPE_LEAD.match(s):
        return s[lead.end():], lead["scope"]
    if tail := SCOPE_TAIL.search(s):
        return s[: tail.start()], tail["scope"]
    return s, None


def _with(body: str, scope: str | None) -> str:
    return body if not scope or scope.casefold() in DROPPED_SCOPES else f"{body} {scope[0].lower()}{scope[1:]}"


def _standing(s: str) -> str | None:
    """A standing directive said without a habit word, in its raw imperative form, or None."""
    s = s.strip().rstrip(" .!")
    if topic := TOPIC_LABEL.match(s):  # "Commit messages: imperative mood, under 72 chars, please"
        return _topic(topic)
    please = bool(PLEASE_TAIL.search(s)) or bool(re.match(r"please\b", s, re.IGNORECASE))
    please_within = please or bool(PLEASE_ANYWHERE.search(s))  # "named exports please — no default exports"
    s = PLEASE_ANYWHERE.sub("", PLEASE_TAIL.sub("", s)).strip(" ,")
    if rule := RULE_LABEL.match(s):  # "Rule for this codebase: no unwrap() in library code"
        found = _rule(s[rule.end():])
        label = s[: rule.end()].rstrip(" :").casefold()
        return f"{found} ({label})" if found and rule["scope"] else found
    body, scope = _scoped(s)
    if scope and (found := _detect(body)):  # "For the legacy app, always use npm for installs"
        return _with(found.rstrip(" .!"), scope)
    if found := _stated(body, marked=scope is not None and scope.casefold() in DROPPED_SCOPES):  # "As a rule, new code gets …"
        return _with(found, scope)
    if instead := WE_INSTEAD.match(body):  # "we don't do nested subqueries, we do CTEs"
        return _instead(instead, scope)
    here = re.search(r"[\s,]+here$", body, re.IGNORECASE)
    we = WE_HABIT.match(body[: here.start()] if here else body)
    if we and (scope or here):  # "In this repo we never …", "We use tabs here": a convention, not a report
        return _we(we, scope or "here")
    if convention := WE_CONVENTION.match(body):  # "we do CTEs, not nested subqueries"
        return _convention(convention, scope)
    words = body.split()
    if not words:
        return None
    low = [_low(w) for w in words]
    if low[0] == "no" and len(words) > 1:  # "No emojis", "No unwrap() in library code in this repo", "No polars, pandas only"
        found = _no(words[1:], scope)
        if not found and (only := _only(body, please=please_within)):
            found = _say(_with(only, scope))
        return found
    if switch := SWITCH.match(body):  # "go back to plain `cargo test`", "switch to pnpm for everything"
        rest = switch["rest"].split()
        if _general(rest) and (_kind_value(rest) or "`" in switch["rest"]):
            return _with("Use " + switch["rest"], scope)
        return None
    if low[0] in CONTRAST_VERBS and CONTRAST.search(" ".join(words[1:])):  # "Use tabs, not spaces", "X rather than Y"
        found = _contrast(words)
        return _say(_with(found, scope)) if found else None
    if found := _only(body, please=please_within):  # "pandas only, no polars", "use uv only, no pip"
        return _say(_with(found, scope))
    if low[0] == "keep" and len(low) >= 3 and (low[1] in ANSWER_NOUNS or (low[1] == "your" and low[2] in ANSWER_NOUNS)):  # "keep answers short"
        return _with(body, scope) if _general(words) else None
    if low[0] in ANSWER_VERBS and low[1:2] == ["in"] and _kind_value(words[2:]) in ANSWER_KINDS:  # "Reply in French"
        return _with(body, scope) if _general(words) else None
    if scope and low[0] in STYLE_VERBS and _is_verb(words[0]):  # "Use British spelling in docs", "Use pnpm for everything"
        if low[0] == "write" and (len(low) < 2 or low[1] not in PREPOSITIONS):
            return None
        return _with(body, scope) if _general(words, one_off=True) else None
    if scope and low[0] in TOOL_VERBS and TOOL_PREPOSITION.search(body):  # "Run tests with nextest in this repo"
        return _say(_with(body, scope)) if _general(words, one_off=True) else None
    if please or scope:  # a noun phrase asked for: "British English please", "Shorter answers, please"
        return _phrase(body, scope)
    return None


def _rule(body: str) -> str | None:
    """What a rule label introduces: a directive, "we …", "no …" or a plain imperative."""
    body = body.strip().rstrip(" .!")
    if found := _detect(body) or _stated(body, marked=True):
        return found
    if we := WE_HABIT.match(body):
        return _we(we, None)
    if convention := WE_CONVENTION.match(body):  # "Convention here: we do squash merges, not rebases"
        return _convention(convention, None)
    words = body.split()
    if words and _low(words[0]) == "no" and len(words) > 1:
        return _no(words[1:], "rule")
    if not words or not _general(words):
        return None
    if len(words) >= 3 and _low(words[1]) == "for" and _low(words[0]) not in VERB_LIKE:  # "snake_case for module names"
        return "Use " + body
    return _say(body) if _is_verb(words[0]) and _low(words[0]) in VERB_LIKE | CONTRAST_VERBS else None


def _we(we: re.Match[str], scope: str | None) -> str | None:
    """ "In this repo we never …" as "Never … in this repo"."""
    habit, rest = we["habit"].casefold(), we["rest"].split()
    if not rest:
        return None
    lead = {"always": "Always", "never": "Never", "don't": "Don't", "do not": "Don't", "dont": "Don't", "use": "Use", "prefer": "Prefer"}[habit]
    if habit in ("use", "prefer"):
        return _with(f"{lead} {we['rest']}", scope) if _general(rest) else None
    found = _imperative(rest, lead)
    return _with(found, scope) if found and _general(rest) else None


def _contrast(words: list[str]) -> str | None:
    """ "Use tabs, not spaces": a general object, and a tool verb only with what it is done with ("run tests with nextest")."""
    low = [_low(w) for w in words]
    if low[0] == "write" and not any(w in PREPOSITIONS for w in low[1:]):
        return None
    if low[0] in TOOL_VERBS and not TOOL_PREPOSITION.search(" ".join(words)):
        return None
    return " ".join(words) if _general(words, one_off=True) and _is_verb(words[0]) else None


def _convention(we: re.Match[str], scope: str | None) -> str | None:
    """ "we do CTEs, not nested subqueries" as "Do CTEs, not nested subqueries": how the team works is standing once it
    says what it rules out (a contrast or an exclusion); without one, "we use X" is a fact of the stack (MEMORY.md)."""
    words = we["rest"].split()
    if len(words) > 2 and _low(words[0]) == "do" and _low(words[1]) in WE_VERBS:  # "we do use Vitest, not Jest"
        words = words[1:]
    words = _resolve(words, None)
    if _low(words[0]) not in WE_VERBS or not _is_verb(words[0]) or (len(words) > 1 and _low(words[1]) in VAGUE_OBJECTS):
        return None
    said = " ".join(words)
    found = _contrast(words) if CONTRAST.search(said) else _only(said, please=False, verb=True)
    if not found:
        return None
    return _with(f"Always {found}" if we["always"] else _say(found), scope)


def _instead(we: re.Match[str], scope: str | None) -> str | None:
    """ "we don't do X, we do Y" as "we do Y, not X" (``_convention``), what the two share said once: "we don't write them
    with Jest, we write them with Vitest" is "Write tests with Vitest, not Jest"."""
    if we["verb"].casefold() != we["verb2"].casefold():
        return None  # "we don't mock the database, we use fixtures": no contrast to say
    x, y = we["x"].split(), we["y"].split()
    shared = next((i for i, (a, b) in enumerate(zip(x, y, strict=False)) if _low(a) != _low(b)), min(len(x), len(y)))
    if shared >= min(len(x), len(y)):
        return None
    mirrored = WE_CONVENTION.match(f"we {we['always'] or ''}{we['verb2']} {we['y']}, not {' '.join(x[shared:])}")
    return _convention(mirrored, scope) if mirrored else None


def _stated(s: str, *, marked: bool) -> str | None:
    """A rule said as how things are done, not as an imperative: a passive habit, only with a marker (``marked``),
    and a decision for a value of a known kind, a plan ("we'll use …") only with a marker (module docstring)."""
    if passive := PASSIVE.match(s):
        thing = passive["thing"].split()
        if not marked or any(_low(w) in REPORT_WORDS | IRREGULAR_PAST | REPORTING_VERBS for w in thing):
            return None
        found = _imperative([PARTICIPLES[passive["done"].casefold()], _uncap(thing[0]), *thing[1:], *passive["how"].split()], None)
        return _say(found) if found else None
    if (uses := USES.match(s)) and marked and _a_kind_of_thing(thing := uses["thing"].split()):  # "New code uses Req from now on"
        return _imperative(["Use", *uses["value"].rstrip(".!").split(), "for", _uncap(thing[0]), *thing[1:]], None)
    if (goes := GOES.match(s)) and marked and _a_kind_of_thing(thing := goes["thing"].split()):  # "All user-facing text goes in the ARB files"
        return _imperative([PLACING[goes["where"].split()[0].casefold()], _uncap(thing[0]), *thing[1:], *goes["where"].split()], None)
    if decision := DECISION.match(s):
        value = DECISION_TAIL.sub("", decision["value"]).split()
        if (decision["planned"] and not marked) or not _kind_value(value) or not _general(value, one_off=True):
            return None
        return "Use " + " ".join(value)
    return None


def _a_kind_of_thing(thing: list[str]) -> bool:
    """Whether the subject of "<thing> uses X" is a kind of thing ("new code", "tests", "the frontend"), not a person
    ("Sam", "we") or a pointer ("it")."""
    if len(thing) < 2 and not _low(thing[0]).endswith("s"):
        return False
    return not any(_low(w) in REPORT_WORDS | IRREGULAR_PAST | REPORTING_VERBS | PERSONAL for w in thing)


def _uncap(word: str) -> str:
    """``word`` without the capital that opened the sentence ("New code"), a name's kept ("PR", "TypeScript", "French")."""
    return word[0].lower() + word[1:] if word[1:].islower() and _kind([_low(word)]) != "language" else word


def _only(body: str, *, please: bool, verb: bool = False) -> str | None:
    """ "pandas only, no polars" as "Use pandas only, no polars": a choice, with "only" or "please", and what it excludes;
    ``verb``: the choice must open with its verb ("we use pandas only, no polars")."""
    found = EXCLUSION.match(body) or EXCLUSION_FIRST.match(body)
    if not found or not (ONLY.search(found["x"]) or please):
        return None
    words, lead = found["x"].split(), "Use"
    if len(words) > 1 and _low(words[0]) in (WE_VERBS if verb else STYLE_VERBS) and _is_verb(words[0]):  # "use uv only", "stick to pytest only"
        cut = 2 if _low(words[1]) == "to" and len(words) > 2 else 1
        lead, words = " ".join(words[:cut]), words[cut:]
    elif verb:
        return None
    choice = CHOICE.match(" ".join(words))
    noun = (choice["after"] or choice["before"]).split() if choice else []
    excluded = found["y"].split()
    if not noun or any(_low(w) in NOT_VERBS or "'" in w for w in noun) or not _general([*words, *excluded], one_off=True):
        return None
    until = found.groupdict().get("until") or ""  # ", until the team agrees otherwise" stays with the rule, "until tomorrow" is now
    if TIME_DEICTIC.search(until):
        return None
    if any(_low(w) in TASK_SCOPE for w in [*words, *excluded]):
        return None
    if lead == "Use":  # "Pandas only": the sentence's capital
        words = [_uncap(words[0]), *words[1:]]
    return f"{lead} {' '.join(words)}, {found['neg'].casefold()} {found['y']}{until}"


def _resolve(words: list[str], topic: str | None) -> list[str]:
    """The pronoun of a rule as what it stands for, so that the line stands alone: under a topic label the first "them"
    or "it" is the topic ("Commit messages: keep them short"); right after the verb, "them" is what a kind's value
    is used on ("we write them with Vitest" writes tests)."""
    pronouns = ("them", "it") if topic else ("them",)
    at = next((i for i, w in enumerate(words) if _low(w) in pronouns), None)
    if at is None or (not topic and at != 1):
        return words
    noun = topic or KIND_TOPICS.get(_tool_kind(_tokens(" ".join(words[at + 1 :]))) or "")
    return [*words[:at], noun + words[at][len(words[at].rstrip(",;:.!")) :], *words[at + 1 :]] if noun else words


def _topic(label: re.Match[str]) -> str | None:
    """A rule under a topic label, the topic kept so that the line stands alone: a rule said as a clause is that directive,
    the topic in brackets unless it names it; a choice of a known kind "Use …"; any other style spec "Format <topic>: …"."""
    topic = " ".join(label["topic"].split())
    if any(_low(w) in SPECIFIC | DETERMINERS | NOT_VERBS for w in topic.split()):  # "Your commit messages: too long"
        return None
    topic = topic if topic.split()[0].isupper() else topic[0].lower() + topic[1:]  # "PR titles" keeps its capitals
    body = DASH.split(label["body"])[0].strip()  # "conventional commits please — feat:, fix:, chore:": examples of it
    words = _resolve(body.split(), topic)
    said, first = " ".join(words), _low(words[0])
    found = _detect(said)  # "Tests: I'd rather you didn't mock the database"
    if not found and (first == "we" or (first in VERB_LIKE | WE_VERBS and _is_verb(words[0]))):
        found = _standing(said)
    elif not found:
        spec = PLEASE_ANYWHERE.sub("", body).strip(" ,")
        nouns = spec.split()
        # in an order of parts "the" names a part of the pattern, not one thing: "the ticket id first, then a summary"
        parts = [w for w in nouns if _low(w) != "the"] if ORDER.search(body) else nouns
        if not nouns or any(_low(w) in REPORT_WORDS for w in nouns) or not _general(parts):
            return None
        if _low(nouns[0]) == "no":  # "Commit messages: no emojis"
            found = _no(nouns[1:], None)
        elif _kind_value(nouns) and (STYLE_SPEC.search(body) or CONTRAST.search(spec)):  # "Indentation: tabs, not spaces"
            found = "Use " + spec
        elif STYLE_SPEC.search(body):  # a contrast alone is no spec: "Commits: 3 ahead of main, not pushed"
            return f"Format {topic}: {spec}"
        else:
            return None
    if found and topic.split()[-1].casefold() not in _tokens(found):
        return f"{found.rstrip(' .!')} ({topic})"
    return found


def _no(rest: list[str], scope: str | None) -> str | None:
    """ "No emojis" as "Don't use emojis": a style noun, any general noun under a scope, a rule label or a habit marker
    (``scope`` "rule": nothing to keep in the line), or in a topic with a house style ("No gitmoji in PR titles")."""
    said = " ".join(rest)
    place = NO_PLACE.search(said)
    thing = said[: place.start()].split() if place else rest
    low = [_low(w) for w in thing]
    if not low or low[0] in NOT_A_RULE or low[0] in NOT_VERBS or not _general(rest) or not _general(thing, one_off=True):
        return None
    if low[0] not in STYLE_NOUNS and not scope and not place:
        return None
    return _with("Don't use " + said, None if scope == "rule" else scope)


def _phrase(body: str, scope: str | None) -> str | None:
    """A noun phrase asked for with "please" or a scope: a choice of how answers are written, or "shorter answers"."""
    words = body.split()
    if not words or len(words) > 4 or not _general(words):
        return None
    if _kind_value(words) in ANSWER_KINDS and not any(_is_verb(w) and _low(w) in VERB_LIKE for w in words):
        return _with("Use " + body, scope)
    np = NP_ADJECTIVE.match(body)
    if np and _low(np["noun"]) in ANSWER_NOUNS and (np["adj"].casefold() in ADJECTIVES or np["adj"].casefold().split()[-1] in ADJECTIVES):
        return _with(f"Keep {np['noun'].casefold()} {np['adj'].casefold()}", scope)
    return None


def _strip(sentence: str) -> str:
    """The sentence without scaffolding (``scaffold.strip``), emphasis, conversational lead-ins
    and wrappers; a speaker label comes off only when it names the owner or a wrapper."""
    s = PLS.sub("please", EMPHASIS.sub("", sentence.replace("\u2019", "'").replace("\u2018", "'")))
    previous = None
    while s != previous:
        previous = s
        s = scaffold.strip(s, labels=False).text  # the one normaliser: timestamps, message ids, quote markers
        s = LEAD_IN.sub("", s, count=1)
        s = strip_wrappers(s).strip()
        label = _label(s)
        if label and label[0] in WRAPPER_LABELS | OWNER_LABELS:
            s = s[label[1]:]
    return s.strip()


def _label(s: str) -> tuple[str, int] | None:
    """A speaker or wrapper label opening ``s`` ("Sam: …", "Note: …") and where it ends; a
    directive with a colon in it ("Always sign as: Ada") has none."""
    match = TRANSCRIPT_LABEL.match(s)
    if not match:
        return None
    label = match["label"].strip().casefold()
    words = label.split()
    if not words or len(words) > 3 or words[0] in LABEL_NOT_SPEAKER:
        return None
    return label, match.end()


def _finish(text: str) -> str | None:
    """The normal form: one imperative sentence ending in a full stop, or None if it is not one."""
    text = PLEASE_TAIL.sub("", HABIT_TAIL.sub("", text.strip()))
    text = re.sub(r"^(?:do not|dont)\b", "Don't", text, flags=re.IGNORECASE).rstrip(" .!,;:…")
    if not text or len(text.split()) > MAX_WORDS or len(text) > usermodel.MAX_DIRECTIVE_CHARS:
        return None
    text = text[0].upper() + text[1:] + "."
    try:
        return usermodel.check_directive(text)
    except BadInput:
        return None


def directive_in(sentence: str, *, habitual: bool = False) -> str | None:
    """The normalised directive one sentence (or clause) states, or None (module docstring).

    ``habitual``: the speaker already said it is a standing rule (an agent's proposal), so a
    plain imperative counts."""
    raw = sentence.strip()
    if not raw or raw[0] in QUOTE_OPENERS or raw.rstrip().endswith("?") or len(DOUBLE_QUOTES.findall(raw)) % 2:
        return None
    s = REASON_TAIL.sub("", FILLER_TAIL.sub("", _strip(raw)))
    if not s or s[0] in QUOTE_OPENERS or (_label(s) and not RULE_LABEL.match(s) and not TOPIC_LABEL.match(s)):  # a label still there names someone else
        return None
    if aside := ASIDE.match(s):
        if TIME_DEICTIC.search(aside["topic"]):
            return None
        labelled = f"{aside['topic']}: {aside['rest']}"
        s = labelled if aside["topic"].casefold() != "it" and TOPIC_LABEL.match(labelled) else aside["rest"]
    lead = HABIT_LEAD.match(s)
    if lead:
        s, habitual = s[lead.end():], True
    if HABIT_TAIL.search(s):
        s, habitual = HABIT_TAIL.sub("", s), True
    you = YOU_LEAD.match(s)
    if you and (habitual or re.match(r"(?:always|never)\b", s[you.end():], re.IGNORECASE)):
        s = s[you.end():]
    if (asked := _asked_of_the_owner(s)) is not None:
        return asked
    when = WHEN_FIRST.match(s)
    if when:
        found = _first(when["rest"], habitual)
        cond = when["cond"]
        if found and cond.casefold().startswith("while") and TIME_DEICTIC.search(cond):
            return None  # "while you're in this file: …" is a rule for now
        return _finish(f"{found.rstrip(' .!')} {cond[0].lower()}{cond[1:]}") if found else None
    if found := _first(s, habitual):
        return found
    if granted := CONCESSION.match(s):
        return directive_in(granted["rest"], habitual=habitual)
    return None


def _asked_of_the_owner(s: str) -> str | None:
    """``CONDITION_FIRST`` with ``TO_THE_OWNER`` as "Y if X", or None: a one-off ("If it works,
    tell me", "If the tests pass, tell me the numbers") names a particular thing after "if" or "me"."""
    conditional = CONDITION_FIRST.match(s)
    told = TO_THE_OWNER.match(conditional["rest"]) if conditional else None
    if conditional is None or told is None:
        return None
    cond, rest = conditional["cond"], conditional["rest"]
    after = rest[told.end() :].split()
    if not _general(after) or (cond.casefold().startswith("if") and not _general(cond.split()[1:])):
        return None
    return _finish(_say(f"{rest.rstrip(' .!')} {cond[0].lower()}{cond[1:]}"))


def _first(s: str, habitual: bool) -> str | None:
    """The first reading of ``s`` as a directive that ``_finish`` accepts: as said, then as a standing rule (a habit
    marker does not hide a topic label: "tests: I'd rather you didn't mock the database, ever")."""
    found = _detect(s, habitual=habitual)
    if found and (finished := _finish(found)):
        return finished
    found = _standing(s)
    return _finish(found) if found else None


LOWER_BOUNDARY = re.compile(r"(?<=[a-z)`])(?P<word>[\w.]*)[.!]+\s+(?=[a-z])")


def _lower_sentences(sentence: str) -> list[str]:
    """``sentence`` split where a typed sentence ends and the next starts in lower case ("keep answers short. bullets."),
    never after an abbreviation or an initial ("e.g. redis")."""
    parts, start = [], 0
    for match in LOWER_BOUNDARY.finditer(sentence):
        word = (sentence[: match.start()].split() or [""])[-1] + match["word"]
        if len(word) < 2 or "." in word or word.casefold() in ABBREVIATIONS:
            continue
        parts.append(sentence[start : match.end()].strip())
        start = match.end()
    return [*parts, sentence[start:].strip()] if parts else [sentence]


def _clauses(sentence: str) -> list[str]:
    """The parts of ``sentence`` that may each state a rule (``CLAUSES``, ``DASH``); a sentence that states one only as a
    whole ("we don't do nested subqueries; we do CTEs") stays whole."""
    whole = CLAUSES.split(sentence)
    head, *tails = DASH.split(sentence)
    if not tails or len(head.split()) <= MAX_DASH_LEAD_WORDS or (directive_in(head) and any(directive_in(c) for c in whole)):
        parts = whole
    else:
        parts = CLAUSES.split(head)
    if len(parts) > 1 or tails:
        return parts if any(directive_in(p) for p in parts) or not directive_in(sentence) else [sentence]
    return parts


def states_directive(text: str) -> bool:
    """Whether a sentence of ``text`` states a directive: its words belong in ``USER.md``, not in a claim."""
    return any(directive_in(s) for s in sentences(text))


def directives_in(text: str, *, transcript: bool) -> list[str]:
    """Every directive an entry's text states, in order (``text.pieces`` splits it)."""
    found = []
    before = ""  # the sentence before: what it retired ("We're dropping poetry.") a directive after it replaces
    files: list[str] = []  # the files and folders the turn has named so far ("seeds/stations.csv")
    for piece in pieces(text, transcript=transcript):
        # a name inside the turn ("Sam: use tabs") said it; directive_in judges the label again ("Dataframes: …" is a topic)
        said_by = f"{piece.speaker}: " if piece.speaker and piece.speaker.casefold() not in OWNER_LABELS else ""
        for sentence in (part for said in sentences(piece.said) for part in _lower_sentences(said)):
            for clause in _clauses(sentence):
                directive = directive_in(said_by + clause)
                if directive:  # the sentence before is parsed only for a directive, not for every sentence of every turn
                    directive = _file_named(_instead_of(directive, _dropped(before)), files)
                if directive and directive not in found:
                    found.append(directive)
            before = sentence
            files += FILE.findall(sentence)
    return found


# a file or folder as written: "seeds/stations.csv", "lib/l10n/app_en.arb", ".env.local", "docker-compose.yml"
FILE = re.compile(
    r"(?<![\w/.-])(?:[\w-]+/)+[\w.-]*\w|(?<![\w/.-])\.\w[\w.-]*\w"  # a path, a dotfile (".env.local")
    r"|(?<![\w/.-])[\w-]+\.(?:csv|json|ya?ml|toml|sql|py|rb|ex|exs|ts|js|go|rs|dart|md|txt|env|lock|arb|ini|cfg|conf)\b"
)
THE_FILE = re.compile(r"\bthe (?P<noun>[a-z]+)(?: (?:file|folder|directory|dir))?\b")


def _file_named(directive: str, files: list[str]) -> str:
    """ "The list comes from seeds/stations.csv. … Don't edit the seed yourself." is "Don't edit the
    seed (seeds/stations.csv) yourself.": "the <noun> (file)" is the one file or folder the turn
    named before whose path holds that noun (``USER.md`` is read without the turn). The owner's
    words stay, and with them the key, so the line replaces the one said without the file."""
    def named(m: re.Match[str]) -> str:
        noun = m["noun"].casefold()
        held = {f for f in files if {noun, noun + "s", noun.removesuffix("s")} & set(re.split(r"[/._-]+", f.casefold()))}
        return f"{m[0]} ({held.pop()})" if len(held) == 1 else m[0]

    return THE_FILE.sub(named, directive)


def _dropped(sentence: str) -> str | None:
    """The value of a known kind a sentence retires without naming what replaces it ("We're dropping
    poetry", ``updates.parse``), as written; a directive right after it names the replacement."""
    update = updates.parse(sentence)
    if update is None or update.old is None or update.new is not None or _kind(_tokens(update.old)) is None:
        return None
    said = re.search(re.escape(update.old), sentence, re.IGNORECASE)
    return said[0] if said else None


def _instead_of(directive: str, dropped: str | None) -> str:
    """ "We're dropping poetry. Use uv from now on." is "Use uv, not poetry.": the directive names a
    value of the kind just dropped (``_dropped``; None: nothing was) and says nothing of what it rules out."""
    if dropped is None:
        return directive
    named = re.search(rf"(?<![\w-]){re.escape(dropped)}(?![\w-])", directive, re.IGNORECASE)  # "npm" is not in "pnpm"
    if CONTRAST.search(directive) or named or _kind(_tokens(dropped)) != derive_key(directive):
        return directive
    return f"{directive.rstrip(' .!')}, not {dropped}."


# --- keys ------------------------------------------------------------------------------------
def _tokens(text: str) -> list[str]:
    """The words of ``text`` for kinds and keys; "Vitest + Testing Library" is "vitest and testing library"."""
    return TOKEN.findall(text.casefold().replace("\u2019", "'").replace(" + ", " and "))


def _kind(tokens: list[str]) -> str | None:
    """The kind whose value opens ``tokens`` (longest value first), if what follows ends the slot."""
    for name, (values, nouns) in KINDS.items():
        for size in (2, 1):
            value = " ".join(tokens[:size])
            if len(tokens) >= size and value in values:
                after = tokens[size] if len(tokens) > size else None
                if after is None or after in SLOT_END or after in PREPOSITIONS or after in nouns or after in ("please", "everywhere", "everything", "here", "only"):
                    return name
    return None


def _tool_kind(tokens: list[str]) -> str | None:
    """The kind of a value the object is done with or in: "run tests with nextest", "write docs in British English"."""
    for i, t in enumerate(tokens):
        if t in SLOT_END:
            return None
        if t in ("with", "using", "via", "in"):
            rest = tokens[i + 1 :]
            while rest[:1] and rest[0] in DETERMINERS:
                rest = rest[1:]
            return _kind(rest)
    return None


def _head(tokens: list[str]) -> str | None:
    """The first topic word of an object (an adjective only when nothing else is there)."""
    slot = []
    for t in tokens:
        if t in SLOT_END or t in PREPOSITIONS:
            break
        slot.append(t)
    content = [t for t in slot if t not in DETERMINERS and t not in NOT_VERBS and t[0].isalnum()]
    nouns = [t for t in content if t not in ADJECTIVES]
    chosen = nouns or content
    return PLURALS.get(chosen[0], chosen[0]) if chosen else None


def _slug(parts: Iterable[str]) -> str:
    key = re.sub(r"[^a-z0-9._-]+", "-", "-".join(parts).casefold()).strip("-._")
    return key[:MAX_KEY].rstrip("-._") or "directive"


COMPONENT_TAIL = re.compile(rf"[\s,;-]+{_FOR_PART}(?P<part>{_PART})[.!]*$", re.IGNORECASE)


def derive_key(directive: str) -> str:
    """The supersession key of a normalised directive: the slot it fills (module docstring); a rule
    for one part of the project fills that part's slot ("… for the legacy app": ``….legacy-app``),
    so it never replaces the rule for everything, and so does what to do towards the owner under
    a condition ("Stop and ask me if a query would scan more than 10 GB": ``ask-me.query-scan``)."""
    told = TO_THE_OWNER.match(ALWAYS_LEAD.sub("", directive))
    if told and (cond := OWNER_CONDITION.search(directive)):
        verb = [t for t in _tokens(told[0]) if t not in ("please", "just", "always", "first", "stop", "and")]
        topic = [t for t in _tokens(cond["cond"]) if t not in CONDITION_FILLER and not t.isdigit()][:2]
        return f"{_slug(verb)}.{_slug(topic)}"[:MAX_KEY].rstrip("-._")
    if part := COMPONENT_TAIL.search(directive):
        return f"{_slot(directive[: part.start()])}.{_slug(_tokens(part['part']))}"[:MAX_KEY].rstrip("-._")
    return _slot(directive)


def _slot(directive: str) -> str:
    tokens = _tokens(directive)
    i = 0
    while i < len(tokens):
        t, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else ""
        if t in ("always", "never", "ever", "please", "only", "just", "also", "don't", "dont", "not") or (t == "do" and nxt == "not"):
            i += 1
        elif t == "prefer" and nxt in ("to", "not"):
            i += 2 + (nxt == "not" and i + 2 < len(tokens) and tokens[i + 2] == "to")
        elif t in ("stop", "avoid", "keep") and nxt.endswith("ing"):
            i += 1
        else:
            break
    if i >= len(tokens):
        return _slug(tokens[:3])
    verb = VERB_CANON.get(ING_BASE.get(tokens[i], tokens[i]), ING_BASE.get(tokens[i], tokens[i]))
    rest = tokens[i + 1 :]
    if rest[:1] == ["to"] and tokens[i] in ("stick", "default", "switch"):
        rest = rest[1:]
    frame = [verb]
    if rest[:1] and rest[0] in OWNER_PRONOUNS:
        frame.append(rest.pop(0))
    if rest[:1] and rest[0] in PREPOSITIONS:
        frame.append(rest.pop(0))
    while rest[:1] and rest[0] in DETERMINERS:
        rest.pop(0)
    kind = _kind(rest) or _tool_kind(rest)
    if kind:
        return kind
    if frame[1:2] and frame[1] in OWNER_PRONOUNS:  # "call me Sam": what follows the pronoun is the value
        return _slug(frame)
    head = _head(rest)
    return _slug([*frame, head] if head else frame)
