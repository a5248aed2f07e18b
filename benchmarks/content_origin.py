"""False positives of the content-origin rule (``clawmem.trust.content_origin.restates``).

Every transcript goes through clawmem's own ``ingest`` into a fresh workspace, and the
ledger records it wrote are compared with what each turn should have been recorded as.

LoCoMo (ordinary conversations in which two people quote and echo each other), three ways:

- ``owner``: both speakers are user turns of an owner session. No owner turn may be
  downgraded (the rule never touches the owner class; this shows it on real data).
- ``assistant``: speaker A is the owner (user), speaker B the assistant. No turn is untrusted,
  so no assistant turn may be downgraded either.
- ``stress``: speaker A is untrusted (role ``tool``: a non-owner participant), speaker B the
  assistant. Every B turn that the rule calls a restatement of an earlier A turn is counted:
  the rule's firing rate on conversational replies, with examples to judge by eye.

Agent transcripts (JSONL files whose assistant records carry ``"label": "own"`` — the
assistant's analysis in its own words — or ``"label": "quotes"`` — it quotes or restates the
tool output): the own-words downgrade rate (should be low) and the quote catch rate (should
be high), plus owner downgrades (must be 0).

Run: ``python benchmarks/content_origin.py [--locomo LOCOMO.json] [AGENT_DIR_OR_FILES ...]``
(the agent transcripts of ``benchmarks/data/agent-transcripts/`` when none are given).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clawmem.commands import workspace_init
from clawmem.commands.ingest import ingest  # noqa: E402
from clawmem.entries import identity
from clawmem.storage import ledger  # noqa: E402
from clawmem.storage.workspace import Workspace  # noqa: E402

AGENT_DATA = ROOT / "benchmarks" / "data" / "agent-transcripts"
DATE_FORMAT = "%I:%M %p on %d %B, %Y"


@dataclass
class Tally:
    turns: int = 0
    downgraded: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, downgraded: bool, example: str) -> None:
        self.turns += 1
        if downgraded:
            self.downgraded += 1
            if len(self.examples) < 5:
                self.examples.append(example[:160])

    def rate(self) -> str:
        return f"{self.downgraded}/{self.turns} ({100 * self.downgraded / max(self.turns, 1):.1f}%)"


def ingest_records(ws: Workspace, records: list[dict], session: str, origin: str, at: dt.datetime | None = None) -> list[tuple[dict, dict]]:
    """Ingest one JSONL transcript; pair each kept turn with the ledger record written for it."""
    before = len(ledger.read(ws).records)
    data = "".join(json.dumps(r) + "\n" for r in records)
    ingest(ws, data, session=session, origin=origin, at=at)
    written = [r for r in ledger.read(ws).records[before:] if r.get("t") == "entry"]
    kept = [r for r in records if any(identity.normalise(line) for line in str(r.get("content", "")).splitlines())]
    assert len(kept) == len(written), (session, len(kept), len(written))
    return list(zip(kept, written, strict=True))


def fresh_workspace(root: Path, name: str, taint: dict[str, int] | None = None) -> Workspace:
    """A new workspace; ``taint`` overrides ``[taint]`` settings through its clawmem.toml."""
    workspace_init.create(root / name)
    if taint:
        (root / name / "clawmem.toml").write_text("[taint]\n" + "".join(f"{k} = {v}\n" for k, v in taint.items()))
    return Workspace.open(root / name)


# LoCoMo ---------------------------------------------------------------------------------
def locomo_sessions(path: Path):
    for conv in json.loads(path.read_text()):
        c = conv["conversation"]
        number = 1
        while f"session_{number}" in c:
            when = dt.datetime.strptime(c[f"session_{number}_date_time"].strip(), DATE_FORMAT)
            yield conv["sample_id"], number, c["speaker_a"], when, c[f"session_{number}"]
            number += 1


ROLES = {"owner": ("user", "user"), "assistant": ("user", "assistant"), "stress": ("tool", "assistant")}
SWEEP = ({"min_words": 4, "min_run": 6}, {"min_words": 5, "min_run": 6}, {"min_words": 8, "min_run": 10})


def locomo(path: Path, root: Path, modes=tuple(ROLES), taint: dict[str, int] | None = None) -> dict[str, Tally]:
    roles = {mode: ROLES[mode] for mode in modes}
    tallies = {mode: Tally() for mode in roles}
    suffix = "-".join(f"{k}{v}" for k, v in (taint or {}).items())
    workspaces = {mode: fresh_workspace(root, f"locomo-{mode}{suffix}", taint) for mode in roles}
    for sample, number, speaker_a, when, turns in locomo_sessions(path):
        for mode, (role_a, role_b) in roles.items():
            records = [
                {"role": role_a if t["speaker"] == speaker_a else role_b, "speaker": t["speaker"], "content": t["text"], "id": t["dia_id"]}
                for t in turns
            ]
            for turn, record in ingest_records(workspaces[mode], records, f"{sample}-s{number}", "owner", when):
                expected = {"user": "owner", "assistant": "agent", "tool": "untrusted"}[turn["role"]]
                if mode == "owner" or turn["role"] == "assistant":
                    tallies[mode].add(record["origin"] != expected, f"{turn['id']} {turn['content']}")
    return tallies


# agent transcripts ------------------------------------------------------------------------
def agent_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for p in paths or [AGENT_DATA]:
        found += sorted(p.glob("*.jsonl")) if p.is_dir() else [p]
    return found


def agent(files: list[Path], root: Path) -> dict[str, Tally]:
    tallies = {"owner": Tally(), "own": Tally(), "quotes": Tally()}
    ws = fresh_workspace(root, "agent")
    for path in files:
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for turn, record in ingest_records(ws, records, path.stem, "owner"):
            if turn["role"] == "user":
                tallies["owner"].add(record["origin"] != "owner", f"{path.name}: {turn['content']}")
            elif turn["role"] == "assistant":
                label = turn.get("label", "own")
                caught = record["origin"] == "untrusted" and "derived_from" in record
                tallies[label].add(caught, f"{path.name}: {turn['content']}")
    return tallies


def main() -> None:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, help="LoCoMo JSON (e.g. the development split)")
    parser.add_argument("--sweep", action="store_true", help="also run the LoCoMo stress mode at other thresholds")
    parser.add_argument("agent", nargs="*", type=Path, help="agent transcript JSONL files or directories")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clawmem-content-origin-") as tmp:
        root = Path(tmp)
        if args.locomo:
            for mode, tally in locomo(args.locomo, root).items():
                what = "owner turns downgraded" if mode == "owner" else "assistant turns downgraded"
                print(f"LoCoMo {mode:9s} {what}: {tally.rate()}")
                for example in tally.examples:
                    print(f"    e.g. {example}")
            for taint in SWEEP if args.sweep else ():
                print(f"LoCoMo stress at {taint}: {locomo(args.locomo, root, ('stress',), taint)['stress'].rate()}")
        files = agent_files(args.agent)
        tallies = agent(files, root)
        print(f"agent transcripts ({len(files)} files):")
        print(f"  owner turns downgraded:              {tallies['owner'].rate()}")
        print(f"  own-words assistant turns downgraded: {tallies['own'].rate()}")
        for example in tallies["own"].examples:
            print(f"    e.g. {example}")
        print(f"  quoting assistant turns caught:      {tallies['quotes'].rate()}")
        missed = tallies["quotes"].turns - tallies["quotes"].downgraded
        if missed:
            print(f"  ({missed} quoting turn(s) missed)")


if __name__ == "__main__":
    main()
