"""The intent and user commands keep start-up lean; matching (run every turn) loads no parser."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import json, sys
sys.argv = ["clawmem", *json.loads(sys.argv[1])]
from clawmem.cli import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in
    ("numpy", "tokenizers", "apsw", "sqlite_vec", "torch", "dateparser", "rapidfuzz") or m == "rich.table")))
"""


def loaded(args):
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert "LOADED=" in proc.stderr, proc.stderr
    return set(json.loads(proc.stderr.rsplit("LOADED=", 1)[1]))


@pytest.mark.parametrize("args", [["intent", "--help"], ["user", "--help"], ["intent", "add", "--help"]])
def test_help_imports_nothing_heavy(args):
    assert loaded(args) == set()


def test_matching_imports_no_date_parser_or_tables(ws):
    mods = loaded(["intent", "match", "is the release out?", "--json"])
    assert not mods & {"dateparser", "rich.table", "numpy", "torch", "sqlite_vec", "rapidfuzz"}
