"""A plain-language update the owner says retires the ``USER.md`` directive it replaces.

"Always use npm for installs" in ``USER.md`` and, days later, "we switched from npm to pnpm":
the update names no key, so only ``updates.retires`` can see that the directive is stale
(``directives.updates_said`` / ``apply(retiring=…)``). Transcripts go in through the installed
CLI with ``CLAWMEM_NOW`` pinned per day and ``clawmem dream`` runs as cron runs it.
"""

from __future__ import annotations

import pytest

from clawmem.entries import grammar

DAY1, DAY2, DAY3, DAY4 = "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"


def at(day: str, time: str = "09:00:00") -> str:
    return f"{day}T{time}"


@pytest.fixture
def say(clawmem, tmp_path):
    def run(session: str, turns: str, day: str, *, origin: str = "owner", time: str = "09:00:00") -> None:
        source = tmp_path / f"{session}.md"
        source.write_text(turns)
        done = clawmem("ingest", str(source), "--session", session, "--origin", origin, "--session-kind", "interactive", env={"CLAWMEM_NOW": at(day, time)})
        assert done.returncode == 0, done.stderr

    return run


@pytest.fixture
def dream(clawmem):
    def run(day: str) -> dict:
        done = clawmem("dream", "--json", env={"CLAWMEM_NOW": at(day, "20:00:00")})
        assert done.returncode == 0, done.stderr
        return done.json()

    return run


def active(ws) -> list[str]:
    doc = grammar.parse(ws.user_md.read_text()) if ws.user_md.exists() else grammar.parse("")
    return [e.body for e in doc.entries if e.first("status") != "superseded"]


DIRECTIVE_THEN_UPDATE = [
    ("Always use npm for installs, please.", "Always use npm for installs.", "We switched from npm to pnpm last week."),
    ("Please always run the tests with Jest.", "Always run the tests with Jest.", "heads up, we replaced Jest with Vitest yesterday"),
    ("Please always run the tests with Jest.", "Always run the tests with Jest.", "FYI we no longer use Jest at all."),
    ("Never deploy on a Monday.", "Never deploy on a Monday.", "Deploys moved from Monday to Wednesday, the freeze is on Mondays now."),
]


@pytest.mark.parametrize(("said", "directive", "update"), DIRECTIVE_THEN_UPDATE)
def test_a_later_update_retires_the_directive(ws, say, dream, said, directive, update):
    say("a", f"user: {said}\nassistant: Noted.\n", DAY1)
    say("b", "user: Keep answers short.\nassistant: Will do.\n", DAY1, time="10:00:00")
    dream(DAY1)
    assert directive in active(ws)

    say("c", f"user: {update}\nassistant: Got it.\n", DAY3)
    report = dream(DAY3)
    assert directive not in active(ws)
    assert "Keep answers short." in active(ws)  # an update about something else retires nothing
    [retired] = [c for c in report["superseded"] if c["text"] == directive]
    assert "retired by the owner's update" in retired["detail"]
    assert retired["sources"] and retired["sources"][0].startswith("transcripts/c.md#")
    assert "retired" in (ws.root / "DREAMS.md").read_text()

    assert dream(DAY4)["promoted"] == []  # the older statement, still in the window, does not come back
    assert directive not in active(ws)


def test_an_update_said_first_retires_nothing_said_after_it(ws, say, dream):
    say("a", "user: We switched from npm to pnpm last week.\nassistant: Got it.\n", DAY1)
    say("b", "user: Always use npm for installs in the legacy app.\nassistant: Noted.\n", DAY2)
    dream(DAY2)
    assert any("npm for installs" in line for line in active(ws))
    dream(DAY3)
    assert any("npm for installs" in line for line in active(ws))


def test_an_update_and_the_directive_it_replaces_in_one_night(ws, say, dream):
    say("a", "user: Please always run the tests with Jest.\nassistant: Noted.\n", DAY1)
    say("b", "user: We replaced Jest with Vitest this afternoon.\nassistant: Got it.\n", DAY1, time="15:00:00")
    report = dream(DAY1)
    assert not any("Jest" in line for line in active(ws))
    written = [c["text"] for c in (*report["promoted"], *report["superseded"])]
    assert "Always run the tests with Jest." not in written  # never written, so nothing to retire either


@pytest.mark.parametrize("origin", ["agent", "untrusted", "system"])
def test_only_the_owners_words_retire_a_directive(ws, say, dream, origin):
    say("a", "user: Always use npm for installs, please.\nassistant: Noted.\n", DAY1)
    dream(DAY1)
    say("b", "user: We switched from npm to pnpm last week.\nassistant: Got it.\n", DAY2, origin=origin)
    dream(DAY3)
    assert "Always use npm for installs." in active(ws)


def test_the_assistant_saying_it_retires_nothing(ws, say, dream):
    say("a", "user: Always use npm for installs, please.\nassistant: Noted.\n", DAY1)
    dream(DAY1)
    say("b", "user: What changed in the lockfile?\nassistant: We switched from npm to pnpm last week, so it is pnpm-lock.yaml now.\n", DAY2)
    dream(DAY3)
    assert "Always use npm for installs." in active(ws)


def test_a_hand_written_unkeyed_line_is_left_to_its_author(ws, say, dream):
    ws.user_md.write_text("# User\n\n- Always use npm for installs. <!-- observed: 2026-11-20 -->\n")
    say("a", "user: We switched from npm to pnpm last week.\nassistant: Got it.\n", DAY2)
    dream(DAY3)
    assert "Always use npm for installs." in active(ws)
