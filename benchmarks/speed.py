"""Speed benchmark: index build throughput, search latency (library and CLI) and index size.

Synthetic workspaces of 1k, 10k and 100k entries (daily notes over many days, Zipf-distributed
vocabulary with a long tail, plus one ``MEMORY.md``) are written straight to disk in the
daily-note format, then indexed with clawmem's own ``run_index``. Reported per size:

- index build: entries/s of the file -> index sync, and of embedding (the workspace's embedder).
  Up to ``--embed-max`` entries the embedding is the installed ``clawmem index --json`` in its own
  process, timed from outside (interpreter, model load and all), beside the embedder's raw encode
  rate on a random draw of the same entries, measured in-process before and after it (target:
  indexing >= 90 % of raw); what the command itself reported (its time and rate) is printed too.
  Embedding 100k entries on a 2-core machine takes hours, so above
  ``--embed-max`` entries only a ``--sample`` of entries is embedded (that gives the rate) and
  every other entry gets a perturbed copy of a sample vector, written to the embedding cache and
  the vec0 table exactly as ``vectors.refresh`` writes them. Search latency with vectors is then
  measured on a full-size vec0 table; only the vector values are synthetic (the output says so).
- search latency in-process: ``clawmem.search.search`` as a library call with the default options
  (limit 6, min_score 0.35, recall logging on), warm (embedder loaded, one warm-up query),
  p50/p95 over ``--queries`` distinct queries, lexical and hybrid separately.
- search latency as a process: ``clawmem search Q --json`` (and ``--lexical``) in a subprocess,
  p50/p95 over ``--cli-runs`` runs, next to ``python -c pass`` measured in the same run.
- whole-process commands a shell or a host runs often (``--help``, ``status``, ``search``, ``recall``,
  one Tab of the bash completion), each run paired with ``python -c pass`` (p50/p95, wall and CPU,
  ratio to the floor run next to it), see ``_timing.paired``.
- index size: bytes of ``index.db`` plus its WAL, before and after a checkpoint.
- when hybrid p50 >= 50 ms (``--profile``): where a hybrid search spends its time, by cProfile
  (cumulative ms per search over the real code; the hand-built stage breakdown of earlier rounds,
  which re-implemented the search and fell out of step with it, is gone).

Run: ``python benchmarks/speed.py [--sizes 1000,10000,100000] [--no-embed] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "--code" in sys.argv[:-1]:  # measure another checkout (the baseline): its clawmem first, here and in the CLI subprocesses
    ROOT = Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    sys.path.insert(0, str(ROOT))
if "--blas-threads" in sys.argv[:-1]:  # must be set before numpy is first imported (here or in the CLI subprocesses)
    _threads = sys.argv[sys.argv.index("--blas-threads") + 1]
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_name] = _threads

from _timing import compile_measured, paired, paired_row, paired_table
from mcp_handshake import floor as handshake_floor
from mcp_handshake import handshake

from clawmem.commands import workspace_init
from clawmem.storage.workspace import Workspace

TARGET_MS = 50.0
MEMORY_ENTRIES = 50
FUNCTION_WORDS = ["the", "a", "an", "to", "of", "and", "in", "on", "for", "with", "at", "by", "from", "we", "i", "you", "it", "is", "was", "will", "should", "that", "this", "after", "before", "because", "but", "so", "then", "again", "also", "not", "our", "my", "their", "about", "into", "over", "when", "while"]  # noqa: E501  word-list data
DOMAIN_WORDS = ["agent", "memory", "note", "file", "index", "search", "query", "vector", "token", "model", "cache", "server", "deploy", "branch", "commit", "review", "test", "failure", "retry", "webhook", "invoice", "customer", "database", "schema", "migration", "column", "table", "user", "prefers", "dark", "mode", "answer", "meeting", "project", "deadline", "budget", "release", "bug", "fix", "crash", "log", "error", "warning", "config", "key", "secret", "rotate", "staging", "production", "backup", "restore", "disk", "network", "latency", "timeout", "queue", "worker", "job", "schedule", "cron", "python", "rust", "shell", "script", "library", "package", "version", "upgrade", "pin", "lock", "docker", "kubernetes", "cluster", "node", "pod", "ingress", "certificate", "dns", "domain", "email", "calendar", "invite", "travel", "flight", "hotel", "train", "ticket", "passport", "visa", "dentist", "doctor", "appointment", "pharmacy", "recipe", "dinner", "lunch", "coffee", "grocery", "garden", "plant", "dog", "cat", "vet", "school", "homework", "birthday", "gift", "party", "wedding", "anniversary", "budget", "rent", "mortgage", "tax", "refund", "salary", "invoice", "payment", "card", "bank", "loan", "insurance", "car", "repair", "tyre", "oil", "service", "bike", "run", "gym", "yoga", "swim", "climb", "hike", "trail", "camping", "tent", "beach", "mountain", "lake", "river", "city", "museum", "concert", "movie", "book", "podcast", "album", "guitar", "piano", "lesson", "course", "exam", "language", "spanish", "german", "japanese", "chinese", "french", "kitchen", "laptop", "phone", "monitor", "keyboard", "mouse", "printer", "router", "wifi", "password", "account", "login", "token", "api", "endpoint", "latency", "throughput", "benchmark", "profile", "flamegraph", "memory", "leak", "thread", "lock", "deadlock", "race", "condition", "retry", "backoff", "circuit", "breaker", "queue", "topic", "partition", "consumer", "producer", "offset", "checkpoint", "snapshot", "replica", "leader", "follower", "quorum", "consensus"]  # noqa: E501  word-list data
PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "nina", "oscar", "peggy", "quinn", "rupert", "sybil", "trent", "ursula", "victor", "wendy", "xavier", "yvonne", "zach", "maria", "jon", "gina", "caroline", "melanie", "joanna", "nate", "john", "tim", "sam"]  # noqa: E501  word-list data
SYLLABLES = ["ka", "lo", "mi", "ren", "tar", "vos", "qua", "zel", "dri", "pon", "sha", "kel", "mur", "tis", "vax", "bel", "cor", "dun", "fey", "gar", "hol", "jin", "lex", "nor", "pim"]  # noqa: E501  word-list data


# generation -----------------------------------------------------------------------------
@dataclass
class Vocabulary:
    words: list[str]
    weights: list[float]

    @classmethod
    def build(cls, rng: random.Random, pseudo: int = 15_000) -> Vocabulary:
        seen: set[str] = set()
        tail = []
        while len(tail) < pseudo:
            word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3, 3, 4))))
            if word not in seen:
                seen.add(word)
                tail.append(word)
        head = DOMAIN_WORDS + PEOPLE
        rng.shuffle(head)
        words = head + tail
        return cls(words, [1.0 / (rank + 1) ** 1.07 for rank in range(len(words))])

    def sample(self, rng: random.Random, count: int) -> list[str]:
        return rng.choices(self.words, weights=self.weights, k=count)


def sentence(rng: random.Random, vocab: Vocabulary) -> str:
    content = vocab.sample(rng, rng.randint(6, 18))
    words: list[str] = []
    for word in content:
        if rng.random() < 0.45:
            words.append(rng.choice(FUNCTION_WORDS))
        words.append(word)
    if rng.random() < 0.15:
        words.append(f"at {rng.randint(1, 12)}{rng.choice(('am', 'pm'))}")
    if rng.random() < 0.1:
        words.append(f"#{rng.randint(100, 9999)}")
    return " ".join(words).capitalize() + "."


def generate(root: Path, entries: int, seed: int = 0, transcripts: float = 0.0) -> tuple[Workspace, int]:
    """A fresh workspace with ``entries`` entries: MEMORY.md, daily notes ending today and, for a
    ``transcripts`` share, session transcripts in the ingest format (ledger records included, so
    their turns are trusted as ``clawmem ingest`` would make them); returns (ws, days)."""
    from clawmem.entries import identity
    from clawmem.storage import ledger, ledger_records

    rng = random.Random(seed)
    vocab = Vocabulary.build(rng)
    if root.exists():
        shutil.rmtree(root)
    ws = workspace_init.create(root)
    memory = [f"- {sentence(rng, vocab)} <!-- importance: {rng.randint(5, 9)} -->\n" for _ in range(MEMORY_ENTRIES)]
    ws.memory_md.write_text(ws.memory_md.read_text(encoding="utf-8") + "".join(memory), encoding="utf-8")
    turns = int((entries - MEMORY_ENTRIES) * transcripts)
    daily = entries - MEMORY_ENTRIES - turns
    days = max(1, min(daily // 25, 1500))
    today = dt.date.today()
    per_day = [daily // days + (1 if d < daily % days else 0) for d in range(days)]
    for offset, count in enumerate(per_day):
        day = today - dt.timedelta(days=days - 1 - offset)
        lines = "".join(f"- {sentence(rng, vocab)}\n" for _ in range(count))
        ws.daily_note(day).write_text(f"# {day.isoformat()}\n\n{lines}", encoding="utf-8")
    records = []
    session = 0
    while turns > 0:
        size = min(turns, rng.randint(20, 60))
        turns -= size
        session += 1
        name = f"s{session:05d}"
        at = dt.datetime.combine(today - dt.timedelta(days=rng.randint(0, days)), dt.time(rng.randint(8, 20))).isoformat()
        path = ws.transcript(name)
        body = []
        for n in range(size):
            text = f"{('user', 'assistant')[n % 2]}: {sentence(rng, vocab)}"
            body.append(f"- {text} <!-- observed: {at} --> <!-- turn: {n + 1} -->\n")
            records.append(ledger_records.entry_record(ws.rel(path), identity.text_hash(text), origin="owner" if n % 2 == 0 else "agent",
                                               session_kind="interactive", session=name, observed=at))
        head = f"---\nsession: {name}\nsession_kind: interactive\nturns: {size}\n---\n\n# Transcript {name}\n\n"
        path.write_text(head + "".join(body), encoding="utf-8")
    ledger.append(ws, records)
    return ws, days


def queries(count: int, seed: int = 1) -> list[str]:
    """Distinct 2-5 word queries drawn from the same vocabulary, weighted toward mid-frequency words."""
    rng = random.Random(seed)
    vocab = Vocabulary.build(random.Random(0))
    mid = vocab.words[20:3000]
    found: list[str] = []
    while len(found) < count:
        words = rng.sample(vocab.words[:20], 1) + rng.sample(mid, rng.randint(1, 4))
        rng.shuffle(words)
        text = " ".join(words)
        if rng.random() < 0.3:
            text = f"what did we decide about {text}"
        if text not in found:
            found.append(text)
    return found


# measuring ------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary_ms(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {"p50": round(pct(ms, 0.5), 1), "p95": round(pct(ms, 0.95), 1), "mean": round(statistics.fmean(ms), 1), "n": len(ms)}


def index_bytes(ws: Workspace) -> dict[str, int]:
    sizes = {}
    for suffix in ("", "-wal", "-shm"):
        path = Path(str(ws.index_path) + suffix)
        sizes["db" + suffix.replace("-", "_")] = path.stat().st_size if path.exists() else 0
    return sizes


def checkpoint(ws: Workspace) -> None:
    from clawmem.index.db import Index

    with Index.open(ws) as index:
        index.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _progress(label: str) -> Callable[[int, int, str], None]:
    last = [0.0]

    def show(done: int, total: int, _what: str) -> None:
        now = time.perf_counter()
        if now - last[0] > 1.0 or done >= total:
            last[0] = now
            sys.stderr.write(f"\r  {label} {done}/{total}")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return show


def fill_vectors(ws: Workspace, embedder: Any, sigma: float = 0.02, seed: int = 2) -> int:
    """Give every entry without a vector a perturbed copy of an embedded entry's vector (cache + vec0)."""
    import numpy as np

    from clawmem.index import vectors
    from clawmem.index.db import Index
    from clawmem.storage.ledger_records import now_iso

    rng = np.random.default_rng(seed)
    with Index.open(ws) as index:
        index.load_vec()
        with index.transaction():
            vectors.ensure_table(index, embedder)
        sample = [np.frombuffer(r["vector"], dtype=np.float32) for r in index.query(
            "SELECT vector FROM embedding_cache WHERE embedder = ?", (embedder.id,))]
        if not sample:
            raise RuntimeError("no embedded sample to copy vectors from")
        base = np.stack(sample)
        missing = index.query(
            f"SELECT id, text_hash, tier, origin FROM entries WHERE id NOT IN (SELECT rowid FROM {vectors.VEC_TABLE}) ORDER BY id")
        stamp = now_iso()
        for start in range(0, len(missing), 5000):
            part = missing[start : start + 5000]
            picked = base[rng.integers(0, len(base), len(part))] + rng.normal(0, sigma, (len(part), base.shape[1])).astype(np.float32)
            picked /= np.linalg.norm(picked, axis=1, keepdims=True)
            blobs = [v.astype(np.float32).tobytes() for v in picked]
            with index.transaction():
                index.executemany(
                    "INSERT INTO embedding_cache(embedder, text_hash, vector, last_used) VALUES (?,?,?,?) "
                    "ON CONFLICT(embedder, text_hash) DO NOTHING",
                    [(embedder.id, r["text_hash"], b, stamp) for r, b in zip(part, blobs, strict=True)],
                )
                index.executemany(
                    f"INSERT INTO {vectors.VEC_TABLE}(rowid, embedding, tier, trusted) VALUES (?,?,?,?)",
                    [(r["id"], b, r["tier"], int(r["origin"] in ("owner", "agent"))) for r, b in zip(part, blobs, strict=True)],
                )
        return len(missing)


