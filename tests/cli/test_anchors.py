"""One anchor grammar everywhere: what ``note add`` prints, ``get``, ``forget``, ``promote`` and MCP accept."""

from __future__ import annotations

import asyncio
import re

import pytest

NOTES = ["Deploys go to fly.io; staging is called atlas", "The release train leaves every second Tuesday", "Backups run at 02:00 UTC nightly"]


@pytest.fixture
def noted(ws, clawmem):
    """Three owner notes; returns the anchors ``note add`` printed for them (``PATH:LINE``)."""
    anchors = []
    for text in NOTES:
        result = clawmem("note", "add", text, "--origin", "owner")
        assert result.returncode == 0, result.stderr
        anchors.append(re.fullmatch(r"Noted in (\S+)\n", result.stdout)[1])
    return anchors


def numbered(stdout: str) -> dict[int, str]:
    """``get``'s numbered lines, by number (inside the recall block)."""
    return {int(m[1]): m[2] for m in re.finditer(r"^\s*(\d+)  (.*)$", stdout, re.MULTILINE)}


def test_the_anchor_note_add_prints_is_accepted_by_get_and_forget(ws, clawmem, noted):
    first = noted[0]
    got = clawmem("get", first)
    assert got.returncode == 0, got.stderr
    assert list(numbered(got.stdout).values()) == [f"- {NOTES[0]}"]
    forgot = clawmem("forget", first, "--dry-run")
    assert forgot.returncode == 0, forgot.stderr
    assert "Would forget 1 entry" in forgot.stdout and "fly.io" in forgot.stdout


def test_every_spelling_of_a_range_reads_the_same_lines(ws, clawmem, noted):
    path, line = noted[0].rsplit(":", 1)
    start, end = int(line), int(line) + 2
    spellings = [f"{path}#L{start}-L{end}", f"{path}#L{start}-{end}", f"{path}:{start}-{end}", f"{ws.root / path}:{start}-{end}", f"{ws.root / path}#L{start}-L{end}"]
    outputs = [numbered(clawmem("get", s).stdout) for s in spellings]
    assert outputs[0] == {start + i: f"- {text}" for i, text in enumerate(NOTES)}
    assert all(o == outputs[0] for o in outputs), spellings


def test_an_absolute_path_inside_the_workspace_is_accepted_by_forget_and_promote(ws, clawmem, noted):
    path, line = noted[1].rsplit(":", 1)
    absolute = f"{ws.root / path}:{line}"
    forgot = clawmem("forget", absolute, "--dry-run")
    assert forgot.returncode == 0 and "release train" in forgot.stdout, forgot.stderr
    promoted = clawmem("promote", absolute, "--dry-run", "--json")
    assert promoted.returncode == 0, promoted.stderr
    assert promoted.json()["anchor"].startswith(f"{path}#L{line}") and promoted.json()["dry_run"] is True


@pytest.mark.parametrize("command", [("get",), ("forget", "--dry-run"), ("promote", "--dry-run")])
def test_a_path_outside_the_workspace_is_refused(ws, clawmem, tmp_path, command):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("- a secret line\n")
    result = clawmem(command[0], f"{outside}:1", *command[1:])
    assert result.returncode == 1 and "outside the workspace" in result.stderr
    assert "secret" not in result.stdout


@pytest.mark.parametrize("anchor_of", [lambda p: f"{p}#L99", lambda p: f"{p}:99", lambda p: f"{p}#L2-L99"])
def test_lines_past_the_end_are_an_error_not_a_blank_line(ws, clawmem, noted, anchor_of):
    path = noted[0].rsplit(":", 1)[0]
    total = len((ws.root / path).read_text().splitlines())
    result = clawmem("get", anchor_of(path))
    assert result.returncode == 1
    assert result.stdout == ""
    assert f"is past the end of {path} ({total} lines)" in result.stderr


@pytest.mark.parametrize("bad", ["memory/x.md#L0", "memory/x.md:5-3", "memory/x.md#L"])
def test_bad_ranges_are_refused_with_the_grammar(ws, clawmem, bad):
    result = clawmem("get", bad)
    assert result.returncode == 1
    assert "clawmem: error:" in result.stderr and result.stdout == ""


def test_mcp_read_excerpt_speaks_the_same_grammar(ws, noted):
    from mcp import Client

    from clawmem.mcp.server import build_server

    async def read(anchor: str):
        async with Client(build_server(ws.root)) as client:
            return await client.call_tool("read_excerpt", {"anchor": anchor})

    path, line = noted[2].rsplit(":", 1)
    by_colon = asyncio.run(read(noted[2]))
    by_hash = asyncio.run(read(f"{path}#L{line}"))
    assert not by_colon.is_error and by_colon.structured_content == by_hash.structured_content
    assert "02:00 UTC" in by_colon.structured_content["text"]
    past = asyncio.run(read(f"{path}:99"))
    assert past.is_error and "past the end" in past.content[0].text
