"""Entries that stand on their own: whole sentences, no wrappers, a speaker, absolute dates.

The splitter and the date table are checked directly (a property test for the splitter);
attribution, wrapper stripping and the merge into a hand-written line go through the
installed ``clawmem`` on real transcripts, daily notes and MEMORY.md.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clawmem.dream import worth
from clawmem.dream.standalone import read, resolve_dates
from clawmem.dream.text import sentences, strip_wrappers, untimed
from clawmem.entries import grammar

WEDNESDAY = dt.date(2023, 5, 10)


def bodies(ws) -> list[str]:
    return [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went skiing in St. Moritz a few years ago! It was lovely.", ["I went skiing in St. Moritz a few years ago!", "It was lovely."]),
        ("Dr. Lee and Mrs. Park moved to the U.S. Army base. Then it rained.", ["Dr. Lee and Mrs. Park moved to the U.S. Army base.", "Then it rained."]),
        ("Use a cache, e.g. Redis. Version v1.2 broke. Pi is 3.14 here.", ["Use a cache, e.g. Redis.", "Version v1.2 broke.", "Pi is 3.14 here."]),
        ("Run ./configure first... Then make. J. Smith agreed.", ["Run ./configure first...", "Then make.", "J. Smith agreed."]),
        ('She said "it works." Then left.', ['She said "it works."', "Then left."]),
        # an acronym in capitals ends a sentence; a capital outside ASCII opens one
        ("Commit it and open the MR. And keep lint clean.", ["Commit it and open the MR.", "And keep lint clean."]),
        ("Ask Mr. Lee. Élise moved the reports. Über is next.", ["Ask Mr. Lee.", "Élise moved the reports.", "Über is next."]),
        # a request put to the listener after a comma asks, whatever the sentence before it stated
        ("I chose vanilla JS for simplicity, can you help me implement the app?", ["I chose vanilla JS for simplicity,", "can you help me implement the app?"]),
        ("We ship on Fridays, so could you check the build", ["We ship on Fridays,", "so could you check the build"]),
        ("You can, and you could too.", ["You can, and you could too."]),
        # so is a plea for help after a comma; a doubt about something else is no plea
        ("I use semantic tags, and I want to make sure I'm using them right", ["I use semantic tags,", "and I want to make sure I'm using them right"]),
        ("It builds, but I don't know why it works", ["It builds,", "but I don't know why it works"]),
        ("We moved to Render, but I'm not sure it was worth it.", ["We moved to Render, but I'm not sure it was worth it."]),
    ],
)
def test_sentences_split_only_where_a_sentence_ends(text, expected):
    assert sentences(text) == expected


TEXT = st.lists(
    st.one_of(st.sampled_from(["St.", "Dr.", "e.g.", "U.S.", "v1.2", "3.14", "...", "!", "?", ".", "Moritz", "I", "a", '"', "(", ")", ",", "can", "you"]),
              st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)),
    max_size=30,
).map(" ".join)


@given(TEXT)
def test_splitting_never_loses_or_repeats_a_character(text):
    found = sentences(text)
    assert " ".join(found) == " ".join(text.split())
    assert all(s and s == s.strip() for s in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Remember we use Postgres 16 everywhere.", "We use Postgres 16 everywhere."),
        ("Same as before: run make clean (attempt 3)", "Run make clean."),
        ("Just so you know, the VPN drops at midnight, thanks!", "The VPN drops at midnight."),
        ("FYI the cache is cold (again)", "The cache is cold."),
        ("Note: deploys are frozen on Fridays.", "Deploys are frozen on Fridays."),
        ("As I said, ports are 8080 and 8443.", "Ports are 8080 and 8443."),
        ("Remember to rotate the key.", "Remember to rotate the key."),  # an instruction keeps its verb
        ("Reminder emails go out at nine.", "Reminder emails go out at nine."),  # a word, not a wrapper
        ("Same as before.", ""),
        ("Understood — the staging port is 8443.", "The staging port is 8443."),  # any dash after it
        # a transition that only moves the chat on
        ("One more: docs/runbook.md still describes the old cluster.", "Docs/runbook.md still describes the old cluster."),
        ("While you're in there: GripDesk is still where people sign up.", "GripDesk is still where people sign up."),
        ("Quick one: the VPN drops at midnight.", "The VPN drops at midnight."),
        ("Next: the managers want a nightly report.", "The managers want a nightly report."),
        ("Nextcloud: we host the files there.", "Nextcloud: we host the files there."),  # a name, not "next"
        ("One of the servers: web-2 is down.", "One of the servers: web-2 is down."),
        ("Oh, and so it's written down somewhere: prod only gets built in CI.", "Prod only gets built in CI."),
        ("Oh and the VPN drops at midnight.", "The VPN drops at midnight."),
        ("And a heads-up first: we're moving off HTTPoison.", "We're moving off HTTPoison."),
        # the count of a list said in prose
        ("Two: we bumped to Go 1.24.", "We bumped to Go 1.24."),
        ("Second: deploys go through Argo.", "Deploys go through Argo."),
        ("Finally: the VPN drops at midnight.", "The VPN drops at midnight."),
        ("Two of the servers: web-2 and web-3 are down.", "Two of the servers: web-2 and web-3 are down."),  # a count of things
    ],
)
def test_conversational_wrappers_are_stripped(text, expected):
    assert strip_wrappers(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went camping last week.", "I went camping last week (the week of 2023-05-01)."),
        ("We met yesterday and tonight.", "We met yesterday (2023-05-09) and tonight (2023-05-10)."),
        ("It broke two days ago, fixed 3 weeks ago.", "It broke two days ago (2023-05-08), fixed 3 weeks ago (the week of 2023-04-17)."),
        ("last month, last year, a year ago, next month", "last month (April 2023), last year (2022), a year ago (2022), next month (June 2023)"),
        ("last Friday and last Wednesday", "last Friday (2023-05-05) and last Wednesday (2023-05-03)"),
        ("this morning and the day before yesterday", "this morning (2023-05-10) and the day before yesterday (2023-05-08)"),
        ("last weekend, this past weekend, this weekend", "last weekend (the weekend of 2023-05-06), this past weekend (the weekend of 2023-05-06), "
                                                          "this weekend (the weekend of 2023-05-13)"),
        ("We went camping two weekends ago, a weekend ago, a few weekends ago",
         "We went camping two weekends ago (the weekend of 2023-04-29), a weekend ago (the weekend of 2023-05-06), a few weekends ago (as of May 2023)"),
        ("Last Tues and last Fri we met", "Last Tues (2023-05-09) and last Fri (2023-05-05) we met"),
        ("a few years ago, several weeks ago", "a few years ago (as of 2023), several weeks ago (as of May 2023)"),
        ("recently, lately", "recently (as of May 2023), lately (as of May 2023)"),  # vague: anchored to the month said
        # the recent past of "just"; no past ("just use"), a hedge ("just wanted") or a state ("I'm just tired") is no event
        ("I just found a stray cat. She's just got back.", "I just (as of May 2023) found a stray cat. She's just (as of May 2023) got back."),
        ("I just use Oribe. I just wanted to say hi. I'm just tired.", "I just use Oribe. I just wanted to say hi. I'm just tired."),
        # a sentence that dates its event says when already
        ("I just joined a new group last Tues. I recently moved.", "I just joined a new group last Tues (2023-05-09). I recently (as of May 2023) moved."),
        ("recently (as of May 2023)", "recently (as of May 2023)"),  # already resolved: unchanged
        ("We went camping last summer; this summer, next spring", "We went camping last summer (summer 2022); this summer (summer 2023), next spring (spring 2024)"),
        ("last winter, last fall, this autumn", "last winter (winter 2022/23), last fall (fall 2022), this autumn (fall 2023)"),
        ("I won the tournament on Friday. I'm going to the lake on Saturday.",
         "I won the tournament on Friday (2023-05-05). I'm going to the lake on Saturday (2023-05-13)."),
        # a scheduled event or an arrangement in the present tense is still to come; a report is not
        ("The old bucket gets deleted on Friday.", "The old bucket gets deleted on Friday (2023-05-12)."),
        ("The v2 API is switched off on Monday, the release ships on Thursday.",
         "The v2 API is switched off on Monday (2023-05-15), the release ships on Thursday (2023-05-11)."),
        ("We're flying out on Friday; the report is due on Monday.", "We're flying out on Friday (2023-05-12); the report is due on Monday (2023-05-15)."),
        ("Marta joins the team on Monday; Sam is joining on Friday.", "Marta joins the team on Monday (2023-05-15); Sam is joining on Friday (2023-05-12)."),
        ("The sprint starts on Monday.", "The sprint starts on Monday (2023-05-15)."),
        ("Marta joined the team on Monday.", "Marta joined the team on Monday (2023-05-08)."),
        ("The bucket was deleted on Friday.", "The bucket was deleted on Friday (2023-05-05)."),
        ("We went out on Friday, it was amazing.", "We went out on Friday (2023-05-05), it was amazing."),
        ("yesterday (2023-05-09)", "yesterday (2023-05-09)"),  # already resolved: unchanged
    ],
)
def test_relative_dates_resolve_against_the_observed_day(text, expected):
    assert resolve_dates(text, WEDNESDAY) == expected


# sentences made of relative dates and the words around them, said on any day
RELATIVE_TALK = st.lists(
    st.sampled_from([
        "I", "we", "she's", "I've", "just", "found", "came", "back", "used", "recently", "lately", "today", "yesterday", "last",
        "next", "this", "week", "month", "year", "weekend", "summer", "winter", "Friday", "on", "a", "few", "two", "weeks", "ago",
        "went", "camping", ".", ",", "!",
    ]),
    min_size=1,
    max_size=20,
).map(" ".join)


@given(RELATIVE_TALK, st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_resolving_twice_changes_nothing_and_the_rules_never_see_the_resolution(text, day):
    """What ``resolve_dates`` adds is the day meant, not the speaker's words: resolved again it
    stays as it is, and the rules read it as if unresolved (``worth.judged``)."""
    once = resolve_dates(text, day)
    assert resolve_dates(once, day) == once
    assert worth.judged(once) == worth.judged(text)


def test_a_wrapped_restatement_merges_into_the_hand_written_line(ws, clawmem, days_ago):
    ws.memory_md.write_text("# Memory\n\n- We use Postgres 16 everywhere.\n")
    for n in (3, 2, 1):
        added = clawmem("note", "add", "Remember we use Postgres 16 everywhere.", "--origin", "owner", "--at", days_ago(n).isoformat())
        assert added.returncode == 0, added.stderr
    data = clawmem("dream", "--json").json()
    assert data["promoted"] == [] and [c["text"] for c in data["merged"]] == ["We use Postgres 16 everywhere."]
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert [e.body for e in entries] == ["We use Postgres 16 everywhere."]
    assert sorted(s.split("#")[0] for s in entries[0].sources) == sorted(ws.rel(ws.daily_note(days_ago(n).date())) for n in (3, 2, 1))


def locomo_session(clawmem, number: int, when: dt.datetime, turns: list[tuple[str, str]]) -> None:
    """A LoCoMo-style session, as benchmarks/locomo.py ingests it: JSONL with speakers."""
    records = [
        {"role": "user", "speaker": who, "content": text, "timestamp": when.isoformat(), "id": f"D{number}:{i}"}
        for i, (who, text) in enumerate(turns, 1)
    ]
    lines = "".join(json.dumps(r) + "\n" for r in records)
    result = clawmem("ingest", "-", "--session", f"conv-s{number}", "--origin", "owner", "--format", "jsonl", input=lines)
    assert result.returncode == 0, result.stderr


def test_a_conversation_between_named_people_says_who_and_when(ws, clawmem, days_ago):
    for n in (3, 2, 1):
        locomo_session(clawmem, n, days_ago(n), [
            ("Melanie", "Hey Caroline! Good to see you."),
            ("Caroline", "I have lots of great memories with Grandpa Joe. [shares a photo: an old man fishing on a lake]"),
            ("Melanie", "I went skiing in St. Moritz a few years ago!"),
            ("Caroline", "Nice!"),
            ("Melanie", f"We went camping last week, trip {n}. The kids loved the lake."),
        ])
    data = clawmem("dream", "--json", "--explain").json()
    years = {f"Melanie said: I went skiing in St. Moritz a few years ago (as of {days_ago(n).year})!" for n in (3, 1)}  # one wording a year
    [joe, ski] = sorted(c["text"] for c in data["promoted"])
    assert joe == "Caroline said: I have lots of great memories with Grandpa Joe." and ski in years, "a vague time is anchored to its year"
    texts = [e["text"] for e in data["explain"] if e["candidate_id"]]
    week = (days_ago(1).date() - dt.timedelta(days=days_ago(1).weekday() + 7)).isoformat()
    assert f"Melanie said: We went camping last week (the week of {week}), trip 1. The kids loved the lake." in texts, "one person's turn is one account"
    assert not any("Moritz a few" in t and "skiing" not in t for t in texts), "no fragment of a split at an abbreviation"
    assert not any("photo" in t or "fishing" in t for t in texts), "image captions are not what anyone said"
    greetings = [e for e in data["explain"] if e["status"] == "excluded" and e["text"] in ("Hey Caroline!", "Good to see you.")]
    assert len(greetings) == 6 and all(e["failed"] == ["a greeting or sign-off, no information"] for e in greetings)
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_the_recent_past_is_anchored_to_its_month_and_a_vague_lately_still_says_nothing(ws, clawmem, days_ago):
    """Through the CLI: "just" before a past is anchored to the month said (three sessions of one
    day, so one month; each looked up, so the gate's score does not hang on the hour the test runs
    at); a vague "Things have been hectic lately" stays out."""
    for hour in (9, 10, 11):
        locomo_session(clawmem, hour, days_ago(2, hour), [
            ("Sam", "What's new?"), ("Nico", "I just adopted a rescue cat named Miso."), ("Sam", "And work?"), ("Nico", "Things have been hectic lately."),
        ])
        clawmem("search", "rescue cat Miso")
    data = clawmem("dream", "--json", "--explain").json()
    month = days_ago(2).strftime("%B %Y")
    assert [c["text"] for c in data["promoted"]] == [f"Nico said: I just (as of {month}) adopted a rescue cat named Miso."]
    hectic = [e for e in data["explain"] if "hectic" in e["text"]]
    assert hectic and all(e["status"] == "excluded" and e["failed"] == ["says that something happened, not what"] for e in hectic), hectic


def test_a_users_first_person_statement_names_the_user_and_a_directive_stays_as_said(ws, clawmem, days_ago):
    directive = "If the deploy hangs, restart the runner with systemctl restart gha-runner."
    for n in (3, 2, 1):
        turns = f"user: I moved the staging database to eu-west-2 last sprint.\nassistant: {directive}\n"
        assert clawmem("ingest", "-", "--session", f"s{n}", "--origin", "owner", "--at", days_ago(n).isoformat(), input=turns).returncode == 0
    data = clawmem("dream", "--json").json()
    assert sorted(c["text"] for c in data["promoted"]) == [
        directive, "The user said: I moved the staging database to eu-west-2 last sprint.",
    ]


def test_a_stated_preference_goes_to_user_md_as_a_directive_not_to_memory_md(ws, clawmem, days_ago):
    for n in (3, 2, 1):
        turns = "user: I prefer tabs over spaces in the Python files of repo acme-api.\nassistant: Noted, tabs it is.\n"
        assert clawmem("ingest", "-", "--session", f"s{n}", "--origin", "owner", "--at", days_ago(n).isoformat(), input=turns).returncode == 0
    data = clawmem("dream", "--json").json()
    assert [c["text"] for c in data["promoted"]] == ["Prefer tabs over spaces in the Python files of repo acme-api."]
    assert "Prefer tabs over spaces" in ws.user_md.read_text()
    assert "tabs" not in ws.memory_md.read_text(), "the preference is the user model's, not a second copy in MEMORY.md"
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr



def test_a_users_account_of_themselves_in_one_turn_is_one_line(ws, clawmem, days_ago):
    """The user's first-person claims in one turn restate and extend each other ("build a budget
    tracker" / "track expenses"): one line, not one per sentence. A directive in the same turn still
    goes to USER.md on its own, and the assistant's independent statements stay apart."""
    intro = ("I'm Craig, a developer building a personal budget tracker with Flask. I want my users to track expenses and income. "
             "I've started with the basic setup of the repo.")
    answer = "Flask-Login manages the session cookie. SQLAlchemy 2.0 maps the transactions table."
    for n in (3, 2, 1):
        turns = f"user: {intro} Always answer in British English.\nassistant: {answer}\n"
        assert clawmem("ingest", "-", "--session", f"s{n}", "--origin", "owner", "--at", days_ago(n).isoformat(), input=turns).returncode == 0
    data = clawmem("dream", "--json").json()
    assert sorted(c["text"] for c in data["promoted"]) == sorted([
        "Always answer in British English.", "Flask-Login manages the session cookie.", "SQLAlchemy 2.0 maps the transactions table.",
        f"The user said: {intro}",
    ]), data["promoted"]
    assert "British English" in ws.user_md.read_text() and "British English" not in ws.memory_md.read_text()


