"""One subject, one topic, one entry (``clawmem/dream/topics.py``), through real transcripts and the CLI.

A person's plan restated on other days in other words was a second line beside the first (the
control below shows the pair coexisting with joining switched off). Now the later account joins
the line about the same subject and topic: the line keeps its words, gains what the account adds
and cites both. Different facts in one frame ("a dog" / "a cat") never merge away: both stay in
``MEMORY.md`` whichever comes first.
"""

from __future__ import annotations

import json
import re

import pytest

from clawmem.dream import topics
from clawmem.dream.paraphrase import Judge
from clawmem.dream.text import untimed
from clawmem.dream.topics import Topics
from clawmem.embeddings import EmbedderUnavailable, load_embedder
from clawmem.entries import grammar
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import replace
from tests.conftest import require

PLAN = "My plan is to open a small bakery downtown. I am saving up for the oven and the rent."
LATER = "Opening my own bakery downtown has been my dream for years. I signed the lease on a storefront by the river."
DOG = "I adopted a dog from the shelter last spring."
CAT = "I adopted a cat from the shelter last spring."


@pytest.fixture(scope="module")
def embedder():
    try:
        return load_embedder()
    except EmbedderUnavailable as err:
        require(False, f"needs an installed embedder: {err}")


def _chat(ingest_session, session: str, at, says: str, speaker: str = "Mia") -> None:
    """One session of a chat export between two named people: Sam asks, ``speaker`` answers."""
    turns = [
        {"role": "user", "speaker": "Sam", "content": f"Hey, long time no see! What is new since {session}?", "timestamp": at.isoformat()},
        {"role": "user", "speaker": speaker, "content": says, "timestamp": at.replace(minute=5).isoformat()},
    ]
    ingest_session(session, "\n".join(json.dumps(t) for t in turns) + "\n", at)


def _said(ingest_session, days_ago, says: str, days: tuple[int, ...], prefix: str, speaker: str = "Mia") -> None:
    for i, day in enumerate(days, 1):
        _chat(ingest_session, f"{prefix}{i}", days_ago(day), says, speaker)


def _lines(ws) -> list[grammar.Entry]:
    """The active lines, each body without the month its accounts were told in (``text.untimed``):
    that month is the day the suite runs, and ``test_standalone`` checks it; here the words joined count."""
    return [replace(e, body=untimed(e.body)) for e in grammar.parse(ws.memory_md.read_text()).entries if e.status != "superseded"]


def _text_only(ws, **dream) -> None:
    settings = "".join(f"{k} = {v}\n" for k, v in dream.items())
    (ws.root / "clawmem.toml").write_text('[embeddings]\nbackend = "none"\n' + (f"[dream]\n{settings}" if dream else ""))


def _vectors_or_text_only(ws, vectors: bool) -> None:
    """With the installed embedder (skipped without one), or with text rules only."""
    if not vectors:
        _text_only(ws)
        return
    try:
        load_embedder()
    except EmbedderUnavailable as err:
        require(False, f"needs an installed embedder: {err}")


@pytest.mark.parametrize("vectors", [True, False], ids=["embedder", "text-only"])
def test_a_plan_restated_on_later_days_joins_the_line_about_it(ws, clawmem, ingest_session, days_ago, vectors):
    _vectors_or_text_only(ws, vectors)
    _said(ingest_session, days_ago, PLAN, (9, 8, 7), "a")
    first = clawmem("dream", "--json").json()
    assert [untimed(p["text"]) for p in first["promoted"]] == [f"Mia said: {PLAN}"]
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert data["promoted"] == []
    [merge] = data["merged"]
    assert untimed(merge["text"]) == f"Mia said: {PLAN}" and "joined (same subject and topic)" in merge["detail"]
    [line] = _lines(ws)
    assert line.body == f"Mia said: {PLAN} {LATER}", "the line keeps its words and gains what the later account adds"
    assert sorted(s.split("#")[0] for s in line.sources) == [f"transcripts/{p}{i}.md" for p in "ab" for i in (1, 2, 3)]
    assert "joined (same subject and topic)" in ws.dreams_md.read_text()
    assert clawmem("dream", "--json").json()["merged"] == [], "a second sweep has nothing left to join"
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    found = clawmem("search", "signed the lease storefront", "--lexical", "--json").json()
    assert any(r["path"] == "MEMORY.md" and "lease" in r["text"] and r["origin"] == "owner" for r in found["results"])


