"""Forward-only schema migrations, applied in order, each in one transaction with its record.

Never edit a released migration; add ``mNNN_…`` after the last one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clawmem.index.db import Index  # db applies the migrations on open

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
    """Apply every pending migration; a failing one rolls back and stays pending.

    The record is re-read inside the write lock: two processes opening a fresh index at once
    both see the migration pending, and only the first to take the lock may run it.
    """
    done = set(applied(index))
    ran = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with index.transaction():
            if index.query("SELECT 1 FROM _clawmem_migrations WHERE name = ?", (name,)):
                continue
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


# Order differs from numbering here on purpose: m004_intents is registered (and so runs) before
# m003_dream. Both landed in one commit and indexes in the field recorded them in this order;
# ``apply`` goes by registration order and records names, so swapping them now would change
# nothing for a migrated index and only confuse the ``_clawmem_migrations`` history. The two
# touch disjoint tables, so either order builds the same schema.
@migration
def m004_intents(index: Index) -> None:
    # Standing intents (clawmem/intents/). Times are UTC 'YYYY-MM-DDTHH:MM:SSZ' text, so they
    # compare as strings. Only owner or agent may create one: the CHECK enforces it again.
    # Every creation, fire and cancel is also in the ledger, so a lost index loses no intent.
    index.conn.execute(
        """
        CREATE TABLE intents (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('event', 'time')),
            state TEXT NOT NULL CHECK (state IN ('pending', 'armed', 'fired', 'done', 'cancelled', 'expired')),
            text TEXT NOT NULL CHECK (length(text) > 0),
            keywords TEXT NOT NULL DEFAULT '[]',
            channel TEXT,
            sender TEXT,
            origin TEXT NOT NULL CHECK (origin IN ('owner', 'agent')),
            session TEXT,
            created_at TEXT NOT NULL,
            armed_at TEXT,
            due_at TEXT,
            expires_at TEXT NOT NULL,
            cooldown_s INTEGER NOT NULL CHECK (cooldown_s >= 0),
            budget INTEGER NOT NULL CHECK (budget >= 1),
            fires INTEGER NOT NULL DEFAULT 0 CHECK (fires >= 0 AND fires <= budget),
            last_fired_at TEXT,
            ended_at TEXT,
            CHECK ((kind = 'time' AND due_at IS NOT NULL) OR (kind = 'event' AND keywords != '[]'))
        );
        CREATE INDEX intents_live ON intents(kind, state, due_at);

        -- trigger phrases of event intents (rowid = intents.id): the recall prefilter
        CREATE VIRTUAL TABLE intents_fts USING fts5(keywords, tokenize = 'porter unicode61 remove_diacritics 2');
        """
    )


@migration
def m003_dream(index: Index) -> None:
    # Dreaming (clawmem/dream/): staged candidates, their evidence, themes and sweeps. Only
    # promotion-eligible evidence is ever staged; the CHECKs restate that precondition, so a
    # bug upstream fails loudly instead of staging untrusted or cron content.
    index.conn.execute(
        """
        -- episodic files as light last read them (content hash): only changed files are re-read
        CREATE TABLE dream_files (path TEXT PRIMARY KEY, content_hash TEXT NOT NULL);

        CREATE TABLE dream_candidates (
            id INTEGER PRIMARY KEY,
            text TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('staged', 'promoted')),
            theme TEXT,
            score REAL,
            signals TEXT,
            failed TEXT,
            staged_at TEXT NOT NULL,
            promoted_at TEXT
        );

        CREATE TABLE dream_evidence (
            candidate_id INTEGER NOT NULL REFERENCES dream_candidates(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            line_start INTEGER NOT NULL,
            line_end INTEGER NOT NULL,
            entry_hash TEXT NOT NULL,
            unit_hash TEXT NOT NULL,
            text TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('owner', 'agent')),
            session_kind TEXT NOT NULL CHECK (session_kind = 'interactive'),
            session_id TEXT,
            day TEXT NOT NULL,
            observed_at TEXT,
            similarity REAL NOT NULL,
            importance INTEGER,
            triggers TEXT,
            supersession_key TEXT,
            PRIMARY KEY (path, entry_hash, unit_hash)
        );
        CREATE INDEX dream_evidence_candidate ON dream_evidence(candidate_id);

        CREATE TABLE dream_themes (
            label TEXT PRIMARY KEY,
            candidates TEXT NOT NULL,
            contexts INTEGER NOT NULL,
            days INTEGER NOT NULL,
            sessions INTEGER NOT NULL,
            reflection TEXT NOT NULL,
            citations TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );

        CREATE TABLE dream_sweeps (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            pid INTEGER NOT NULL,
            phases TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('running', 'done', 'aborted')),
            summary TEXT
        );
        """
    )


@migration
def m005_entry_ids_never_reused(index: Index) -> None:
    # Vectors are keyed by entry id. Plain rowids are reused after a delete (a rebuild starts
    # again at 1), which let a new entry inherit an old entry's vector and trusted flag.
    # AUTOINCREMENT ids are never reused, so a stale vector row can only be an orphan.
    create = index.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'entries'")
    indexes = [r["sql"] for r in index.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries' AND sql IS NOT NULL")]
    index.execute(create.replace("CREATE TABLE entries", "CREATE TABLE entries_v2", 1).replace("id INTEGER PRIMARY KEY", "id INTEGER PRIMARY KEY AUTOINCREMENT", 1))
    index.execute("INSERT INTO entries_v2 SELECT * FROM entries")
    index.execute("DROP TABLE entries")
    index.execute("ALTER TABLE entries_v2 RENAME TO entries")
    for sql in indexes:
        index.execute(sql)
    # vectors written under reused ids cannot be trusted: have the next refresh rebuild them
    # (from the embedding cache, so nothing is re-embedded)
    if index.meta("embedder_id") is not None:
        index.set_meta("embedder_id", "invalidated-by-m005")


@migration
def m006_untrusted_returns_apart(index: Index) -> None:
    # Untrusted hits used to join the recalled set, so a planted line vetoed the owner's
    # identical fact ("recalled content"). They are kept apart now, with their text, as the
    # sources agent writes are checked against (clawmem.content_origin). A hash with no
    # trusted entry behind it may have been an untrusted hit: it moves too, which can only
    # make an agent's copy of it less trusted, never veto an owner.
    index.execute(
        """CREATE TABLE returned_untrusted (
            text_hash TEXT PRIMARY KEY,
            path TEXT,
            text TEXT,
            first_at TEXT NOT NULL,
            last_at TEXT NOT NULL,
            times INTEGER NOT NULL DEFAULT 0
        )"""
    )
    trusted = "SELECT text_hash FROM entries WHERE origin IN ('owner', 'agent')"
    index.execute(
        f"""INSERT INTO returned_untrusted(text_hash, path, text, first_at, last_at, times)
            SELECT r.text_hash, e.path, e.text, r.first_at, r.last_at, r.times FROM recalled r
            LEFT JOIN entries e ON e.text_hash = r.text_hash
            WHERE r.text_hash NOT IN ({trusted}) GROUP BY r.text_hash"""
    )
    index.execute(f"DELETE FROM recalled WHERE text_hash NOT IN ({trusted})")


@migration
def m007_superseded_by(index: Index) -> None:
    # Supersession reaches reading: each keyed entry records the id of the entry that replaces
    # it (clawmem.index.supersession), so search and recall can hide it without re-deciding.
    index.execute("ALTER TABLE entries ADD COLUMN superseded_by INTEGER")
    index.execute("CREATE INDEX entries_superseded ON entries(superseded_by) WHERE superseded_by IS NOT NULL")
    _m007_resolve(index)


def _m007_when(value: str | None) -> dt.datetime:
    """Frozen for m007 (``timeparse.parse_when`` then ``supersession._naive``): a naive local time, undated oldest."""
    when = None
    if value:
        try:
            day = re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip())
            when = dt.datetime.combine(dt.date.fromisoformat(value.strip()), dt.time(12)) if day else dt.datetime.fromisoformat(value.strip())
        except ValueError:
            when = None
    if when is None:
        return dt.datetime.min
    return when.astimezone().replace(tzinfo=None) if when.tzinfo is not None else when


def _m007_resolve(index: Index) -> None:
    """Frozen for m007 (``supersession.resolve`` as it shipped): a released migration calls no live
    code, so a later change of the rule cannot change what an old upgrade does. Trusted: owner, agent."""
    rows = index.query(
        "SELECT e.id, e.supersession_key AS key, e.origin, e.status, e.observed_at, f.file_date, e.line_start, e.text_hash "
        "FROM entries e LEFT JOIN files f ON f.path = e.path WHERE e.supersession_key IS NOT NULL AND trim(e.supersession_key) != ''"
    )
    lineages: dict[str, list] = defaultdict(list)
    for row in rows:
        lineages[row["key"].strip().casefold()].append(row)

    def order(r: dict) -> tuple:
        return (_m007_when(r["observed_at"]), r["file_date"] or "", r["line_start"], r["id"])

    def may_supersede(newer: str, older: str) -> bool:
        return newer in ("owner", "agent") or older not in ("owner", "agent")

    found: dict[int, int] = {}
    for lineage in lineages.values():
        newest_first = sorted((r for r in lineage if r["status"] != "superseded"), key=order, reverse=True)
        for r in lineage:
            winner = next((w for w in newest_first if w["text_hash"] != r["text_hash"] and may_supersede(w["origin"], r["origin"])), None)
            if winner is not None and (r["status"] == "superseded" or order(r) < order(winner)):
                found[r["id"]] = winner["id"]
    index.execute("UPDATE entries SET superseded_by = NULL WHERE superseded_by IS NOT NULL")
    if found:
        index.executemany("UPDATE entries SET superseded_by = ? WHERE id = ?", [(winner, loser) for loser, winner in found.items()])


@migration
def m008_ledger_lineage(index: Index) -> None:
    # A transcript turn untrusted only by lineage (clawmem.trust.lineage) names its exposure, so
    # the owner's later endorsement (a record with ``lifted_by``) can lift exactly those rows.
    index.execute("ALTER TABLE ledger ADD COLUMN lineage TEXT")


@migration
def m009_recall_matched(index: Index) -> None:
    # A recall event names the query's word stems its turn holds (``entries.words.stems``), so
    # dreaming credits the claims of that turn that answered the query, not all of them; NULL
    # (an event from before, or a hit found by meaning alone) credits every claim.
    index.execute("ALTER TABLE recall_events ADD COLUMN matched TEXT")


@migration
def m010_recall_matched_restemmed(index: Index) -> None:
    # ``entries.words.stem`` now takes a final "e" off and undoubles what "-ing"/"-ed" doubled
    # ("games" was "game", now "gam"; "running" was "runn", now "run"). A stored stem ending so
    # may match no claim's new stem, so its event credits every claim (NULL), as an event from
    # before ``m009`` does; the query's words are not kept to stem them again.
    stale = re.compile(r"(?:e|([bcdfgkmnprt])\1)$")
    rows = index.query("SELECT id, matched FROM recall_events WHERE matched IS NOT NULL")
    ids = [(r["id"],) for r in rows if any(stale.search(s) for s in r["matched"].split())]
    index.executemany("UPDATE recall_events SET matched = NULL WHERE id = ?", ids)
