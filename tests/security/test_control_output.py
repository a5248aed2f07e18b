"""C1 controls (U+0080-U+009F, U+009B is the 8-bit CSI) are neutralised like C0 wherever text is printed.

Stored text may hold controls no writer accepts (a pull, a hand edit, an older version): an
untrusted note, a curated line, an intent. ``get``, ``search``, ``intent list`` and ``recall`` print them as U+FFFD
(``inputs.printable``, the one rule, called by ``framing.inert`` and ``output.print_table``) and
``--json`` writes them as ``\\u`` escapes (``inputs.json_printable``). Gates off (rule 22), the
terminal receives them raw.

At input, C1 controls are stored as U+FFFD (``inputs.neutral_c1``, called by ``decode_input``):
a note, a Markdown or JSONL transcript, an intent. Gates off, they are stored raw.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import cli_modes  # noqa: E402

DAY = "2026-11-20"
C1 = [chr(c) for c in range(0x80, 0xA0)]
C0 = [chr(c) for c in range(0x20) if chr(c) not in "\t\n"] + ["\x7f"]
COMMANDS = {
    "get": ("get", f"memory/quarantine/{DAY}.md"),
    "search": ("search", "zqdeploy", "--include-untrusted"),
    "intent list": ("intent", "list"),
    "recall": ("recall", "zqdeploy release"),
}


def _raw_controls(text: str) -> list[str]:
    return [ch for ch in text if (ord(ch) < 0x20 and ch not in "\t\n") or 0x7F <= ord(ch) <= 0x9F]


def _plant(workdir, control: str) -> None:
    """A quarantined note, a curated line and an intent, each holding ``control`` (as a pull would bring them)."""
    ws = workdir / "ws"
    (ws / "memory" / "quarantine" / f"{DAY}.md").write_text(f"# {DAY}\n\n- zqdeploy goes {control}31m to prod{control}2J\n")
    (ws / "MEMORY.md").write_text(f"# Memory\n\n- zqdeploy runs on fridays{control}0m\n")
    intent_control = control if control in C1 else "\u009b"  # intent text refuses C0 at input
    # gates off, as an older version or a pull would store it: today's input stores C1 as U+FFFD
    added = cli_modes.run("off", workdir, "intent", "add", f"say zqdeploy {intent_control}2J", "--when", "release", "--origin", "owner", "--budget", "1000")
    assert added.returncode == 0, added.stderr
    assert cli_modes.run("on", workdir, "index").returncode == 0


@pytest.fixture
def planted(tmp_path):
    def make(control: str):
        cli_modes.workspace(tmp_path)
        _plant(tmp_path, control)
        return tmp_path
    return make


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(control=st.sampled_from(C1 + C0), command=st.sampled_from(tuple(COMMANDS)), as_json=st.booleans())
def test_no_control_reaches_the_terminal(tmp_path_factory, control, command, as_json):
    workdir = tmp_path_factory.mktemp("c1")
    cli_modes.workspace(workdir)
    _plant(workdir, control)
    result = cli_modes.run("on", workdir, *(("--json",) if as_json else ()), *COMMANDS[command])
    assert result.returncode == 0, result.stderr
    assert "zqdeploy" in result.stdout
    assert _raw_controls(result.stdout) == [], f"{command}: {result.stdout!r}"
    if as_json:
        json.loads(result.stdout)  # still valid JSON, the control escaped
    elif control in "\u009b\x1b":  # (line-break controls such as NEL are read as line ends instead)
        assert "\ufffd" in result.stdout


@pytest.mark.parametrize("command", tuple(COMMANDS))
def test_the_8bit_csi_is_printed_raw_with_the_rule_off(planted, command):
    workdir = planted("\u009b")
    assert "\u009b" not in cli_modes.run("on", workdir, *COMMANDS[command]).stdout
    assert "\u009b" in cli_modes.run("off", workdir, *COMMANDS[command]).stdout


@given(text=st.text())
def test_printable_leaves_no_control_but_tab_and_newline(text):
    from clawmem.rules import inputs

    assert _raw_controls(inputs.printable(text)) == []
    assert json.loads(inputs.json_printable(json.dumps(text, ensure_ascii=False))) == text
    assert _raw_controls(inputs.json_printable(json.dumps(text, ensure_ascii=False))) == []


INPUTS = {
    "note": lambda workdir, text: cli_modes.run("on", workdir, "note", "add", "-", stdin=text.encode()),
    "markdown transcript": lambda workdir, text: cli_modes.run(
        "on", workdir, "ingest", "-", "--session", "s1", "--format", "markdown", "--origin", "owner",
        stdin=f"user: the build is done\n\ntool: {text}\n".encode()),
    "jsonl transcript (raw C1, as JavaScript writes it)": lambda workdir, text: cli_modes.run(
        "on", workdir, "ingest", "-", "--session", "s1", "--format", "jsonl", "--origin", "owner",
        stdin=json.dumps({"role": "tool", "content": text}, ensure_ascii=False).encode() + b"\n"),
}


def _stored(workdir) -> str:
    ws = workdir / "ws"
    return "".join(p.read_text(encoding="utf-8") for p in sorted(ws.rglob("*.md")) if ".clawmem" not in p.parts)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(control=st.sampled_from(C1), channel=st.sampled_from(tuple(INPUTS)))
def test_c1_controls_are_stored_neutralised(tmp_path_factory, control, channel):
    workdir = tmp_path_factory.mktemp("c1in")
    cli_modes.workspace(workdir)
    result = INPUTS[channel](workdir, f"zqdeploy paints {control}31m red")
    assert result.returncode == 0, result.stderr
    stored = _stored(workdir)
    assert "zqdeploy paints" in stored
    assert [ch for ch in stored if 0x80 <= ord(ch) <= 0x9F] == []


def test_the_8bit_csi_is_stored_raw_with_the_rule_off(tmp_path):
    cli_modes.workspace(tmp_path)
    assert cli_modes.run("off", tmp_path, "note", "add", "-", stdin="zqdeploy \u009b2J".encode()).returncode == 0
    assert "\u009b" in _stored(tmp_path)