def test_control_without_joining_the_restated_plan_is_a_second_line(ws, clawmem, ingest_session, days_ago):
    """What the sweep did before topics.py (joining off): the same plan twice, in two lines."""
    _text_only(ws, topic_words=99)
    _said(ingest_session, days_ago, PLAN, (9, 8, 7), "a")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert [untimed(p["text"]) for p in data["promoted"]] == [f"Mia said: {LATER}"] and data["merged"] == []
    assert [e.body for e in _lines(ws)] == [f"Mia said: {PLAN}", f"Mia said: {LATER}"]


def test_candidates_gated_in_one_sweep_become_one_entry(ws, clawmem, ingest_session, days_ago, embedder):
    _said(ingest_session, days_ago, PLAN, (9, 8, 7), "a")
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert len(data["promoted"]) == 1 and len(data["merged"]) == 1
    [line] = _lines(ws)
    assert "small bakery downtown" in line.body and "signed the lease" in line.body
    assert len(line.sources) == 6


def test_another_speaker_saying_the_same_is_not_joined(ws, clawmem, ingest_session, days_ago, embedder):
    _said(ingest_session, days_ago, PLAN, (9, 8, 7), "a")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b", speaker="Sam")
    data = clawmem("dream", "--json").json()
    assert [untimed(p["text"]) for p in data["promoted"]] == [f"Sam said: {LATER}"] and data["merged"] == []
    assert len(_lines(ws)) == 2


@pytest.mark.parametrize(("first", "second"), [(DOG, CAT), (CAT, DOG)], ids=["dog-then-cat", "cat-then-dog"])
def test_different_facts_in_one_frame_both_stay(ws, clawmem, ingest_session, days_ago, embedder, first, second):
    """Not merged away: the old merge test took "a cat" for a paraphrase of "a dog" (cosine 0.92)."""
    _said(ingest_session, days_ago, first, (9, 8, 7), "a")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, second, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    text = " ".join(e.body for e in _lines(ws))
    assert "adopted a dog" in text and "adopted a cat" in text
    assert sorted(s.split("#")[0] for e in _lines(ws) for s in e.sources) == [f"transcripts/{p}{i}.md" for p in "ab" for i in (1, 2, 3)]


def test_a_line_with_a_key_is_never_joined(ws, clawmem, ingest_session, days_ago, embedder):
    ws.memory_md.write_text(f"# Memory\n\n- Mia said: {PLAN} <!-- source: transcripts/x.md#L1 --> <!-- key: mia-plan -->\n")
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert [untimed(p["text"]) for p in data["promoted"]] == [f"Mia said: {LATER}"] and data["merged"] == []


# the decision itself, sentence by sentence (Topics.additions) ---------------------------------------------------
LINE = "Mia said: My goal is to give rescued dogs a loving home. I am looking into adoption shelters near the park."


@pytest.mark.parametrize(
    ("sentence", "restated"),
    [
        ("It has been my goal to adopt rescued dogs and give them a loving home.", True),
        ("I am looking into adoption shelters near the park.", True),
        ("My goal is to give rescued cats a loving home.", False),  # a substitution: another animal
        ("I never want to give rescued dogs a home.", False),  # a negation
        ("I am looking into adoption shelters near the lake.", False),
        ("I visited two adoption shelters near the park.", False),  # a count the line does not have
        ("I started volunteering at the animal hospital on weekends.", False),
    ],
)
def test_a_sentence_the_line_already_says_is_not_added(sentence, restated, embedder):
    topics = Topics(DreamConfig(), Judge(DreamConfig(), embedder))
    assert topics.additions(LINE, f"Mia said: {sentence}") == ([] if restated else [sentence])


