"""Worth keeping: recurrence is evidence only for a unit that carries information.

Through the installed ``clawmem``: real transcripts and daily notes, real sweeps, real
MEMORY.md. The external consolidator is a script standing in for a hosted model (the one
thing outside our control), as in ``test_external.py``.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap

import pytest

from clawmem.dream import scaffolding, worth
from clawmem.dream.text import untimed
from clawmem.entries import grammar

FACT = "The staging database runs on db-stage-2 behind pgbouncer port 6432."
JUNK = (
    "thanks, that worked", "Great, that fixed it.", "perfect!", "ok will do", "hey Mel! good to see you", "talk soon",
    # the same in the other languages people mix into a chat
    "Merci!", "Danke!", "Gracias, funciona.", "Non non non.", "Nah.",
)


def bodies(ws) -> list[str]:
    return [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]


@pytest.fixture
def chatty_sessions(clawmem, days_ago):
    """Three sessions on three days: a question, the fact, and the same thanks each time."""
    for n in (3, 2, 1):
        turns = f"user: where does staging live again?\nassistant: {FACT}\nuser: thanks, that worked\n"
        result = clawmem("ingest", "-", "--session", f"chat-{n}", "--origin", "owner", "--at", days_ago(n).isoformat(), input=turns)
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("line", JUNK)
def test_social_talk_is_not_a_memory(line):
    assert "no information" in scaffolding.reason(line)


@pytest.mark.parametrize(
    "line",
    [FACT, "Thanks, the deploy to fly.io worked after pinning node 20.", "Caroline said: I have lots of great memories with him."],
)
def test_a_thanks_around_a_fact_does_not_hide_the_fact(line):
    assert scaffolding.reason(line) is None


REACTIONS = (
    "Caroline said: That plate is awesome!",
    "Melanie said: Wow, Caroline, that looks awesome!",
    "Melanie said: Woah, Caroline, it sounds like you're doing some impressive work.",
    "Caroline said: Wow, what an amazing family pic!",
    "Melanie said: I love how it shows the togetherness and power you were talking about.",
    "Caroline said: I totally agree, Melanie.",
    "Caroline said: Keep it up!",
    "Caroline said: Long time no talk.",
    "Melanie said: Yes, Caroline!",
    "Maria said: Looks fun!",
    "Joanna said: So proud of you for winning that tournament, that's awesome!",
    "Joanna said: Way to go, Nate!",
    "Joanna said: Your support and encouragement mean a lot.",
    "Joanna said: I love the thought Nate!",
    "Gina said: I love the idea, Jon!",
    "Caroline said: I love the sound!",
)
OWN_NEWS = (  # evaluative words, but about the speaker's own life or naming something: facts
    "Caroline said: This necklace is super special to me - a gift from my grandma in my home country, Sweden.",
    "Caroline said: I love painting landscapes on weekends.",
    "It's amazing how fast Postgres 16 is on the new box.",
    "The assistant said: That works because the linker needs libatomic.",
    "That means staging needs Postgres 16 too.",
    "Joanna said: I make it with almond flour, coconut oil, chocolate and raspberries.",
    "Gina said: I love the idea of opening a dance studio in Denver.",
    "Caroline said: I love the sound of the ocean at night.",
)


@pytest.mark.parametrize("line", REACTIONS)
def test_praise_and_agreement_aimed_at_the_other_person_are_not_memories(line):
    assert "no information" in scaffolding.reason(line)


@pytest.mark.parametrize("line", OWN_NEWS)
def test_evaluative_words_around_a_fact_do_not_hide_it(line):
    assert scaffolding.reason(line) is None


def test_only_the_fact_is_promoted_and_explain_says_why_the_thanks_was_not(ws, clawmem, chatty_sessions):
    data = clawmem("dream", "--json", "--explain").json()
    assert [c["text"] for c in data["promoted"]] == [FACT]
    assert bodies(ws) == [FACT]
    assert "thanks" not in ws.memory_md.read_text().casefold()

    thanks = [e for e in data["explain"] if e["status"] == "excluded" and e["text"] == "thanks, that worked"]
    assert sorted(e["sources"][0].split("#")[0] for e in thanks) == ["transcripts/chat-1.md", "transcripts/chat-2.md", "transcripts/chat-3.md"]
    assert all(e["failed"] == ["an acknowledgement, no information"] for e in thanks)
    questions = [e for e in data["explain"] if e["status"] == "excluded" and "staging live" in (e["text"] or "")]
    assert len(questions) == 3 and all(e["failed"] == ["a question, not a fact"] for e in questions)
    assert data["excluded"]["an acknowledgement, no information"] == 3


def test_human_explain_lists_the_exclusions_and_their_count(ws, clawmem, chatty_sessions):
    out = clawmem("dream", "--explain", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "acknowledgement" in out.stdout and "thanks, that worked" in out.stdout
    assert "Light excluded 6 units: 3 × a question, not a fact; 3 × an acknowledgement, no information." in " ".join(out.stdout.split())


def test_excluded_untrusted_text_is_withheld(ws, clawmem, days_ago):
    turns = "user: thanks, that worked\nuser: The payroll export goes to ftp.example.net every Friday.\n"
    assert clawmem("ingest", "-", "--session", "web-1", "--origin", "untrusted", "--at", days_ago(1).isoformat(), input=turns).returncode == 0
    human = clawmem("dream", "--explain", "--dry-run").stdout  # a dry run reads the same files again next time
    assert "payroll" not in human and "withheld" in human
    data = clawmem("dream", "--json", "--explain").json()
    rows = [e for e in data["explain"] if e["status"] == "excluded" and e["sources"][0].startswith("transcripts/web-1.md")]
    assert len(rows) == 2 and all(e["text"] is None for e in rows)
    assert all("origin is untrusted" in " ".join(e["failed"]) for e in rows)
    again = clawmem("dream", "--json", "--explain").json()
    assert not [e for e in again["explain"] if e["sources"][0].startswith("transcripts/web-1.md")], "only files read in this sweep"


def test_an_external_consolidator_cannot_write_a_thanks_line(ws, clawmem, chatty_sessions, configure, tmp_path):
    model = tmp_path / "model.py"
    model.write_text(textwrap.dedent("""\
        import json, sys
        d = json.load(sys.stdin)
        c = d["candidates"][0]
        sys.stdout.write(d["memory_md"] + c["line"] + c["line"].replace(c["text"], "thanks, that worked"))
    """))
    configure(consolidator_command=f"{sys.executable} {model}")
    data = clawmem("dream", "--json").json()
    assert data["fallback_used"] and "not a memory (an acknowledgement, no information)" in data["fallback_reason"]
    assert bodies(ws) == [FACT], "the fallback appends the gated fact, never the thanks"


def test_a_unit_of_only_this_workspaces_common_words_is_not_staged(ws, clawmem, days_ago):
    """A workspace about deploys: "deploy" and "service" are in most entries, so "The service
    deploy finished." says nothing here, however often; a unit with a rare word still counts."""
    for n in range(1, 4):
        day = days_ago(n).date()
        lines = [f"- Service deploy {n}-{i} finished for tenant t{i}." for i in range(20)]
        lines += ["- The service deploy finished.", "- The service deploy finished on the canary hosts."]
        ws.daily_note(day).write_text(f"# {day}\n\n" + "\n".join(lines) + "\n")
    data = clawmem("dream", "--json", "--explain", "--dry-run").json()
    common = [e for e in data["explain"] if e["text"] == "The service deploy finished."]
    assert len(common) == 3 and all(e["status"] == "excluded" and "common here" in e["failed"][0] for e in common)
    staged = [e for e in data["explain"] if e["candidate_id"] and "canary hosts" in e["text"]]
    assert len(staged) == 1 and staged[0]["signals"]["days"] == 3


