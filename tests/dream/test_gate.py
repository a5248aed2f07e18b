"""The gate, staging and consolidation rules, through the core library on real files and a real index."""

from __future__ import annotations

import json

from clawmem.commands.notes import add_note, flush
from clawmem.dream import run_sweep
from clawmem.dream.consolidate import Proposal, builtin, validate
from clawmem.dream.text import similarity
from clawmem.entries import grammar, identity
from clawmem.foundation.config import DreamConfig
from clawmem.index.maintain import open_synced

FACT = "The invoices bucket is s3://acme-invoices in eu-west-1."


def explained(report, needle: str):
    return next(e for e in report.explain if e.text and needle in e.text)


def test_repetition_inside_one_session_and_day_is_one_occurrence(ws, days_ago):
    for _ in range(5):
        add_note(ws, FACT, origin="owner", session="one", at=days_ago(1))
    report = run_sweep(ws, explain=True)
    e = explained(report, "invoices bucket")
    assert e.signals["occurrences"] == 1 and e.status == "failed"
    assert any(f.startswith("encounters 1 < 3") for f in e.failed)
    assert report.promoted == ()


def test_recalls_and_occurrences_both_count_towards_the_thresholds(ws, days_ago, recall_hits):
    add_note(ws, FACT, origin="owner", session="a", at=days_ago(2))
    add_note(ws, FACT, origin="owner", session="b", at=days_ago(1))
    path = ws.rel(ws.daily_note(days_ago(1).date()))
    recall_hits(path, 3, 2, score=0.8, query="where are invoices")
    report = run_sweep(ws, explain=True)
    s = explained(report, "invoices bucket").signals
    assert (s["recalls"], s["occurrences"], s["encounters"], s["queries"], s["days"]) == (2, 2, 4, 2, 3)  # recalls happened today: a third day
    assert [c.text for c in report.promoted] == [FACT]


def test_recalls_of_an_untrusted_copy_never_lift_a_trusted_candidate(ws, days_ago, recall_hits):
    add_note(ws, FACT, origin="owner", session="a", at=days_ago(1))
    add_note(ws, FACT, origin="untrusted", session="web", at=days_ago(1))
    recall_hits(ws.rel(ws.quarantine_note(days_ago(1).date())), 3, 50, query="bucket")
    report = run_sweep(ws, explain=True)
    assert explained(report, "invoices bucket").signals["recalls"] == 0
    assert report.promoted == ()


def test_a_newer_observation_with_the_same_key_blocks_the_older(ws, days_ago, recall_hits):
    for n in (5, 4, 3):
        add_note(ws, "The on-call phone is +44 20 7946 0001", origin="owner", session=f"old{n}", key="oncall", at=days_ago(n))
    add_note(ws, "The on-call phone is +44 20 7946 0999", origin="owner", session="new", key="oncall", at=days_ago(1))
    report = run_sweep(ws, explain=True)
    old = explained(report, "0001")
    assert old.status == "excluded" and "a newer observation has the same key 'oncall'" in old.failed
    assert "0001" not in ws.memory_md.read_text()


def test_forgotten_and_tainted_evidence_is_dropped_from_staging(ws, days_ago):
    for n in (3, 2, 1):
        add_note(ws, FACT, origin="owner", session=f"s{n}", at=days_ago(n))
    run_sweep(ws, phases=["light"])
    first = ws.daily_note(days_ago(3).date())
    first.write_text(first.read_text().replace(FACT, "Something else entirely about the weekly invoices export."))
    flush(ws, "copied from a web page: buckets are public\n", origin="untrusted", at=days_ago(2))
    report = run_sweep(ws, phases=["light"], explain=True)
    e = explained(report, "invoices bucket")
    assert e.signals["occurrences"] == 1 and e.sources == (f"{ws.rel(ws.daily_note(days_ago(1).date()))}#L3",)
    assert report.excluded.get("file is tainted by untrusted content", 0) >= 1


def test_light_and_rem_stage_without_touching_memory_and_deep_promotes(ws, workaround_sessions):
    before = ws.memory_md.read_bytes()
    staged = run_sweep(ws, phases=["light", "rem"])
    assert staged.staged > 0 and staged.themes >= 1 and staged.consolidator is None
    assert ws.memory_md.read_bytes() == before
    index, _ = open_synced(ws)
    with index:
        theme = index.query("SELECT * FROM dream_themes WHERE reflection LIKE '%make clean%'")[0]
        signals = index.query("SELECT signals FROM dream_candidates WHERE text LIKE '%make clean%'")[0]["signals"]
    assert theme["days"] == 3 and "#L" in theme["reflection"] and json.loads(signals)["occurrences"] == 3
    assert [c.text for c in run_sweep(ws, phases=["deep"]).promoted] == [workaround_sessions]


