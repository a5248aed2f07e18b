"""A gated candidate that repeats a curated line merges into it, hand-written lines included.

A merge keeps the existing line's text and adds only anchors, so whatever the candidate says
beyond it is lost: the labelled table below holds paraphrases that must merge and near
misses that must not (another server, port, name or database; a negation; extra detail).
Vector rows use the installed MiniLM embedder and skip without one; everything else runs
on text alone, as a sweep does when no embedder is installed.
"""

from __future__ import annotations

import pytest

from clawmem.dream import consolidate
from clawmem.dream.consolidate import Proposal
from clawmem.dream.paraphrase import Judge
from clawmem.embeddings import EmbedderUnavailable, load_embedder
from clawmem.entries import grammar
from clawmem.foundation.config import DreamConfig
from tests.conftest import require

# (existing MEMORY.md line, candidate, merged on words alone?)
SAME_FACT = [
    ("Our deploy target is fly.io (app clawmem-prod).", "Deploys go to fly.io, app clawmem-prod", True),
    ("The API listens on port 8080.", "Port 8080 is where the API listens.", True),
    ("If the build fails with undefined reference errors, run make clean before make.",
     "Undefined reference errors in the build: make clean, then make.", True),
    ("Deploys go to fly.io, app clawmem-prod, region ams.", "Deploys go to fly.io, app clawmem-prod.", True),
    ("The team prefers squash merges on main.", "Squash merges are preferred on main.", False),
    ("Integration tests need the postgres container running first.",
     "Start the postgres container before running integration tests.", False),
    ("Backups run nightly at 02:00 UTC.", "Nightly backups start at 02:00 UTC.", False),
    ("The release helper validates packages.", "Use the release helper for package validation.", False),
]

# (existing MEMORY.md line, candidate, why they are different facts)
DIFFERENT_FACT = [
    ("The staging database lives on web-1.", "The staging database lives on web-2.", "another server"),
    ("The API listens on port 8080.", "The API listens on port 9090.", "another port"),
    ("Our database is Postgres.", "Our database is MySQL.", "another product"),
    ("Alice is on call this week.", "Bob is on call this week.", "another person"),
    ("The docs site is built with mkdocs.", "The docs site is built with sphinx.", "another tool"),
    ("Integration tests need the postgres container running first.",
     "Integration tests need the redis container running first.", "another container"),
    ("Never deploy on Fridays.", "Deploy on Fridays.", "a negation dropped"),
    ("Deploy on Fridays.", "Never deploy on Fridays.", "a negation added"),
    ("Deploys go to fly.io.", "Deploys go to fly.io, app clawmem-prod, region ams.", "more specific: app and region"),
    ("Backups run nightly at 02:00 UTC.", "Backups run nightly at 02:00 UTC and are kept for 30 days.", "adds retention"),
    ("The team prefers squash merges on main.",
     "The team prefers squash merges on main, except release branches which use rebase.", "adds an exception"),
    ("Keep the gateway on loopback.", "Keep the gateway on loopback and behind the VPN.", "adds the VPN"),
    ("Logs are shipped to Loki.", "Metrics are shipped to Prometheus.", "another topic"),
    ("Caroline adopted a dog.", "Caroline adopted a cat.", "another animal (cosine 0.85: merged before the substitution rule)"),
    ("Caroline adopted a cat.", "Caroline adopted a dog.", "another animal, the other way round"),
    ("I have three dogs.", "I have two dogs.", "another count, spelled out"),
    ("I have two dogs.", "I have three dogs.", "another count, the other way round"),
]


@pytest.fixture(scope="module")
def embedder():
    try:
        return load_embedder()
    except EmbedderUnavailable as err:
        require(False, f"vector rows need an installed embedder: {err}")


@pytest.mark.parametrize(("existing", "candidate", "why"), DIFFERENT_FACT)
def test_different_facts_never_merge_on_words(existing, candidate, why):
    assert not Judge(DreamConfig()).same_fact(existing, candidate), why


@pytest.mark.parametrize(("existing", "candidate", "why"), DIFFERENT_FACT)
def test_different_facts_never_merge_with_vectors(existing, candidate, why, embedder):
    assert not Judge(DreamConfig(), embedder).same_fact(existing, candidate), why


@pytest.mark.parametrize(("existing", "candidate", "on_words"), SAME_FACT)
def test_the_same_fact_merges_with_vectors(existing, candidate, on_words, embedder):
    assert Judge(DreamConfig(), embedder).same_fact(existing, candidate)


@pytest.mark.parametrize(("existing", "candidate", "on_words"), SAME_FACT)
def test_without_an_embedder_only_reworded_paraphrases_stay_apart(existing, candidate, on_words):
    """Conservative: a missed merge is one extra line; a wrong merge silently loses a fact."""
    assert Judge(DreamConfig()).same_fact(existing, candidate) is on_words


def test_the_cosine_threshold_is_the_setting(embedder):
    existing, candidate, _ = SAME_FACT[4]
    strict = Judge(DreamConfig(paraphrase_cosine=0.99), embedder)
    assert not strict.same_fact(existing, candidate)
    assert Judge(DreamConfig(paraphrase_new_words=0), embedder).same_fact(existing, candidate) is False


def _proposal(text: str, anchor: str) -> Proposal:
    return Proposal(
        candidate_id=1, text=text, sources=(anchor,), evidence=(anchor,), importance=7, triggers=("deploy target",),
        key=None, origin="owner", observed="2026-11-30", score=0.9, wordings=(text,),
    )


