"""Time of a dream sweep over 30 days of daily notes (10,000 entries by default).

Why: dreaming runs from cron over everything staged in the gate's 30-day window, so the
first sweep of a busy workspace must stay well inside a cron interval, and the nightly one
(one new day) must be cheap. Prints the index sync, the cold sweep (everything new), a sweep
with nothing new, and the nightly sweep after one more day of notes.
Run: ``python benchmarks/dream_sweep.py [--days 30] [--entries 10000]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clawmem.commands import workspace_init
from clawmem.dream import run_sweep  # noqa: E402
from clawmem.entries import (
    grammar,  # noqa: E402
    identity,
)
from clawmem.index.maintain import open_synced  # noqa: E402
from clawmem.storage import ledger, ledger_records  # noqa: E402
from clawmem.storage.workspace import Workspace  # noqa: E402

SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da", "zu", "ke", "bo", "la", "ni", "sa", "ro", "te", "gu", "fi"]
FILLER = ["the", "a", "to", "for", "on", "with", "after", "before", "when", "we", "our", "it", "is", "was", "should"]


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    return sorted({"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(size)})


def sentence(rng: random.Random, words: list[str]) -> str:
    picked = [rng.choice(words) if rng.random() < 0.7 else rng.choice(FILLER) for _ in range(rng.randint(8, 16))]
    return " ".join(picked).capitalize() + "."


def write_notes(ws: Workspace, days: list[dt.date], per_day: int) -> int:
    """Daily notes written the way ``note add`` does (ledger first), with a few facts that recur."""
    rng = random.Random(days[0].toordinal())
    words = vocabulary(random.Random(0))
    recurring = [f"Service {w} runs on port {8000 + i} behind gateway {words[-i]}." for i, w in enumerate(words[:25])]
    written = 0
    for day in days:
        lines = [sentence(rng, words) for _ in range(per_day - 3)] + rng.sample(recurring, 3)
        rng.shuffle(lines)
        observed = dt.datetime.combine(day, dt.time(12)).isoformat()
        path = ws.daily_note(day)
        records = [
            ledger_records.entry_record(ws.rel(path), identity.text_hash(t), origin="agent", session_kind="interactive", session=f"bench-{day}", observed=observed)
            for t in lines
        ]
        ledger.append(ws, records)
        path.write_text(f"# {day}\n\n" + "".join(grammar.render_entry(t) for t in lines))
        written += len(lines)
    return written


def timed(label: str, fn):
    start = time.perf_counter()
    result = fn()
    print(f"{label:<38} {time.perf_counter() - start:8.2f} s")
    return result


def main() -> None:
    from _state import private_user_state

    private_user_state()  # its workspaces are not trusted in the user's own list
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args()
    per_day = args.entries // args.days
    today = dt.date.today()
    with tempfile.TemporaryDirectory() as tmp:
        ws = workspace_init.create(Path(tmp) / "ws")
        count = write_notes(ws, [today - dt.timedelta(days=k) for k in range(args.days, 0, -1)], per_day)
        print(f"workspace: {count} entries in {args.days} daily notes")

        def sync() -> None:
            index, _ = open_synced(ws)
            index.close()

        timed("index sync (not part of the sweep)", sync)
        cold = timed(f"dream sweep, cold ({count} entries new)", lambda: run_sweep(ws))
        print(f"  staged {cold.staged} units, {cold.candidates} candidates, {cold.themes} themes, promoted {len(cold.promoted)}")
        idle = timed("dream sweep, nothing new", lambda: run_sweep(ws))
        print(f"  promoted {len(idle.promoted)} (held back by the 10-a-sweep limit before)")
        write_notes(ws, [today], per_day)
        nightly = timed("dream sweep, nightly (one new day)", lambda: run_sweep(ws))
        print(f"  staged {nightly.staged} units, promoted {len(nightly.promoted)}; MEMORY.md {len(ws.memory_md.read_text())} chars")


if __name__ == "__main__":
    main()