@dataclass
class SizeResult:
    entries: int
    days: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    throughput: dict[str, Any] = field(default_factory=dict)
    size_bytes: dict[str, Any] = field(default_factory=dict)
    search_ms: dict[str, Any] = field(default_factory=dict)
    cli_ms: dict[str, Any] = field(default_factory=dict)
    process: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    profile: dict[str, Any] = field(default_factory=dict)


RAW_SAMPLE = 128  # entries (a random draw) the embedder's raw encode rate is measured on, before and after indexing


def encode_rate(embedder: Any, texts: list[str]) -> float:
    """Entries per second of the embedder alone: ``embed`` in batches as indexing calls it, nothing else."""
    from clawmem.index import vectors

    t = time.perf_counter()
    embedder.embed(texts, batch_size=vectors.BATCH)
    return len(texts) / (time.perf_counter() - t)


def build(result: SizeResult, root: Path, *, embed: bool, embed_max: int, sample_size: int, transcripts: float) -> Workspace:
    from clawmem.embeddings import load_embedder
    from clawmem.index import vectors
    from clawmem.index.db import Index
    from clawmem.index.maintain import run_index

    t = time.perf_counter()
    ws, result.days = generate(root, result.entries, transcripts=transcripts)
    result.seconds["generate"] = time.perf_counter() - t
    t = time.perf_counter()
    report = run_index(ws, embed=False)
    result.seconds["index (sync)"] = time.perf_counter() - t
    indexed = report.sync.entries_indexed
    result.throughput["entries indexed"] = indexed
    result.throughput["sync entries/s"] = round(indexed / result.seconds["index (sync)"])
    result.size_bytes["without vectors"] = index_bytes(ws)
    if not embed:
        return ws
    embedder = load_embedder(ws.config.embeddings.backend)
    embedder.embed(["warm up"])
    result.notes.append(f"embedder {embedder.id}")
    with Index.open(ws) as index:
        sample = [r["text"] for r in index.query("SELECT text FROM entries ORDER BY random() LIMIT ?", (RAW_SAMPLE,))]
    raw_before = encode_rate(embedder, sample)
    todo = indexed if indexed <= embed_max else sample_size
    if todo == indexed:  # the real thing: the installed `clawmem index` in its own process, timed from outside
        env = {**os.environ, "CLAWMEM_WORKSPACE": str(ws.root)}
        t = time.perf_counter()
        done = subprocess.run([*clawmem_command(), "index", "--json"], env=env, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - t
        reported = json.loads(done.stdout)
        result.throughput["`clawmem index` reported s"] = round(reported.get("seconds", reported["sync"]["seconds"]), 1)
        per_second = (reported["vectors"] or {}).get("per_second")  # absent before issue 26 (a baseline checkout)
        result.throughput["`clawmem index` reported entries/s"] = "–" if per_second is None else round(per_second, 1)
    else:
        with Index.open(ws) as index:
            t = time.perf_counter()
            vectors.refresh(index, embedder, max_new=todo, progress=_progress(f"{result.entries:,}: embedding"))
            seconds = time.perf_counter() - t
    raw = (raw_before + encode_rate(embedder, sample)) / 2  # before and after: the machine's load moves
    result.throughput["raw encode entries/s"] = round(raw, 1)
    result.seconds["embed"] = seconds
    rate = todo / seconds
    result.throughput["embed entries/s"] = round(rate, 1)
    result.throughput["indexing / raw encode"] = f"{100 * rate / raw:.0f} %"
    result.throughput["embedded for real"] = todo
    total = result.seconds["index (sync)"] + indexed / rate
    result.throughput["sync + embed entries/s"] = round(indexed / total, 1)
    if todo < indexed:
        t = time.perf_counter()
        filled = fill_vectors(ws, embedder)
        result.seconds["fill synthetic vectors"] = time.perf_counter() - t
        result.notes.append(
            f"embedded {todo:,} entries for real ({rate:.0f}/s); the other {filled:,} got perturbed copies of those vectors "
            f"(search latency is measured on a full {indexed:,}-row vec0 table); 'sync + embed' is estimated from the rate"
        )
    result.size_bytes["with vectors"] = index_bytes(ws)
    checkpoint(ws)
    result.size_bytes["after checkpoint"] = index_bytes(ws)
    return ws


def search_latency(ws: Workspace, qs: list[str], lanes: str) -> dict[str, float]:
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    times = []
    with Index.open(ws) as index:
        search(ws, index, "warm up the caches", SearchOptions(lanes=lanes))
        for q in qs:
            t = time.perf_counter()
            search(ws, index, q, SearchOptions(lanes=lanes))
            times.append(time.perf_counter() - t)
    return summary_ms(times)


def process_times(argv: list[str], runs: int, env: dict[str, str]) -> list[float]:
    compile_measured()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return times


def clawmem_command() -> list[str]:
    """The console script, or (measuring another checkout with ``--code``) ``python -m clawmem`` from it.

    ``-P``: ``-m`` would put the current folder first on the path, so run from a checkout's root it
    measured that checkout instead of ``--code``'s.
    """
    script = Path(sys.executable).parent / "clawmem"
    return [str(script)] if script.exists() and "--code" not in sys.argv else [sys.executable, "-P", "-m", "clawmem"]


def peak_rss_mb(argv: list[str], env: dict[str, str]) -> float:
    """Peak resident set of one run of ``argv``, measured by a fresh parent that runs nothing else."""
    probe = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    out = subprocess.run([sys.executable, "-c", probe, *argv], env=env, capture_output=True, text=True, check=True).stdout
    return round(int(out.split()[-1]) / 1024, 1)


def cli_latency(ws: Workspace, qs: list[str], runs: int, lanes: list[str]) -> dict[str, Any]:
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(ws.root)}
    process_times([sys.executable, "-c", "pass"], 1, env)  # warm-up: page cache
    found: dict[str, Any] = {"python -c pass": summary_ms(process_times([sys.executable, "-c", "pass"], runs, env))}
    for lane in lanes:
        process_times([*clawmem_command(), "search", "warm up", "--json"] + (["--lexical"] if lane == "lexical" else []), 1, env)
        times = []
        for q in qs[:runs]:
            argv = [*clawmem_command(), "search", q, "--json"] + (["--lexical"] if lane == "lexical" else [])
            times += process_times(argv, 1, env)
        found[f"clawmem search --json ({lane})"] = summary_ms(times)
        found[f"clawmem search --json ({lane})"]["peak RSS MB"] = peak_rss_mb(argv, env)
    base = found["python -c pass"]["p50"]
    for value in found.values():
        value["x python"] = round(value["p50"] / base, 1) if base else None
    return found