@pytest.mark.parametrize("prefix", ["", "[2023-05-08 13:56] ", "[D1:3] "])
def test_talk_around_a_fact_is_dropped_not_joined_to_it(ws, clawmem, days_ago, prefix):
    """A catch-up opener, a leaning reaction ("It was so cool."), a pointer at a picture and a
    remark to the listener ("…, Mel!") are no part of the claim, whatever prefix the turn carries."""
    for n in (3, 2, 1):
        locomo_session(clawmem, n, days_ago(n), [
            ("Caroline", f"{prefix}Hey Mel, since we last chatted, a lot has happened! I adopted a beagle called Scout, trip {n}. "
                         "It was so cool. Check it out!"),
            ("Melanie", f"{prefix}The kids look so cute, Caroline! Things have been hectic lately."),
        ])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {untimed(e["text"]) for e in data["explain"] if e["candidate_id"]}
    assert "Caroline said: I adopted a beagle called Scout, trip 1." in texts
    assert not any("cool" in t or "Check it" in t or "chatted" in t or "cute" in t or "hectic" in t for t in texts), texts
    dropped = {e["text"]: e["failed"] for e in data["explain"] if e["status"] == "excluded"}
    assert dropped.get("It was so cool.") == ["an acknowledgement, no information"], dropped
    assert any("says that something happened, not what" in why for why in dropped.values()), dropped


