"""The fast lane for ``clawmem recall`` (``tests/test_launcher_parity.py`` runs it against Typer)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_fast_lane_does_not_import_typer(ws):
    probe = "import sys; sys.argv=['clawmem','recall','hello','--json']\nfrom clawmem.launcher import main\ntry:\n    main()\nexcept SystemExit:\n    pass\nsys.stderr.write('TYPER=' + str('typer' in sys.modules))"  # noqa: E501
    proc = subprocess.run([sys.executable, "-c", probe], check=False, capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().endswith("TYPER=False"), proc.stderr
    assert "context" in json.loads(proc.stdout)


def test_help_and_bad_values_still_go_through_typer(clawmem):
    assert "Build the hidden context" in clawmem("recall", "--help").stdout
    bad = clawmem("recall", "hi", "--budget-ms", "0")
    assert bad.returncode == 2 and "--budget-ms" in bad.stderr
    unknown = clawmem("recall", "hi", "--frobnicate")
    assert unknown.returncode == 2
