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
- when hybrid p50 >= 50 ms: a per-stage breakdown of one search and alternatives measured on the
  same index (vec0 KNN with int8 / bit quantisation, the per-search vector refresh check).

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

from _timing import compile_measured, paired, paired_table

from clawmem import workspace_init
from clawmem.workspace import Workspace

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
    from clawmem import ledger, ledger_records
    from clawmem.entries import identity

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
    from clawmem.ledger_records import now_iso

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
    """The console script, or (measuring another checkout with ``--code``) ``python -m clawmem`` from it."""
    script = Path(sys.executable).parent / "clawmem"
    return [str(script)] if script.exists() and "--code" not in sys.argv else [sys.executable, "-m", "clawmem"]


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
def stage_breakdown(ws: Workspace, qs: list[str]) -> dict[str, Any]:
    """Median time of each stage of a hybrid search, run one by one with clawmem's own functions."""
    import numpy as np

    import clawmem.search.engine as S
    from clawmem.embeddings import load_embedder
    from clawmem.index import tokens
    from clawmem.index.db import Index
    from clawmem.search import SearchOptions, lanes, vectors

    cfg = ws.config.search
    opts = SearchOptions()
    limit = cfg.limit
    k = min(cfg.candidates_max, cfg.candidates_factor * limit)
    embedder = load_embedder(ws.config.embeddings.backend)
    stages: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[[], Any]) -> Any:
        t = time.perf_counter()
        value = fn()
        stages.setdefault(name, []).append(time.perf_counter() - t)
        return value

    with Index.open(ws) as index:
        index.load_vec()
        for q in qs:
            timed("vectors.refresh check (every search)", lambda: vectors.refresh(index, embedder, max_new=lanes.INLINE_EMBED_MAX,
                                                                                  cache_cap=ws.config.embeddings.cache_max_entries))
            qv = timed("embed query", lambda q=q: embedder.embed([q])[0])
            vec = timed(f"vec0 KNN k={k}", lambda qv=qv: dict(vectors.knn(index, qv, k=k, tier=None, trusted_only=True)))
            lex = timed("FTS5 any-term BM25", lambda q=q: lanes.lexical_candidates(index, q, opts, k))
            exact = timed("FTS5 all-terms back-fill", lambda q=q: lanes.exact_candidates(index, q, opts, limit))
            rows = timed("fetch rows", lambda lex=lex, vec=vec, exact=exact: lanes.rows(index, list(dict.fromkeys([*(i for i, _ in lex), *vec, *exact]))))
            if cfg.context_weight and True:

                def context(rows: Any = rows, vec: Any = vec) -> Any:
                    adjacent = lanes.neighbours(index, rows, trusted_only=True)
                    missing = sorted({n for around in adjacent.values() for n in around} - set(vec))
                    return vectors.cached_vectors(index, embedder.id, missing) if missing else {}

                timed("transcript context (neighbours + their vectors)", context)
            ids = list(rows)[: limit * 4]

            def rank(ids: list[Any] = ids, rows: Any = rows) -> Any:
                ranked = [(i, 1.0 / (n + 1)) for n, i in enumerate(ids)]
                return S._diverse(index, ranked, rows, embedder.id, lam=cfg.mmr_lambda, limit=limit)

            timed("score + MMR", rank)
            R = __import__("clawmem.index.recalls", fromlist=["x"])
            timed("record recall events", lambda R=R, rows=rows, ids=ids, q=q: R.record_returned(
                index, [R.Returned(rows[i]["text_hash"], rows[i]["path"], 0.5, rows[i]["origin"]) for i in ids[:limit]], query=q, source="search"))
        # alternatives on the same data
        alternatives: dict[str, Any] = {}
        count = index.scalar(f"SELECT count(*) FROM {vectors.VEC_TABLE}")
        def blob(v: Any) -> bytes:
            return np.asarray(v, dtype=np.float32).tobytes()

        qvs = [embedder.embed([q])[0] for q in qs[:20]]

        def over_queries(fn: Callable[[Any], Any]) -> dict[str, float]:
            times = []
            for qv in qvs:
                t = time.perf_counter()
                fn(qv)
                times.append(time.perf_counter() - t)
            return summary_ms(times)

        # the per-search "is every entry embedded?" check: today's, its parts, the scans it replaced, an O(log n) one
        if hasattr(vectors, "_in_step"):
            alternatives["embedded check today: vectors._in_step() (count + max id of entries and of vec0 rowids)"] = over_queries(
                lambda _: vectors._in_step(index))
        alternatives["  its part: SELECT count(*), max(id) FROM entries"] = over_queries(
            lambda _: index.conn.execute("SELECT count(*), max(id) FROM entries").fetchone())
        alternatives["alternative: max(id) of entries vs max(rowid) of vec0 rowids only (deletions tracked elsewhere)"] = over_queries(lambda _: (
            index.scalar("SELECT max(id) FROM entries"), index.scalar(f"SELECT max(rowid) FROM {vectors.VEC_TABLE}_rowids")))
        alternatives["(old check, before _in_step) pending_count()"] = over_queries(lambda _: vectors.pending_count(index))
        alternatives["(old check, before _in_step) _missing(256)"] = over_queries(lambda _: vectors._missing(index, lanes.INLINE_EMBED_MAX))
        alternatives["(old check, before _in_step) count of orphan vectors"] = over_queries(lambda _: index.scalar(
            f"SELECT count(*) FROM {vectors.VEC_TABLE} WHERE rowid NOT IN (SELECT id FROM entries)"))
        # the any-term FTS query: its join with entries (for the trust filter), and pruning very common terms
        def fts(q: str, join: bool) -> Any:
            expression = " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens.query_terms(q))
            if join:
                sql = ("SELECT e.id, bm25(entries_fts) AS s FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid "
                       "WHERE entries_fts MATCH ? AND e.origin IN ('owner', 'agent') ORDER BY s LIMIT ?")
            else:
                sql = "SELECT rowid, bm25(entries_fts) AS s FROM entries_fts WHERE entries_fts MATCH ? ORDER BY s LIMIT ?"
            return index.conn.execute(sql, [expression, k]).fetchall()

        def over_texts(fn: Callable[[str], Any]) -> dict[str, float]:
            times = []
            for q in qs[:20]:
                t = time.perf_counter()
                fn(q)
                times.append(time.perf_counter() - t)
            return summary_ms(times)

        alternatives["FTS5 any-term, as today (joined with entries for the trust filter)"] = over_texts(lambda q: fts(q, True))
        alternatives["FTS5 any-term without the join (trust filtered afterwards)"] = over_texts(lambda q: fts(q, False))
        index.conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, entries_fts, row)")
        total_entries = index.scalar("SELECT count(*) FROM entries")

        def pruned(q: str) -> Any:
            terms = tokens.query_terms(q)
            marks = ",".join("?" * len(terms))
            df = {r["term"]: r["doc"] for r in index.query(f"SELECT term, doc FROM temp.vocab WHERE term IN ({marks})", [t.casefold() for t in terms])}
            kept = [t for t in terms if df.get(t.casefold(), 0) <= 0.05 * total_entries] or terms
            expression = " OR ".join('"' + t.replace('"', '""') + '"' for t in kept)
            return index.conn.execute(
                "SELECT e.id, bm25(entries_fts) AS s FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid "
                "WHERE entries_fts MATCH ? AND e.origin IN ('owner', 'agent') ORDER BY s LIMIT ?", [expression, k]).fetchall()

        alternatives["FTS5 any-term minus terms in > 5% of entries (ranking changes: needs a quality check)"] = over_texts(pruned)
        # MMR's vectors: from vec0 by rowid, or from the embedding cache by content hash
        some = [r["id"] for r in index.query("SELECT id FROM entries ORDER BY random() LIMIT ?", (limit * 4,))]
        alternatives[f"MMR vectors: vectors_for() on vec0 ({len(some)} rowids)"] = over_queries(lambda _: vectors.vectors_for(index, some))

        def from_cache(_: Any) -> dict:
            marks = ",".join("?" * len(some))
            hashes = {r["id"]: r["text_hash"] for r in index.query(f"SELECT id, text_hash FROM entries WHERE id IN ({marks})", some)}
            marks = ",".join("?" * len(hashes))
            found = {r["text_hash"]: r["vector"] for r in index.query(
                f"SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN ({marks})", [embedder.id, *hashes.values()])}
            return {i: np.frombuffer(found[h], dtype=np.float32) for i, h in hashes.items() if h in found}

        alternatives[f"MMR vectors: embedding_cache by text_hash ({len(some)} entries)"] = over_queries(from_cache)
        # KNN: vec0 float32 (today), its k, and other ways to scan
        for kk in (k, 200):
            alternatives[f"vec0 float32 KNN k={kk} (filter trusted=1)"] = over_queries(lambda qv, kk=kk: index.conn.execute(
                f"SELECT rowid, distance FROM {vectors.VEC_TABLE} WHERE embedding MATCH ? AND k = ? AND trusted = 1", [blob(qv), kk]).fetchall())
        alternatives[f"vec0 float32 KNN k={k} (no metadata filter)"] = over_queries(lambda qv: index.conn.execute(
            f"SELECT rowid, distance FROM {vectors.VEC_TABLE} WHERE embedding MATCH ? AND k = ?", [blob(qv), k]).fetchall())
        t = time.perf_counter()
        loaded = index.conn.execute(f"SELECT rowid, embedding FROM {vectors.VEC_TABLE}").fetchall()
        alternatives["(reading every vector out of vec0, s)"] = round(time.perf_counter() - t, 2)
        ids_all = np.array([r[0] for r in loaded])
        matrix = np.frombuffer(b"".join(r[1] for r in loaded), dtype=np.float32).reshape(len(loaded), -1)
        del loaded

        def brute(m: Any, qv: Any, kk: int = k) -> Any:
            scores = m @ qv
            top = np.argpartition(-scores, kk)[:kk]
            return ids_all[top[np.argsort(-scores[top])]]

        alternatives[f"numpy brute force top-{k}, matrix in memory"] = over_queries(lambda qv: brute(matrix, qv))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "vectors.npy"
            np.save(path, matrix)
            t = time.perf_counter()
            mapped = np.load(path, mmap_mode="r")
            brute(mapped, qvs[0])
            alternatives["(np.load mmap + first scan, warm page cache, s)"] = round(time.perf_counter() - t, 3)
            alternatives[f"numpy brute force top-{k}, np.memmap of a .npy file"] = over_queries(lambda qv, mapped=mapped: brute(mapped, qv))
            del mapped
        # quantised copies in temp tables (never written to the workspace's database file)
        dim = embedder.dimension
        t = time.perf_counter()
        index.conn.execute(f"CREATE VIRTUAL TABLE temp.q_int8 USING vec0(embedding int8[{dim}] distance_metric=cosine)")
        index.conn.execute(f"CREATE VIRTUAL TABLE temp.q_bit USING vec0(embedding bit[{dim}])")
        with index.transaction():
            index.conn.execute(f"INSERT INTO temp.q_int8(rowid, embedding) SELECT rowid, vec_quantize_int8(embedding, 'unit') FROM {vectors.VEC_TABLE}")
            index.conn.execute(f"INSERT INTO temp.q_bit(rowid, embedding) SELECT rowid, vec_quantize_binary(embedding) FROM {vectors.VEC_TABLE}")
        alternatives["(building quantised temp tables, s)"] = round(time.perf_counter() - t, 1)
        alternatives["vec0 int8 KNN k=200"] = over_queries(lambda qv: index.conn.execute(
            "SELECT rowid FROM temp.q_int8 WHERE embedding MATCH vec_quantize_int8(?, 'unit') AND k = 200", [blob(qv)]).fetchall())
        position = {int(i): n for n, i in enumerate(ids_all)}
        agreement: dict[str, float] = {}
        for pool_size in (200, 1000):
            hits = []

            def bit_then_rescore(qv: Any, pool_size: int = pool_size, hits: list[float] = hits) -> None:
                pool = [r[0] for r in index.conn.execute(
                    "SELECT rowid FROM temp.q_bit WHERE embedding MATCH vec_quantize_binary(?) AND k = ?", [blob(qv), pool_size]).fetchall()]
                scores = matrix[[position[p] for p in pool]] @ qv
                best = {pool[j] for j in np.argsort(-scores)[:k]}
                hits.append(len(best & set(int(x) for x in brute(matrix, qv))) / k)

            alternatives[f"vec0 bit KNN k={pool_size} + exact rescoring"] = over_queries(bit_then_rescore)
            agreement[f"bit top-{pool_size} rescored"] = round(100 * statistics.fmean(hits), 1)
        alternatives.update(ranking_cost(ws, index, embedder, qs[:20]))
        agreement.update(_quantised_recall(index, embedder, qs[:20], k, vectors.VEC_TABLE, pools=("int8",)))
    alternatives.update(query_embed_threads(qs[:30]))
    stage_ms = {name: round(1000 * statistics.median(v), 2) for name, v in stages.items()}
    def p50(key: str) -> Any:
        return next(v["p50"] for name, v in alternatives.items() if name.startswith(key) and isinstance(v, dict))

    projected = (
        sum(stage_ms.values())
        - stage_ms["vectors.refresh check (every search)"] + p50("alternative: max(id) of entries")
        - stage_ms["embed query"] + p50("embed one query (OPENBLAS_NUM_THREADS=1)")
        - stage_ms[f"vec0 KNN k={k}"] + p50(f"numpy brute force top-{k}, np.memmap")
        - stage_ms["FTS5 any-term BM25"] + p50("FTS5 any-term without the join")
    )
    return {
        "stages_ms_p50": stage_ms,
        "stages_sum_ms": round(sum(stage_ms.values()), 1),
        "projected_ms": round(projected, 1),
        "vectors": count,
        "k": k,
        "alternatives": alternatives,
        "quantised_overlap": agreement,
    }


