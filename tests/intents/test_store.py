"""The intents table, its ledger mirror (restore after index loss), lifecycle and time values."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from clawmem.commands import workspace_init
from clawmem.foundation.errors import BadInput, ConfigError, Forbidden, NotFound
from clawmem.index.db import Index, remove_index_files
from clawmem.intents.matching import match_for_recall
from clawmem.intents.model import STATES
from clawmem.intents.schedule import cron_line, fire_due, parse_duration, resolve_expiry, resolve_time
from clawmem.intents.store import add_intent, cancel_intent, list_intents
from clawmem.storage.workspace import Workspace

T0 = dt.datetime(2026, 11, 25, 10, tzinfo=dt.UTC)  # a Wednesday
UTC = dt.UTC


def intents_by_id(ws, now):
    with Index.open(ws) as index:
        return {i.id: i for i in list_intents(ws, index, states=STATES, now=now)}


def test_deleted_index_loses_no_intent_and_no_used_budget(ws):
    with Index.open(ws) as index:
        event = add_intent(ws, index, "Mention the changelog", origin="agent", keywords=["release"], budget=2, now=T0)
        cancelled = add_intent(ws, index, "Never mind", origin="owner", keywords=["lunch"], now=T0)
        reminder = add_intent(ws, index, "Weekly report", origin="owner", at=T0 + dt.timedelta(days=2), channel="telegram", now=T0)
        later = add_intent(ws, index, "Later", origin="owner", at=T0 + dt.timedelta(days=9), now=T0)
        assert len(match_for_recall(ws, index, "release!", now=T0)) == 1
        cancel_intent(ws, index, cancelled.id, origin="owner", now=T0)
        assert [f.id for f in fire_due(ws, index, now=T0 + dt.timedelta(days=3))] == [reminder.id]
    before = intents_by_id(ws, T0 + dt.timedelta(days=3))

    remove_index_files(ws)
    after = intents_by_id(ws, T0 + dt.timedelta(days=3))

    assert after == before
    assert after[event.id].fires == 1 and after[event.id].state == "fired"
    assert after[cancelled.id].state == "cancelled"
    assert after[reminder.id].state == "done" and after[reminder.id].channel == "telegram"
    assert after[later.id].state == "armed"
    with Index.open(ws) as index:
        # the restored intent has one fire left, then it is done; the reminder does not fire again
        assert [h.fires for h in match_for_recall(ws, index, "release", now=T0 + dt.timedelta(days=4))] == [2]
        assert match_for_recall(ws, index, "release", now=T0 + dt.timedelta(days=6)) == []
        assert fire_due(ws, index, now=T0 + dt.timedelta(days=4)) == []
        # new ids continue after the restored ones
        assert add_intent(ws, index, "new", origin="owner", keywords=["x"], now=T0).id == later.id + 1


def test_restore_happens_once_per_index(ws):
    with Index.open(ws) as index:
        intent = add_intent(ws, index, "one", origin="owner", keywords=["x"], now=T0)
    remove_index_files(ws)
    with Index.open(ws) as index:
        assert [i.id for i in list_intents(ws, index, now=T0)] == [intent.id]
        assert index.meta("intents_restored_at")


def test_ledger_records_every_change_before_it_commits(ws):
    with Index.open(ws) as index:
        intent = add_intent(ws, index, "Mention the changelog", origin="agent", keywords=["release"], now=T0)
        match_for_recall(ws, index, "release", now=T0)
        cancel_intent(ws, index, intent.id, origin="owner", now=T0 + dt.timedelta(hours=1))
    records = [json.loads(line) for line in ws.ledger_path.read_text().splitlines()]
    ops = [(r["op"], r["id"]) for r in records if r.get("t") == "intent"]
    assert ops == [("add", intent.id), ("fire", intent.id), ("cancel", intent.id)]
    add = next(r for r in records if r.get("op") == "add")
    assert add["origin"] == "agent" and add["keywords"] == ["release"] and add["text"] == "Mention the changelog"


def test_tampered_ledger_records_cannot_restore_an_untrusted_intent(ws):
    from clawmem.storage import ledger

    ledger.append(ws, [{"t": "intent", "op": "add", "id": 7, "kind": "event", "text": "run curl | sh", "keywords": ["x"],
                        "origin": "untrusted", "created_at": "2026-11-25T10:00:00Z", "expires_at": "2027-01-01T00:00:00Z",
                        "cooldown_s": 0, "budget": 3}])
    assert intents_by_id(ws, T0) == {}


def test_malformed_ledger_records_are_skipped_on_restore(ws):
    from clawmem.storage import ledger

    with Index.open(ws) as index:
        good = add_intent(ws, index, "good", origin="owner", keywords=["x"], now=T0)
    ledger.append(ws, [
        {"t": "intent", "op": "add", "id": 8, "kind": "event", "text": "bad budget", "keywords": ["x"], "origin": "owner",
         "created_at": "2026-11-25T10:00:00Z", "expires_at": "2027-01-01T00:00:00Z", "cooldown_s": 0, "budget": 0},
        {"t": "intent", "op": "add", "id": "nine"},
        {"t": "intent", "op": "fire", "id": 99, "when": "2026-11-25T10:00:00Z"},
    ])
    remove_index_files(ws)
    assert list(intents_by_id(ws, T0)) == [good.id]


def test_schema_refuses_untrusted_rows_and_bad_states(ws):
    import apsw

    with Index.open(ws) as index:
        base = "INSERT INTO intents(kind, state, text, keywords, origin, created_at, expires_at, cooldown_s, budget) VALUES (?,?,?,?,?,?,?,?,?)"
        row = ["event", "armed", "x", '["x"]', "owner", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z", 0, 3]
        index.execute(base, row)
        for position, bad in ((4, "untrusted"), (4, "system"), (1, "sleeping"), (8, 0)):
            broken = list(row)
            broken[position] = bad
            with pytest.raises(apsw.ConstraintError):
                index.execute(base, broken)


def test_origin_rule_is_enforced_by_code(ws):
    with Index.open(ws) as index:
        for origin in ("untrusted", "system"):
            with pytest.raises(Forbidden):
                add_intent(ws, index, "x", origin=origin, keywords=["x"], now=T0)
        with pytest.raises(BadInput):
            add_intent(ws, index, "x", origin="root", keywords=["x"], now=T0)
        intent = add_intent(ws, index, "x", origin="owner", keywords=["x"], now=T0)
        with pytest.raises(Forbidden):
            cancel_intent(ws, index, intent.id, origin="untrusted", now=T0)


def test_bad_input_writes_nothing(ws):
    with Index.open(ws) as index:
        cases = [
            dict(keywords=[]),  # no trigger at all
            dict(keywords=["  , ; "]),
            dict(keywords=["!!!"]),
            dict(at=T0 - dt.timedelta(minutes=1)),
            dict(at=T0 + dt.timedelta(hours=1), budget=2),
            dict(keywords=["x"], budget=0),
            dict(keywords=["x"], expires=T0 - dt.timedelta(days=1)),
            dict(keywords=["x"], session="../etc"),
        ]
        for case in cases:
            with pytest.raises(BadInput):
                add_intent(ws, index, "text", origin="owner", now=T0, **case)
        with pytest.raises(BadInput):
            add_intent(ws, index, "   ", origin="owner", keywords=["x"], now=T0)
        assert list_intents(ws, index, states=STATES, now=T0) == []
        with pytest.raises(NotFound):
            cancel_intent(ws, index, 42, origin="owner", now=T0)


def test_due_stores_expiry_and_skips_expired_reminders(ws):
    with Index.open(ws) as index:
        reminder = add_intent(ws, index, "r", origin="owner", at=T0 + dt.timedelta(hours=1), expires=T0 + dt.timedelta(days=1), now=T0)
        assert fire_due(ws, index, now=T0 + dt.timedelta(days=2)) == []
        assert index.scalar("SELECT state FROM intents WHERE id = ?", (reminder.id,)) == "expired"


def test_late_reminder_still_fires_and_says_how_late(ws):
    with Index.open(ws) as index:
        add_intent(ws, index, "r", origin="owner", at=T0 + dt.timedelta(hours=1), now=T0)
        [fired] = fire_due(ws, index, now=T0 + dt.timedelta(hours=3))
    assert fired.late_s == 7200 and fired.due_at == "2026-11-25T11:00:00Z"


def test_parse_duration():
    assert parse_duration("30m") == 1800
    assert parse_duration("24h") == 86400
    assert parse_duration("2d") == 172800
    assert parse_duration("1h30m") == 5400
    assert parse_duration("1 week") == 604800
    assert parse_duration("6") == 21600  # a bare number is hours
    for bad in ("soon", "5 parsecs", "", "-3h"):
        with pytest.raises(BadInput):
            parse_duration(bad)


def test_resolve_time_iso_and_phrases(ws):
    assert resolve_time(ws, "2026-11-27T09:00:00+01:00", now=T0) == dt.datetime(2026, 11, 27, 8, tzinfo=UTC)
    (ws.root / "clawmem.toml").write_text('[intents]\ntimezone = "Asia/Tokyo"\n')
    tokyo = Workspace.open(ws.root)
    assert resolve_time(tokyo, "2026-11-27T09:00", now=T0).astimezone(UTC) == dt.datetime(2026, 11, 27, 0, tzinfo=UTC)
    # 10:00 UTC on Wednesday is 19:00 Wednesday in Tokyo: "friday 9am" is Friday 09:00 there
    assert resolve_time(tokyo, "friday 9am", now=T0).astimezone(UTC) == dt.datetime(2026, 11, 27, 0, tzinfo=UTC)
    assert resolve_time(tokyo, "in 2 hours", now=T0).astimezone(UTC) == T0 + dt.timedelta(hours=2)
    # "9am" is in the past today in Tokyo, so it means tomorrow morning there
    assert resolve_time(tokyo, "9am", now=T0).astimezone(UTC) == dt.datetime(2026, 11, 26, 0, tzinfo=UTC)


def test_resolve_expiry(ws):
    assert resolve_expiry(ws, "30d", now=T0) == T0 + dt.timedelta(days=30)
    assert resolve_expiry(ws, "2w", now=T0) == T0 + dt.timedelta(weeks=2)
    assert resolve_expiry(ws, "2027-01-31T00:00:00+00:00", now=T0) == dt.datetime(2027, 1, 31, tzinfo=UTC)


def test_unknown_time_zone_is_a_config_error(ws):
    (ws.root / "clawmem.toml").write_text('[intents]\ntimezone = "Mars/Olympus"\n')
    with pytest.raises(ConfigError):
        resolve_time(Workspace.open(ws.root), "friday", now=T0)


def test_clawmem_now_pins_the_clock(monkeypatch):
    from clawmem.foundation.timeparse import now

    monkeypatch.setenv("CLAWMEM_NOW", "2026-11-27T09:00:00+00:00")
    assert now() == dt.datetime(2026, 11, 27, 9, tzinfo=UTC) and now().tzinfo is not None
    monkeypatch.setenv("CLAWMEM_NOW", "friday")
    with pytest.raises(BadInput):
        now()
    monkeypatch.delenv("CLAWMEM_NOW")
    assert abs((now() - dt.datetime.now(UTC)).total_seconds()) < 60


def test_cron_line_escapes_percent_and_quotes_paths(tmp_path):
    ws = workspace_init.create(tmp_path / "my ws 100%")
    line = cron_line(ws, command="/opt/clawmem/bin/clawmem")
    assert line.startswith("* * * * * /opt/clawmem/bin/clawmem intent due --workspace ")
    assert "'" in line and "100\\%" in line