TAB = "source {script}; COMP_WORDS=(clawmem se); COMP_CWORD=1; _clawmem_completion clawmem"


MCP_ROW = "MCP `initialize` answered (stdio)"  # issue 26's row; ``benchmarks/mcp_handshake.py`` has tools/list too


def mcp_row(argv: list[str], env: dict[str, str], runs: int) -> dict:
    """Time until ``clawmem mcp`` answers ``initialize``, each run right after the floor (a row of ``_timing.paired``, no CPU)."""
    full = {**os.environ, **env}
    handshake(argv, full)  # warm-up
    samples = []
    for _ in range(runs):
        low = handshake_floor(full)
        samples.append(((handshake(argv, full)[0], None), (low, None)))
    return paired_row(samples)


WORKER_ROWS = ("clawmem status", "clawmem search --lexical", "clawmem recall")  # what a resident worker answers (issue 26)


def process_rows(ws: Workspace, query: str, runs: int, lanes: list[str]) -> dict[str, dict]:
    """Whole-process rows, each paired with the interpreter floor (``_timing.paired``).

    First every row in its own process (``CLAWMEM_WORKER=off``: ``recall`` would otherwise
    start a worker on first use, and the rows after it would be answered by it), then the rows
    a worker answers with one started (``clawmem worker start``), in a pipe as hosts and agents
    run them; the served count printed shows none fell back unseen. A checkout whose client
    hands a command to no worker gives in-process figures in its "worker on" row.
    """
    env = {"CLAWMEM_WORKSPACE": str(ws.root), "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    cli = clawmem_command()
    commands = {
        "clawmem --help": [*cli, "--help"],
        "clawmem status": [*cli, "status"],
        "clawmem search --lexical": [*cli, "search", query, "--lexical"],
        "clawmem recall": [*cli, "recall", query, "--budget-ms", "2000"],
        "one Tab, bash (`clawmem se<Tab>`)": ["bash", "--norc", "--noprofile", "-c", TAB.format(script=ROOT / "completions" / "clawmem.bash")],
    }
    if "hybrid" in lanes:
        commands["clawmem search (hybrid)"] = [*cli, "search", query]
    rows = paired(commands, runs=runs, env={**env, "CLAWMEM_WORKER": "off"})
    rows[MCP_ROW] = mcp_row([*cli, "mcp"], {**env, "CLAWMEM_WORKER": "off"}, runs)
    on_env = {**os.environ, **env}
    on_env.pop("CLAWMEM_WORKER", None)
    started = subprocess.run([*cli, "worker", "start", "--json"], env=on_env, capture_output=True, text=True, check=False)
    if started.returncode != 0:
        print(f"note: no worker ({started.stderr.strip() or started.stdout.strip()}); in-process rows only", file=sys.stderr)
        return rows
    try:
        on = paired({name: commands[name] for name in WORKER_ROWS}, runs=runs, env=on_env)
        served = subprocess.run([*cli, "worker", "status", "--json"], env=on_env, capture_output=True, text=True, check=False)
        print(f"  worker: {json.loads(served.stdout).get('served')} requests served "
              f"({len(WORKER_ROWS)} rows x {runs + 1} runs with the warm-up)", file=sys.stderr)
    finally:
        subprocess.run([*cli, "worker", "stop"], env=on_env, capture_output=True, check=False)
    rows.update({f"{name}, worker on": row for name, row in on.items()})
    return rows


def import_profile(ws: Workspace, query: str) -> dict[str, Any]:
    """Top-level modules a lexical ``clawmem search`` imports, by cumulative import time (``-X importtime``)."""
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(ws.root)}
    code = "import sys; from clawmem.launcher import main; sys.argv = ['clawmem', 'search', sys.argv[1], '--json', '--lexical']; main()"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code, query], env=env, capture_output=True, text=True, check=False)
    top: list[tuple[str, int]] = []
    every: set[str] = set()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        parts = line[len("import time:"):].split("|")
        cumulative, raw = int(parts[1]), parts[2]
        module = raw.strip()
        every.add(module)
        if len(raw) - len(raw.lstrip()) == 1:  # top level: imported directly, not by another module
            top.append((module, cumulative))
    heavy = [m for m in ("numpy", "tokenizers", "onnxruntime", "torch", "rich", "apsw", "sqlite_vec", "dateparser", "rapidfuzz", "yaml", "frontmatter") if m in every]
    top.sort(key=lambda p: -p[1])
    return {"top_level_ms": [(m, round(us / 1000, 1)) for m, us in top[:10]], "modules": len(every), "heavy_imported": heavy}


