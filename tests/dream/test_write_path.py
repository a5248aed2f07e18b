"""What a careful person would sign: each cause of junk in MEMORY.md, through the installed CLI.

Every test replays days with ``CLAWMEM_NOW`` pinned: transcripts go in with ``clawmem ingest``
as a host writes them, look-ups with ``clawmem search``, and ``clawmem dream`` runs at night.
The assertions read the real ``MEMORY.md`` and ``USER.md``.
"""

from __future__ import annotations

import json

import pytest

from clawmem.dream import budget, updates
from clawmem.dream.text import untimed
from clawmem.entries import grammar, identity
from tests.dream.replay import active, at, day


def test_acknowledgements_behind_any_prefix_never_reach_memory(ws, say, dream):
    """Cause 1: a speaker label, timestamp or message id in front of "thanks" made it look informative."""
    chit_chat = [
        "Mel: Thanks!",
        "[12:03] mel: thanks, that worked",
        "[D4:17] Caroline: Wow, that is awesome!",
        "2023-05-08 13:56 Jon: Good to see you, talk soon!",
        "**Gina**: Noted, I will remember that.",
        "<nate> haha yes",
    ]
    fact = "The billing service runs on Postgres 16 in eu-west-2."
    for n in (3, 2, 1):
        say(f"s{n}", "".join(f"user: {line}\n" for line in chit_chat) + f"user: {fact}\n", day(n))
    report = dream(day(1))
    assert active(ws.memory_md) == [fact]
    excluded = [e for e in report["explain"] if e["status"] == "excluded" and e["text"]]
    assert any("acknowledgement" in " ".join(e["failed"]) or "greeting" in " ".join(e["failed"]) for e in excluded)


def test_tool_call_records_and_code_are_never_promoted(ws, say, dream):
    records = [
        'mcp__clawmem__search_memory {"query": "deploy target"}',
        '{"tool": "shell", "command": ["pytest", "-x"], "cwd": "/repo"}',
        "def retry(job): return job.run(max_attempts=3)",
    ]
    for n in (3, 2, 1):
        say(f"s{n}", "".join(f"assistant: {line}\n" for line in records), day(n))
    report = dream(day(1))
    assert active(ws.memory_md) == []
    reasons = {r for e in report["explain"] for r in e["failed"]}
    assert {"a tool-call record", "JSON, not speech", "a code or configuration fragment"} <= reasons


def test_a_sentence_leaning_on_the_one_before_joins_it_or_is_dropped(ws, say, dream):
    """Cause 2: one turn became several fragments ("They are called Rex and Max.")."""
    for n in (3, 2, 1):
        say(f"s{n}", "user: Caroline: I adopted two rescue dogs in March. They are called Rex and Max.\n"
                     "user: Caroline: That is the same shelter as before.\n", day(n))
    dream(day(1))
    assert active(ws.memory_md) == ["Caroline said: I adopted two rescue dogs in March (2026-03). They are called Rex and Max."] or active(
        ws.memory_md
    ) == ["Caroline said: I adopted two rescue dogs in March. They are called Rex and Max."]


def test_a_fact_looked_up_for_weeks_reaches_the_gate_however_long_ago_it_was_said(ws, say, dream, clawmem):
    """Cause 3: light pruned a candidate max_age_days after it was said, ignoring its recalls."""
    fact = "The on-call rota lives in the ops-handbook repository under rota/2026.md."
    say("old", f"user: {fact}\n", day(80))
    dream(day(80))
    queries = ["where is the on-call rota", "on-call rota location", "rota file for on-call", "who is on call rota handbook"]
    for i, n in enumerate(range(24, 0, -2)):
        found = clawmem("search", queries[i % len(queries)] + f" {i}", "--lexical", env={"CLAWMEM_NOW": at(day(n))})
        assert found.returncode == 0 and "rota" in found.stdout, found.stdout + found.stderr
    dream(day(1))
    assert active(ws.memory_md) == [fact]


