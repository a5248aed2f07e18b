"""The argparse fast lane for ``clawmem recall`` accepts exactly the Typer command's options."""

from __future__ import annotations

import json
import subprocess
import sys

import typer

from clawmem.cli import app
from clawmem.launcher import recall_parser


def typer_recall_options() -> set[str]:
    command = typer.main.get_command(app).commands["recall"]
    names = set()
    for param in command.params:
        names.update(o for o in (*param.opts, *getattr(param, "secondary_opts", ())) if o.startswith("-"))
    return names - {"--help", "-h"}


def argparse_options() -> set[str]:
    return {o for action in recall_parser()._actions for o in action.option_strings}


def test_fast_lane_and_typer_define_the_same_options():
    assert argparse_options() == typer_recall_options()


def test_fast_lane_does_not_import_typer(ws):
    probe = "import sys; sys.argv=['clawmem','recall','hello','--json']\nfrom clawmem.launcher import main\ntry:\n    main()\nexcept SystemExit:\n    pass\nsys.stderr.write('TYPER=' + str('typer' in sys.modules))"  # noqa: E501
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().endswith("TYPER=False"), proc.stderr
    assert "context" in json.loads(proc.stdout)


def test_help_and_bad_values_still_go_through_typer(clawmem):
    assert "Build the hidden context" in clawmem("recall", "--help").stdout
    bad = clawmem("recall", "hi", "--budget-ms", "0")
    assert bad.returncode == 2 and "--budget-ms" in bad.stderr
    unknown = clawmem("recall", "hi", "--frobnicate")
    assert unknown.returncode == 2