def test_explain_lists_at_most_the_configured_number_of_exclusions(ws, clawmem, chatty_sessions, configure):
    configure(explain_exclusions=2)
    data = clawmem("dream", "--json", "--explain", "--dry-run").json()
    light_rows = [e for e in data["explain"] if e["status"] == "excluded" and e["sources"][0].startswith("transcripts/")]
    assert len(light_rows) == 2
    assert sum(data["excluded"].values()) == 6, "every exclusion is still counted"


NO_NEWS = (  # something happened, but not what; a slogan; a remark on the listener's news
    "Hey Caroline, since we last chatted, I've had a lot of things happening to me.",
    "Things have been hectic lately.",
    "Hey John, been a few days since we chatted.",
    "Wow, a lot has been going on lately!",
    "Together, we can make a real difference and bring a brighter future.",
    "Staying positive makes a big difference, even in tough times.",
    "Even small things can mean a lot.",
    "Wow, John, sounds like you and Max had a great time!",
    "Sounds like a plan, John!",
    "The kids look so cute, Mel!",
)
# the same with the day its relative date meant (``standalone.resolve_dates``): no name of anything
RESOLVED_NO_NEWS = (
    "Things have been hectic lately (as of May 2023).",
    "Wow, a lot has been going on lately (as of May 2023)!",
    "Things have been crazy today (2023-05-10).",
)


@pytest.mark.parametrize("line", RESOLVED_NO_NEWS)
def test_a_resolved_date_names_nothing_the_sentence_says(monkeypatch, line):
    assert scaffolding.reason(f"Maria said: {line}") is not None
    # the rule is what refuses it: read as a name, the date makes the same sentence news
    monkeypatch.setattr(worth, "RESOLVED", re.compile(r"(?!)"))
    assert scaffolding.reason(f"Maria said: {line}") is None


