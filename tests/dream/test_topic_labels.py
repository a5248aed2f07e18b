"""A word and a colon opening the owner's message is a topic, not a speaker.

"Emails: we moved transactional email to Postmark" typed to a coding agent was curated as
"Emails said: …". A label inside a user's turn names a speaker only when the transcript relays
a chat (most turns open with a name, a bridge's "user: Caroline: …"), on a quoted line
("> Jon: …"), or when several lines of the turn carry one (a pasted exchange). Varied: the
label's word and the host format; a relayed chat and a paste are the controls.
"""

from __future__ import annotations

import datetime as dt

import pytest

from clawmem.entries import grammar
from tests.dream.hostfiles import HOSTS

TODAY = dt.date(2026, 11, 20)
TOLD = [
    "Emails: we moved transactional email from Mailgun to Postmark this week.",
    "Postgres: we upgraded the primary to Postgres 16 on Tuesday.",
    "Deploys: we deploy from the release branch now, never from main.",
    "Billing: Martin confirmed VAT is charged on the invoice total.",
]


def when(n: int, hour: int = 10) -> dt.datetime:
    return dt.datetime.combine(TODAY - dt.timedelta(days=n), dt.time(hour))


@pytest.fixture
def told(clawmem, tmp_path):
    """The owner sends ``turn`` in a session of ``host`` on three days; dream runs each night."""

    def run(turn: str, host: str) -> None:
        for n in (3, 2, 1):
            source = tmp_path / f"day{n}-{host}"
            source.write_text(HOSTS[host](turn, "Noted.", when(n)))
            assert clawmem("ingest", str(source), "--session", f"s{n}", "--origin", "owner", env={"CLAWMEM_NOW": when(n).isoformat()}).returncode == 0
            assert clawmem("dream", env={"CLAWMEM_NOW": when(n, 23).isoformat()}).returncode == 0

    return run


def curated(ws) -> list[str]:
    return [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]


@pytest.mark.parametrize("host", sorted(HOSTS))
@pytest.mark.parametrize("turn", TOLD)
def test_a_topic_label_in_the_owners_message_is_no_speaker(ws, told, turn, host):
    told(turn, host)
    topic = turn.split(":")[0]
    lines = [b for b in curated(ws) if turn.split(": ", 1)[1][:20].casefold() in b.casefold()]
    assert lines, curated(ws)
    assert not any(f"{topic} said" in b for b in lines), lines


def test_a_chat_relayed_through_user_turns_keeps_its_speakers(ws, clawmem, tmp_path):
    """The control: every turn opens with a name after its role (a bridge's export)."""
    for n in (3, 2, 1):
        source = tmp_path / f"relay{n}.md"
        source.write_text(
            f"user: Caroline: I adopted two rescue dogs in March, day {n}.\n"
            "user: Melanie: That's wonderful! I started pottery classes on Saturdays.\n"
            "user: Caroline: The dogs are called Rex and Max.\n"
        )
        assert clawmem("ingest", str(source), "--session", f"r{n}", "--origin", "owner", env={"CLAWMEM_NOW": when(n).isoformat()}).returncode == 0
    data = clawmem("dream", "--json", "--explain", env={"CLAWMEM_NOW": when(1, 23).isoformat()}).json()
    texts = " ".join(e["text"] or "" for e in data["explain"])
    assert "Caroline said: I adopted two rescue dogs" in texts and "Melanie said:" in texts, texts


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_an_exchange_pasted_into_one_message_keeps_its_speakers(ws, clawmem, tmp_path, host):
    """The control inside one turn: two labelled lines are a paste, whatever the host."""
    turn = "Here is what they said in the channel:\nPriya: The staging cluster moves to eu-west-2 on Friday.\nTom: I'll update the runbook after the move."
    for n in (3, 2, 1):
        source = tmp_path / f"paste{n}-{host}"
        source.write_text(HOSTS[host](turn, "Noted.", when(n)))
        assert clawmem("ingest", str(source), "--session", f"p{n}", "--origin", "owner", env={"CLAWMEM_NOW": when(n).isoformat()}).returncode == 0
    data = clawmem("dream", "--json", "--explain", env={"CLAWMEM_NOW": when(1, 23).isoformat()}).json()
    texts = [e["text"] for e in data["explain"] if e["text"] and "eu-west-2" in e["text"]]
    assert texts and all(t.startswith("Priya said:") for t in texts), texts


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_what_the_owner_says_under_a_topic_label_is_one_line(ws, clawmem, tmp_path, host):
    """The label scopes the message: the update and the detail after it are one account about
    emails, kept from one statement as the update is (before, the detail waited apart for recalls)."""
    turn = "Emails: we moved transactional email from Mailgun to Postmark this week. The API key is POSTMARK_API_KEY in the Gigalixir config."
    source = tmp_path / f"one-{host}"
    source.write_text(HOSTS[host](turn, "Noted.", when(1)))
    assert clawmem("ingest", str(source), "--session", "t1", "--origin", "owner", env={"CLAWMEM_NOW": when(1).isoformat()}).returncode == 0
    assert clawmem("dream", env={"CLAWMEM_NOW": when(1, 23).isoformat()}).returncode == 0
    [line] = curated(ws)
    assert "Postmark" in line and "Gigalixir config" in line and "said" not in line, line


@pytest.mark.parametrize("turn", [
    # after a greeting the label still opens the message
    "Hi. Emails: the transactional ones go through Postmark. The token is in the Gigalixir config.",
    # a decision announced for a topic: the detail after it is about the topic too
    "A decision for email: transactional mail goes through Postmark. The token is in the Gigalixir config.",
    "A change for the email setup: transactional mail goes through Postmark. The token is in the Gigalixir config.",
])
def test_a_label_after_a_greeting_or_a_decision_for_a_topic_opens_the_account(turn):
    from clawmem.dream import standalone

    row = {"text": f"user: {turn}", "kind": "transcript", "origin": "owner", "observed_at": "2026-11-19T10:00:00+00:00"}
    [line] = [u.text for u in standalone.read(row, relayed=False) if u.text]
    assert "Postmark" in line and "Gigalixir config" in line, line


def test_a_request_label_opens_no_account(ws, clawmem, tmp_path):
    """"New feature: …" asks for work of the moment: the update said after it in the turn is its own line."""
    turn = "New feature: text members seven days before their membership expires. And a heads-up: we moved from HTTPoison to Req this week."
    source = tmp_path / "feature.md"
    source.write_text(HOSTS["chat.md"](turn, "Noted.", when(1)))
    assert clawmem("ingest", str(source), "--session", "f1", "--origin", "owner", env={"CLAWMEM_NOW": when(1).isoformat()}).returncode == 0
    assert clawmem("dream", env={"CLAWMEM_NOW": when(1, 23).isoformat()}).returncode == 0
    lines = curated(ws)
    assert any("HTTPoison" in line for line in lines) and not any("text members" in line for line in lines), lines