def test_a_better_candidate_displaces_the_least_valuable_line_and_the_diary_says_so(ws, say, dream, clawmem):
    """Cause 4: a full file refused better candidates, first come, first served."""
    (ws.root / "clawmem.toml").write_text("[dream]\nmemory_chars = 330\n")
    for i in range(6):
        for n in (12, 11, 10):
            say(f"low{i}-{n}", f"user: The staging box number {i} uses the spare rack slot {40 + i} in room B.\n", day(n))
    dream(day(10))
    before = active(ws.memory_md)
    assert len(before) >= 2
    important = "Production database backups run at 02:00 UTC to the s3 bucket acme-backups."
    for n in (3, 2, 1):
        say(f"hi{n}", f"user: {important}\n", day(n))
    for q in ("database backups schedule", "when do backups run", "backup bucket name", "acme backups s3"):
        assert clawmem("search", q, "--lexical", env={"CLAWMEM_NOW": at(day(1))}).returncode == 0
    report = dream(day(1))
    after = active(ws.memory_md)
    assert important in after and budget.size(ws.memory_md.read_text()) <= 330
    assert report["displaced"] and all(d["text"] in before and d["text"] not in after for d in report["displaced"])
    assert "Displaced" in ws.dreams_md.read_text() and "clawmem promote" in ws.dreams_md.read_text()


LONG_FACT = (
    "Production database backups run at 02:00 UTC to the s3 bucket acme-backups, are kept for ninety days, "
    "and the restore drill runs on the first Monday of every month from the ops-handbook runbook."
)


def _full_of_short_lines_then_a_long_fact(ws, say, dream, clawmem) -> list[str]:
    """A file at its budget of three short facts said on three days each; then ``LONG_FACT``,
    which needs the room of all of them, said on three later days and looked up."""
    (ws.root / "clawmem.toml").write_text("[dream]\nmemory_chars = 330\n")
    for i in range(3):
        for n in (12, 11, 10):
            say(f"low{i}-{n}", f"user: The staging box number {i} uses the spare rack slot {40 + i} in room B.\n", day(n))
    dream(day(10))
    for n in (3, 2, 1):
        say(f"hi{n}", f"user: {LONG_FACT}\n", day(n))
    for q in ("database backups schedule", "when do backups run", "backup bucket name", "restore drill runbook"):
        assert clawmem("search", q, "--lexical", env={"CLAWMEM_NOW": at(day(1))}).returncode == 0
    return active(ws.memory_md)


def test_one_long_candidate_does_not_push_out_several_lines_worth_more_together(ws, say, dream, clawmem):
    """Cause 4: displacing is worth it only if the core's total value rises; a long candidate
    that needs the room of three lines is worth less than they are together, so they stay."""
    before = _full_of_short_lines_then_a_long_fact(ws, say, dream, clawmem)
    report = dream(day(1))
    assert len(before) == 3 and report["displaced"] == [] and active(ws.memory_md) == before
    refused = [r["reasons"] for r in report["rejected"] if r["text"] == LONG_FACT]
    assert refused == [["MEMORY.md budget of 330 characters is full of lines worth as much or more"]]


def test_control_when_each_line_need_only_be_worth_less_the_long_candidate_pushes_out_all_three(ws, say, dream, clawmem, monkeypatch):
    """The rule before: every displaced line worth ``MARGIN`` less than the candidate, each on its own."""
    monkeypatch.setattr(budget, "worth_displacing", lambda worth, displaced: all(v <= worth - budget.MARGIN for v in displaced))
    before = _full_of_short_lines_then_a_long_fact(ws, say, dream, clawmem)
    report = dream(day(1))
    assert active(ws.memory_md) == [LONG_FACT] and len(report["displaced"]) == 3
    assert all(d["text"] in before and "; the candidate is worth" in d["detail"] for d in report["displaced"])


def test_the_cheapest_room_is_one_long_line_or_the_least_valuable_lines_in_turn():
    def line(n: int, chars: int) -> grammar.Entry:
        return grammar.parse(f"- {'x' * chars} <!-- source: transcripts/{n}.md#L1 -->\n").entries[0]

    short_a, short_b, long_c = (0.2, line(1, 40)), (0.3, line(2, 40)), (0.6, line(3, 120))
    assert budget.cheapest_room([short_a, short_b, long_c], 0) == []
    assert budget.cheapest_room([short_a, short_b, long_c], 70) == [short_a, short_b], "0.5 together: less than the long line"
    assert budget.cheapest_room([(0.35, short_a[1]), (0.4, short_b[1]), long_c], 70) == [long_c], "0.75 together: more"
    assert budget.cheapest_room([short_a, short_b], 500) is None


