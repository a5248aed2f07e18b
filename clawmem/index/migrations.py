"""Forward-only schema migrations, applied in order, each in one transaction with its record.

Never edit a released migration; add ``mNNN_…`` after the last one.
"""

from __future__ import annotations

from typing import Callable

from clawmem.index.db import Index

MIGRATIONS: list[tuple[str, Callable[[Index], None]]] = []

ORIGIN_CHECK = "CHECK (origin IN ('owner', 'agent', 'untrusted', 'system'))"
SESSION_CHECK = "CHECK (session_kind IN ('interactive', 'cron', 'heartbeat', 'subagent'))"


def migration(fn: Callable[[Index], None]) -> Callable[[Index], None]:
    """Register a migration under its function name."""
    MIGRATIONS.append((fn.__name__, fn))
    return fn


def applied(index: Index) -> list[str]:
    index.execute("CREATE TABLE IF NOT EXISTS _clawmem_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    return [r["name"] for r in index.query("SELECT name FROM _clawmem_migrations ORDER BY rowid")]


def pending(index: Index) -> list[str]:
    done = set(applied(index))
    return [name for name, _ in MIGRATIONS if name not in done]


def apply(index: Index) -> list[str]:
    """Apply every pending migration; a failing one rolls back and stays pending."""
    done = set(applied(index))
    ran = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with index.transaction():
            fn(index)
            index.execute(
                "INSERT INTO _clawmem_migrations(name, applied_at) VALUES (?, datetime('now'))", (name,)
            )
        ran.append(name)
    return ran


def schema_version(index: Index) -> int:
    return len(applied(index))


@migration
def m001_initial(index: Index) -> None:
    index.conn.execute(
        f"""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);

        CREATE TABLE files (
            path TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('memory', 'user', 'daily', 'quarantine', 'transcript')),
            tier TEXT NOT NULL CHECK (tier IN ('curated', 'episodic')),
            content_hash TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            file_date TEXT,
            indexed_at TEXT NOT NULL
        );

        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
            line_start INTEGER NOT NULL,
            line_end INTEGER NOT NULL,
            block TEXT NOT NULL CHECK (block IN ('entry', 'prose')),
            text TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            tier TEXT NOT NULL CHECK (tier IN ('curated', 'episodic')),
            origin TEXT NOT NULL {ORIGIN_CHECK},
            session_kind TEXT NOT NULL {SESSION_CHECK},
            session_id TEXT,
            hand_written INTEGER NOT NULL DEFAULT 0 CHECK (hand_written IN (0, 1)),
            observed_at TEXT,
            supersession_key TEXT,
            importance INTEGER CHECK (importance IS NULL OR importance BETWEEN 1 AND 10),
            triggers TEXT,
            projects TEXT,
            sources TEXT,
            status TEXT CHECK (status IS NULL OR status IN ('active', 'superseded')),
            problems TEXT
        );
        CREATE INDEX entries_path ON entries(path);
        CREATE INDEX entries_hash ON entries(text_hash);
        CREATE INDEX entries_key ON entries(supersession_key) WHERE supersession_key IS NOT NULL;

        CREATE VIRTUAL TABLE entries_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');

        -- provenance replayed from .clawmem/provenance.jsonl
        CREATE TABLE ledger (
            path TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            origin TEXT NOT NULL {ORIGIN_CHECK},
            session_kind TEXT NOT NULL {SESSION_CHECK},
            session_id TEXT,
            observed_at TEXT,
            recorded_at TEXT
        );
        CREATE INDEX ledger_lookup ON ledger(path, text_hash);
        CREATE INDEX ledger_session ON ledger(session_id);

        CREATE TABLE file_taint (
            path TEXT PRIMARY KEY,
            origin TEXT NOT NULL {ORIGIN_CHECK}
        );

        -- everything clawmem handed out, by normalised text hash (recall-loop prevention)
        CREATE TABLE recalled (
            text_hash TEXT PRIMARY KEY,
            first_at TEXT NOT NULL,
            last_at TEXT NOT NULL,
            times INTEGER NOT NULL DEFAULT 0,
            echoes INTEGER NOT NULL DEFAULT 0
        );

        -- every returned hit: the signals dreaming ranks candidates by
        CREATE TABLE recall_events (
            id INTEGER PRIMARY KEY,
            text_hash TEXT NOT NULL,
            path TEXT NOT NULL,
            query_hash TEXT NOT NULL,
            score REAL NOT NULL,
            day TEXT NOT NULL,
            at TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('search', 'recall', 'trigger', 'echo'))
        );
        CREATE INDEX recall_events_hash ON recall_events(text_hash);
        """
    )


@migration
def m002_vectors(index: Index) -> None:
    # The vec0 table itself is created on demand (its dimension comes from the embedder);
    # vectors are cached by content hash so re-indexing a file never re-embeds unchanged text.
    index.conn.execute(
        """
        CREATE TABLE embedding_cache (
            embedder TEXT NOT NULL,
            text_hash TEXT NOT NULL,
            vector BLOB NOT NULL,
            last_used TEXT NOT NULL,
            PRIMARY KEY (embedder, text_hash)
        );
        CREATE INDEX embedding_cache_lru ON embedding_cache(last_used);

        -- trigger phrases of curated entries, embedded at index time so recall never embeds them
        CREATE TABLE trigger_vectors (
            embedder TEXT NOT NULL,
            phrase TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (embedder, phrase)
        );
        """
    )
