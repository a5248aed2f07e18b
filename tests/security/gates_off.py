"""Run the real ``clawmem`` CLI with its provenance gates removed: the attack suite's control group.

TEST AND BENCHMARK ONLY. Production code has no switch for this: the gates are removed by
monkeypatching clawmem's own building blocks in this process before the CLI runs, so every
other line of code (parsing, files, ledger, index, search, dreaming, recall) is the real one.
``benchmarks/poisoning.py`` runs each attack through ``clawmem`` and through this wrapper to
show that the gates, not luck, are what stop the attacks.

Removed here, and nothing else:

1. provenance classification: every caller is the owner in an interactive session (the CLI's
   ``--origin`` and ``--session-kind`` are ignored, tool turns count as the sender's, ledger
   records and taint say owner, nothing is routed to quarantine);
2. the promotion-eligibility rule (everything is eligible) and the location floor;
3. neutralisation: comment and recall markers in text reach the files as written;
4. recall-loop prevention: marked blocks are kept and echoes are not dropped;
5. curated-tier-only, trusted-only trigger injection: any entry with a trigger may inject;
6. content origin: agent text restating untrusted text keeps the agent class.

Input validation (UTF-8, size, control characters, path checks) is not a provenance gate and
stays on. Usage: ``python tests/security/gates_off.py <clawmem arguments>``.
"""

from __future__ import annotations

import json
import sys


def disable_gates() -> None:
    # neutralise first: writers bind it by name when they are imported
    from clawmem.entries import neutralise as neutralise_module

    neutralise_module.neutralise = lambda text: text

    from clawmem import ledger, loopguard, provenance

    real_entry = ledger.entry_record

    def entry_record(path, hash_, *, origin, session_kind, session, observed):
        return real_entry(path, hash_, origin="owner", session_kind="interactive", session=session, observed=observed)

    ledger.entry_record = entry_record
    ledger.taint_record = lambda path, origin: {"t": "taint", "path": path, "origin": "owner", "at": ledger.now_iso()}
    provenance.location_floor = lambda kind: None
    provenance.promotion_eligibility = lambda **kw: provenance.Eligibility(True, ())
    provenance.classify_unrecorded = lambda kind, *, ledger_intact: provenance.Classification("owner", "interactive", True)
    loopguard.strip_marked = lambda text: (text, 0)

    import clawmem.cli  # registers every command module, each binding resolve_origin by name

    for name, module in list(sys.modules.items()):
        if name.startswith("clawmem.cli") and hasattr(module, "resolve_origin"):
            module.resolve_origin = lambda origin: "owner"

    from clawmem import ingest, notes

    ingest.role_origin = lambda role, sender_origin: "owner"
    notes.blocked_hashes = lambda ws, hashes: notes.Blocked(set(), set())

    from clawmem import content_origin

    content_origin.restates = lambda text, source, cfg=None: False  # hole 6: no text is untrusted-derived

    from clawmem.recall import triggers

    def any_tier_candidates(index, active_keys):
        rows = index.query("SELECT id, path, line_start, text, text_hash, triggers, projects FROM entries WHERE triggers IS NOT NULL")
        for row in rows:
            row["phrases"] = json.loads(row["triggers"])
        return rows

    triggers.candidates = any_tier_candidates


def main() -> None:
    disable_gates()
    from clawmem.launcher import main as clawmem_main

    sys.argv[0] = "clawmem"
    clawmem_main()


if __name__ == "__main__":
    main()