def test_the_sign_off_stripper_leaves_words_that_end_in_its_letters(ws, say, dream):
    """Cause 5: "city" lost its "ty" like a sign-off ("ty" = thank you)."""
    fact = "The conference moved to Mexico City."
    for n in (3, 2, 1):
        say(f"s{n}", f"user: {fact}\n", day(n))
    dream(day(1))
    assert active(ws.memory_md) == [fact]


def test_the_wording_that_stands_on_its_own_wins_over_the_latest(ws, say, dream):
    """Cause 7: the latest occurrence was kept even when it leaned on context."""
    own = "Run make clean before make when the arm64 build fails with undefined reference errors."
    leaning = "Run make clean before make when the arm64 build fails with undefined reference errors again, same as before."
    say("s3", f"assistant: {own}\n", day(3))
    say("s2", f"assistant: {own}\n", day(2))
    say("s1", f"assistant: {leaning}\n", day(1))
    dream(day(1))
    assert active(ws.memory_md) == [own]


def test_a_plain_language_update_retires_the_stale_fact(ws, say, dream):
    """Cause 8: "we moved deploys from fly.io to render" said three times, and fly.io was promoted."""
    for n in (20, 19, 18):
        say(f"old{n}", "user: Deploys go to fly.io with flyctl deploy.\nassistant: Noted, deploys go to fly.io with flyctl deploy.\n", day(n))
    dream(day(18))
    assert active(ws.memory_md) == ["Deploys go to fly.io with flyctl deploy."]
    for n in (3, 2, 1):
        say(f"new{n}", "user: We moved deploys from fly.io to render.\n", day(n))
    report = dream(day(1))
    assert active(ws.memory_md) == ["We moved deploys from fly.io to render."]
    assert [s["text"] for s in report["superseded"]] == ["Deploys go to fly.io with flyctl deploy."]
    assert "retired by the update" in report["superseded"][0]["detail"]
    assert "Superseded" in ws.dreams_md.read_text()


def test_a_stale_candidate_is_excluded_by_a_newer_update_before_ranking(ws, say, dream):
    for n in (6, 5, 4):
        say(f"old{n}", "user: Deploys go to fly.io with flyctl deploy.\n", day(n))
    for n in (3, 2, 1):
        say(f"new{n}", "user: We moved deploys from fly.io to render.\n", day(n))
    report = dream(day(1))
    assert active(ws.memory_md) == ["We moved deploys from fly.io to render."]
    stale = [e for e in report["explain"] if e["text"] == "Deploys go to fly.io with flyctl deploy."]
    assert stale and stale[0]["status"] == "excluded" and "superseded by a newer statement" in stale[0]["failed"][0]


def test_a_directive_said_on_three_days_is_in_user_md_once(ws, say, dream):
    """Cause 9: nothing in dream wrote USER.md."""
    for n in (3, 2, 1):
        say(f"s{n}", "user: [09:12] Always answer in British English.\nassistant: Noted, I will answer in British English.\n", day(n))
    dream(day(1))
    assert active(ws.user_md) == ["Always answer in British English."]
    assert active(ws.memory_md) == []


def test_an_owners_explicit_decision_needs_no_recalls_and_explain_says_why(ws, say, dream):
    decision = "We decided to switch the sync wire format from JSON to postcard."
    say("d1", f"user: {decision}\nassistant: Noted, I will switch the sync wire format.\n", day(1))
    report = dream(day(1))
    assert active(ws.memory_md) == [decision]
    [row] = [e for e in report["explain"] if e["text"] == decision]
    assert "strong evidence" in row["signals"]["strong"]
    assert entries(ws.memory_md)[0].importance == 6  # as one that just passed the gate: not the budget's first to go


def entries(path) -> list[grammar.Entry]:
    return [e for e in grammar.parse(path.read_text()).entries if e.status != "superseded"]