def test_the_validator_accepts_a_merge_into_a_hand_written_line(embedder):
    old = "# Memory\n\n- Integration tests need the postgres container running first.\n- The team prefers squash merges on main.\n"
    p = _proposal("Start the postgres container before running integration tests.", "transcripts/s1.md#L2")
    cfg = DreamConfig()
    outcome = consolidate.builtin(old, [p], cfg, judge=Judge(cfg, embedder))
    assert [c.text for c in outcome.merged] == ["Integration tests need the postgres container running first."]
    assert not outcome.promoted
    assert outcome.text.splitlines()[2].startswith("- Integration tests need the postgres container running first. <!-- source:")
    assert consolidate.validate(old, outcome.text, [p], cfg) == []


def _hand_written(ws, line: str) -> str:
    ws.memory_md.write_text(f"# Memory\n\n{line}\n- The team prefers squash merges on main.\n")
    return line


def _sessions(ingest_session, days_ago, sentence: str) -> None:
    questions = ["where does this app deploy again?", "remind me of the setup before I break it", "what did we settle on last time?"]
    for i, question in enumerate(questions, 1):
        ingest_session(f"s{i}", f"user: {question}\nassistant: {sentence}\nuser: thanks, ticket {200 + i}\n", days_ago(4 - i))


def _embeddings_off(ws) -> None:
    (ws.root / "clawmem.toml").write_text('[embeddings]\nbackend = "none"\n')


@pytest.mark.parametrize("vectors", [True, False], ids=["embedder", "text-only"])
def test_a_paraphrase_of_a_hand_written_line_merges_into_it(ws, clawmem, ingest_session, days_ago, vectors):
    if not vectors:
        _embeddings_off(ws)
    line = _hand_written(ws, "- Our deploy target is fly.io (app clawmem-prod).")
    _sessions(ingest_session, days_ago, "Deploys go to fly.io, app clawmem-prod.")
    result = clawmem("dream", "--json")
    assert result.returncode == 0, result.stderr
    data = result.json()
    assert data["promoted"] == [] and [m["text"] for m in data["merged"]] == ["Our deploy target is fly.io (app clawmem-prod)."]
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert [e.body for e in entries] == ["Our deploy target is fly.io (app clawmem-prod).", "The team prefers squash merges on main."]
    merged = entries[0].raw
    assert merged.startswith(line + " <!-- source: transcripts/s"), "the hand-written text is untouched, only comments appended"
    assert sorted(s.split("#")[0] for s in entries[0].sources) == ["transcripts/s1.md", "transcripts/s2.md", "transcripts/s3.md"]
    assert clawmem("dream", "--json").json()["merged"] == [], "a second sweep has nothing left to merge"
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr


@pytest.mark.parametrize("vectors", [True, False], ids=["embedder", "text-only"])
def test_a_reworded_paraphrase_needs_the_embedder_to_merge(ws, clawmem, ingest_session, days_ago, vectors):
    if vectors:
        try:
            load_embedder()
        except EmbedderUnavailable as err:
            require(False, f"needs an installed embedder: {err}")
    else:
        _embeddings_off(ws)
    _hand_written(ws, "- Integration tests need the postgres container running first.")
    _sessions(ingest_session, days_ago, "Start the postgres container before running integration tests.")
    data = clawmem("dream", "--json").json()
    bodies = [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]
    if vectors:
        assert data["promoted"] == [] and len(data["merged"]) == 1
        assert bodies == ["Integration tests need the postgres container running first.", "The team prefers squash merges on main."]
    else:
        assert [p["text"] for p in data["promoted"]] == ["Start the postgres container before running integration tests."]
        assert len(bodies) == 3


def test_two_different_servers_stay_two_lines(ws, clawmem, ingest_session, days_ago):
    _hand_written(ws, "- The staging database lives on web-1.")
    _sessions(ingest_session, days_ago, "The staging database lives on web-2.")
    data = clawmem("dream", "--json").json()
    assert data["merged"] == [] and [p["text"] for p in data["promoted"]] == ["The staging database lives on web-2."]
    bodies = [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]
    assert "The staging database lives on web-1." in bodies and "The staging database lives on web-2." in bodies


def test_a_paraphrase_of_a_line_dream_wrote_merges_without_a_second_line(ws, clawmem, ingest_session, days_ago, embedder):
    """The line already carries three anchors (the most a line keeps): it stays byte for byte."""
    first, later = "Integration tests need the postgres container running first.", "Start the postgres container before running integration tests."
    asks = ["why do the tests hang?", "the integration job is stuck", "CI timed out on the db suite"]
    for i, (day, ask) in enumerate(zip((7, 6, 5), asks, strict=True), 1):
        ingest_session(f"a{i}", f"user: {ask}\nassistant: {first}\nuser: ok, ticket {300 + i}\n", days_ago(day))
    assert [p["text"] for p in clawmem("dream", "--json").json()["promoted"]] == [first]
    for i, (day, ask) in enumerate(zip((3, 2, 1), asks, strict=True), 1):
        ingest_session(f"b{i}", f"user: {ask} (again)\nassistant: {later}\nuser: right, ticket {400 + i}\n", days_ago(day))
    before = ws.memory_md.read_text()
    data = clawmem("dream", "--json").json()
    assert data["promoted"] == [] and [m["text"] for m in data["merged"]] == [first]
    [entry] = grammar.parse(ws.memory_md.read_text()).entries
    assert ws.memory_md.read_text() == before and entry.body == first
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr
