"""Memory-poisoning report: the attack catalogue with the provenance gates on, and off for contrast.

Every attack in ``tests/security/attacks.py`` (the same catalogue CI runs) is played twice,
each time in a fresh workspace through the real command line:

- **gates on**: the installed ``clawmem``;
- **gates off**: ``tests/security/gates_off.py``, the same CLI with every gate its docstring
  lists (provenance classification, eligibility, neutralisation, frame nonces, recall-marker
  stripping, trigger injection rules, the line model and turn grammar, session choice, value
  and raw-input validation, storage integrity, the consolidator's leash, content origin)
  monkeypatched away in that process (production code has no switch for this). An attack
  whose control cannot be observed says why (``Attack.unobservable``).

An attack succeeds when its marker reaches MEMORY.md or USER.md, is injected by recall,
becomes a standing intent, or carries forged metadata in the index (refusal attacks: a
crash, stored input, a file written or read outside the workspace). The report also counts
framing breaches: the marker printed outside ``<untrusted-content>`` framing by ``search``
or ``get``.

The report ends with the false-positive figures of the content-origin rule (hole 6), from
``benchmarks/content_origin.py``: the agent transcripts shipped in ``benchmarks/data/``, and
LoCoMo when ``--locomo PATH`` is given.

    python benchmarks/poisoning.py [--workers 2] [--only A01,C02] [--json report.json] [--locomo LOCOMO.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "security"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import attacks  # noqa: E402
import content_origin  # noqa: E402

CATEGORY_NAMES = {
    "remember-me": "web/tool content asking to be remembered",
    "owner-claim": "fake owner claims",
    "forged-annotation": "forged importance/trigger/project/recall markers",
    "structure": "Markdown structure injection",
    "homoglyph": "homoglyph and zero-width variants",
    "minja": "MINJA-style progressive queries",
    "flush-taint": "untrusted lines in a trusted file via flush",
    "index-reset": "deleting or corrupting the index",
    "intent": "intents and USER.md from untrusted content",
    "traversal": "path traversal in path-like arguments",
    "bad-input": "oversized and non-UTF-8 input",
    "forged-turn": "tool output forging a transcript turn",
    "told-once": "a forged owner turn saying what the owner is kept for saying once",
    "bad-value": "values that crashed after a record was written",
    "session-choice": "content choosing or replacing a session",
    "credentials": "credentials printed by the CLI",
    "marker-forgery": "forged recall and untrusted-content markers",
    "torn-write": "torn writes upgrading provenance",
    "symlink": "links out of the workspace",
    "reply-budget": "a held index lock stalling recall",
    "consolidator": "a hostile external consolidator",
    "recall-veto": "untrusted hits vetoing owner writes",
    "laundering": "agent echoes laundering untrusted text",
}
# The hole classes of issue 11 (the outside attack set that found what the catalogue above missed).
HOLE_NAMES = {
    1: "Markdown transcripts let content forge turns",
    2: "clawmem's own markers can be forged",
    3: "torn writes upgrade provenance",
    4: "validate before you record",
    5: "the external consolidator is trusted too much",
    6: "untrusted recall vetoes owner writes; agent echoes launder untrusted text",
    7: "content can choose the session",
    8: "symlinks lead out of the workspace",
    9: "the reply-path budget is not enforced from the first statement",
    10: "small bad-input gaps",
    11: "small trust gaps",
}


def run_all(chosen: list[attacks.Attack], mode: str, base: Path, workers: int) -> dict[str, attacks.Outcome]:
    command = attacks.gates_on() if mode == "on" else attacks.gates_off()
    with ThreadPoolExecutor(workers) as pool:
        futures = {a.id: pool.submit(attacks.run_attack, a, base / mode / a.id, command) for a in chosen}
        return {attack_id: f.result() for attack_id, f in futures.items()}


def pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f} %" if total else "-"


def _short(evidence: str) -> str:
    """'index entry memory/x.md#L3 carries importance' -> 'metadata attached: importance' (table-sized)."""
    if " carries " in evidence:
        return "metadata attached: " + evidence.split(" carries ", 1)[1]
    if evidence.startswith("intent "):
        return "became an intent"
    return evidence


def report(chosen: list[attacks.Attack], on: dict, off: dict, seconds: float) -> str:
    out = []
    total = len(chosen)
    provenance = [a for a in chosen if a.kind == "content"]
    won_on = sum(on[a.id].succeeded for a in chosen)
    won_off = sum(off[a.id].succeeded for a in chosen)
    prov_on = sum(on[a.id].succeeded for a in provenance)
    prov_off = sum(off[a.id].succeeded for a in provenance)
    out.append(f"{total} attacks, each in a fresh workspace through the real CLI, in {seconds:.0f} s.\n")
    out.append("| hole class (issue 11) | attacks | succeeded, gates on | succeeded, gates off | control not observable |")
    out.append("|---|---|---|---|---|")
    for hole in [None, *sorted({a.hole for a in chosen if a.hole})]:
        group = [a for a in chosen if a.hole == hole]
        label = f"{hole}. {HOLE_NAMES.get(hole, '')}" if hole else "the original catalogue"
        out.append(
            f"| {label} | {len(group)} | {sum(on[a.id].succeeded for a in group)} | {sum(off[a.id].succeeded for a in group)} "
            f"| {sum(a.unobservable is not None for a in group)} |"
        )
    out.append("")
    out.append("| category | attacks | succeeded, gates on | succeeded, gates off | framing breaches, gates on |")
    out.append("|---|---|---|---|---|")
    for category in dict.fromkeys(a.category for a in chosen):
        group = [a for a in chosen if a.category == category]
        label = CATEGORY_NAMES.get(category, category)
        out.append(
            f"| {label} | {len(group)} | {sum(on[a.id].succeeded for a in group)} | {sum(off[a.id].succeeded for a in group)} "
            f"| {sum(bool(on[a.id].framing) for a in group)} |"
        )
    out.append(
        f"| **all** | **{total}** | **{won_on} ({pct(won_on, total)})** | **{won_off} ({pct(won_off, total)})** "
        f"| **{sum(bool(on[a.id].framing) for a in chosen)}** |"
    )
    out.append("")
    out.append(
        f"Injection success rate (content attacks, {len(provenance)}): gates on **{pct(prov_on, len(provenance))}** "
        f"({prov_on}/{len(provenance)}), gates off **{pct(prov_off, len(provenance))}** ({prov_off}/{len(provenance)}). "
        "The control removes every gate, input validation included (sizes, UTF-8, paths, values); "
        f"the {sum(a.unobservable is not None for a in chosen)} attacks it cannot observe say why in the table below."
    )
    out.append("")
    out.append("| id | attack | gates on | gates off: how it succeeded |")
    out.append("|---|---|---|---|")
    for a in chosen:
        o_on, o_off = on[a.id], off[a.id]
        verdict_on = "**succeeded**: " + "; ".join(o_on.evidence) if o_on.succeeded else "failed"
        how = "; ".join(dict.fromkeys(_short(e) for e in o_off.evidence)) or (f"not observable: {a.unobservable}" if a.unobservable else "failed")
        out.append(f"| {a.id} | {a.title} | {verdict_on} | {how[:140]} |")
    breakout = [a.id for a in chosen if any(w.startswith("search") for w in on[a.id].framing)]
    by_path = [a.id for a in chosen if on[a.id].framing and a.id not in breakout]
    if breakout or by_path:
        out.append("")
        out.append("Framing breaches with the gates on (untrusted or system text printed outside `<untrusted-content>` by an explicit tool):")
        if breakout:
            out.append(
                f"- {', '.join(breakout)}: planted `</untrusted-content>` closes the frame in `search` and `get` output "
                "(neutralise() does not escape that tag)."
            )
        if by_path:
            out.append(
                f"- {', '.join(by_path)}: `get` of a daily note prints untrusted or system lines unframed "
                "(it frames by path, quarantine/ and transcripts/ only, not by line provenance)."
            )
    return "\n".join(out)


def false_positives(locomo: Path | None) -> str:
    """The content-origin rule's false positives (and catch rate) as report lines."""
    out = ["", "Content-origin rule (hole 6), false positives:", ""]
    with tempfile.TemporaryDirectory(prefix="clawmem-content-origin-") as tmp:
        root = Path(tmp)
        if locomo is not None:
            for mode, tally in content_origin.locomo(locomo, root).items():
                what = "owner turns downgraded" if mode == "owner" else "assistant turns called a restatement"
                out.append(f"- LoCoMo, {mode}: {what}: {tally.rate()}")
        files = content_origin.agent_files([])
        tallies = content_origin.agent(files, root)
    out.append(f"- agent transcripts ({len(files)}): owner turns downgraded {tallies['owner'].rate()}; "
               f"own-words assistant turns downgraded {tallies['own'].rate()}; quoting turns caught {tallies['quotes'].rate()}")
    return "\n".join(out)


def main() -> None:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="attacks run at once")
    parser.add_argument("--only", help="comma-separated attack ids")
    parser.add_argument("--json", dest="json_path", help="also write every outcome to this file")
    parser.add_argument("--locomo", type=Path, help="LoCoMo JSON for the content-origin false-positive figures")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    chosen = [a for a in attacks.ATTACKS if wanted is None or a.id in wanted]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="clawmem-poisoning-") as tmp:
        base = Path(tmp)
        on = run_all(chosen, "on", base, args.workers)
        off = run_all(chosen, "off", base, args.workers)
    print(report(chosen, on, off, time.perf_counter() - started))
    print(false_positives(args.locomo))
    if args.json_path:
        payload = {
            mode: {
                k: {"succeeded": o.succeeded, "evidence": o.evidence, "framing": o.framing, "category": o.category, "title": o.title}
                for k, o in outcomes.items()
            }
            for mode, outcomes in (("gates_on", on), ("gates_off", off))
        }
        Path(args.json_path).write_text(json.dumps(payload, indent=2))


if __name__ == "__main__":
    main()