def test_subject_and_topic_both_decide(embedder):
    topics = Topics(DreamConfig(), Judge(DreamConfig(), embedder))
    assert topics.related(f"Mia said: {PLAN}", f"Mia said: {LATER}") is not None
    assert topics.related(f"Mia said: {PLAN}", f"Sam said: {LATER}") is None, "another subject"
    assert topics.related(f"Mia said: {PLAN}", "Mia said: I ran a marathon in Berlin and the crowd was wonderful.") is None
    assert topics.related(PLAN, LATER) is None, "nobody named: no subject to join on"


SAVING = "Mia said: My plan is to open a small bakery downtown. Today (2024-01-08) I started saving up for the oven and the rent."
LEASE = "Mia said: Opening my own bakery downtown has been my dream for years. Today (2024-01-24) I signed the lease on a storefront by the river."


@pytest.mark.parametrize(("line", "related"), [
    (LEASE, False),  # two days: "today (2024-01-08)" and "today (2024-01-24)" would read as one
    (LEASE.replace("Today (2024-01-24)", "Yesterday (2024-01-23)"), False),
    (LEASE.replace("2024-01-24", "2024-01-08"), True),  # the same day
    (LEASE.replace("Today (2024-01-24) ", ""), True),  # no day of its own
    (LEASE.replace("Today (2024-01-24)", "Last week (the week of 2024-03-04)"), False),  # another month
    (LEASE.replace("Today (2024-01-24)", "Recently (as of February 2024)"), True),  # some time before February: January may be it
    (LEASE.replace("Today (2024-01-24)", "Recently (as of April 2024)"), False),
])
def test_accounts_of_different_days_are_two_events(embedder, line, related):
    topics = Topics(DreamConfig(), Judge(DreamConfig(), embedder))
    assert (topics.related(SAVING, line) is not None) is related


def _two_days_of_the_bakery(ws, clawmem, ingest_session, days_ago) -> list[str]:
    """The plan with what was done on one day, then what was done on another, each said in three sessions of its day."""
    for day, says in ((9, "My plan is to open a small bakery downtown. Today I started saving up for the oven and the rent."),
                      (4, "Opening my own bakery downtown has been my dream. Today I signed the lease on a storefront.")):
        for hour in (9, 10, 11):
            _chat(ingest_session, f"d{day}-{hour}", days_ago(day, hour), says)
        clawmem("dream", "--json")
    return [e.body for e in _lines(ws)]


def test_an_account_of_another_day_is_a_line_of_its_own(ws, clawmem, ingest_session, days_ago, embedder):
    """Through the CLI: two days' accounts of one plan stay two lines, each with its own "today"."""
    lines = _two_days_of_the_bakery(ws, clawmem, ingest_session, days_ago)
    assert len(lines) == 2 and all(line.count("Today (") == 1 for line in lines), lines


def test_with_days_not_told_apart_the_two_days_read_as_one(ws, clawmem, ingest_session, days_ago, embedder, monkeypatch):
    monkeypatch.setattr(topics, "_other_days", lambda a, b: False)
    [line] = _two_days_of_the_bakery(ws, clawmem, ingest_session, days_ago)
    assert line.count("Today (") == 2, line


def _two_months_at_the_shelter(ws, clawmem, ingest_session, days_ago) -> list[str]:
    """Two visits to one shelter, each told "last week" in three sessions of its day, over a month
    apart (the gate's bar lowered, as nobody looks the older one up and its recency is low)."""
    _text_only(ws, max_age_days=90, min_score=0.6)
    for day, says in ((40, "Last week I volunteered at the homeless shelter during an event for kids."),
                      (3, "Last week I volunteered at the homeless shelter and they gave me a medal!")):
        for hour in (9, 10, 11):
            _chat(ingest_session, f"d{day}-{hour}", days_ago(day, hour), says, speaker="Maria")
        clawmem("dream", "--json")
    return [e.body for e in _lines(ws)]


def test_accounts_of_other_months_are_lines_of_their_own(ws, clawmem, ingest_session, days_ago):
    """Through the CLI: each "last week" resolves to its own week, two months apart: two visits."""
    lines = _two_months_at_the_shelter(ws, clawmem, ingest_session, days_ago)
    assert len(lines) == 2 and all(line.count("(the week of ") == 1 for line in lines), lines


def test_with_months_not_told_apart_the_two_visits_read_as_one(ws, clawmem, ingest_session, days_ago, monkeypatch):
    monkeypatch.setattr(topics, "months", lambda text: set())
    [line] = _two_months_at_the_shelter(ws, clawmem, ingest_session, days_ago)
    assert line.count("(the week of ") == 2, line


# a thing named in both accounts is their topic, whatever the cosine ----------------------------------------------
INTERNSHIP = "My Microsoft internship lasted for three months."
DURING = (
    "During my Microsoft internship, I took part in various projects with talented teams. "
    "It was a great chance to grow my skills and make connections for the future!"
)


def test_the_names_an_account_says_leave_out_the_first_word_the_speaker_and_the_calendar():
    said = "Kevin said: My Microsoft internship ended in May. On Monday I flew to Machu Picchu, and I loved it."
    assert topics.named(said) == topics.stems("Microsoft Machu Picchu")


@pytest.mark.parametrize("vectors", [True, False], ids=["embedder", "text-only"])
def test_a_shared_name_and_a_shared_word_make_one_topic(vectors):
    judge = Judge(DreamConfig(), load_embedder() if vectors else None)
    related = Topics(DreamConfig(), judge).related
    assert related(f"Kevin said: {INTERNSHIP}", f"Kevin said: {DURING}") is not None
    assert related(f"Kevin said: {INTERNSHIP}", "Kevin said: I applied to Microsoft for a job in sales.") is None, "the name alone"
    hike = "Emi said: I'm looking forward to a hiking trip on a beautiful trail in Los Angeles."
    assert related(hike, "Emi said: My favorite nail salon in Los Angeles is called Base Coat.") is None, "a two-word name alone"
    assert related("Kevin said: My internship lasted for three months.", "Kevin said: During my internship, I worked on projects.") is None


def _internship(ws, clawmem, ingest_session, days_ago) -> list[str]:
    _said(ingest_session, days_ago, INTERNSHIP, (9, 8, 7), "a", speaker="Kevin")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, DURING, (4, 3, 2), "b", speaker="Kevin")
    clawmem("dream", "--json")
    return [e.body for e in _lines(ws)]


def test_two_accounts_of_one_named_thing_become_one_line(ws, clawmem, ingest_session, days_ago, embedder):
    """Through the CLI: the e5 cosine of the two internship accounts is 0.53, below ``topic_cosine``."""
    assert _internship(ws, clawmem, ingest_session, days_ago) == [f"Kevin said: {INTERNSHIP} {DURING}"]


def test_control_without_names_the_two_accounts_are_two_lines(ws, clawmem, ingest_session, days_ago, embedder, monkeypatch):
    monkeypatch.setattr(topics, "named", lambda text: frozenset())
    assert _internship(ws, clawmem, ingest_session, days_ago) == [f"Kevin said: {INTERNSHIP}", f"Kevin said: {DURING}"]


SANDCASTLES = "The kids and I spent a whole afternoon at the beach building sandcastles."
FACES = "Seeing my kids' faces so happy at the beach was the best! We don't go often, usually only once or twice a year."


def _going_on(ws, clawmem, ingest_session, days_ago, speaker: str, first: str, second: str) -> list[grammar.Entry]:
    """``speaker`` tells of something, Sam asks, ``speaker`` goes on about it: one session on each of three days."""
    for n, day in enumerate((4, 3, 2), 1):
        at = days_ago(day)
        turns = [("Sam", "Anything new since last time?"), (speaker, first), ("Sam", "What was the best part?"), (speaker, second)]
        records = [{"role": "user", "speaker": who, "content": says, "timestamp": at.replace(minute=i).isoformat()} for i, (who, says) in enumerate(turns)]
        ingest_session(f"chat-{n}", "\n".join(json.dumps(r) for r in records) + "\n", at)
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    return _lines(ws)


@pytest.mark.parametrize("vectors", [True, False], ids=["embedder", "text-only"])
def test_a_speaker_going_on_about_one_thing_in_their_next_turn_is_one_line(ws, clawmem, ingest_session, days_ago, vectors):
    """Through the CLI: the two beach accounts share two topic words and have an e5 cosine of
    0.45, two topics apart; said two lines apart in one transcript they are one."""
    _vectors_or_text_only(ws, vectors)
    [line] = _going_on(ws, clawmem, ingest_session, days_ago, "Mel", SANDCASTLES, FACES)
    assert SANDCASTLES in line.body and FACES in line.body and line.body.startswith("Mel said: ")


def test_control_without_nearness_the_two_beach_accounts_are_two_lines(ws, clawmem, ingest_session, days_ago):
    _text_only(ws, topic_nearby_lines=0)
    assert sorted(e.body for e in _going_on(ws, clawmem, ingest_session, days_ago, "Mel", SANDCASTLES, FACES)) == [f"Mel said: {FACES}", f"Mel said: {SANDCASTLES}"]


TURKEY = "I think I would love to live in turkey"
VACATION = "I went to turkey on vacation with my boyfriends family and I can see us living there"


@pytest.mark.parametrize("near", [True, False], ids=["a-turn-apart", "control-without-nearness"])
def test_a_turn_apart_one_shared_word_and_the_embedders_cosine_make_one_topic(ws, clawmem, ingest_session, days_ago, embedder, near):
    """Through the CLI: the two Turkey turns share one topic stem ("live" and "love" are chat
    words) at an e5 cosine of 0.76; said a turn apart they are one line, else two."""
    if not near:
        (ws.root / "clawmem.toml").write_text("[dream]\ntopic_nearby_lines = 0\n")
    bodies = [e.body for e in _going_on(ws, clawmem, ingest_session, days_ago, "Neb", TURKEY, VACATION)]
    assert len(bodies) == (1 if near else 2) and all(told in "".join(bodies) for told in (TURKEY, VACATION)), bodies


@pytest.mark.parametrize("ended", [True, False], ids=["joined", "control-without-full-stops"])
def test_chat_turns_without_full_stops_join_as_sentences(ws, clawmem, ingest_session, days_ago, monkeypatch, ended):
    """Chat often ends a turn without a full stop; joined, each turn still reads as a sentence of
    its own ("… sandcastles. Seeing my kids' faces …"), not one run-on."""
    if not ended:
        monkeypatch.setattr(topics, "_ended", lambda text: text.rstrip())
    _text_only(ws)
    first, second = SANDCASTLES.rstrip("."), "Seeing my kids' faces so happy at the beach was the best"
    [line] = _going_on(ws, clawmem, ingest_session, days_ago, "Mel", first, second)
    assert bool(re.search(r"(?:sandcastles|the best)\. (?:Seeing|The kids)", line.body)) is ended, line.body


SLEEP_IN = "I get to sleep in every morning during winter break and still wake up before noon."
BREAK_OVER = "Winter break is over, so now I have to wake up at 7 am every morning for school."