@pytest.mark.parametrize("said", [
    "My name is Priya Raman, and I live in Leeds.",
    "I'm the tech lead on the billing team at Acme.",
    "Let's make it a rule: all money is stored as integer pence in amount_minor columns.",
    # a name before the role, after a greeting
    "Hoi! I'm Joost, backend lead at Portline.",
])
def test_what_the_owner_tells_the_agent_about_themselves_is_kept_from_one_statement(ws, say, dream, said):
    """The issue's strong evidence: a fact about the owner, or a rule they set, said once to their agent."""
    say("s1", f"user: {said}\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    [line] = entries(ws.memory_md)
    kept = said.split(": ")[-1].split("! ")[-1]  # without a rule's label or a greeting
    assert kept.rstrip(".") in line.body and line.importance is not None and line.importance >= 6
    [row] = [e for e in report["explain"] if e["text"] and kept[:20] in e["text"]]
    assert "strong evidence" in row["signals"]["strong"]


@pytest.mark.parametrize("said", [
    "I'm a bit stuck on the login bug today.", "I work on this tomorrow.", "Just so you know I'm a bit tired.", "Hi! I'm done, the lead is fixed.",
])
def test_a_passing_state_in_the_first_person_is_no_statement_about_the_owner(ws, say, dream, said):
    say("s1", f"user: {said}\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    assert active(ws.memory_md) == []
    assert not any(e["signals"].get("strong") for e in report["explain"] if e["text"] and said[:12] in e["text"])


def test_what_the_owner_tells_a_friend_in_a_chat_waits_for_the_gate(ws, clawmem, tmp_path, dream):
    """The same words between people (no agent speaks) are one person's account, not told to the agent."""
    source = tmp_path / "chat.jsonl"
    turns = [("Akib", "My name is Akib Hossain, and I live in Leeds."), ("Muhhamed", "I'm a nurse at the Leeds General Infirmary.")]
    source.write_text("".join(json.dumps({"role": "user", "speaker": who, "content": text}) + "\n" for who, text in turns))
    assert clawmem("ingest", str(source), "--session", "c1", "--origin", "owner", env={"CLAWMEM_NOW": at(day(1))}).returncode == 0
    dream(day(1))
    assert active(ws.memory_md) == []


@pytest.mark.parametrize("update", [
    "We're dropping poetry.", "We got rid of poetry this week.", "We're moving off poetry.",
    # ended in other words, with the reason after it (the reason's words say why, not what)
    "Over the weekend we cancelled poetry — too slow for two people.", "We retired poetry because the lockfiles kept conflicting.",
])
def test_dropping_a_tool_retires_the_line_that_says_we_use_it(ws, say, dream, update):
    for n in (20, 19, 18):
        say(f"old{n}", "user: For dependencies we use poetry here, with poetry add.\n", day(n))
    dream(day(18))
    assert active(ws.memory_md) == ["For dependencies we use poetry here, with poetry add."]
    for n in (3, 2, 1):
        say(f"new{n}", f"user: {update} Dependencies go through uv add.\n", day(n))
    report = dream(day(1))
    assert [s["text"] for s in report["superseded"]] == ["For dependencies we use poetry here, with poetry add."]
    assert not [line for line in active(ws.memory_md) if "we use poetry" in line]


@pytest.mark.parametrize(("stale", "update", "now"), [
    ("The sync crate uses Tokio everywhere, MSRV 1.74.", "We bumped MSRV to 1.80 this morning.", "The sync crate uses Tokio everywhere, MSRV 1.80."),
    (
        "The nightly occupancy report runs at 23:00 Montreal time.", "We moved the nightly report to 23:30 because the gyms close later.",
        "The nightly occupancy report runs at 23:30 Montreal time.",
    ),
    (
        "Local dev runs Postgres 15 in docker compose on port 5434.", "I upgraded Postgres to 16 in the compose file.",
        "Local dev runs Postgres 16 in docker compose on port 5434.",
    ),
    # the thing named after "to", in a line of several facts
    (
        "Go 1.23, chi for routing, pgx v5 with sqlc, goose for migrations.", "Two: we bumped to Go 1.24; go.mod and the Dockerfile are done.",
        "Go 1.24, chi for routing, pgx v5 with sqlc, goose for migrations.",
    ),
    ("The API runs on Python 3.12 with uv and ruff.", "We upgraded everything to Python 3.13 last week.", "The API runs on Python 3.13 with uv and ruff."),
    # the reason after the dash holds a change of its own: what changed is said before it
    (
        "Project: rivet, a file sync tool in Rust. Tokio everywhere, MSRV 1.74.", "We bumped MSRV to 1.80 — we want std::sync::LazyLock instead of once_cell.",
        "Project: rivet, a file sync tool in Rust. Tokio everywhere, MSRV 1.80.",
    ),
])
def test_a_new_value_for_the_same_attribute_retires_the_old_one_unsaid(ws, say, dream, stale, update, now):
    """Supersession without a key: the update names the attribute and its new value, not the old
    one. The old line is superseded and its other facts stay, with the new value in it."""
    for n in (20, 19, 18):
        say(f"old{n}", f"user: {stale}\n", day(n))
    dream(day(18))
    assert active(ws.memory_md) == [stale]
    say("new", f"user: {update}\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    [retired] = report["superseded"]
    assert retired["text"] == stale and "rewritten as" in retired["detail"]
    assert stale not in active(ws.memory_md) and now in active(ws.memory_md)
    [line] = [e for e in grammar.parse(ws.memory_md.read_text()).entries if e.body == now]
    assert {"transcripts/old20.md#L10", "transcripts/new.md#L10"} <= set(line.sources), "the rewritten line keeps its lineage and cites the update"
    # the update is said in the line it rewrote: no second line states the new value
    assert active(ws.memory_md) == [now] and [m["text"] for m in report["merged"]] == [now] and report["promoted"] == []
    records = [json.loads(x) for x in ws.ledger_path.read_text().splitlines() if x.strip()]
    assert [r["origin"] for r in records if r.get("path") == "MEMORY.md" and r.get("hash") == identity.text_hash(now)] == ["owner"]


def test_without_the_rewrite_the_other_facts_of_the_line_are_lost(ws, say, dream, monkeypatch):
    """Control: retiring the whole line (``updates.restated`` off) loses chi, pgx and goose with Go 1.23."""
    monkeypatch.setattr(updates, "restated", lambda update, text: None)
    for n in (20, 19, 18):
        say(f"old{n}", "user: Go 1.23, chi for routing, pgx v5 with sqlc, goose for migrations.\n", day(n))
    dream(day(18))
    say("new", "user: Two: we bumped to Go 1.24; go.mod and the Dockerfile are done.\nassistant: Noted.\n", day(1))
    dream(day(1))
    assert not [line for line in active(ws.memory_md) if "chi for routing" in line]


@pytest.mark.parametrize(("update", "line", "now"), [
    ("We bumped Go to 1.24.", "Stack: Go (1.23), chi.", "Stack: Go (1.24), chi."),
    ("We bumped Go to 1.24.", "Go V1.23 everywhere.", "Go V1.24 everywhere."),
    # a value whose casefolded form is longer ("ß" is "ss") must not eat the comma after it
    ("We bumped Firmware to 2.0ß.", "Firmware 1.9ß, flashed over USB.", "Firmware 2.0ss, flashed over USB."),
])
def test_a_rewrite_replaces_the_value_and_nothing_around_it(update, line, now):
    assert updates.restated(updates.parse(update), line) == now


@pytest.mark.parametrize(("said", "old", "new"), [
    ("We bumped MSRV to 1.80 — we want std::sync::LazyLock instead of once_cell.", None, "1.80"),
    ("We retired poetry because uv resolves faster than poetry ever did.", "poetry", None),
    ("Because of the outage we moved deploys from fly.io to render.", "fly.io", "render"),  # nothing before the reason
    ("We use LazyLock instead of once_cell now.", "once_cell", "lazylock"),
])
def test_what_changed_is_read_before_the_reason(said, old, new):
    update = updates.parse(said)
    assert update is not None and (update.old, update.new) == (old, new)


@pytest.mark.parametrize("said", ["We moved to Berlin 3 weeks ago.", "I upgraded to Python after years of Perl."])
def test_a_move_with_a_count_of_time_gives_no_new_value(said):
    """"moved to Berlin 3 weeks ago": 3 is how long ago, not Berlin's new value."""
    update = updates.parse(said)
    assert update is None or not updates.retires(update, "We lived near Berlin 2 years, on Python 2.7.")


@pytest.mark.parametrize(("stale", "update"), [
    ("The Velonet login is in Doppler, project pedal: VELONET_SFTP_USER and VELONET_SFTP_KEY.", "Velonet is switching off the SFTP this week."),
    ("The cache URL is REDIS_URL in the prod config of billing.", "Billing no longer uses Redis, it moved to Postgres."),
])
def test_a_value_named_inside_an_identifier_is_retired_too(ws, say, dream, stale, update):
    """``VELONET_SFTP_USER`` names the SFTP the update switches off; "pnpm" never names "npm"."""
    for n in (20, 19, 18):
        say(f"old{n}", f"user: {stale}\n", day(n))
    say("keep", "user: We install packages with pnpm in CI, pinned in the lockfile.\n", day(18))
    for n in (20, 19):
        say(f"keep{n}", "user: We install packages with pnpm in CI, pinned in the lockfile.\n", day(n))
    dream(day(18))
    assert stale in active(ws.memory_md)
    say("new", f"user: {update}\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    assert [s["text"] for s in report["superseded"]] == [stale]
    assert "We install packages with pnpm in CI, pinned in the lockfile." in active(ws.memory_md)


@pytest.mark.parametrize(("stale", "update", "replacement"), [
    (
        "Velonet drops the nightly export on their SFTP, sftp.velonet.example, folder /exports.",
        "Big news from Velonet: they're switching off the SFTP.",
        "As of today the exports land in an S3 bucket instead, s3://velonet-exports/pedala/.",
    ),
    ("CI runs on Jenkins at ci.internal, job web-main.", "We're dropping Jenkins.", "Builds run on GitHub Actions instead, in .github/workflows/ci.yml."),
    ("Web sessions are kept in Redis, db 2.", "We no longer use Redis for sessions.", "They live in Postgres instead, table web_sessions."),
])
def test_an_update_and_what_replaces_it_in_one_turn_are_one_line(ws, say, dream, stale, update, replacement):
    """Told once, the update needs no recalls; what replaces the old value (a bare "instead") goes with it."""
    for n in (20, 19, 18):
        say(f"old{n}", f"user: {stale}\n", day(n))
    dream(day(18))
    assert active(ws.memory_md) == [stale]
    say("new", f"user: {update} {replacement} Can you switch the loader over?\nassistant: On it.\n", day(1))
    dream(day(1))
    [line] = active(ws.memory_md)
    assert line.startswith(update) and replacement.split(" instead")[0].split()[-1] in line


def test_a_new_value_for_an_unnamed_port_retires_nothing(ws, say, dream):
    """"the port" does not say which one: the metrics port stays when another port changes."""
    stale = "The metrics server listens on port 9090."
    for n in (20, 19, 18):
        say(f"old{n}", f"user: {stale}\n", day(n))
    dream(day(18))
    say("new", "user: We changed the port to 8081 for the API.\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    assert report["superseded"] == [] and stale in active(ws.memory_md)


@pytest.mark.parametrize("directive", [
    "And please don't ever print secrets in the terminal.",
    "From now on, never paste credentials into a chat.",
    "Oh, and always load secrets through doppler run.",
])
def test_a_directive_beside_a_fact_goes_to_user_md_and_the_fact_still_to_memory_md(ws, say, dream, directive):
    """The directive leaves the turn's claim, not the fact it was said with."""
    fact = "The Velonet login is in Doppler, project millrace, config prd: VELONET_SFTP_USER and VELONET_SFTP_KEY."
    for n in (3, 2, 1):
        say(f"s{n}", f"user: {fact} {directive}\nassistant: Noted (day {n}).\n", day(n))
    for n in (3, 2, 1):
        say(f"q{n}", "user: where is the velonet login kept?\n", day(n))
    report = dream(day(1))
    assert len(active(ws.user_md)) == 1
    assert fact in [e["text"] for e in report["explain"] if e["candidate_id"]]
    left_out = {e["text"] for e in report["explain"] if "a directive about the user (dreaming writes it to USER.md)" in e["failed"]}
    assert left_out == {directive}, report["explain"]


def test_an_update_told_to_the_agent_once_retires_the_stale_line_that_night(ws, say, dream):
    """Until the update is promoted the stale line is injected into every session, so it needs no recalls."""
    stale = "Velonet drops the nightly export on their SFTP, sftp.velonet.example, folder /exports."
    for n in (20, 19, 18):
        say(f"old{n}", f"user: {stale}\n", day(n))
    dream(day(18))
    assert active(ws.memory_md) == [stale]
    say("new", "user: Big news from Velonet: they're switching off the SFTP.\nassistant: Noted.\n", day(1))
    report = dream(day(1))
    assert active(ws.memory_md) == ["Big news from Velonet: they're switching off the SFTP."]
    assert [s["text"] for s in report["superseded"]] == [stale]
    [row] = [e for e in report["explain"] if e["text"] and "switching off" in e["text"]]
    assert "update" in row["signals"]["strong"]


def test_a_directive_after_a_lead_in_or_before_its_examples_reaches_user_md_and_a_clause_after_a_dash_does_not(ws, say, dream):
    say("s1", "user: Good. And just so it's said: never push to main directly.\n"
              "user: Use uv from now on — `uv add`, `uv run`, `uv sync`.\n"
              "user: Money lives in amount_minor BIGINT columns as integer pence — never floats, never Decimal in the database.\n"
              "user: Never force-push a shared branch — always a new commit.\n"
              "assistant: Noted.\n", day(1))
    dream(day(1))
    assert sorted(active(ws.user_md)) == ["Never force-push a shared branch — always a new commit.", "Never push to main directly.", "Use uv."]


@pytest.mark.parametrize("decision", [
    "I decided to go to a pretty garden in the morning.",  # REALTALK's account of a day
    "We decided to switch the sync wire format from JSON to postcard.",  # the same rule whatever the words
])
def test_a_decision_in_a_chat_between_people_waits_for_the_gate(ws, clawmem, tmp_path, dream, decision):
    """Told to a friend in a chat the owner ingested, where no agent speaks, it is no decision for the agent to keep."""
    def chat(session: str, *turns: tuple[str, str, str]) -> None:
        source = tmp_path / f"{session}.jsonl"
        source.write_text("".join(json.dumps({"role": role, "speaker": who, "content": text}) + "\n" for role, who, text in turns))
        assert clawmem("ingest", str(source), "--session", session, "--origin", "owner", env={"CLAWMEM_NOW": at(day(1))}).returncode == 0

    chat("c1", ("user", "Akib", decision), ("user", "Muhhamed", "Sounds good to me."))
    report = dream(day(1))
    assert active(ws.memory_md) == []
    [row] = [e for e in report["explain"] if decision in untimed(e["text"])]
    assert not row["signals"].get("strong")
    chat("c2", ("user", "Akib", decision), ("assistant", "assistant", "Noted."))  # control: the same words in a session with the agent
    dream(day(1))
    assert [line for line in active(ws.memory_md) if decision in untimed(line)]


def test_the_same_decision_from_the_assistant_alone_waits_for_the_gate(ws, say, dream):
    say("d1", "assistant: We decided to switch the sync wire format from JSON to postcard.\n", day(1))
    dream(day(1))
    assert active(ws.memory_md) == []


def test_pasted_program_output_and_status_reports_are_never_promoted(ws, say, dream):
    paste = (
        "user: The production build dies:\n"
        "  FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n"
        "  2: 0xa96834 [node]\n"
        "  error: linking with `aarch64-linux-gnu-gcc` failed: exit status: 1\n"
        "  +    command: cargo clippy --workspace -- -D warnings\n"
        "assistant: 9 protocol tests pass (round trip, wrong version, empty frame).\n"
    )
    for n in (3, 2, 1):
        say(f"s{n}", paste, day(n))
    report = dream(day(1))
    assert active(ws.memory_md) == []
    reasons = {r for e in report["explain"] for r in e["failed"]}
    assert {"program output, not speech", "a status report of the moment, not a durable fact"} <= reasons


def test_thanks_and_relief_after_a_fix_are_acknowledgements_and_the_fix_is_not_taken_for_a_problem(ws, say, dream):
    fix = "If the build fails with undefined reference errors, run make clean before make."
    for n in (3, 2, 1):
        say(f"s{n}", f"user: the release build fails again with undefined reference errors\nassistant: {fix}\n"
                     "user: thanks, that did it for the ticket\nassistant: Glad it links again.\n", day(n))
    dream(day(1))
    assert active(ws.memory_md) == [fix]


def test_a_directive_after_a_dropped_tool_says_what_it_replaces_in_user_md(ws, say, dream):
    say("s1", "user: Also, we're dropping poetry. Use uv from now on — `uv add`, `uv run`, `uv sync`.\nassistant: Switching to uv.\n", day(1))
    dream(day(1))
    assert active(ws.user_md) == ["Use uv, not poetry."]


def test_a_directive_about_the_file_the_turn_named_reaches_user_md_naming_it(ws, say, dream):
    """Said once without the file and later after naming it: one line, which now names the file."""
    say("s1", "user: Don't edit the seed yourself.\nassistant: Understood.\n", day(3))
    dream(day(3))
    assert active(ws.user_md) == ["Don't edit the seed yourself."]
    say("s2", "user: The list comes from seeds/stations.csv. Tiago maintains that file. Don't edit the seed yourself.\nassistant: Understood.\n", day(1))
    dream(day(1))
    assert active(ws.user_md) == ["Don't edit the seed (seeds/stations.csv) yourself."]