def test_code_in_an_answer_and_its_headings_are_never_claims(ws, clawmem, days_ago):
    """An assistant's answer with a fenced code block (lines that read like sentences once
    capitalised: ``app = Flask(__name__)``, ``uses: actions/checkout@v3``) and Markdown headings,
    given on three days: only its prose is a candidate."""
    answer = (
        "### Sprint plan: registration\nThe staging app runs Flask 2.3.1 behind gunicorn on port 8081.\n"
        "```python\napp = Flask(__name__)\ndb = SQLAlchemy(app)\nusername = request.form['username']\n```\n"
        "  ~~~yaml\n  uses: actions/checkout@v3\n  ~~~\n"
    )
    for n in (3, 2, 1):
        turns = [{"role": "user", "content": f"how is staging set up? (day {n})"}, {"role": "assistant", "content": answer}]
        lines = "".join(json.dumps(t) + "\n" for t in turns)
        result = clawmem("ingest", "-", "--session", f"code-{n}", "--origin", "owner", "--format", "jsonl", "--at", days_ago(n).isoformat(), input=lines)
        assert result.returncode == 0, result.stderr
    data = clawmem("dream", "--json", "--explain").json()
    texts = {e["text"] for e in data["explain"] if e["candidate_id"]}
    assert any("gunicorn on port 8081" in t for t in texts), texts
    assert not any(word in t for t in texts for word in ("Flask(", "SQLAlchemy", "request.form", "checkout@v3", "Sprint plan")), texts


def jsonl_session(clawmem, name: str, when: dt.datetime, turns: list[tuple[str, str]]) -> None:
    """A user/assistant chat as JSONL (the shape of BEAM and of coding hosts' exports)."""
    lines = "".join(json.dumps({"role": role, "content": text}) + "\n" for role, text in turns)
    result = clawmem("ingest", "-", "--session", name, "--origin", "owner", "--format", "jsonl", "--at", when.isoformat(), input=lines)
    assert result.returncode == 0, result.stderr


ANSWER = (
    "Absolutely! Let's create a detailed sprint plan for the payroll sprint ending on March 29.\n"
    "We'll break down the tasks and set clear milestones.\n"
    "### Sprint plan\n"
    "- **Start Date:** March 15, 2024\n"
    "**Documentation:** Maintain the payroll API notes in docs/api.md for future reference.\n"
    "**Objective**: Comprehensive functional testing of the payroll exports.\n"
    "1. **Caching**: Use flask-caching 2.1 to serve the payroll dashboard faster.\n"
    "- Validate the invoice amounts before storing them.\n"
    "First, create a virtual environment with Python 3.11 for the payroll service.\n"
    "Define your `Invoice` model in payroll/models.py.\n"
    "Create the necessary HTML templates in the payroll/templates directory.\n"
    "Maybe we can move the payroll export tests to the second week of the sprint.\n"
    "Your application should now be running on `http://localhost:5000`.\n"
    "If you need further details or adjustments, feel free to let me know!\n"
    "The payroll exports land in the s3 bucket acme-invoices every night at 02:00.\n"
)


