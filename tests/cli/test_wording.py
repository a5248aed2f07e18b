"""Human wording: no Python in output or help (``False``, ``None``, ``<list[str]>``, ``{text}``), whole
sentences in summaries, proper plurals, and the user's own words kept as written."""

from __future__ import annotations

import re

import pytest
import typer

from clawmem.cli import app

PYTHONISMS = re.compile(r"<list\[|<int range>|<float range>|<str>|<int>|<float>|\{[a-z_]+\}|entr\(y/ies\)")


def _paths():
    def walk(group, prefix):
        yield prefix
        for name, command in getattr(group, "commands", {}).items():
            yield from walk(command, (*prefix, name))

    return list(walk(typer.main.get_command(app), ()))


@pytest.mark.parametrize("path", [pytest.param(p, id=" ".join(p) or "clawmem") for p in _paths()])
def test_help_names_values_in_words(clawmem, path):
    result = clawmem(*path, "--help")
    assert result.returncode == 0, result.stderr
    assert not PYTHONISMS.findall(result.stdout), PYTHONISMS.findall(result.stdout)


def test_command_summaries_are_not_cut_inside_a_sentence(clawmem):
    listing = clawmem("--help").stdout.split("Commands:", 1)[1]
    summaries = [line.split(None, 1)[1] for line in listing.splitlines() if line.startswith("  ") and len(line.split(None, 1)) == 2]
    assert summaries and not [s for s in summaries if s.rstrip(".").endswith(("e.g", "i.e", "etc"))]
    assert any(s.startswith("Print a bounded part of a memory file") for s in summaries)


def test_usage_names_arguments_like_git(clawmem):
    assert clawmem("note", "add", "-h").stdout.startswith("Usage: clawmem note add [OPTIONS] TEXT\n")
    assert "Usage: clawmem forget [OPTIONS] [ANCHOR]\n" in clawmem("forget", "-h").stdout


def test_a_dry_run_dream_prints_no_python_values(ws, clawmem):
    for text in ("Deploys go to fly.io after review", "The staging database is called atlas"):
        assert clawmem("note", "add", text, "--origin", "owner").returncode == 0
    result = clawmem("dream", "--dry-run", "--explain")
    assert result.returncode == 0, result.stderr
    assert not re.search(r"\b(None|True|False)\b", result.stdout), result.stdout
    assert "(s)" not in result.stdout.split("notice:", 1)[0]


def test_forget_counts_in_words(ws, clawmem):
    for text in ("The old VPN password is hunter2 for now", "Also the wiki says hunter2 works for the VPN"):
        assert clawmem("note", "add", text, "--origin", "owner").returncode == 0
    one = clawmem("forget", "--text", "The old VPN password is hunter2 for now", "--dry-run")
    assert "Would forget 1 entry " in one.stdout, one.stdout
    assert not PYTHONISMS.findall(one.stdout)


def test_user_set_keeps_the_users_text_as_written(ws, clawmem):
    result = clawmem("user", "set", "Always answer in British English", "--key", "language", "--origin", "owner")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith(": Always answer in British English")
    assert "- Always answer in British English <!--" in ws.user_md.read_text()
    listed = clawmem("user", "list", "--json").json()
    assert [d["text"] for d in listed] == ["Always answer in British English"]
