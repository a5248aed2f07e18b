"""Bad input never crashes a hook: any stdin gives exit 0 and one degraded line, on both paths.

The fast lane (``clawmem hook …``) and the Typer path (the same command with ``--debug`` after
it, which the fast parser hands to Typer) both end in ``hosts.command.outcome_of``. A hook's
``transcript_path`` is checked before it is handed to the background worker, so a 400 MB file
or a pipe costs nothing. Gates off (``gates_off.py`` rule 20), the 100,000-deep array is a
traceback again and a pipe named as the transcript is handed on without a word.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import cli_modes  # noqa: E402

HOSTS = ("claude-code", "codex")
PATHS = {"fast": (), "typer": ("--debug",)}
DEEP = ("[" * 100_000 + "]" * 100_000).encode()


def _hook(workdir, host, path, stdin, mode="on", event="prompt"):
    return cli_modes.run(mode, workdir, "hook", event, "--host", host, *PATHS[path], stdin=stdin)


def _one_degraded_line(result) -> None:
    assert result.returncode == 0, result.stderr[-500:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("clawmem: hook degraded: "), result.stderr[-500:]
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("hook")
    cli_modes.workspace(root)
    return root


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("path", PATHS)
def test_a_100000_deep_array_is_one_degraded_line(workdir, host, path):
    _one_degraded_line(_hook(workdir, host, path, DEEP))


def _nested(depth: int, opener: str, payload: str) -> bytes:
    inner = {"[": ("[", "]"), "{": ('{"a":', "}")}[opener]
    deep = inner[0] * depth + "1" + inner[1] * depth
    return json.dumps({"session_id": "s1", "prompt": payload, "x": 0}).replace('"x": 0', f'"x": {deep}').encode()


stdin_shapes = st.one_of(
    st.builds(_nested, st.integers(65, 50_000), st.sampled_from("[{"), st.text(max_size=20)),
    st.binary(max_size=2000),
    st.builds(lambda n: b"{" * n, st.integers(1, 200_000)),
    st.builds(lambda s: s.encode("utf-16"), st.text(max_size=50)),
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stdin=stdin_shapes, host=st.sampled_from(HOSTS), path=st.sampled_from(tuple(PATHS)))
def test_any_stdin_gives_exit_0_and_one_line(workdir, stdin, host, path):
    result = _hook(workdir, host, path, stdin)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-500:]
    assert len(result.stderr.splitlines()) <= 1


def test_stdin_past_the_limit_is_not_read(workdir):
    from clawmem.foundation.config import HOOK_STDIN_MAX_BYTES

    result = _hook(workdir, "claude-code", "fast", b" " * (HOOK_STDIN_MAX_BYTES + 10))
    _one_degraded_line(result)
    assert "larger than" in result.stderr


def test_with_the_rule_off_the_deep_array_is_a_traceback(workdir):
    result = _hook(workdir, "codex", "fast", DEEP, mode="off")
    assert "RecursionError" in result.stderr


# transcript_path -------------------------------------------------------------------------
_PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), capture_output=True, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.e2e  # the peak of memory is a process's own (ru_maxrss of a child)
def test_a_400_mb_transcript_is_refused_before_it_is_read(workdir):
    big = workdir / "big.jsonl"
    with open(big, "wb") as handle:
        handle.truncate(400 * 1024 * 1024)  # sparse: no disk used
    stdin = json.dumps({"session_id": "s1", "transcript_path": str(big)}).encode()
    result = _hook(workdir, "claude-code", "fast", stdin, event="session-end")
    _one_degraded_line(result)
    assert "419,430,400 bytes" in result.stderr
    peak_kb = subprocess.run(
        [sys.executable, "-c", _PEAK, *cli_modes.MODES["on"], "hook", "session-end", "--host", "claude-code"],
        input=stdin, capture_output=True, env=cli_modes.env(workdir), cwd=workdir, check=True, timeout=120,
    ).stdout
    assert int(peak_kb) < 200 * 1024, f"peak {int(peak_kb) // 1024} MB: the file was read"
    big.unlink()


@pytest.mark.parametrize("mode", ["on", "off"])
def test_a_pipe_as_transcript_is_refused_at_once_and_hangs_with_the_rule_off(workdir, mode):
    fifo = workdir / f"pipe-{mode}"
    os.mkfifo(fifo)
    stdin = json.dumps({"session_id": "s1", "transcript_path": str(fifo)}).encode()
    if mode == "on":
        result = _hook(workdir, "claude-code", "fast", stdin, event="session-end")
        _one_degraded_line(result)
        assert "not a regular file" in result.stderr
    else:  # the hook no longer reads the transcript (a detached worker does): off, it says nothing and hands the pipe on
        result = cli_modes.run("off", workdir, "hook", "session-end", "--host", "claude-code", stdin=stdin, timeout=8)
        assert result.returncode == 0 and "not a regular file" not in result.stderr
        from tests.conftest import background_done

        background_done(cli_modes.env(workdir)["CLAWMEM_WORKSPACE"])  # the worker (its own checks on) refuses the pipe