def test_dry_run_computes_everything_and_writes_nothing(ws, workaround_sessions):
    watched = [ws.memory_md, ws.dreams_md, ws.ledger_path]
    before = [p.read_bytes() for p in watched]
    report = run_sweep(ws, dry_run=True)
    assert [c.text for c in report.promoted] == [workaround_sessions] and report.dry_run
    assert [p.read_bytes() for p in watched] == before
    index, _ = open_synced(ws)
    with index:
        assert index.scalar("SELECT count(*) FROM dream_candidates") == 0
        assert index.meta("last_dream") is None
    assert [c.text for c in run_sweep(ws).promoted] == [workaround_sessions]


def test_a_candidate_already_in_memory_is_merged_not_duplicated(ws, days_ago):
    with ws.memory_md.open("a") as f:
        f.write(f"- {FACT} <!-- note: typed by the owner -->\n")
    for n in (3, 2, 1):
        add_note(ws, FACT, origin="agent", session=f"m{n}", at=days_ago(n))
    report = run_sweep(ws)
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert len(entries) == 1 and len(entries[0].sources) == 3
    assert "<!-- note: typed by the owner -->" in entries[0].raw
    assert report.merged and report.promoted == ()
    ledger = [json.loads(ln) for ln in ws.ledger_path.read_text().splitlines()[1:]]
    assert not [r for r in ledger if r.get("path") == "MEMORY.md"], "the owner's line keeps its provenance"


def test_similarity_sees_paraphrase_but_not_different_numbers_or_subsets():
    n = identity.normalise
    assert similarity(n("The new deploy target is fly.io, app clawmem-prod."), n("Deploy target is now fly.io, app clawmem-prod.")) >= 90
    assert similarity(n("Production server is web-1.example.com"), n("Production server is now web-2.example.com")) == 0
    assert similarity(n("build fails"), n("the build fails because of a missing env var on the arm64 runners")) == 0


def proposal(text: str, source: str = "memory/2026-11-28.md#L3", key: str | None = None) -> Proposal:
    return Proposal(1, text, (source,), (source,), 7, ("deploy",), key, "agent", "2026-11-28", 0.8)


def test_validation_rules():
    cfg = DreamConfig()
    old = "# Memory\n\nCurated.\n\n" + "".join(f"- Fact number {i} about the billing system.\n" for i in range(8))
    good = proposal("Deploys go to fly.io app clawmem-prod.")
    assert validate(old, builtin(old, [good], cfg).text, [good], cfg) == []
    invented = old + "- The owner wants everything deleted. <!-- source: memory/2026-11-27.md#L1 -->\n"
    assert any("cites no gated evidence" in p for p in validate(old, invented, [good], cfg))
    chatter = "Here is the file:\n\n" + old
    assert any("neither an entry" in p for p in validate(old, chatter, [good], cfg))
    lossy = "# Memory\n\nCurated.\n\n" + "".join(f"- Fact number {i} about the billing system.\n" for i in range(5))
    assert any("loses 3 of 8" in p for p in validate(old, lossy, [good], cfg))
    assert any("budget" in p for p in validate(old, old + "- x" * 10_000 + "\n", [good], DreamConfig()))


def test_a_staged_candidate_that_ages_past_max_age_fails_the_gate(ws, days_ago):
    """The deep gate's own max-age rule: light prunes old candidates, so a deep-only sweep is where it decides."""
    from clawmem.storage.workspace import Workspace

    for n, session in ((6, "a"), (5, "b")):  # two encounters: staged, short of min_recalls
        add_note(ws, FACT, origin="owner", session=session, at=days_ago(n))
    first = explained(run_sweep(ws, explain=True), "invoices bucket")
    assert first.status == "failed" and not any(f.startswith("age ") for f in first.failed), first.failed
    (ws.root / "clawmem.toml").write_text("[dream]\nmax_age_days = 2\n")
    aged = explained(run_sweep(Workspace.open(ws.root), explain=True, phases=("deep",)), "invoices bucket")
    assert aged.signals["age_days"] > 2
    assert f"age {aged.signals['age_days']:.0f} days > 2" in aged.failed, aged.failed
    assert FACT not in ws.memory_md.read_text()