# profiling ------------------------------------------------------------------------------
def cprofile_search(ws: Workspace, qs: list[str], lanes: str) -> list[tuple[str, float]]:
    """Top functions by cumulative time over the queries (cProfile)."""
    import cProfile
    import pstats

    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, search

    profiler = cProfile.Profile()
    with Index.open(ws) as index:
        search(ws, index, "warm up", SearchOptions(lanes=lanes))
        profiler.enable()
        for q in qs:
            search(ws, index, q, SearchOptions(lanes=lanes))
        profiler.disable()
    stats = pstats.Stats(profiler)
    rows = []
    for (filename, line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "clawmem" in filename or name.startswith("<method 'execute'") or "fetchall" in name:
            rows.append((f"{Path(filename).name}:{line} {name}", ct / len(qs) * 1000))
    rows.sort(key=lambda p: -p[1])
    return [(n, round(ms, 2)) for n, ms in rows[:15]]


# output ---------------------------------------------------------------------------------
def human_bytes(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def print_tables(results: list[SizeResult], embed: bool) -> None:
    print("## Index build\n")
    print("| entries | days | sync s | sync entries/s | raw encode entries/s | embed entries/s | indexing / raw | sync+embed entries/s"
          " | index.db (no vectors) | index.db+wal (vectors) | after checkpoint |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        nov = r.size_bytes["without vectors"]
        wv = r.size_bytes.get("with vectors", {})
        ac = r.size_bytes.get("after checkpoint", {})
        print(f"| {r.entries:,} | {r.days} | {r.seconds['index (sync)']:.1f} | {r.throughput['sync entries/s']:,} | "
              f"{r.throughput.get('raw encode entries/s', '–')} | {r.throughput.get('embed entries/s', '–')} | "
              f"{r.throughput.get('indexing / raw encode', '–')} | {r.throughput.get('sync + embed entries/s', '–')} | "
              f"{human_bytes(nov['db'] + nov['db_wal'])} | {human_bytes(wv['db'] + wv['db_wal']) if wv else '–'} | "
              f"{human_bytes(ac['db'] + ac['db_wal']) if ac else '–'} |")
    print("\n## Search latency (ms)\n")
    print("| entries | in-process lexical p50 / p95 | in-process hybrid p50 / p95 "
          "| CLI lexical p50 / p95 (x floor, peak RSS) | CLI hybrid p50 / p95 (x floor, peak RSS) | python -c pass p50 |")
    print("|---|---|---|---|---|---|")
    def cell(d: dict | None, ratio: bool = False) -> str:
        if not d:
            return "–"
        text = f"{d['p50']:.1f} / {d['p95']:.1f}"
        return text + (f" ({d['x python']}x python, {d['peak RSS MB']} MB)" if ratio else "")

    for r in results:
        lex = r.cli_ms.get("clawmem search --json (lexical)")
        hyb = r.cli_ms.get("clawmem search --json (hybrid)")
        print(f"| {r.entries:,} | {cell(r.search_ms.get('lexical'))} | {cell(r.search_ms.get('hybrid'))} | "
              f"{cell(lex, True)} | {cell(hyb, True)} | {r.cli_ms['python -c pass']['p50']:.1f} |")
    for r in results:
        if "`clawmem index` reported s" in r.throughput:
            print(f"\n`clawmem index` at {r.entries:,} entries: {r.seconds['embed']:.1f} s measured around the process, "
                  f"{r.throughput['`clawmem index` reported s']} s and {r.throughput['`clawmem index` reported entries/s']} entries/s reported by it")
    for r in results:
        print(f"\n## Whole-process commands at {r.entries:,} entries, each run paired with `python -c pass`\n")
        print(paired_table(r.process))
    for r in results:
        for note in r.notes:
            print(f"\nnote ({r.entries:,}): {note}")
    for r in results:
        if "cprofile_hybrid" in r.profile:
            print(f"\n## Where a hybrid search spends its time at {r.entries:,} entries (cProfile, cumulative ms a search)\n")
            for name, ms in r.profile["cprofile_hybrid"]:
                print(f"- {ms:8.2f}  {name}")


def main(argv: list[str] | None = None) -> int:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated entry counts")
    parser.add_argument("--no-embed", action="store_true", help="lexical only: skip embeddings and hybrid search")
    parser.add_argument("--embed-max", type=int, default=10_000, help="embed every entry up to this size; above it, a sample")
    parser.add_argument("--sample", type=int, default=2_000, help="entries embedded for real above --embed-max")
    parser.add_argument("--queries", type=int, default=60, help="in-process queries per lane")
    parser.add_argument("--transcripts", type=float, default=0.3, help="share of entries that are transcript turns (0 = daily notes only)")
    parser.add_argument("--cli-runs", type=int, default=10, help="CLI runs per lane")
    parser.add_argument("--process-runs", type=int, default=11, help="runs of each whole-process row (each paired with python -c pass)")
    parser.add_argument("--profile", choices=("auto", "always", "never"), default="auto", help="cProfile of a hybrid search (auto: when hybrid p50 >= 50 ms)")
    parser.add_argument("--blas-threads", default=None, help="set OPENBLAS/OMP/MKL_NUM_THREADS for this run and its subprocesses")
    parser.add_argument("--code", type=Path, default=None, help="measure the clawmem of another checkout (e.g. main, for the baseline)")
    parser.add_argument("--workdir", type=Path, default=None, help="where workspaces go (default: a temp dir, removed)")
    parser.add_argument("--out", type=Path, default=None, help="directory for speed-results.json")
    args = parser.parse_args(argv)

    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s]
    load_start = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="clawmem-speed-"))
    workdir.mkdir(parents=True, exist_ok=True)
    qs = queries(args.queries)
    embed = not args.no_embed
    results = []
    for size in sizes:
        print(f"{size:,} entries ...", file=sys.stderr)
        result = SizeResult(size)
        ws = build(result, workdir / f"ws-{size}", embed=embed, embed_max=args.embed_max, sample_size=args.sample, transcripts=args.transcripts)
        lanes = ["lexical", "hybrid"] if embed else ["lexical"]
        for lane in lanes:
            t = time.perf_counter()
            result.search_ms[lane] = search_latency(ws, qs, lane)
            result.seconds[f"search {lane}"] = time.perf_counter() - t
        t = time.perf_counter()
        result.cli_ms = cli_latency(ws, qs, args.cli_runs, lanes)
        result.seconds["cli"] = time.perf_counter() - t
        t = time.perf_counter()
        result.process = process_rows(ws, qs[0], args.process_runs, lanes)
        result.seconds["whole-process rows"] = time.perf_counter() - t
        result.profile["imports (lexical CLI search)"] = import_profile(ws, qs[0])
        slow = embed and result.search_ms["hybrid"]["p50"] >= TARGET_MS
        if embed and args.code is None and (args.profile == "always" or (args.profile == "auto" and slow)):
            result.profile["cprofile_hybrid"] = cprofile_search(ws, qs[:20], "hybrid")
        results.append(result)
        print(f"  done in {sum(result.seconds.values()):.0f} s: {json.dumps(result.search_ms)}", file=sys.stderr)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"# clawmem speed benchmark ({os.cpu_count()} CPUs, Python {sys.version.split()[0]}, BLAS threads {threads}, "
          f"load average at the start {load_start}, at the end {load})\n")
    print_tables(results, embed)
    for r in results:
        imports = r.profile.get("imports (lexical CLI search)")
        if imports:
            print(f"\nimports of a lexical `clawmem search` at {r.entries:,}: {imports['modules']} modules; heavy ones loaded: "
                  f"{', '.join(imports['heavy_imported']) or 'none'}; top level: "
                  + ", ".join(f"{m} {ms} ms" for m, ms in imports["top_level_ms"][:6]))
            break
    print("\n## Wall time per stage (s)\n")
    print("| entries | " + " | ".join(results[0].seconds) + " |")
    print("|---|" + "---|" * len(results[0].seconds))
    for r in results:
        print(f"| {r.entries:,} | " + " | ".join(f"{r.seconds.get(k, 0):.1f}" for k in results[0].seconds) + " |")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "speed-results.json").write_text(json.dumps([vars(r) for r in results], indent=2, default=str), encoding="utf-8")
    if args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
