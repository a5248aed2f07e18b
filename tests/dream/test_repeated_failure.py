"""The spec's "many short sessions", end to end through the installed ``clawmem``: three sessions
on three days meet the same build failure and get the same workaround; dreaming promotes it
once, cites the three transcripts and triggers it on the failure, so the next identical
failure injects it within the default recall budget."""

from __future__ import annotations

import json

from clawmem.entries import grammar

ERROR = "undefined symbol __atomic_load_8 on arm64"
FRESH = "the build is failing again: undefined symbol __atomic_load_8 on arm64, what was the fix?"
UNRELATED = ("thanks!", "what's for lunch", "the build is green")


def write_sessions(tmp_path) -> list:
    """Three transcripts as a host would hand them over: Markdown, JSONL, Markdown."""
    s1 = tmp_path / "s1.md"
    s1.write_text(
        f"user: my release build just died on the Pi with: {ERROR}. any idea?\n"
        "assistant: Add -latomic to LDFLAGS and run make clean before rebuilding.\n"
        "user: thanks, that worked\n"
    )
    s2 = tmp_path / "s2.jsonl"
    s2.write_text(
        "\n".join(
            json.dumps(t)
            for t in (
                {"role": "user", "content": f"CI on the runner fails again, the linker says: ld: {ERROR}"},
                {"role": "assistant", "content": "Add -latomic to LDFLAGS, then run make clean before rebuilding."},
                {"role": "user", "content": "great, green now"},
            )
        )
        + "\n"
    )
    s3 = tmp_path / "s3.md"
    s3.write_text(
        f"user: cross compile broke after the toolchain bump ({ERROR}), exit code 2\n"
        "assistant: Known issue. Add -latomic to LDFLAGS and run make clean before you rebuild.\n"
    )
    return [s1, s2, s3]


def ingest(clawmem, path, session: str, at) -> None:
    result = clawmem("ingest", str(path), "--session", session, "--origin", "owner", "--at", at.isoformat())
    assert result.returncode == 0, result.stderr


def workaround_lines(ws) -> list:
    return [e for e in grammar.parse(ws.memory_md.read_text()).entries if "-latomic" in e.body]


def injected(clawmem, message: str) -> list[str]:
    result = clawmem("recall", message, "--json")  # the default budget: no --budget-ms
    assert result.returncode == 0, result.stderr
    return [t["text"] for t in result.json()["triggers"]]


def test_the_same_failure_in_three_sessions_promotes_its_workaround_triggered_by_the_failure(ws, clawmem, tmp_path, days_ago):
    for n, (path, session) in enumerate(zip(write_sessions(tmp_path), ("s1", "s2", "s3"), strict=True), 1):
        ingest(clawmem, path, session, days_ago(4 - n))

    report = clawmem("dream", "--json")
    assert report.returncode == 0, report.stderr
    promoted = [p for p in report.json()["promoted"] if "-latomic" in p["text"]]
    assert len(promoted) == 1
    assert sorted(s.split("#")[0] for s in promoted[0]["sources"]) == ["transcripts/s1.md", "transcripts/s2.md", "transcripts/s3.md"]

    [line] = workaround_lines(ws)
    assert sorted(s.split("#")[0] for s in line.sources) == ["transcripts/s1.md", "transcripts/s2.md", "transcripts/s3.md"]
    assert line.triggers[0] == ERROR, line.triggers  # quoted identically in all three sessions
    assert "__atomic_load_8" in line.triggers
    chatter = {"pi", "runner", "linker", "toolchain", "thanks", "great", "build", "fails", "again", "exit"}
    assert not chatter & {w for t in line.triggers for w in t.split()}, line.triggers

    assert injected(clawmem, FRESH) == [line.body]
    assert injected(clawmem, "ld: __atomic_load_8 again?!") == [line.body]
    for message in UNRELATED:
        assert injected(clawmem, message) == [], message

    before = ws.memory_md.read_bytes()
    again = clawmem("dream", "--json")
    assert again.returncode == 0 and again.json()["ran"] and again.json()["promoted"] == []
    assert ws.memory_md.read_bytes() == before


def test_a_workaround_met_in_one_session_is_not_promoted(ws, clawmem, tmp_path, days_ago):
    ingest(clawmem, write_sessions(tmp_path)[0], "s1", days_ago(1))

    report = clawmem("dream", "--json")
    assert report.returncode == 0, report.stderr
    assert report.json()["promoted"] == []
    assert workaround_lines(ws) == []
    assert injected(clawmem, FRESH) == []


def _same_words_sessions(clawmem, tmp_path, days_ago, answers) -> None:
    """The user pastes the identical failure in three sessions; ``answers`` are the replies."""
    for n, answer in enumerate(answers, 1):
        path = tmp_path / f"same-{n}.md"
        path.write_text(f"user: Build broke on the pi: {ERROR}.\nassistant: {answer}\n")
        ingest(clawmem, path, f"same-{n}", days_ago(4 - n))


def test_the_pasted_failure_becomes_the_fixs_trigger_not_a_line_of_its_own(ws, clawmem, tmp_path, days_ago):
    fix = "Add -latomic to LDFLAGS and run make clean before rebuilding."
    _same_words_sessions(clawmem, tmp_path, days_ago, [fix] * 3)
    report = clawmem("dream", "--json", "--explain").json()
    assert [p["text"] for p in report["promoted"]] == [fix]
    complaint = [e for e in report["explain"] if "Build broke" in (e["text"] or "")]
    assert complaint and all("complaint without a resolution" in e["failed"][0] for e in complaint), "a failure alone is no memory"
    [line] = workaround_lines(ws)
    assert "__atomic_load_8" in line.triggers, "its words bring the fix back instead"
    [line] = grammar.parse(ws.memory_md.read_text()).entries
    assert ERROR in line.triggers
    assert clawmem("dream", "--json").json()["promoted"] == []  # nor on a later night, once the fix is promoted


def test_a_recurring_failure_no_fix_answers_is_never_a_memory_of_its_own(ws, clawmem, tmp_path, days_ago):
    """The same pasted failure with three different replies (no fix recurs): a complaint without a
    resolution, however often it recurs, is not promoted; nor is any one of the guesses."""
    _same_words_sessions(clawmem, tmp_path, days_ago, [
        "Try pinning the compiler to gcc 12 for now.", "Could be the sysroot; check where it points.", "Rebooting the runner sometimes helps.",
    ])
    report = clawmem("dream", "--json", "--explain").json()
    assert report["promoted"] == []
    assert any("complaint" in " ".join(e["failed"]) for e in report["explain"] if "Build broke" in (e["text"] or ""))
