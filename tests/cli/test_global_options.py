"""Global options as git takes them: ``clawmem -w DIR CMD``, ``--json``/``--debug`` on either side of the command."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def elsewhere(tmp_path, clawmem):
    """A second workspace, not the one $CLAWMEM_WORKSPACE names, with one note in it."""
    other = tmp_path / "other"
    assert clawmem("init", "-w", str(other)).returncode == 0
    assert clawmem("note", "add", "Deploys go to the staging cluster first", "--origin", "owner", "-w", str(other)).returncode == 0
    return other


def test_workspace_before_the_command_is_the_same_as_after(ws, clawmem, elsewhere):
    before = clawmem("-w", str(elsewhere), "status", "--json")
    after = clawmem("status", "-w", str(elsewhere), "--json")
    assert before.returncode == after.returncode == 0, before.stderr + after.stderr
    assert before.json()["workspace"] == after.json()["workspace"] == str(elsewhere)
    assert clawmem("status", "--json").json()["workspace"] == str(ws.root)  # without -w: $CLAWMEM_WORKSPACE


def test_workspace_after_the_command_wins_over_the_one_before(ws, clawmem, elsewhere):
    result = clawmem("--workspace", str(ws.root), "status", "--workspace", str(elsewhere), "--json")
    assert result.json()["workspace"] == str(elsewhere)


def test_a_subcommand_of_a_group_takes_the_global_workspace(ws, clawmem, elsewhere):
    result = clawmem("-w", str(elsewhere), "note", "add", "The cache lives in redis", "--origin", "owner", "--json")
    assert result.returncode == 0, result.stderr
    assert (elsewhere / result.json()["path"]).read_text().count("redis") == 1
    assert "redis" not in "".join(p.read_text() for p in ws.daily_dir.glob("*.md"))


@pytest.mark.parametrize("where", ["before", "after"])
def test_json_before_or_after_the_command_prints_the_same_document(ws, clawmem, where):
    args = ["--json", "status"] if where == "before" else ["status", "--json"]
    result = clawmem(*args)
    assert result.returncode == 0, result.stderr
    assert result.json()["workspace"] == str(ws.root)


def test_an_error_json_does_not_depend_on_option_order(ws, clawmem):
    orders = [
        ("note", "add", "x y z w", "--session", "../escape", "--json"),
        ("note", "add", "x y z w", "--json", "--session", "../escape"),
        ("--json", "note", "add", "x y z w", "--session", "../escape"),
    ]
    results = [clawmem(*args) for args in orders]
    assert {r.returncode for r in results} == {1}
    assert all(json.loads(r.stdout)["error"] == "unsafe_path" for r in results), [r.stdout for r in results]
    assert len({r.stdout for r in results}) == 1


@pytest.mark.parametrize("args", [("--json", "status", "--bogus"), ("status", "--bogus", "--json"), ("status", "--json", "--bogus")])
def test_a_usage_error_under_json_is_json_wherever_json_was_given(ws, clawmem, args):
    result = clawmem(*args)
    assert result.returncode == 2
    assert result.json() == {"error": "usage", "message": "No such option: --bogus", "hint": "see `clawmem status -h`"}


@pytest.mark.parametrize("args", [("--debug", "status"), ("status", "--debug"), ("note", "add", "--debug", "x y z w", "--origin", "owner")])
def test_debug_is_accepted_on_either_side(ws, clawmem, args):
    result = clawmem(*args)
    assert result.returncode == 0, result.stderr


def test_project_prepare_and_active_take_the_workspace(ws, clawmem, tmp_path):
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (ws.root / "clawmem.toml").write_text("[recall]\nactive_projects = 1\n")
    prepared = clawmem("project", "prepare", str(repo), "--session", "s-1", "-w", str(ws.root), "--json")
    assert prepared.returncode == 0, prepared.stderr
    active = clawmem("-w", str(ws.root), "project", "active", "--session", "s-1", "--json")
    assert active.returncode == 0, active.stderr
    assert active.json()["active"] == prepared.json()["active"] and len(active.json()["active"]) == 1


def test_project_session_is_validated_like_every_other_session(ws, clawmem):
    result = clawmem("project", "active", "--session", "../../etc")
    assert result.returncode == 1 and "invalid session id" in result.stderr
