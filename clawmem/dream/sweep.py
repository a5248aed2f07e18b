"""One sweep under the lock: sync, load staging, run the phases, write, save, log.

Order matters for crash safety: ``MEMORY.md`` is written (ledger first) before the staging
tables mark candidates promoted. A sweep killed in between leaves them staged; the next
sweep promotes them again and the consolidator finds them already present (a merge, not a
second line).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from typing import Any

from clawmem.commands import losses
from clawmem.dream import (
    budget,
    consolidate,
    credentials,
    directives,
    external,
    gate,
    light,
    rem,
    store,
    sweep_record,
    testhook,
    write,
)
from clawmem.dream.consolidate import MAX_SOURCES, MAX_TRIGGERS, Change, Outcome, Proposal
from clawmem.dream.paraphrase import Judge
from clawmem.dream.problems import Problems, symptom_triggers
from clawmem.dream.results import DreamReport, Explained, Rejection
from clawmem.dream.store import Candidate, Staging
from clawmem.dream.text import document_frequency, excerpt
from clawmem.entries import grammar
from clawmem.foundation.config import DreamConfig
from clawmem.foundation.records import dataclass
from clawmem.foundation.timeparse import now_iso
from clawmem.index.db import Index
from clawmem.index.maintain import open_synced
from clawmem.index.sync import sync
from clawmem.intents import aspirations
from clawmem.storage import curated
from clawmem.storage.anchors import cite, lines_of
from clawmem.storage.workspace import Workspace
from clawmem.trust import eligibility, provenance


def derived_importance(v: gate.Verdict, cfg: DreamConfig) -> int:
    """Importance for a line whose evidence named none: 6 at the gate's threshold up to 9 at 1.0.

    A candidate promoted on strong evidence (``gate.strong_evidence``: said once by the owner)
    ranks as one at the threshold at least: its low score only says nobody has looked it up yet,
    and what the owner told the agent must not be the first line the budget pushes out."""
    score = max(v.score, cfg.min_score) if v.signals.strong else v.score
    span = max(1e-9, 1.0 - cfg.min_score)
    return max(1, min(10, 6 + round(3 * (score - cfg.min_score) / span)))


def proposal(c: Candidate, v: gate.Verdict, df: dict[str, int], total: int, cfg: DreamConfig, problem: Sequence[str] = ()) -> Proposal:
    text = c.wording
    named = [" ".join(grammar.clean_value(t).replace(",", " ").replace(";", " ").split()) for t in c.triggers]
    triggers = tuple(t for t in named if t)[:MAX_TRIGGERS] or symptom_triggers(text, problem, df, total)
    return Proposal(
        candidate_id=c.id,
        text=text,
        sources=tuple(c.sources(MAX_SOURCES)),
        evidence=tuple(c.sources()),
        importance=c.importance or derived_importance(v, cfg),
        triggers=triggers,
        key=c.key,
        origin=c.origin,
        observed=c.last_seen.date().isoformat(),
        score=round(v.score, 4),
        wordings=tuple(dict.fromkeys(e.text for e in c.evidence)),
        recalls=v.signals.recalls,
    )


@dataclass(frozen=True)
class DeepResult:
    consolidator: str | None
    written: write.Written | None
    rejected: tuple[Rejection, ...]


def _judge(ws: Workspace) -> Judge:
    """The merge test, with vectors when an embedder is installed (else text only, still sound)."""
    from clawmem.embeddings import EmbedderUnavailable, load_embedder

    cfg = ws.config.embeddings
    try:
        return Judge(ws.config.dream, load_embedder(cfg.backend, cfg.model_path or None))
    except EmbedderUnavailable:
        return Judge(ws.config.dream)


def _usage(ws: Workspace, index: Index, today: dt.date, cfg: DreamConfig) -> budget.Usage:
    """Recalls of the curated lines within the age window: how much each is used (``budget``)."""
    since = (today - dt.timedelta(days=cfg.max_age_days)).isoformat()
    rows = index.query(
        "SELECT text_hash, count(*) AS n FROM recall_events WHERE path = ? AND day >= ? AND source != 'echo' GROUP BY text_hash",
        (ws.rel(ws.memory_md), since),
    )
    return budget.Usage(today, {r["text_hash"]: r["n"] for r in rows})


def _origins(ws: Workspace, index: Index) -> dict[str, str]:
    """The origin the index gives each curated line (by text hash): what a line joined to a candidate was."""
    return {r["text_hash"]: r["origin"] for r in index.query("SELECT text_hash, origin FROM entries WHERE path = ?", (ws.rel(ws.memory_md),))}


def _said(index: Index, anchors: set[str]) -> dict[str, dt.datetime]:
    """When the line each anchor cites was said (the index's time of the entry there): a line
    joined from two accounts tells them in that order (``topics.said_before``)."""
    said = {}
    for anchor in anchors:
        where = lines_of(anchor)
        if where is None:
            continue
        path, line, _ = where
        at = index.scalar("SELECT min(observed_at) FROM entries WHERE path = ? AND line_start <= ? AND line_end >= ?", (path, line, line))
        when = store.when(at)
        if when is not None:
            said[anchor] = when
    return said


def _consolidate(
    ws: Workspace,
    snap: curated.Snapshot,
    proposals: list[Proposal],
    cfg: DreamConfig,
    judge: Judge,
    usage: budget.Usage,
    origins: dict[str, str],
    said: dict[str, dt.datetime],
) -> tuple[Outcome | None, list[str]]:
    if cfg.consolidator_command:
        try:
            document = external.payload(snap.text, proposals, cfg)
            text = external.run(cfg.consolidator_command, document, timeout=cfg.consolidator_timeout_s)
        except external.ConsolidatorFailed as err:
            return None, [f"external consolidator {err}"]
        outcome = consolidate.describe(snap.text, text, proposals, cfg)
    else:
        outcome = consolidate.builtin(snap.text, proposals, cfg, judge=judge, usage=usage, origins=origins, said=said)
    if outcome.text == snap.text:
        return outcome, []
    return outcome, [f"rewrite rejected: {p}" for p in consolidate.validate(snap.text, outcome.text, proposals, cfg, outcome.displaced)]


def _answered_problems(staging: Staging, gated: list[gate.Verdict], finder: Problems) -> tuple[list[gate.Verdict], list[Rejection]]:
    """A gated problem statement that a fix answers (gated now or promoted before) is not a
    memory of its own: it became that fix's triggers, the symptom that brings the fix back.
    It is left out, and reported in the sweep that gates the fix."""
    fixes_now = [staging.candidates[v.candidate_id] for v in gated]
    earlier = [c for c in staging.candidates.values() if c.status == "promoted"]
    now_answered = set().union(set(), *(finder.statements(c) for c in fixes_now))
    answered = now_answered.union(*(finder.statements(c) for c in earlier))
    kept, absorbed = [], []
    for v in gated:
        c = staging.candidates[v.candidate_id]
        lines = {(e.path, e.line_start) for e in c.evidence}
        if not lines <= answered:
            kept.append(v)
        elif lines <= now_answered:
            reason = "the problem a promoted fix answers: its words are that fix's triggers"
            absorbed.append(Rejection("consolidation", (reason,), tuple(c.sources()), c.wording, c.id, round(v.score, 4)))
    return kept, absorbed


def _return_displaced(staging: Staging, displaced: tuple[Change, ...]) -> None:
    """Candidates behind a displaced line go back to staging: they compete again, and return
    only by displacing lines worth ``budget.MARGIN`` less together (each displacement raises the
    core's total value, so this settles instead of churning)."""
    anchors = {a for c in displaced for a in c.sources}
    for c in staging.candidates.values():
        if c.status == "promoted" and anchors & set(c.sources()):
            c.status, c.promoted_at = "staged", None


def deep(ws: Workspace, index: Index, staging: Staging, verdicts: dict[int, gate.Verdict], *, dry_run: bool, now: dt.datetime) -> DeepResult:
    cfg = ws.config.dream
    gated = sorted((v for v in verdicts.values() if v.passed), key=lambda v: v.rank or 0)
    df, total = document_frequency(c.text for c in staging.candidates.values())
    finder = Problems(index)
    gated, absorbed = _answered_problems(staging, gated, finder)
    proposals = [
        proposal(staging.candidates[v.candidate_id], v, df, total, cfg, finder.triggers(staging.candidates[v.candidate_id]))
        for v in gated
    ]
    snap = curated.snapshot(ws.memory_md)
    testhook.pause("consolidate")
    if not proposals and (cfg.consolidator_command or consolidate.builtin(snap.text, [], cfg).text == snap.text):
        return DeepResult(None, None, tuple(absorbed))
    judge = _judge(ws) if proposals else Judge(cfg)
    anchors = {a for p in proposals for a in p.sources} | {a for e in grammar.parse(snap.text).entries for a in e.sources}
    outcome, problems = _consolidate(
        ws, snap, proposals, cfg, judge, _usage(ws, index, now.date(), cfg), _origins(ws, index), _said(index, anchors)
    )
    if dry_run:
        if outcome is not None and not problems:
            written = write.Written(outcome, outcome.text != snap.text, None, None)
        else:
            written = write.Written(consolidate.fallback(snap.text, proposals, cfg, judge=judge), False, "; ".join(problems), None)
    else:
        written = write.apply(ws, snap, outcome, problems, proposals, cfg, judge=judge)
        _return_displaced(staging, written.outcome.displaced)
        for cid in written.outcome.used:
            staging.candidates[cid].status = "promoted"
            staging.candidates[cid].promoted_at = now_iso()
    by_id = {p.candidate_id: p for p in proposals}
    rejected = tuple(
        Rejection("consolidation", (reason,), by_id[cid].evidence, by_id[cid].text, cid, by_id[cid].score)
        for cid, reason in written.outcome.rejected
    )
    return DeepResult("external" if cfg.consolidator_command else "built-in", written, (*absorbed, *rejected))


def _fresh(staging: Staging, recalls: dict, touched: frozenset[int], last_dream: str | None) -> set[int]:
    """Candidates that gained evidence or recalls since the last sweep."""
    since = store.when(last_dream)
    fresh = set(touched)
    for c in staging.candidates.values():
        events = (r for e in c.evidence for r in recalls.get((e.entry_hash, e.path), ()))
        if since is None or any((store.when(r.at) or since) > since for r in events):
            fresh.add(c.id)
    return fresh


def _ineligible_recalled(index: Index, since_day: str, taint: dict[str, str]) -> list[Rejection]:
    """Recalled episodic entries that can never be promoted, with why (the poisoning case)."""
    found = []
    for row in store.recalled_entries(index, since_day):
        reasons = eligibility.entry_reasons(row, taint.get(row["path"]), False)
        if reasons:
            trusted = not provenance.shown_untrusted(row["origin"], row["kind"])
            found.append(
                Rejection(
                    "eligibility", (*reasons, f"recalled {row['recalls']} time(s)"),
                    (cite(row['path'], row['line_start']),), excerpt(row["text"]) if trusted else None,
                )
            )
    return found


def _explain(
    staging: Staging, verdicts: dict[int, gate.Verdict], ineligible: list[Rejection], lit: light.LightResult | None, limit: int
) -> tuple[Explained, ...]:
    """Every candidate, every recalled ineligible entry, and up to ``limit`` units light excluded
    from the files it read (each once: a recalled entry's row already says why). A text that gives
    a credential's value is not quoted: the reason says why."""

    def shown(text: str | None) -> str | None:
        return None if text is None or credentials.found(text) else text

    rows = []
    for c in staging.candidates.values():
        v = verdicts.get(c.id)
        status = "promoted" if c.status == "promoted" else ("excluded" if v and v.excluded else ("passed" if v and v.passed else "failed"))
        rows.append(
            Explained(
                c.id, status, shown(c.wording), tuple(c.sources()), c.theme, round(v.score, 4) if v else None,
                v.rank if v else None, v.signals.as_dict() if v else {}, v.failed if v else (),
            )
        )
    rows.sort(key=lambda e: (e.status != "passed", -(e.score or 0), e.candidate_id or 0))
    rows += [Explained(None, "excluded", shown(r.text), r.sources, None, None, None, {}, r.reasons) for r in ineligible]
    listed = {s for r in ineligible for s in r.sources}
    units = [x for x in (lit.exclusions if lit else ()) if not any(x.source == s or x.source.startswith(f"{s}-") for s in listed)]
    rows += [Explained(None, "excluded", x.text, (x.source,), None, None, None, {}, (x.reason,)) for x in units[:limit]]
    return tuple(rows)


def _embed_triggers(ws: Workspace, index) -> None:
    """Give new trigger phrases their vectors now, so the next recall's vector lane can use them."""
    from clawmem.embeddings import EmbedderUnavailable, load_embedder
    from clawmem.index.vectors import refresh_triggers

    cfg = ws.config.embeddings
    try:
        refresh_triggers(index, load_embedder(cfg.backend, cfg.model_path or None))
    except EmbedderUnavailable:
        pass  # lexical trigger matching still works; `clawmem status` reports the missing model


def run(ws: Workspace, *, phases: tuple[str, ...], dry_run: bool, explain: bool, now: dt.datetime, recovered: dict[str, Any] | None) -> DreamReport:
    cfg = ws.config.dream
    index, _ = open_synced(ws)
    with index:
        last_dream = index.meta("last_dream")
        sweep_id = None if dry_run else store.start_sweep(index, phases)
        staging = store.load(index)
        lit = light.run(ws, index, staging, now=now) if "light" in phases else None
        if "rem" in phases:
            staging.themes = rem.run(staging)
        since_day = (now - dt.timedelta(days=cfg.max_age_days)).date().isoformat()
        recalls = store.recalls(index, since_day)
        taint = store.taints(index)
        verdicts = gate.evaluate(staging, recalls, taint, cfg, now)
        result = deep(ws, index, staging, verdicts, dry_run=dry_run, now=now) if "deep" in phases else DeepResult(None, None, ())
        user = (
            directives.apply(ws, directives.collect(ws, index, now), dry_run=dry_run, record=False, retiring=directives.updates_said(ws, index, now))
            if "deep" in phases
            else []
        )
        fresh = _fresh(staging, recalls, lit.touched if lit else frozenset(), last_dream)
        ineligible = _ineligible_recalled(index, (store.when(last_dream) or now - dt.timedelta(days=cfg.max_age_days)).date().isoformat(), taint)
        gate_rejected = [
            Rejection(
                "gate", v.failed, tuple(staging.candidates[cid].sources()), staging.candidates[cid].wording, cid, round(v.score, 4), v.in_words,
            )
            for cid, v in sorted(verdicts.items())
            if v.failed and cid in fresh and v.signals.encounters >= 2
        ]
        outcome = result.written.outcome if result.written else None
        report = DreamReport(
            ran=True,
            skipped=None,
            phases=phases,
            dry_run=dry_run,
            staged=lit.units_staged if lit else 0,
            candidates=sum(1 for c in staging.candidates.values() if c.status == "staged"),
            themes=len(staging.themes),
            excluded=lit.excluded if lit else {},
            promoted=outcome.promoted if outcome else (),
            merged=outcome.merged if outcome else (),
            superseded=outcome.superseded if outcome else (),
            displaced=outcome.displaced if outcome else (),
            rejected=(*ineligible, *gate_rejected, *result.rejected),
            consolidator=result.consolidator,
            fallback_used=bool(result.written and result.written.fallback_reason),
            fallback_reason=result.written.fallback_reason if result.written else None,
            memory_changed=bool(result.written and result.written.changed),
            preimage=result.written.preimage if result.written else None,
            recovered_lock=recovered,
            explain=_explain(staging, verdicts, ineligible, lit, cfg.explain_exclusions) if explain else (),
        )
        report = dataclasses.replace(  # the owner's directives, written to USER.md (dream.directives)
            report, promoted=(*report.promoted, *directives.promoted(user)), superseded=(*report.superseded, *directives.superseded(user))
        )
        report = dataclasses.replace(  # nothing lost silently: what keeps memory out, and aspirations come due
            report, notices=tuple(losses.from_sweep(ws, index, staging, verdicts, report.rejected)),
            aspirations=aspirations.review(ws, now.date(), dry_run=dry_run),
        )
        if dry_run:
            return report
        assert sweep_id is not None  # started above: not a dry run
        store.save(index, staging, verdicts)
        touched_themes = [t for t in staging.themes if lit and set(t.candidates) & lit.touched]
        sweep_record.append(ws, report, touched_themes, today=now.date())
        store.finish_sweep(index, sweep_id, sweep_record.summary(report))
        if report.memory_changed:
            sync(ws, index)  # the next search sees the new curated lines (and their ledger provenance) at once
            _embed_triggers(ws, index)
    return report
