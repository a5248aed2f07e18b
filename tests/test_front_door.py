"""The command line's one front door: public Typer names only, and one place that ends the process."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "clawmem"


def _sources() -> dict[str, str]:
    return {str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_reaches_into_typers_private_click():
    """Typer vendors Click under a private name (``typer._click``) that can change in any release."""
    private = re.compile(r"\btyper\._click\b|from\s+typer\s+import\s+[^\n]*\b_click\b")
    assert [name for name, text in _sources().items() if private.search(text)] == []


def _calls(tree: ast.AST, module: str, name: str) -> list[int]:
    return [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) and node.value.id == module
    ]


def test_only_the_launcher_ends_the_process_without_waiting():
    """Library code reports (``clawmem.abandoned``) and returns: the resident worker runs the same code and never exits."""
    found = {name: lines for name, text in _sources().items() if (lines := _calls(ast.parse(text), "os", "_exit"))}
    assert set(found) == {"clawmem/launcher.py"}, found


LEFT_RUNNING = """
import sys, threading, time
from clawmem import abandoned
import {module} as target

def answer(**values):
    loading = threading.Thread(target=time.sleep, args=(600,))  # a model still loading: no daemon, and slow
    loading.start()
    abandoned.abandon(loading)
    sys.stdout.write("context\\n")
    return 0

target.{function} = answer
sys.argv = ["clawmem", *{argv!r}]
from clawmem.launcher import main
main()
"""


@pytest.mark.e2e
@pytest.mark.parametrize(
    "argv, module, function",
    [
        (["recall", "hello"], "clawmem.fastlane.recall", "answer"),
        (["hook", "prompt", "--host", "codex"], "clawmem.hosts.command", "answer"),
        (["--debug", "hook", "prompt", "--host", "codex"], "clawmem.hosts.command", "answer"),  # not the fast lane's: Typer's
    ],
    ids=["recall", "hook", "hook through Typer"],
)
def test_a_turn_ends_at_once_when_it_left_a_thread_running(ws, argv, module, function):
    """Recall's vector lane cut off by the budget may still be loading a model: the turn's output is
    flushed and the process ends without waiting for it, whichever front end ran the command."""
    script = LEFT_RUNNING.format(module=module, function=function, argv=[*argv, "-w", str(ws.root)])
    result = subprocess.run([sys.executable, "-c", script], input=b"{}", capture_output=True, timeout=120)
    assert (result.returncode, result.stdout) == (0, b"context\n"), result.stderr