def test_an_answers_outline_and_announcements_are_never_claims(ws, clawmem, days_ago):
    """An assistant's formatted plan (list items, bold labels, numbered steps), its announcements
    ("Let's create…", "We'll break down…"), its narration of the next steps, its offers, its suggestions
    ("Maybe we can…") and its unconditional instructions ("Create the necessary templates…") are how the
    answer is laid out; a bold section label is never a speaker. The fact in its prose still counts."""
    for n in (3, 2, 1):
        jsonl_session(clawmem, f"plan-{n}", days_ago(n), [("user", f"can you plan the payroll sprint? (day {n})"), ("assistant", ANSWER)])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {e["text"] for e in data["explain"] if e["candidate_id"]}
    assert texts == {"The payroll exports land in the s3 bucket acme-invoices every night at 02:00."}, texts
    assert [c["text"] for c in data["promoted"]] == list(texts)
    failed = {why for e in data["explain"] if e["status"] == "excluded" for why in e["failed"]}
    assert {"a step of the assistant's formatted plan or outline, not a fact", "the assistant announcing its answer or offering more, not a fact",
            "the assistant's instruction for the work at hand, not a fact", "the assistant's suggestion for the work at hand, not a fact"} <= failed, failed
    assert "said:" not in ws.memory_md.read_text()


ADVICE = [
    # a proposal after the goal it serves
    "To ensure you meet your deadline and complete the payroll project within the estimated 6 weeks, you can break down the project into clear, "
    "manageable tasks and set specific goals for each sprint.",
    "Given the constraints and the goal to keep the payroll API under 300ms, we should also consider optimizing the network requests, possibly "
    "by using a CDN for static assets.",
    "With the launch two weeks away, you could also consider a soft launch for the payroll team.",
    # a truism about the listener's work
    "Adjusting your payroll timeline to meet the new sprint deadline of April 5, 2024 requires careful planning and prioritization.",
]


@pytest.mark.parametrize("advice", ADVICE)
def test_the_assistants_advice_on_the_listeners_work_is_no_claim(monkeypatch, advice):
    """Advice after the goal it serves, or a truism about "your" work, is the answer working
    through the task, not a fact; the rule is what refuses it."""
    assert worth.answer_talk(advice, item=False) == "the assistant's suggestion for the work at hand, not a fact"
    monkeypatch.setattr(worth, "ADVICE", re.compile(r"(?!)"))
    assert worth.answer_talk(advice, item=False) is None


