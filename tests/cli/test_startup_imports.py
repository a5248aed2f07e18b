"""The per-turn path stays lean: --help, --version and note add import no heavy package."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "tokenizers", "apsw", "sqlite_vec", "torch", "sentence_transformers", "rich.table", "dateparser", "rapidfuzz")

PROBE = """
import json, sys
sys.argv = ["clawmem", *json.loads(sys.argv[1])]
from clawmem.cli import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in %r or m in %r)))
""" % (tuple(h.split(".")[0] for h in HEAVY), HEAVY)


def loaded(args, env_ws):
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True, timeout=60, env=env_ws)
    assert "LOADED=" in proc.stderr, proc.stderr
    marker = proc.stderr.rsplit("LOADED=", 1)[1]
    return set(json.loads(marker))


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["note", "--help"]])
def test_help_and_version_import_nothing_heavy(args, tmp_path):
    import os

    assert loaded(args, dict(os.environ)) == set()


def test_note_add_imports_nothing_heavy(ws):
    import os

    mods = loaded(["note", "add", "fast path", "--origin", "agent"], dict(os.environ))
    assert not mods & {"numpy", "tokenizers", "torch", "sentence_transformers", "sqlite_vec", "rich.table", "dateparser"}
