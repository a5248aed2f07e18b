"""Intents in the index, mirrored in the provenance ledger.

The ``intents`` table is the working copy; the ledger (``.clawmem/provenance.jsonl``) keeps
every creation, fire and cancellation, appended before the transaction that applies it
commits. The index is derived data and can be deleted: when the table is empty but the ledger
holds intent records, the first intents operation replays them (``ensure_restored``), so a
rebuilt index neither loses an intent nor gives a used-up one its budget back.

Every state change runs in ``Index.transaction`` (``BEGIN IMMEDIATE``): the write lock is taken
before anything is read, so two processes (two overlapping cron runs of ``intent due``, two
agent turns) can never both fire the same intent.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from clawmem.foundation.errors import BadInput, NotFound
from clawmem.index.db import Index
from clawmem.intents.model import ENDED_STATES, LIVE_STATES, STATES, Intent, aware, from_row, stamp
from clawmem.intents.terms import phrase_terms
from clawmem.intents.validation import check_fire_limits, clean_phrases, clean_scope, clean_text
from clawmem.storage import ledger, ledger_records
from clawmem.storage.ledger_records import IntentRecord, is_kind
from clawmem.storage.workspace import Workspace, validate_session_id
from clawmem.trust import provenance, team
from clawmem.trust.authority import check_creator

RESTORED_META = "intents_restored_at"
# the ``intents`` columns; an ``add`` ledger record mirrors all but the state (``ledger_records.intent_add_record``)
COLUMNS = (
    "id", "kind", "state", "text", "keywords", "channel", "sender", "origin", "session", "created_at", "armed_at",
    "due_at", "expires_at", "cooldown_s", "budget", "fires", "last_fired_at", "ended_at",
)


# ledger mirror ---------------------------------------------------------------------------
def ensure_restored(ws: Workspace, index: Index) -> int:
    """Replay the ledger's intent records into an empty ``intents`` table (once per index).

    Cheap when there is nothing to do (one query), so the per-turn recall path can call it.
    Returns the number of intents restored.
    """
    if index.scalar("SELECT EXISTS (SELECT 1 FROM intents)") or index.meta(RESTORED_META):
        return 0
    with index.transaction():
        if index.scalar("SELECT EXISTS (SELECT 1 FROM intents)") or index.meta(RESTORED_META):
            return 0
        records = team.counting_here(ws, ledger.read(ws).records)  # a pulled intent is never restored as an owner's
        restored = replay(index, [r for r in records if is_kind(r, IntentRecord)])
        index.set_meta(RESTORED_META, ledger_records.now_iso())
    return restored


def restore_again(ws: Workspace, index: Index) -> int:
    """Rebuild the ``intents`` table from the ledger now: an acceptance changed which records count.

    An intent a pull brought is held back, so the first replay left it out; once the owner
    accepts it, it arms at once instead of waiting for the index to be rebuilt.
    """
    with index.transaction():
        index.execute("DELETE FROM intents_fts")
        index.execute("DELETE FROM intents")
        index.set_meta(RESTORED_META, None)
    return ensure_restored(ws, index)


def replay(index: Index, records: Iterable[Mapping[str, Any]]) -> int:
    """Apply ledger intent records in order; malformed ones are skipped (they grant nothing)."""
    added = set()
    for record in records:
        try:
            op, intent_id = record.get("op"), int(record["id"])
            if op == "add":
                if not provenance.is_trusted(record.get("origin")):
                    continue
                row: dict[str, Any] = {k: record.get(k) for k in COLUMNS if k in record}
                row["id"] = intent_id
                row["keywords"] = json.dumps(list(record.get("keywords") or []), ensure_ascii=False)
                row["state"] = _initial_state(row["kind"], row.get("due_at"))
                row["armed_at"] = row["created_at"] if row["state"] == "armed" else None
                index.execute("DELETE FROM intents_fts WHERE rowid = ?", (intent_id,))
                index.execute("DELETE FROM intents WHERE id = ?", (intent_id,))
                _insert(index, row)
                added.add(intent_id)
            elif op == "fire" and intent_id in added:
                _apply_fire(index, intent_id, str(record["when"]))
            elif op == "cancel" and intent_id in added:
                index.execute(
                    f"UPDATE intents SET state = 'cancelled', ended_at = ? WHERE id = ? AND state IN {LIVE_STATES}",
                    (str(record["when"]), intent_id),
                )
        except (KeyError, TypeError, ValueError):
            continue
        except Exception as err:  # a CHECK constraint refused a tampered record
            if type(err).__module__ != "apsw":
                raise
            continue
    return len(added)


# rows ------------------------------------------------------------------------------------
def _initial_state(kind: str, due_at: str | None) -> str:
    return "pending" if kind == "event" and due_at is not None else "armed"


def _insert(index: Index, row: dict[str, Any]) -> int:
    names = [k for k in COLUMNS if k in row and (k != "id" or row["id"] is not None)]
    index.execute(
        f"INSERT INTO intents({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
        tuple(row[k] for k in names),
    )
    intent_id = index.conn.last_insert_rowid()
    if row["kind"] == "event":
        # the stems the matching rule compares (not the raw phrases), so the prefilter can only over-select
        stems = dict.fromkeys(t for phrase in json.loads(row["keywords"]) for t in phrase_terms(phrase))
        index.execute("INSERT INTO intents_fts(rowid, keywords) VALUES (?, ?)", (intent_id, " ".join(stems)))
    return intent_id


def fetch_row(index: Index, intent_id: int) -> dict[str, Any] | None:
    rows = index.query("SELECT * FROM intents WHERE id = ?", (intent_id,))
    return rows[0] if rows else None


def _apply_fire(index: Index, intent_id: int, when: str) -> tuple[int, str] | None:
    """Count one fire: time intents are done at once, event intents when their budget is used."""
    row = fetch_row(index, intent_id)
    if row is None or row["state"] not in LIVE_STATES:
        return None
    fires = min(row["fires"] + 1, row["budget"])
    state = "done" if row["kind"] == "time" or fires >= row["budget"] else "fired"
    index.execute(
        "UPDATE intents SET fires = ?, last_fired_at = ?, state = ?, armed_at = coalesce(armed_at, due_at, created_at),"
        " ended_at = CASE WHEN ? = 'done' THEN ? ELSE ended_at END WHERE id = ?",
        (fires, when, state, state, when, intent_id),
    )
    return fires, state


def sweep(index: Index, now: str) -> None:
    """Store the states time has changed: pending intents whose arm time came, expired ones."""
    index.execute(
        "UPDATE intents SET state = 'armed', armed_at = due_at WHERE state = 'pending' AND due_at <= ? AND expires_at > ?",
        (now, now),
    )
    index.execute(
        f"UPDATE intents SET state = 'expired', ended_at = expires_at WHERE state IN {LIVE_STATES} AND expires_at <= ?",
        (now,),
    )


def record_fires(ws: Workspace, index: Index, fired: Sequence[tuple[int, str]]) -> None:
    """Ledger first, then the rows (the caller holds the write transaction)."""
    if not fired:
        return
    ledger.append(ws, [ledger_records.intent_op_record("fire", intent_id, when) for intent_id, when in fired])
    for intent_id, when in fired:
        _apply_fire(index, intent_id, when)


def add_intent(
    ws: Workspace,
    index: Index,
    text: str,
    *,
    origin: str,
    keywords: Sequence[str] = (),
    at: dt.datetime | None = None,
    channel: str | None = None,
    sender: str | None = None,
    expires: dt.datetime | None = None,
    budget: int | None = None,
    cooldown_s: int | None = None,
    session: str | None = None,
    now: dt.datetime | None = None,
) -> Intent:
    """Create a standing intent: an event intent with ``keywords``, else a time intent ``at``.

    An event intent with ``at`` stays pending until then. Raises ``Forbidden`` for untrusted or
    system origin, ``BadInput`` for anything malformed; nothing is written then.
    """
    check_creator(origin)
    cfg = ws.config.intents
    moment = aware(now) if now is not None else current_time()
    created = stamp(moment)
    text = clean_text(ws, text, origin)
    phrases = clean_phrases(keywords)
    if session is not None:
        session = validate_session_id(session)
    kind = "event" if phrases else "time"
    if kind == "time" and at is None:
        raise BadInput("an intent needs a trigger", hint="--when PHRASE (fires when it comes up), --at TIME (a reminder) or --review DATE (an aspiration)")
    due = stamp(at) if at is not None else None
    if due is not None and due <= created:
        assert at is not None  # due is derived from at
        raise BadInput(f"--at {aware(at).isoformat()} is not in the future", hint="give a later time, e.g. --at 'friday 9am'")
    if kind == "time" and (budget is not None or cooldown_s is not None):
        raise BadInput("--budget and --cooldown apply to event intents (--when); a reminder fires once")
    check_fire_limits(budget, cooldown_s)
    start = aware(at) if at is not None else moment
    expiry = stamp(expires) if expires is not None else stamp(start + dt.timedelta(days=cfg.expiry_days))
    if expiry <= (due or created):
        raise BadInput(f"--expires {expiry} comes before the intent could fire", hint="give a later expiry, e.g. --expires 30d")
    row: dict[str, Any] = {
        "id": None,
        "kind": kind,
        "state": _initial_state(kind, due),
        "text": text,
        "keywords": json.dumps(phrases, ensure_ascii=False),
        "channel": clean_scope(channel, "channel"),
        "sender": clean_scope(sender, "sender"),
        "origin": origin,
        "session": session,
        "created_at": created,
        "armed_at": None,
        "due_at": due,
        "expires_at": expiry,
        "cooldown_s": 0 if kind == "time" else (cooldown_s if cooldown_s is not None else round(cfg.cooldown_hours * 3600)),
        "budget": 1 if kind == "time" else (budget if budget is not None else cfg.budget),
        "fires": 0,
    }
    if row["state"] == "armed":
        row["armed_at"] = created
    ensure_restored(ws, index)
    with index.transaction():
        row["id"] = _insert(index, row)
        ledger.append(ws, [ledger_records.intent_add_record({**row, "keywords": json.loads(row["keywords"])})])
    added = fetch_row(index, row["id"])
    assert added is not None  # inserted just above
    return from_row(added, created)


def get_intent(ws: Workspace, index: Index, intent_id: int, *, now: dt.datetime | None = None) -> Intent:
    ensure_restored(ws, index)
    row = fetch_row(index, intent_id)
    if row is None:
        raise NotFound(f"no intent #{intent_id}", hint="see them all with `clawmem intent list --state all`")
    return from_row(row, stamp(now or current_time()))


def list_intents(
    ws: Workspace, index: Index, *, states: Iterable[str] | None = None, now: dt.datetime | None = None
) -> list[Intent]:
    """Intents by id; ``states`` filters on the effective state (default: the live ones)."""
    wanted = set(states) if states is not None else set(LIVE_STATES)
    unknown = wanted - set(STATES)
    if unknown:
        raise BadInput(f"unknown intent state {sorted(unknown)[0]!r}", hint=f"use one of: {', '.join(STATES)}")
    ensure_restored(ws, index)
    current = stamp(now or current_time())
    intents = [from_row(row, current) for row in index.query("SELECT * FROM intents ORDER BY id")]
    return [i for i in intents if i.state in wanted]


def cancel_intent(ws: Workspace, index: Index, intent_id: int, *, origin: str, now: dt.datetime | None = None) -> Intent:
    """Cancel explicitly (cancellation is never inferred); an ended intent cannot be cancelled."""
    check_creator(origin, "cancel an intent")
    current = stamp(now or current_time())
    ensure_restored(ws, index)
    with index.transaction():
        sweep(index, current)
        row = fetch_row(index, intent_id)
        if row is None:
            raise NotFound(f"no intent #{intent_id}", hint="see them all with `clawmem intent list --state all`")
        if row["state"] in ENDED_STATES:
            raise BadInput(f"intent #{intent_id} is already {row['state']}; nothing to cancel")
        ledger.append(ws, [ledger_records.intent_op_record("cancel", intent_id, current)])
        index.execute("UPDATE intents SET state = 'cancelled', ended_at = ? WHERE id = ?", (current, intent_id))
    cancelled = fetch_row(index, intent_id)
    assert cancelled is not None  # found above, in the same transaction's database
    return from_row(cancelled, current)


def current_time() -> dt.datetime:
    from clawmem.foundation.timeparse import now

    return now()