@pytest.mark.parametrize("said", [
    # a goal that names a problem makes it a fix
    "To get past the undefined symbol error on arm64, you can pass -latomic to the linker.",
    "If your payroll build fails on a stale lockfile, you need some patience: the mirror resyncs hourly.",
    # a purpose before a fact or an instruction with no proposal in it
    "For staging, we use Postgres 16 on the db-2 host.",
    "To deploy the payroll service, run make ship from the repo root.",
])
def test_a_fix_or_a_fact_after_a_goal_is_no_advice(said):
    assert worth.answer_talk(said, item=False) is None


def test_the_assistants_advice_said_on_three_days_never_reaches_memory(ws, clawmem, days_ago):
    """Through the CLI: the answer's advice stays out of MEMORY.md on every day; the fact and the
    fix in the same answer are promoted."""
    fact = "The payroll exports land in the s3 bucket acme-invoices every night at 02:00."
    fix = "To get past the undefined symbol error on arm64, you can pass -latomic to the linker."
    for n in (3, 2, 1):
        jsonl_session(clawmem, f"advice-{n}", days_ago(n), [("user", f"how do I keep the payroll project on track? (day {n})"), ("assistant", " ".join([*ADVICE, fact, fix]))])
    data = clawmem("dream", "--json", "--explain").json()
    promoted = {c["text"] for c in data["promoted"]}
    assert promoted == {fact, fix}, promoted
    memory = ws.memory_md.read_text()
    assert not any(a[:40] in memory for a in ADVICE), memory


@pytest.mark.parametrize("promise", [
    "Understood — I won't reset or drop `belay_dev`.",
    "Got it, I will never push to main again.",
    "Noted: I'm going to keep answers short from now on.",
    "Sounds good, I'll use pnpm for installs.",
])
def test_the_assistants_promise_to_follow_a_rule_is_never_a_claim(ws, clawmem, days_ago, promise):
    """The owner said the rule ("it goes to USER.md"); the assistant's promise to keep it restates it in
    its own first person and would be promoted beside it ("The assistant said: Understood — I won't …")."""
    for n in (3, 2, 1):
        jsonl_session(clawmem, f"promise-{n}", days_ago(n), [("user", f"The nightly export runs at 02:00 (day {n})."), ("assistant", promise)])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {e["text"] for e in data["explain"] if e["candidate_id"]}
    assert not any(promise.split()[-2] in t for t in texts), texts
    # right after the owner's turn, the acknowledgement marks it an echo before the promise is read
    failed = {why for e in data["explain"] for why in e["failed"]}
    assert {"the assistant announcing its answer or offering more, not a fact", worth.ECHO} & failed, failed


@pytest.mark.parametrize("task", [
    "Bump the build number to 1.6.0+58 for me, I need a TestFlight build this afternoon.",
    "Put the port in the Makefile so nobody trips over it again.",
    "Rename the asset to dock_status_hourly and rerun the backfill.",
    "Fix the failing snapshot test in stg_trips.",
    # after a label naming the thing
    "Meanwhile, the Python bit that works out trip distance: write it with pandas like the rest, please.",
    "The login page: move it to the new layout.",
    # after a label naming a piece of work, or a verb for a label
    "New feature: text members seven days before their membership expires, through Twilio.",
    "Next task: email the managers a summary of the check-ins every night.",
    "Commit: the migration first, then the version bump separately.",
    # something the owner wants built or changed, or work left to do
    "I want the kiosk to ask for a waiver when someone checks in without one.",
    "I want a conflict check: POST /v1/bookings must reject overlapping windows on one berth.",
    "Fatima's ETA sync still needs finishing.",
    "Staging model for the trips next.",
    # a label set off by a dash, or "First thing:"
    "The conflict check from yesterday — commit it and open the MR.",
    "First thing: run the tests and tell me what state it's in.",
    # two verbs, the second about a particular thing
    "Pull and check it all still builds.",
    "Go ahead and bump the version in pyproject.toml.",
    # a hedged suggestion for the work at hand
    "Maybe we can prioritize the most critical features and create a schedule for the two extra days.",
    "Perhaps the cache for the OpenWeather responses should live in localStorage.",
    "We could split the analytics blueprint out once the auth routes are done.",
])
def test_the_owners_tasks_to_the_agent_are_never_claims(ws, clawmem, days_ago, task):
    """In a turn to their agent, the owner's unconditional instruction is the work at hand, said
    on three days or not; the fact beside it and a procedure with its condition stay."""
    fact = "The raw Velonet files land in gs://pedala-raw/velonet every night at 01:00."
    procedure = "If the dbt build fails on a stale manifest, run dbt clean first."
    for n in (3, 2, 1):
        jsonl_session(clawmem, f"task-{n}", days_ago(n), [("user", f"{fact} {task} {procedure}"), ("assistant", f"On it (day {n}).")])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {e["text"] for e in data["explain"] if e["candidate_id"]}
    assert texts == {fact, procedure}, texts
    failed = {why for e in data["explain"] if e["status"] == "excluded" for why in e["failed"]}
    assert "the owner's request for the work at hand, not a fact" in failed, failed