@pytest.mark.parametrize("ordered", [True, False], ids=["said-order", "control-promotion-order"])
def test_a_joined_line_tells_its_parts_in_the_order_they_were_said(ws, clawmem, ingest_session, days_ago, monkeypatch, ordered):
    """Through the CLI: the account of the break (said nine days ago, gated last) joins the line
    about its end (said five to three days ago, promoted first). Read in promotion order the line
    told the story backwards: the break over, then sleeping in because of it."""
    if not ordered:
        monkeypatch.setattr(topics, "said_before", lambda *args: False)
    _text_only(ws)
    _said(ingest_session, days_ago, SLEEP_IN, (9,), "a", speaker="Mo")
    _said(ingest_session, days_ago, BREAK_OVER, (5, 4, 3), "b", speaker="Mo")
    clawmem("dream", "--json")
    assert [e.body for e in _lines(ws)] == [f"Mo said: {BREAK_OVER}"]
    _said(ingest_session, days_ago, SLEEP_IN, (2, 1), "c", speaker="Mo")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    [line] = _lines(ws)
    told = (SLEEP_IN, BREAK_OVER) if ordered else (BREAK_OVER, SLEEP_IN)
    assert line.body == f"Mo said: {told[0]} {told[1]}"
    assert len(line.sources) == 6


ACTED = (
    "I'll never forget seeing all of the characters and dialogue I wrote being acted out on stage - it was such a cool feeling. "
    "Having all the hard work and determination I put into writing pay off was definitely rewarding, and the whole cast was wonderful to work with."
)
ALIVE = "Seeing my characters I worked so hard on come alive was my favorite part. It felt like they jumped off the page and became real - it was totally surreal."
THEATRE = (
    "Seeing my characters come alive at the Lyric Theatre was my favorite part, and the director there already asked whether "
    "my next script could open the autumn season."
)


@pytest.mark.parametrize(("first", "second"), [(ACTED, ALIVE), (ALIVE, ACTED)], ids=["fuller-first", "fuller-second"])
def test_going_on_about_a_line_with_no_room_to_join_leaves_one_line_in_the_fuller_words(ws, clawmem, ingest_session, days_ago, first, second):
    """Through the CLI: joined, the two turns would pass 400 characters; one names nothing the
    other does not, so one line stays, in the wording that tells more."""
    _text_only(ws)
    [line] = _going_on(ws, clawmem, ingest_session, days_ago, "Jo", first, second)
    assert line.body == f"Jo said: {ACTED}"
    assert "a turn later" in ws.dreams_md.read_text()


def test_a_turn_that_names_something_new_stays_a_line_of_its_own(ws, clawmem, ingest_session, days_ago):
    _text_only(ws)
    assert sorted(e.body for e in _going_on(ws, clawmem, ingest_session, days_ago, "Jo", ACTED, THEATRE)) == [f"Jo said: {ACTED}", f"Jo said: {THEATRE}"]


def test_control_without_nearness_going_on_is_a_second_line(ws, clawmem, ingest_session, days_ago):
    _text_only(ws, topic_nearby_lines=0)
    assert sorted(e.body for e in _going_on(ws, clawmem, ingest_session, days_ago, "Jo", ACTED, ALIVE)) == [f"Jo said: {ACTED}", f"Jo said: {ALIVE}"]


def test_nearby_means_one_file_within_the_setting():
    assert topics.nearby(["transcripts/a.md#L16"], ["transcripts/a.md#L20"], 4)
    assert topics.nearby(["transcripts/a.md#L10-L16"], ["transcripts/a.md#L6"], 4)
    assert not topics.nearby(["transcripts/a.md#L16"], ["transcripts/a.md#L21"], 4)
    assert not topics.nearby(["transcripts/a.md#L16"], ["transcripts/b.md#L16"], 4)
    assert not topics.nearby(["transcripts/a.md"], ["transcripts/a.md#L1"], 4), "a whole file names no line"