BEFORE_ISSUE_3 = "[search]\ncandidates_factor = 4\nrecency_floor = 0.0\nmmr_lambda = 0.7\ncontext_weight = 0.0\n"


def ranking_cost(ws: Workspace, index: Any, embedder: Any, qs: list[str]) -> dict[str, Any]:
    """``search`` (recall logging off) with today's defaults vs the pre-issue-3 ranking settings
    (4 x limit candidates, no transcript context, MMR 0.7): what the LoCoMo gains cost in time."""
    from clawmem.config import CONFIG_FILE
    from clawmem.search import SearchOptions, search

    found: dict[str, Any] = {}
    toml = ws.root / CONFIG_FILE
    for label, settings in (("search(), ranking defaults before issue 3", BEFORE_ISSUE_3), ("search(), today's defaults", "")):
        if settings:
            toml.write_text(settings, encoding="utf-8")
        try:
            current = Workspace(ws.root)  # Workspace.config is read once per object, from clawmem.toml
            times = []
            for q in qs:
                t = time.perf_counter()
                search(current, index, q, SearchOptions(log_recall=False), embedder=embedder)
                times.append(time.perf_counter() - t)
            found[label] = summary_ms(times)
        finally:
            toml.unlink(missing_ok=True)
    return found


def _quantised_recall(index: Any, embedder: Any, qs: list[str], k: int, table: str, pools: tuple[str, ...] = ("int8", "bit")) -> dict[str, float]:
    """How many of the float32 top-k a quantised scan (top 200, then exact float rescoring) recovers."""
    import numpy as np

    def blob(v: Any) -> bytes:
        return np.asarray(v, dtype=np.float32).tobytes()

    found: dict[str, list[float]] = {f"{p} top-200 rescored": [] for p in pools}
    for q in qs:
        qv = embedder.embed([q])[0]
        exact = {r[0] for r in index.conn.execute(f"SELECT rowid FROM {table} WHERE embedding MATCH ? AND k = ?", [blob(qv), k]).fetchall()}
        for name, quant, expression in (("int8 top-200 rescored", "q_int8", "vec_quantize_int8(?, 'unit')"),
                                        ("bit top-200 rescored", "q_bit", "vec_quantize_binary(?)")):
            if quant.split("_")[1] not in pools:
                continue
            pool = [r[0] for r in index.conn.execute(
                f"SELECT rowid FROM temp.{quant} WHERE embedding MATCH {expression} AND k = 200", [blob(qv)]).fetchall()]
            marks = ",".join("?" * len(pool))
            rescored = index.conn.execute(
                f"SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM {table} WHERE rowid IN ({marks}) ORDER BY d LIMIT ?",
                [blob(qv), *pool, k]).fetchall()
            found[name].append(len(exact & {r[0] for r in rescored}) / max(1, len(exact)))
    return {name: round(100 * statistics.fmean(v), 1) for name, v in found.items()}


