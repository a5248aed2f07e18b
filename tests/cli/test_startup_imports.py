"""The per-turn path stays lean: --help, --version and note add import no heavy package."""

from __future__ import annotations

import pytest

from tests.conftest import modules_loaded

HEAVY = ("numpy", "tokenizers", "apsw", "sqlite_vec", "torch", "sentence_transformers", "rich.table", "dateparser", "rapidfuzz")



def loaded(args, env_ws):
    return modules_loaded(args, HEAVY, env_ws)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["note", "--help"]])
def test_help_and_version_import_nothing_heavy(args, tmp_path):
    import os

    assert loaded(args, dict(os.environ)) == set()


def test_note_add_imports_nothing_heavy(ws):
    import os

    mods = loaded(["note", "add", "fast path", "--origin", "agent"], dict(os.environ))
    assert not mods & {"numpy", "tokenizers", "torch", "sentence_transformers", "sqlite_vec", "rich.table", "dateparser"}


# What the in-process `status` and `search --lexical` used to import without using it (issue 26):
# recall's trigger matching, the transcript lineage rules, the ledger's team checks, the ledger and
# its record types (read or written only by writers, or for an untrusted hit), argparse (the fast
# lane reads its arguments itself), OpenSSL's hashlib for digests of a few bytes (foundation.digest),
# the standard dataclasses with inspect (foundation.records), and standard modules pulled in for a
# default they do not take (`secrets` for a nonce).
UNUSED = (
    "clawmem.recall.triggers", "clawmem.trust.lineage", "clawmem.trust.team", "clawmem.storage.ledger", "clawmem.storage.ledger_records",
    "argparse", "_hashlib", "dataclasses", "inspect", "statistics", "shutil", "secrets", "subprocess", "tomllib",
)


def test_status_and_lexical_search_import_only_what_they_use(ws):
    import os

    from clawmem.commands.notes import add_note
    from clawmem.index.db import Index
    from clawmem.index.sync import sync

    add_note(ws, "the deploy runbook lives in the ops repository; review it before a release", origin="agent")
    with Index.open(ws) as index:
        sync(ws, index)
    env = {**os.environ, "CLAWMEM_WORKSPACE": str(ws.root), "CLAWMEM_WORKER": "off", "HOME": str(ws.root.parent)}  # no Codex hooks installed
    assert modules_loaded(["status"], UNUSED, env) == set()
    assert modules_loaded(["search", "deploy runbook", "--lexical"], UNUSED, env) == set()
    assert "clawmem.index.recalls" in modules_loaded(["search", "deploy runbook", "--lexical"], ("clawmem.index.recalls",), env)  # it found and recorded the note


# What a search imported only for a branch it rarely takes (issue 26): the ledger and the session
# lineage, written when an untrusted hit is returned; the content-origin rules, read when a note is
# classified; the Markdown grammar, for a date parser that now lives in timeparse; and shutil and
# tempfile (with zlib, bz2 and lzma), which only a rebuild of the vector matrix uses; and OpenSSL (`_hashlib`),
# loaded for digests of a few bytes before ``foundation.digest``.
SEARCH_UNUSED = (
    "clawmem.storage.ledger", "clawmem.trust.sessions", "clawmem.trust.content_origin", "clawmem.entries.grammar",
    "shutil", "tempfile", "bz2", "lzma", "_hashlib",
)


def _indexed(ws, *, embed: bool) -> dict[str, str]:
    """``ws`` with one note indexed, and the environment that runs clawmem on it in its own process."""
    import os

    from clawmem.commands.notes import add_note
    from clawmem.index.maintain import run_index

    add_note(ws, "the deploy runbook lives in the ops repository; review it before a release", origin="agent")
    run_index(ws, embed=embed)
    return {**os.environ, "CLAWMEM_WORKSPACE": str(ws.root), "CLAWMEM_WORKER": "off", "HOME": str(ws.root.parent)}


def test_a_lexical_search_imports_neither_the_ledger_nor_the_matrix_rebuild(ws):
    env = _indexed(ws, embed=False)
    assert modules_loaded(["search", "deploy runbook", "--lexical"], SEARCH_UNUSED, env) == set()


@pytest.mark.model
def test_a_hybrid_search_on_a_current_matrix_imports_neither(ws):
    env = _indexed(ws, embed=True)
    assert "numpy" in modules_loaded(["search", "deploy runbook"], ("numpy",), env)  # the vector lane ran, and built the matrix
    assert modules_loaded(["search", "deploy runbook"], SEARCH_UNUSED, env) == set()


# A short lane's process does not run the cyclic collector, nor walk its heap at exit (issue 26);
# the other commands (Typer's, and the hook and mcp lanes, which may run long) keep the collector.
_GC_PROBE = """
import gc, json, sys
sys.argv = ["clawmem", *json.loads(sys.argv[1])]
from clawmem.launcher import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nGC=" + json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]))
"""


@pytest.mark.parametrize(("args", "collected"), [(["status"], False), (["search", "deploy runbook", "--lexical"], False), (["config", "show"], True)])
def test_a_short_lane_leaves_its_garbage_to_the_exit(ws, args, collected):
    import json
    import subprocess
    import sys

    env = _indexed(ws, embed=False)
    proc = subprocess.run([sys.executable, "-c", _GC_PROBE, json.dumps(args)], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0 and "GC=" in proc.stderr, proc.stderr
    assert json.loads(proc.stderr.rsplit("GC=", 1)[1]) == [collected, not collected]
