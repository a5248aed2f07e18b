"""``tests/inproc.py`` runs ``clawmem`` in this process as a process of its own would: the same bytes, code and state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from tests import forkserver, inproc

COMMAND_LINES = [
    (["--version"], None),
    (["--help"], None),
    (["note", "--help"], None),
    (["status", "--json"], None),
    (["status"], None),
    (["search", "deploy", "--lexical"], None),
    (["note", "add", "-", "--origin", "owner"], b"not UTF-8 \xff\xfe\n"),
    (["note", "flush", "-", "--origin", "untrusted", "--at", "2026-01-02T10:00:00"], b"- web line\n- another\n"),
    (["bogus"], None),
    (["get", "nope.md"], None),
    (["config", "get", "search.vector_weight"], None),
    (["hook", "prompt", "--host", "claude-code"], b"{not json"),
    (["--json", "recall", "deploy"], None),
]


@pytest.fixture
def workdir(tmp_path):
    """A workspace at ``tmp_path/ws`` (the test's ``CLAWMEM_WORKSPACE``, ``tests/conftest.py: isolate``)."""
    done = inproc.run(["init"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path


def _same_run(out: bytes, args: list[str]) -> bytes:
    """Output with what differs between any two runs removed (recall times itself)."""
    if args[-2:] == ["recall", "deploy"]:
        payload = json.loads(out)
        payload.pop("elapsed_ms")
        return json.dumps(payload).encode()
    return out


@pytest.mark.parametrize(("args", "stdin"), COMMAND_LINES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_the_same_bytes_and_exit_code_as_a_forked_process(workdir, args, stdin):
    """Each command line twice, in one workspace: first as a process forked from the warm server, then in process."""
    forked = forkserver.run([inproc.CLAWMEM, *args], input=stdin, cwd=workdir)
    here = inproc.run(args, input=stdin, cwd=workdir)
    assert here.returncode == forked.returncode
    assert _same_run(here.stdout, args) == _same_run(forked.stdout, args)
    assert here.stderr == forked.stderr


def test_text_is_decoded_as_subprocess_does(workdir):
    forked = forkserver.run([inproc.CLAWMEM, "status"], cwd=workdir, text=True)
    here = inproc.run(["status"], cwd=workdir, text=True)
    assert (here.returncode, here.stdout, here.stderr) == (forked.returncode, forked.stdout, forked.stderr)


def test_the_process_is_put_back_as_it_was(workdir, monkeypatch):
    monkeypatch.setenv("CLAWMEM_TEST_MARK", "before")
    before = (dict(os.environ), os.getcwd(), list(sys.argv), sys.stdin, sys.stdout, sys.stderr, [os.fstat(fd).st_ino for fd in (0, 1, 2)])
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    done = inproc.run(["note", "add", "-", "--origin", "owner"], input=b"the deploy moved to fridays\n",
                      env={**os.environ, "CLAWMEM_TEST_MARK": "during", "TZ": "Asia/Tokyo"}, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    after = (dict(os.environ), os.getcwd(), list(sys.argv), sys.stdin, sys.stdout, sys.stderr, [os.fstat(fd).st_ino for fd in (0, 1, 2)])
    assert after == before


@pytest.mark.parametrize("args", [["search", "deploy", "--lexical"], ["status"]])
def test_a_short_lane_leaves_this_process_collecting(workdir, args):
    """``search`` and ``status`` turn the collector off and freeze the heap for the exit of their own
    process (``launcher.UNCOLLECTED_LANES``); here that exit does not come, so the collector is back
    on and nothing stays frozen (an index connection left in a cycle would stay open otherwise)."""
    import gc

    assert inproc.run(args, cwd=workdir).returncode == 0
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_module_state_is_reset_before_each_command(workdir):
    """A damaged ledger line is reported once per process (``ledger._WARNED``): here, once per command."""
    with (workdir / "ws" / ".clawmem" / "provenance.jsonl").open("a") as ledger:
        ledger.write('{"t": "entry", "path": 5}\n')
    for _ in range(2):
        done = inproc.run(["index", "--rebuild", "--no-embed"], cwd=workdir)
        assert done.returncode == 0 and b"line 2: a 'entry' record whose path is int; record skipped" in done.stderr, done.stderr


def test_the_launchers_os_exit_ends_the_command_not_the_tests(workdir, monkeypatch):
    """A command that leaves a thread running ends with ``os._exit`` (``launcher._exit``): the code comes back, the thread is waited for."""
    from clawmem import launcher
    from clawmem.foundation import abandoned

    def dispatch() -> int:
        thread = threading.Thread(target=time.sleep, args=(0.2,), daemon=True)
        thread.start()
        abandoned.abandon(thread)
        sys.stdout.write("left a thread\n")
        return 3

    monkeypatch.setattr(launcher, "_dispatch", dispatch)
    done = inproc.run(["status"], cwd=workdir)
    assert (done.returncode, done.stdout) == (3, b"left a thread\n")
    assert not abandoned.running()


def test_a_command_past_its_timeout_raises_as_subprocess_does(workdir, monkeypatch):
    from clawmem import launcher

    monkeypatch.setattr(launcher, "_dispatch", lambda: time.sleep(30))
    cwd = os.getcwd()
    with pytest.raises(subprocess.TimeoutExpired):
        inproc.run(["status"], cwd=workdir, timeout=0.5)
    assert os.getcwd() == cwd


MUTATING = {"add", "append", "clear", "update", "pop", "setdefault", "extend", "insert", "remove", "discard", "popitem"}


def _module_state() -> set[str]:
    """Every name of a clawmem module that its functions change (``global``, an item set, a mutating call) or cache (``functools.cache``)."""
    import ast
    from pathlib import Path

    import clawmem

    root = Path(clawmem.__file__).parent
    found = set()
    for path in sorted(root.rglob("*.py")):
        module = ".".join(("clawmem", *path.relative_to(root).with_suffix("").parts)).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                 for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any("cache" in ast.unparse(d) and "cached_property" not in ast.unparse(d) for d in node.decorator_list):
                found.add(f"{module}.{node.name}")
        for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            for node in ast.walk(function):
                if isinstance(node, ast.Global):
                    found.update(f"{module}.{name}" for name in node.names)
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target] if isinstance(node, ast.AugAssign) else []
                found.update(f"{module}.{t.value.id}" for t in targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in names)
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                        and node.func.value.id in names and node.func.attr in MUTATING):
                    found.add(f"{module}.{node.func.value.id}")
    return found


def test_every_state_a_clawmem_module_keeps_is_reset_or_said_why():
    """A new cache or module-level record must be added to ``inproc.RESETS`` (or ``KEPT``, with why), or in-process commands would share it."""
    assert _module_state() == set(inproc.RESETS) | set(inproc.KEPT)