QUERY_EMBED_CODE = """
import sys, time
from clawmem.embeddings import load_embedder
e = load_embedder("numpy"); e.embed(["warm up"])
times = []
for q in sys.argv[1:]:
    t = time.perf_counter(); e.embed([q]); times.append(time.perf_counter() - t)
times.sort(); print(times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000)
"""


def query_embed_threads(qs: list[str]) -> dict[str, dict[str, float]]:
    """One-query embedding latency with the BLAS default thread count and with one thread (fresh processes)."""
    found = {}
    for label, threads in (("BLAS threads default", None), ("OPENBLAS_NUM_THREADS=1", "1")):
        env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
        if threads:
            env.update(OPENBLAS_NUM_THREADS=threads, OMP_NUM_THREADS=threads)
        done = subprocess.run([sys.executable, "-c", QUERY_EMBED_CODE, *qs], env=env, capture_output=True, text=True, check=False)
        try:
            p50, p95 = (round(float(x), 1) for x in done.stdout.split())
            found[f"embed one query ({label})"] = {"p50": p50, "p95": p95}
        except ValueError:
            found[f"embed one query ({label})"] = {"error": done.stderr[-300:]}
    return found


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
        if "breakdown" in r.profile:
            print(f"\n## Where a hybrid search spends its time at {r.entries:,} entries (p50 ms per stage)\n")
            print("| stage | ms |\n|---|---|")
            for name, ms in r.profile["breakdown"]["stages_ms_p50"].items():
                print(f"| {name} | {ms} |")
            b = r.profile["breakdown"]
            print(f"| **sum** | **{b['stages_sum_ms']}** |")
            print(f"\nprojected p50 with (1) an O(log n) 'all embedded?' check, (2) the query embedded with one BLAS thread, (3) a numpy "
                  f"memmap scan instead of vec0, (4) FTS without the join: "
                  f"**{b['projected_ms']} ms** (the stage sum with each replacement's measured p50 swapped in)")
            print("\n| alternative (same index) | p50 ms | p95 ms |\n|---|---|---|")
            for name, value in r.profile["breakdown"]["alternatives"].items():
                if isinstance(value, dict) and "p50" in value:
                    print(f"| {name} | {value['p50']} | {value['p95']} |")
                else:
                    print(f"| {name} | {value} | |")
            print(f"\nquantised KNN: % of the float32 top-{r.profile['breakdown'].get('k', 24)} recovered after exact rescoring: {r.profile['breakdown']['quantised_overlap']}")
            print("\ncProfile, cumulative ms per hybrid search:\n")
            for name, ms in r.profile["cprofile_hybrid"]:
                print(f"- {ms:8.2f}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated entry counts")
    parser.add_argument("--no-embed", action="store_true", help="lexical only: skip embeddings and hybrid search")
    parser.add_argument("--embed-max", type=int, default=10_000, help="embed every entry up to this size; above it, a sample")
    parser.add_argument("--sample", type=int, default=2_000, help="entries embedded for real above --embed-max")
    parser.add_argument("--queries", type=int, default=60, help="in-process queries per lane")
    parser.add_argument("--transcripts", type=float, default=0.3, help="share of entries that are transcript turns (0 = daily notes only)")
    parser.add_argument("--cli-runs", type=int, default=10, help="CLI runs per lane")
    parser.add_argument("--process-runs", type=int, default=11, help="runs of each whole-process row (each paired with python -c pass)")
    parser.add_argument("--profile", choices=("auto", "always", "never"), default="auto", help="per-stage breakdown (auto: when hybrid p50 >= 50 ms)")
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
            result.profile["breakdown"] = stage_breakdown(ws, qs[:30])
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