@pytest.mark.parametrize("said", [
    # the same first words as nouns: a fact, not a task
    "Change of plan on iOS: we're dropping iOS 14.", "Build broke on the pi after the upgrade to glibc 2.39.", "Release notes live in docs/releases.md.",
    # about things in general: perhaps a convention, not the work at hand
    "Import CTEs at the top, one final select, the usual dbt layout.",
    # a label before a fact or a general instruction
    "Background: Havenlink is the port's ETA feed and allows 60 requests a minute.",
    "Reminder of how releases work here: push a tag vX.Y.Z, cargo-dist builds the binaries on Buildkite.",
    # what a product is for, how the owner wants things, a need that is a fact
    "I want my users to track expenses and income.",
    "The importer needs Python 3.12.",
    "Deploys: the script lives in ops/deploy.sh.",
    "The on-call rota — it lives in the ops handbook, rota/2026.md.",
    "GripDesk — the old gym software — is still where people sign up until the end of January.",
])
def test_a_noun_or_an_instruction_about_things_in_general_is_no_task(said):
    row = {"text": f"user: {said}", "kind": "transcript", "origin": "owner", "observed_at": None, "file_date": None}
    assert [u.reason for u in read(row)] == [None]


def test_a_users_own_list_and_a_quoted_chat_keep_their_speakers(ws, clawmem, days_ago):
    """Only inside an answer is a line's label a section: a user pasting a chat still quotes its
    speaker, and the user's own list items are the user's statements."""
    for n in (3, 2, 1):
        jsonl_session(clawmem, f"paste-{n}", days_ago(n), [
            ("user", f"- **Deadline:** the payroll MVP ships on April 15, 2024.\nHere is what Jon wrote, day {n}:\n"
                     "> Jon: The payroll cutover moved to the 14th of June."),
            ("assistant", "Understood."),
        ])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {e["text"] for e in data["explain"] if e["candidate_id"]}
    assert "Jon said: The payroll cutover moved to the 14th of June." in texts, texts
    assert "**Deadline:** the payroll MVP ships on April 15, 2024." in texts, texts


def test_words_that_point_back_into_the_chat_are_dropped(ws, clawmem, days_ago):
    """"That roadtrip", "the accident", "that book you recommended", "two weekends later", "in the
    meantime": each points at something said earlier in the conversation that the line does not
    hold. The sentence goes, the facts beside it stay, and a noun said earlier in the same turn
    is no pointer."""
    for n in (3, 2, 1):
        locomo_session(clawmem, n, days_ago(n), [
            ("Melanie", f"Hey Caroline, that roadtrip this past weekend was insane! We were all freaked when my son got into an accident near Flagstaff, trip {n}."),
            ("Melanie", "Family's super important to me. Especially after the accident, I've thought a lot about how much I need them."),
            ("Caroline", "I finally read that book you recommended. In the meantime, I'm volunteering at the Tucson shelter."),
            ("Melanie", "Two weekends later, we went hiking. My brother bought a canoe; the canoe is bright red."),
            ("Caroline", f"The official opening night is tomorrow, round {n}. I'm opening a bakery in Tucson. The opening is set for Friday."),
        ])
    data = clawmem("dream", "--json", "--explain").json()
    texts = {untimed(e["text"]) for e in data["explain"] if e["candidate_id"]}
    assert "Melanie said: We were all freaked when my son got into an accident near Flagstaff, trip 1." in texts, texts
    assert "Melanie said: Family's super important to me." in texts, texts
    assert "Melanie said: My brother bought a canoe; the canoe is bright red." in texts, "a noun said before it in the turn holds"
    assert "Caroline said: I'm opening a bakery in Tucson. The opening is set for Friday." in texts, "the opening was said before it"
    pointers = ("roadtrip", "after the accident", "book you recommended", "meantime", "weekends later", "opening night")
    assert not any(p in t for t in texts for p in pointers), texts
    dropped = {e["text"] for e in data["explain"] if e["status"] == "excluded"
               and "not self-contained (points back at something said earlier in the conversation)" in e["failed"]}
    assert {"Hey Caroline, that roadtrip this past weekend was insane!", "I finally read that book you recommended."} <= dropped, dropped


