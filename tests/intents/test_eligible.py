"""``intents.matching.eligible``: every rule that stops an armed event intent from firing.

Rows are real: created with ``add_intent`` in a migrated index and read back, then changed
with SQL the way a fire, a cancel or the clock would change them.
"""

from __future__ import annotations

import datetime as dt

import pytest

from clawmem.index.db import Index
from clawmem.intents.matching import eligible
from clawmem.intents.model import stamp
from clawmem.intents.store import add_intent, fetch_row

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def index(ws):
    with Index.open(ws) as opened:
        yield opened


def make(ws, index, **kw):
    options = {"origin": "agent", "keywords": ["release"], "now": NOW, "budget": 2, "cooldown_s": 3600, **kw}
    intent = add_intent(ws, index, "Mention the changelog", **options)
    return intent.id


def row(index, intent_id, **changes):
    for column, value in changes.items():
        index.execute(f"UPDATE intents SET {column} = ? WHERE id = ?", (value, intent_id))
    return fetch_row(index, intent_id)


def test_an_armed_intent_in_scope_is_eligible(ws, index):
    assert eligible(row(index, make(ws, index)), NOW, None, None)


def test_a_pending_intent_waits_for_its_arm_time(ws, index):
    intent_id = make(ws, index, at=NOW + dt.timedelta(hours=2))
    assert fetch_row(index, intent_id)["state"] == "pending"
    assert not eligible(fetch_row(index, intent_id), NOW, None, None)
    assert eligible(fetch_row(index, intent_id), NOW + dt.timedelta(hours=3), None, None)


@pytest.mark.parametrize("state", ["done", "cancelled", "expired"])
def test_an_ended_intent_never_fires(ws, index, state):
    assert not eligible(row(index, make(ws, index), state=state, ended_at=stamp(NOW)), NOW, None, None)


def test_expiry_and_budget_stop_it(ws, index):
    intent_id = make(ws, index)
    assert not eligible(row(index, intent_id, expires_at=stamp(NOW)), NOW, None, None)
    other = make(ws, index)
    assert not eligible(row(index, other, fires=2, last_fired_at=stamp(NOW - dt.timedelta(days=2)), state="fired"), NOW, None, None)


def test_the_cooldown_holds_until_it_has_passed(ws, index):
    fired = row(index, make(ws, index), fires=1, state="fired", last_fired_at=stamp(NOW - dt.timedelta(minutes=30)))
    assert not eligible(fired, NOW, None, None)
    assert eligible(fired, NOW + dt.timedelta(minutes=31), None, None)


def test_channel_and_sender_scope(ws, index):
    scoped = row(index, make(ws, index, channel="telegram", sender="alice"))
    assert eligible(scoped, NOW, "telegram", "alice")
    assert not eligible(scoped, NOW, "slack", "alice")
    assert not eligible(scoped, NOW, "telegram", "bob")
    assert not eligible(scoped, NOW, None, None)


def test_a_time_intent_is_never_event_eligible(ws, index):
    reminder = add_intent(ws, index, "Send the weekly report", origin="owner", at=NOW - dt.timedelta(minutes=1), now=NOW - dt.timedelta(hours=1))
    assert not eligible(fetch_row(index, reminder.id), NOW, None, None)
