"""Hole class 8 and the traversal category, generalised: any spelling of a path or a session id.

The catalogue (``attacks.py``, J01-J14, L01-L09) tries fixed payloads. Here hypothesis builds
paths from the parts attacks combine (``..``, ``.``, absolute prefixes, doubled and back
slashes, percent-encoding, full-width and look-alike dots and slashes, NUL, trailing anchors)
over a workspace planted with every kind of link (a linked folder, a linked file, a hard link,
links into the internal state and out of the workspace). Two rules must hold for every one:

- an anchor (``get``, ``forget``, ``promote``, MCP ``read_excerpt``: ``anchors.parse``) is
  refused, or names a regular ``.md`` file inside the workspace, outside ``.clawmem/``,
  reached without a link;
- a session id (``ingest``, ``note add``, ``recall``, ``forget``, ``project``:
  ``workspace.validate_session_id``) is refused, or names one file directly in ``transcripts/``.

Each rule's control switches it off (``gates_off.py`` does the same for the catalogue) and
shows that the same generator then finds an escape. The channel test drives the real CLI.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clawmem.commands import workspace_init
from clawmem.foundation.errors import ClawmemError
from clawmem.storage import anchors, workspace
from clawmem.storage.workspace import STATE_DIR, Workspace

sys.path.insert(0, str(Path(__file__).parent))
import cli_modes  # noqa: E402
from generated import sample  # noqa: E402

SECRET = "zqsecret-outside-the-workspace"
PARTS = [
    "..", ".", "", "memory", "MEMORY.md", "USER.md", "linked-dir", "linked.md", "hard.md", "state-link.md", STATE_DIR,
    "provenance.jsonl", "transcripts", "quarantine", "secret.md", "%2e%2e", "%2f", "..\\..", "\uff0e\uff0e", "\uff0f", "\u2215",
    "\u2024\u2024", "..\u200b", "\x00", "~", "MEMORY.md#L1", "secret.md:1-3",
]
PATHS = st.builds(
    lambda prefix, parts, sep, anchor: prefix + sep.join(parts) + anchor,
    st.sampled_from(["", "/", "//", "./", "{root}/", "{outside}/", "{root}/../", "\\"]),
    st.lists(st.sampled_from(PARTS), min_size=1, max_size=6),
    st.sampled_from(["/", "//", "\\", "/./"]),
    st.sampled_from(["", "#L1", "#L1-L3", ":2", "#L0"]),
)
SESSION_PARTS = [*PARTS, "s1", "abc", ":", "-", "_", "/", "\\", "\n", " "]
SESSIONS = st.lists(st.sampled_from(SESSION_PARTS), min_size=1, max_size=6).map("".join)
PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> tuple[Workspace, Path]:
    """A workspace whose tree holds every link an attacker could plant, and a secret outside it."""
    base = tmp_path_factory.mktemp("paths")
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"- {SECRET}\n")
    ws = workspace_init.create(base / "ws")
    (ws.root / "memory" / "2026-12-01.md").write_text("- an owner note\n")
    os.symlink(outside, ws.root / "linked-dir")
    os.symlink(outside / "secret.md", ws.root / "linked.md")
    os.link(outside / "secret.md", ws.root / "hard.md")
    os.symlink(ws.root / STATE_DIR / "provenance.jsonl", ws.root / "memory" / "state-link.md")
    os.symlink(outside, ws.root / "memory" / "linked-dir")
    return ws, outside


def _spell(template: str, ws: Workspace, outside: Path) -> str:
    return template.replace("{root}", str(ws.root)).replace("{outside}", str(outside))


def _escapes(ws: Workspace, path: Path) -> str | None:
    """Why ``path`` is not a memory file of this workspace reached without a link (None: it is)."""
    root = Path(os.path.realpath(ws.root))
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root):
        return f"outside: {real}"
    if real.is_relative_to(root / STATE_DIR):
        return f"internal state: {real}"
    if real != Path(os.path.abspath(path)).resolve() or os.path.islink(path):
        return f"through a link: {path}"
    if path.exists() and os.stat(path).st_nlink > 1:
        return f"hard link: {path}"
    return None


def _anchor_escape(ws: Workspace, outside: Path, template: str) -> str | None:
    try:
        found = anchors.parse(ws, _spell(template, ws, outside))
    except ClawmemError:
        return None
    return _escapes(ws, found.path)


def _session_escape(ws: Workspace, session: str) -> str | None:
    try:
        checked = workspace.validate_session_id(session)
    except ClawmemError:
        return None
    target = Path(os.path.abspath(ws.transcripts_dir / f"{checked}.md"))
    return None if target.parent == Path(os.path.abspath(ws.transcripts_dir)) else f"session file at {target}"


@PROPERTY
@given(template=PATHS)
def test_any_spelling_of_an_anchor_is_refused_or_a_memory_file_inside(planted, template):
    ws, outside = planted
    assert _anchor_escape(ws, outside, template) is None


@PROPERTY
@given(session=SESSIONS)
def test_any_session_id_is_refused_or_one_file_in_transcripts(planted, session):
    ws, _ = planted
    assert _session_escape(ws, session) is None


def _escaping_examples(strategy: st.SearchStrategy, check) -> list[str]:
    return [value for value in sample(strategy, 400) if check(value)]


def test_control_with_the_link_rule_off_an_anchor_escapes(planted, monkeypatch):
    ws, outside = planted
    monkeypatch.setattr(workspace, "inside_workspace", lambda root, path: True)
    assert _escaping_examples(PATHS, lambda t: _anchor_escape(ws, outside, t))


def test_control_with_the_session_rule_off_a_session_escapes(planted, monkeypatch):
    ws, _ = planted
    monkeypatch.setattr(workspace, "SESSION_ID", __import__("re").compile(r"(?s).+"))
    assert _escaping_examples(SESSIONS, lambda s: _session_escape(ws, s))


# the channel: the real CLI, so the front end adds no path of its own -------------------------------
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=PATHS.filter(lambda t: "\x00" not in t), command=st.sampled_from([("get",), ("forget", "--dry-run"), ("promote", "--dry-run")]))
def test_no_command_prints_or_touches_what_lies_outside(planted, template, command):
    ws, outside = planted
    before = (outside / "secret.md").read_bytes()
    result = cli_modes.call("on", [*command, _spell(template, ws, outside), "-w", str(ws.root)], cwd=ws.root.parent)
    assert SECRET not in (result.stdout + result.stderr).decode("utf-8", "replace")
    assert (outside / "secret.md").read_bytes() == before
    assert b"Traceback" not in result.stderr and (result.returncode == 0 or result.stderr.startswith(b"clawmem: error:")), result.stderr


@pytest.mark.parametrize("anchor", ["linked.md", "linked-dir/secret.md", "memory/linked-dir/secret.md#L1", "hard.md"])
def test_control_with_the_gates_off_the_cli_prints_what_lies_outside(planted, anchor):
    ws, _ = planted
    result = cli_modes.call("off", ["get", anchor, "-w", str(ws.root)], timeout=120)
    assert SECRET in result.stdout.decode("utf-8", "replace"), result.stderr