def test_a_bare_instead_joins_the_claim_before_it_and_stands_alone_without_one():
    """"… instead" names the other half of a change said just before; with nothing before it, it stays."""
    row = {"kind": "transcript", "origin": "owner", "observed_at": "2026-11-06T09:00:00"}
    joined = read({**row, "text": "Melanie: The hike was cancelled. I went to the science museum instead."})
    assert [u.text for u in joined] == ["Melanie said: The hike was cancelled. I went to the science museum instead (as of November 2026)."]
    alone = read({**row, "text": "Melanie: I went to the science museum instead."})
    assert [u.text for u in alone] == ["Melanie said: I went to the science museum instead (as of November 2026)."]
    apart = read({**row, "text": "user: The API listens on port 8088 behind Caddy. Builds use pnpm instead of npm, pinned in package.json."})
    assert [u.text for u in apart] == ["The API listens on port 8088 behind Caddy.", "Builds use pnpm instead of npm, pinned in package.json."]


def test_an_interjection_leaves_the_pronoun_after_it_pointing_back():
    """"Ah, those are …", "Bro same because …" lean on what was said before them, as "Those are …"
    and "Same because …" do; "Oh, we …" is the speaker's own account."""
    row = {"kind": "transcript", "origin": "owner", "observed_at": "2026-11-06T09:00:00", "file_date": None}
    joined = read({**row, "text": "Melanie: I adopted two rescue dogs from the shelter in May. Oh, they are called Rex and Max."})
    assert [u.text for u in joined] == ["Melanie said: I adopted two rescue dogs from the shelter in May. Oh, they are called Rex and Max."]
    for alone in (
        "user: Ah, those are the new Parque das Nações docks.", "Melanie: Hmm, that mini golf place I remember.", "Sam: Well, it was amazing, 9 out of 10!",
        "Vanessa: Bro same because snow is rare nowadays where i live", "Nick: Lol same, I also love pottery in Leeds.", "Ann: Ohhh, and then the ferry to Oslo was late.",
        "Ann: Haha, that's the reason I moved to Lisbon.", "Ann: Oh well, so I booked a hotel in Porto instead.",
    ):
        assert [u.text for u in read({**row, "text": alone})] == [""], alone
    for own in ("Melanie: Oh, we went to the beach in Malibu last week.", "Ann: Haha I adopted a puppy named Rex in May."):
        assert [u.text for u in read({**row, "text": own})] != [""], own


def test_so_and_not_standing_for_the_other_speakers_words_lean():
    """"I really hope not, I hate being sick" answers the other speaker: "not" stands for what
    they said, as "I think so" and "I don't think so" do; "I think soccer is …" and "I hope not to
    …" say something of their own."""
    row = {"kind": "transcript", "origin": "owner", "observed_at": "2026-11-06T09:00:00", "file_date": None}
    for leaning in (
        "Akib: I really hope not, I hate being sick, I was sick just a few weeks ago so it would be unlucky to get sick again",
        "Akib: I don't think so, the gym in Leeds closes at nine.", "Ann: We guess so and we booked the ferry to Oslo anyway.",
        "Sam: I'm afraid not, the Porto office shut in May.",
    ):
        assert [u.text for u in read({**row, "text": leaning})] == [""], leaning
    for own in ("Akib: I think soccer is the best sport in Spain.", "Akib: I hope not to lose my job at the Leeds bakery."):
        assert [u.text for u in read({**row, "text": own})] != [""], own


def test_a_yes_before_the_speakers_own_account_leaves_it_standing():
    """In a chat, "Yeah, I play clarinet!" answers with a fact of the speaker's own; "Yeah, it was
    great", "Yep, Gina, thanks" and "Yeah, I did" answer the other person and lean, and so does
    "Yeah, I made it in class" (its object was said before), as they do without the "yes". To an
    agent, the owner's "yes" answers what the agent found, and leans."""
    row = {"kind": "transcript", "origin": "owner", "observed_at": "2026-11-06T09:00:00", "file_date": None}
    for own in (
        "Melanie: Yeah, I play clarinet! I started when I was young.", "Melanie: Oh yeah, we went to the beach in Malibu last week.",
        "Joanna: Yep, I'm hiking with some buddies in Yosemite on Saturday.", "Nate: yes my brother moved to Denver in March",
        "Ann: Yup, our team switched the builds to Bazel in May.",
    ):
        assert [u.text for u in read({**row, "text": own})] != [""], own
    for leaning in (
        "Melanie: Yeah, it was great.", "Jon: Yep, Gina, thanks for having my back.", "Ann: Yeah, I did.", "Ann: Nope, not yet.",
        "Melanie: Yeah, I made it in pottery class last week.", "John: Yup, it's a yoga studio I go to often.", "Ann: Oh yes, that was the one in Porto.",
    ):
        assert [u.text for u in read({**row, "text": leaning})] == [""], leaning
    # to an agent, a "yes" answers its finding: "Yeah, I rebooted …" says why the container stopped
    for to_agent in ("user: Yeah, I rebooted for the Go upgrade.", "user: Yep, we restarted the pg container this morning."):
        assert [u.text for u in read({**row, "text": to_agent})] == [""], to_agent