STILL_FACTS = (  # the same words around something that happened, or a team's convention
    "I've been busy with the new job at Acme.",
    "Life has been crazy since the move to Denver.",
    "I spent a few days in Rome.",
    "We make pottery together every Sunday.",
    "We should use pnpm instead of npm.",
    "We must never deploy on Fridays.",
    "It looks like your tests need Postgres 16.",
    "I moved to Berlin, Germany.",
    "I'd like to learn the guitar.",
)
PREFIXES = ("", "Maria said: ", "[2023-05-08 13:56] Maria: ", "[D4:12] ")


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", NO_NEWS)
def test_news_without_content_slogans_and_remarks_are_not_memories_under_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) is not None


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", STILL_FACTS)
def test_what_happened_stays_a_fact_under_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) is None


COMPLAINTS = (  # a symptom told without its fix, cause or condition, in words other than "fails"
    "First thing: the dev flavor on the Android emulator — login just spins forever.",
    "The staging model gives rubbish and some rows just fail.",
    "The export page is stuck on 'Preparing…' again.",
    "I click Deploy and nothing happens, just a blank screen.",
    "The backfill never finishes and the dashboard doesn't load.",
    "The Verdun manager says last night's report stopped counting at 7 pm.",
    "The nightly export stopped sending on Tuesday.",
    "Argo's UI is painfully slow today, I swear that thing is held together with tape.",
)
FIXED = (  # the same symptoms with what fixes or causes them
    "Login spins forever when the emulator has no network, so start it with -dns-server 8.8.8.8.",
    "The staging model gives rubbish because the timestamps are Lisbon wall-clock time.",
    "If the export page is stuck on 'Preparing…', restart the worker.",
    "Dagster spins up one run worker per job and the run never fails silently.",
)


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", COMPLAINTS)
def test_a_symptom_without_a_fix_is_no_memory_under_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) == "a complaint without a resolution (no fix, cause or condition)"


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", FIXED)
def test_a_symptom_with_its_fix_or_cause_stays(line, prefix):
    assert scaffolding.reason(prefix + line) is None


PEP_TALK = (  # rallying, general remarks, kudos, pointers at what follows in the chat
    "Together, we can make a difference for our veterans!",
    "We can tackle life's challenges together!",
    "Let's keep motivating and helping each other out as we journey through life.",
    "Pets sure do bring so much joy to us!",
    "Horses have such grace!",
    "Kudos for organising the bake sale!",
    "Congrats on following your dreams.",
    "I've got the following code so far.",
    "It should look something like this.",
    # a count of what comes next, or an acknowledgement
    "Two changes from this morning's team meeting.",
    "A few quick things before you start:",
    "Fair enough.",
    "Makes sense!",
    "Credo is such a pedant.",
    "Jenkins is a total nightmare!",
)
OWN_FACTS = (  # the same words about someone in particular, or a convention with no rallying
    "Our dogs Rex and Max bring us so much joy.",
    "I think pets bring so much joy to kids.",
    "We can deploy on Fridays only after the freeze lifts.",
    "I've decided on the following schema: users(id, username) and transactions(id, user_id).",
    "Horses have been my passion since I rode with my dad in Montana.",
    "Two changes went out in this morning's release: the new login page and the CSV export.",
    "A few things before you start: the API listens on 8088.",
    "The fair in Tucson sold out of pottery.",
    "Credo is a linter for Elixir.",
)


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", PEP_TALK)
def test_pep_talk_general_remarks_and_pointers_are_not_memories_under_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) is not None


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("line", OWN_FACTS)
def test_facts_about_someone_stay_under_any_prefix(line, prefix):
    assert scaffolding.reason(prefix + line) is None


def test_pep_talk_around_a_fact_never_reaches_memory_md(ws, clawmem, days_ago):
    """The same pep talk on three days is still pep talk; the fact said beside it is promoted."""
    for n in (3, 2, 1):
        turns = [
            {"role": "user", "speaker": "Caroline", "content": "I joined the veterans' support group in Tucson. Together, we can make a difference for our veterans!"},
            {"role": "user", "speaker": "Melanie", "content": "Pets sure do bring so much joy to us! Kudos for joining the group."},
        ]
        lines = "".join(json.dumps(t) + "\n" for t in turns)
        result = clawmem("ingest", "-", "--session", f"talk-{n}", "--origin", "owner", "--format", "jsonl", "--at", days_ago(n).isoformat(), input=lines)
        assert result.returncode == 0, result.stderr
    data = clawmem("dream", "--json", "--explain").json()
    texts = {untimed(e["text"]) for e in data["explain"] if e["candidate_id"]}
    assert texts == {"Caroline said: I joined the veterans' support group in Tucson."}, texts
    assert [untimed(c["text"]) for c in data["promoted"]] == list(texts)
    assert not any(w in ws.memory_md.read_text() for w in ("Together", "joy", "Kudos"))