def test_a_join_into_a_full_file_displaces_a_less_valuable_line(ws, clawmem, ingest_session, days_ago):
    """A join grows a line: in a full file it makes room the way a new line does (``budget``)."""
    from clawmem.dream.budget import size

    shed = "The garden shed was painted colour {n} this spring, after the old varnish peeled in the wet winter and the door swelled shut."
    filler = [f"- Sam said: {shed.format(n=n)} <!-- source: transcripts/x{n}.md#L1 --> <!-- importance: 2 -->\n" for n in range(3)]
    text = f"# Memory\n\n- Mia said: {PLAN} <!-- source: transcripts/old.md#L11 --> <!-- importance: 7 -->\n" + "".join(filler)
    ws.memory_md.write_text(text)
    (ws.root / "clawmem.toml").write_text(f'[embeddings]\nbackend = "none"\n[dream]\nmemory_chars = {size(text) + 20}\n')
    _said(ingest_session, days_ago, LATER, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert [m["text"] for m in data["merged"]] == [f"Mia said: {PLAN}"] and data["promoted"] == []
    assert len(data["displaced"]) >= 1 and all("garden shed" in d["text"] for d in data["displaced"])
    bodies = [e.body for e in _lines(ws)]
    assert f"Mia said: {PLAN} {LATER}" in bodies
    assert size(ws.memory_md.read_text()) <= size(text) + 20


def test_an_external_consolidator_extending_a_line_never_raises_its_trust():
    """``describe`` cannot see the old line's origin: a line that extends one is at most the agent's."""
    from clawmem.dream import consolidate
    from clawmem.dream.consolidate import Proposal

    old = f"# Memory\n\n- Mia said: {PLAN} <!-- source: transcripts/old.md#L11 -->\n"
    p = Proposal(
        candidate_id=1, text=f"Mia said: {LATER}", sources=("transcripts/b1.md#L11",), evidence=("transcripts/b1.md#L11",),
        importance=7, triggers=(), key=None, origin="owner", observed="2026-11-30", score=0.9,
    )
    new = f"# Memory\n\n- Mia said: {PLAN} {LATER} <!-- source: transcripts/old.md#L11 --> <!-- source: transcripts/b1.md#L11 -->\n"
    outcome = consolidate.describe(old, new, [p], DreamConfig())
    assert outcome.new_bodies == ((f"Mia said: {PLAN} {LATER}", "agent", "2026-11-30"),)
    assert consolidate.validate(old, new, [p], DreamConfig()) == []


def test_a_join_validates_when_its_turn_holds_other_claims_too():
    """One turn gives several candidates the same anchor: the joined line is checked against all of them
    (it was checked against the last one only, and the rewrite fell back to two appended lines)."""
    from clawmem.dream import consolidate
    from clawmem.dream.consolidate import Proposal

    def proposal(cid: int, text: str, anchor: str) -> Proposal:
        return Proposal(
            candidate_id=cid, text=text, sources=(anchor,), evidence=(anchor,), importance=7, triggers=(),
            key=None, origin="owner", observed="2026-11-30", score=0.9, wordings=(text,),
        )

    cfg = DreamConfig()
    plan = proposal(1, f"Mia said: {PLAN}", "transcripts/a.md#L20")
    later = proposal(2, f"Mia said: {LATER}", "transcripts/a.md#L22")
    other = proposal(3, "Mia said: My brother Tom moved to Lisbon for a new job in shipping.", "transcripts/a.md#L22")
    outcome = consolidate.builtin("# Memory\n\n", [plan, later, other], cfg)
    assert [e.body for e in grammar.parse(outcome.text).entries] == [f"Mia said: {PLAN} {LATER}", other.text]
    assert consolidate.validate("# Memory\n\n", outcome.text, [plan, later, other], cfg) == []


# containment: a fact restated inside a longer account, whatever the shared word count ------------------------------
SHORT = "I lost my job at the bakery."
LONG = "I lost my job at the bakery in the spring, so now I am starting my own catering business from home."


def test_a_longer_account_absorbs_the_line_it_contains(ws, clawmem, ingest_session, days_ago):
    """Text only: the later account says all the line said and more, so it becomes the line (one
    entry citing both); before containment the join repeated the job loss inside one line."""
    _text_only(ws)
    _said(ingest_session, days_ago, SHORT, (9, 8, 7), "a")
    assert [untimed(p["text"]) for p in clawmem("dream", "--json").json()["promoted"]] == [f"Mia said: {SHORT}"]
    _said(ingest_session, days_ago, LONG, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert data["promoted"] == []
    [merge] = data["merged"]
    assert untimed(merge["text"]) == f"Mia said: {SHORT}" and merge["detail"].startswith("absorbed")
    [line] = _lines(ws)
    assert line.body == f"Mia said: {LONG}"
    assert sorted(s.split("#")[0] for s in line.sources) == [f"transcripts/{p}{i}.md" for p in "ab" for i in (1, 2, 3)]
    assert "absorbed" in ws.dreams_md.read_text()
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_a_short_restatement_of_a_longer_line_merges_into_it(ws, clawmem, ingest_session, days_ago):
    """Text only: "I lost my job, sadly." shares two topic stems with the line, too few for a topic,
    and one word the line lacks, so it is no twin either; yet the line says it: the account merges
    into the line, no second line."""
    _text_only(ws)
    _said(ingest_session, days_ago, LONG, (9, 8, 7), "a")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, "I lost my job, sadly.", (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert data["promoted"] == []
    [merge] = data["merged"]
    assert untimed(merge["text"]) == f"Mia said: {LONG}" and merge["detail"].startswith("merged (same subject and topic, nothing new)")
    [line] = _lines(ws)
    assert line.body == f"Mia said: {LONG}"


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("I adopted a cat.", "I adopted a dog from the shelter in the spring and she sleeps on my bed."),
        ("I have three dogs at home.", "I have two dogs at home and we walk them by the river every morning."),
    ],
    ids=["another-animal", "another-number"],
)
def test_a_substitution_is_never_contained(ws, clawmem, ingest_session, days_ago, short, long):
    _text_only(ws)
    _said(ingest_session, days_ago, long, (9, 8, 7), "a")
    clawmem("dream", "--json")
    _said(ingest_session, days_ago, short, (4, 3, 2), "b")
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert sorted(e.body for e in _lines(ws)) == sorted([f"Mia said: {long}", f"Mia said: {short}"])



def test_a_line_joined_after_an_earlier_days_account_validates():
    """The earlier day's account goes before the line, after its attribution; the validator finds
    the old line kept in it (it says all the old line said: ``topics.contains``)."""
    import datetime as dt

    from clawmem.dream import consolidate
    from clawmem.dream.consolidate import Proposal

    old = f"# Memory\n\n- Mo said: {BREAK_OVER} <!-- source: transcripts/b1.md#L11 --> <!-- importance: 7 -->\n"
    p = Proposal(
        candidate_id=1, text=f"Mo said: {SLEEP_IN}", sources=("transcripts/a1.md#L11",), evidence=("transcripts/a1.md#L11",),
        importance=7, triggers=(), key=None, origin="owner", observed="2026-11-30", score=0.9, wordings=(f"Mo said: {SLEEP_IN}",),
    )
    said = {"transcripts/a1.md#L11": dt.datetime(2026, 11, 20, 10), "transcripts/b1.md#L11": dt.datetime(2026, 11, 28, 10)}
    cfg = DreamConfig()
    outcome = consolidate.builtin(old, [p], cfg, judge=Judge(cfg), said=said)
    assert [e.body for e in grammar.parse(outcome.text).entries] == [f"Mo said: {SLEEP_IN} {BREAK_OVER}"]
    assert consolidate.validate(old, outcome.text, [p], cfg) == []
