"""``clawmem promote``: the owner's explicit decision to put one episodic entry into ``MEMORY.md``.

Dreaming promotes what kept being useful; sometimes the operator knows better and wants a line
in the curated core now. This is that hand on the wheel, and it is the owner's alone:

- ``promote`` refuses it when the invocation is not the owner's (``trust.authority.require_owner``:
  no terminal on standard input, which is how agents shell out, and no ``--yes`` from the
  operator); the MCP server exposes no promote tool at all;
- the cited entry must pass the same eligibility rule dreaming applies
  (``trust.eligibility.entry_reasons``: quarantine, recalled copies and the promotion-eligibility rule). Content that
  fails it (a quarantined web summary, a cron session, a tainted file) may still be promoted,
  but only with ``force=True`` (``--force-untrusted``): the operator vouches for it, the
  result carries a warning, the ledger records the overridden reasons and the source origin,
  ``DREAMS.md`` withholds the text as it does for any untrusted content, and ``clawmem audit``
  keeps reporting the line's untrusted source, so the exception stays visible;
- there is no second write path: the line is built by the dream consolidator
  (``consolidate.builtin``: a line saying the same thing gains the anchor instead of a twin,
  a supersession key retires the older line, the budget holds), checked by the same
  ``consolidate.validate`` and written by ``dream.write.apply`` (ledger first, pre-image, hash
  re-check, atomic rename) under the dream sweep lock, so it can never race a sweep.

Everything is validated before a byte is written: the anchor, that it names one entry, that
it is not forgotten, the budget and the rewrite itself.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from clawmem.dream import budget
from clawmem.foundation.errors import BadInput, Busy, Forbidden, NotFound
from clawmem.foundation.records import dataclass
from clawmem.storage import curated, diary, ledger, ledger_records
from clawmem.storage.anchors import cite
from clawmem.storage.ledger_records import PromoteRecord
from clawmem.storage.workspace import Workspace
from clawmem.trust import authority, eligibility, provenance

if TYPE_CHECKING:
    from clawmem.dream.consolidate import Proposal

DEFAULT_IMPORTANCE = 5  # exactly neutral in ranking (0.75 + 0.05 x 5 = 1.0)
EPISODIC_KINDS = ("daily", "quarantine", "transcript")


@dataclass(frozen=True)
class PromoteResult:
    """What ``clawmem promote --json`` prints."""

    anchor: str  # the entry's own anchor (all its lines), as MEMORY.md now cites it
    action: str  # added | merged | superseded (added, retiring older lines with its key) | unchanged (already cited)
    text: str  # the promoted text (framed by the CLI when it came from untrusted content)
    line: str | None  # the MEMORY.md line written (added/superseded) or the line that gained the anchor (merged)
    source_origin: str
    source_session_kind: str
    overridden: list[str]  # eligibility reasons the owner overrode with --force-untrusted (empty: eligible)
    untrusted: bool  # the text comes from untrusted or system content
    dry_run: bool
    memory_chars: int  # MEMORY.md size after the promotion (or as it would be)
    memory_budget: int
    preimage: str | None


def _entry_row(ws: Workspace, index, anchor: str) -> dict:
    """The one indexed list entry an anchor names (it may cite any of the entry's lines)."""
    from clawmem.storage.anchors import parse

    where = parse(ws, anchor, lines_required=True)
    rel, start, end = where.rel, where.start, where.end
    kind = index.scalar("SELECT kind FROM files WHERE path = ?", (rel,))
    if kind is None:
        raise NotFound(f"{rel} is not an indexed memory file", hint="check the path with `clawmem get`; run `clawmem index` if it is new")
    if kind not in EPISODIC_KINDS:
        raise BadInput(f"{rel} is already curated: only daily notes, quarantine and transcripts are promoted")
    rows = index.query("SELECT * FROM entries WHERE path = ? AND line_start <= ? AND line_end >= ? ORDER BY line_start", (rel, end, start))
    entries = [r for r in rows if r["block"] == "entry"]
    if not entries:
        what = "prose, not a list entry" if rows else "nothing"
        raise NotFound(f"{anchor} holds {what}", hint=f"promote one list entry; see the lines with `clawmem get {cite(rel, start)} -C 3`")
    if len(entries) > 1:
        cited = ", ".join(cite(rel, r['line_start']) for r in entries)
        raise BadInput(f"{anchor} spans {len(entries)} entries ({cited})", hint="promote one entry at a time")
    return entries[0]


def _overridden(index, row: dict) -> list[str]:
    """Why dreaming would never promote this entry (the rule light and the gate apply)."""
    from clawmem.dream.light import _RecalledCopies
    from clawmem.dream.store import taints

    reasons = eligibility.entry_reasons(row, taints(index).get(row["path"]), _RecalledCopies(index)(row))
    return [r for r in reasons if r not in ("prose, not a list entry", "marked superseded")]


def _text(row: dict) -> str:
    from clawmem.dream.text import without_label
    from clawmem.entries.neutralise import neutralise

    text = " ".join(row["text"].split())
    if row["kind"] == "transcript":
        text = without_label(text)
    return neutralise(text)


def _proposal(row: dict, importance: int | None) -> Proposal:
    from clawmem.dream.consolidate import MAX_TRIGGERS, Proposal

    anchor = cite(row['path'], row['line_start'], row['line_end'])
    triggers = tuple(json.loads(row["triggers"]))[:MAX_TRIGGERS] if row["triggers"] else ()
    observed = (row["observed_at"] or ledger_records.now_iso())[:10]
    text = _text(row)
    return Proposal(
        candidate_id=0, text=text, sources=(anchor,), evidence=(anchor,),
        importance=importance or row["importance"] or DEFAULT_IMPORTANCE, triggers=triggers, key=row["supersession_key"],
        origin="owner", observed=observed, score=1.0, wordings=(text, row["text"]),
    )


def _decision_record(p: Proposal, row: dict, overridden: list[str]) -> PromoteRecord:
    """The ledger's account of the owner's decision (kept beside the line's own entry record)."""
    from clawmem.entries import identity

    return ledger_records.promote_record(
        "MEMORY.md", identity.text_hash(p.text), source=p.sources[0], source_hash=row["text_hash"], source_origin=row["origin"],
        source_kind=row["session_kind"], overridden=overridden, decided_by="owner",
    )


def promote(
    ws: Workspace, anchor: str, *, caller: authority.Caller, force: bool = False, importance: int | None = None, dry_run: bool = False
) -> PromoteResult:
    """Copy the entry at ``anchor`` into ``MEMORY.md`` as a curated line: the owner's decision.

    Refused unless ``caller`` is the owner (``authority.require_owner``; a dry run decides
    nothing). ``force`` allows content dreaming would never promote
    (``PromoteResult.overridden`` says why it is ineligible).
    """
    from clawmem.dream import consolidate, lock, write
    from clawmem.entries import identity
    from clawmem.index.maintain import open_synced
    from clawmem.index.sync import sync

    if not dry_run:
        authority.require_owner(caller, "promoting into MEMORY.md")
    if importance is not None and not 1 <= importance <= 10:
        raise BadInput(f"importance {importance} is outside 1-10")
    cfg = ws.config.dream
    with lock.sweep_lock(ws) as held:
        if not held.acquired:
            raise Busy("a dream sweep is running; MEMORY.md has one writer at a time", hint="run the promote again when the sweep ends")
        index, _ = open_synced(ws)
        with index:
            row = _entry_row(ws, index, anchor)
            forgotten = ledger.tombstones(ws).hashes
            if row["text_hash"] in forgotten or identity.text_hash(_text(row)) in forgotten:
                raise Forbidden(f"the text at {anchor} was forgotten", hint="undo that forget first: `clawmem forget --list`, then `clawmem forget --undo ID`")
            overridden = _overridden(index, row)
            if overridden and not force:
                raise Forbidden(
                    f"{anchor} is not eligible for MEMORY.md: {'; '.join(overridden)}",
                    hint="if you vouch for it anyway, run the same command with --force-untrusted (the ledger and audit keep saying where it came from)",
                )
            p = _proposal(row, importance)
            snap = curated.snapshot(ws.memory_md)
            outcome = consolidate.builtin(snap.text, [p], cfg)
            if outcome.rejected:
                reason = outcome.rejected[0][1]
                if "budget" in reason:
                    raise BadInput(
                        f"MEMORY.md is at {budget.size(snap.text)} / {cfg.memory_chars} characters: {budget.size(p.line())} more do not fit",
                        hint="raise dream.memory_chars (`clawmem config set dream.memory_chars N`) or prune MEMORY.md",
                    )
                raise BadInput(f"cannot promote {anchor}: {reason}")
            problems = consolidate.validate(snap.text, outcome.text, [p], cfg) if outcome.text != snap.text else []
            if problems:
                raise BadInput(f"cannot promote {anchor}: {'; '.join(problems)}")
            retired = [c for c in outcome.superseded if c.text != p.text]
            action = "unchanged" if outcome.text == snap.text else "superseded" if retired else "added" if outcome.promoted else "merged"
            line = _line_for(outcome.text, p.text, p.sources[0])
            untrusted = provenance.shown_untrusted(row["origin"], row["kind"])
            result = PromoteResult(
                p.sources[0], action, p.text, line, row["origin"], row["session_kind"], overridden, untrusted,
                dry_run, budget.size(outcome.text), cfg.memory_chars, None,
            )
            if dry_run or outcome.text == snap.text:
                return result
            ledger.append(ws, [_decision_record(p, row, overridden)])
            written = write.apply(ws, snap, outcome, [], [p], cfg)
            _diary(ws, result, written.fallback_reason)
            sync(ws, index)  # the next recall and search see the new line (with its ledger provenance) at once
            return dataclasses.replace(result, memory_chars=budget.size(curated.snapshot(ws.memory_md).text), preimage=written.preimage)


def _line_for(memory_text: str, text: str, anchor: str) -> str | None:
    """The MEMORY.md line that now cites ``anchor`` (the new line, or the one that gained it)."""
    from clawmem.entries import grammar

    for e in grammar.parse(memory_text).entries:
        if anchor in e.sources:
            return e.raw.rstrip("\r\n")
    return None


def _diary(ws: Workspace, result: PromoteResult, fallback: str | None) -> None:
    """Record the decision in DREAMS.md; text from untrusted content is withheld, as dreaming does."""
    from clawmem.dream.text import excerpt

    what = "[untrusted or system content withheld]" if result.untrusted else excerpt(result.text, 160)
    body = ["Promoted by the owner (1):", f"- {what} — {result.action} (sources: {result.anchor})"]
    if result.overridden:
        body.append(f"- the owner overrode: {'; '.join(result.overridden)} (source origin {result.source_origin}/{result.source_session_kind})")
    if fallback:
        body.append(f"- appended instead of a rewrite ({fallback})")
    elif result.preimage:
        body.append(f"- pre-image {result.preimage}")
    diary.append(ws, "owner promote", body)

