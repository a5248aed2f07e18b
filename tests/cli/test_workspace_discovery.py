"""Which workspace a command uses: -w, then $CLAWMEM_WORKSPACE, then the nearest enclosing one (like git's
``.git``), then the per-user default; ``status`` says which rule chose it."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from clawmem.commands import workspace_init
from tests import forkserver

CLAWMEM = shutil.which("clawmem") or str(Path(sys.executable).with_name("clawmem"))


@pytest.fixture
def run_in():
    """Run ``clawmem`` from ``cwd`` without $CLAWMEM_WORKSPACE, as a person who cd'ed somewhere would."""

    def run(cwd, *args, env=None):
        full = {k: v for k, v in os.environ.items() if k != "CLAWMEM_WORKSPACE"} | (env or {})
        return forkserver.run([CLAWMEM, *args], text=True, cwd=cwd, env=full, timeout=120)

    return run


@pytest.fixture
def project(tmp_path):
    """A workspace that is also a project folder, with a nested directory to cd into."""
    root = tmp_path / "proj"
    workspace_init.create(root)
    nested = root / "src" / "deep"
    nested.mkdir(parents=True)
    return root, nested


def test_status_inside_a_workspace_finds_it_by_walking_up(run_in, project):
    root, nested = project
    result = run_in(nested, "status", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["workspace"] == str(root) and data["workspace_rule"] == "enclosing"
    human = run_in(nested, "status")
    assert f"workspace: {root} (the nearest enclosing workspace of the current directory)" in human.stdout.splitlines()


def test_a_note_added_from_a_subdirectory_lands_in_the_enclosing_workspace(run_in, project):
    root, nested = project
    result = run_in(nested, "note", "add", "The release train leaves on Thursdays", "--origin", "owner", "--json")
    assert result.returncode == 0, result.stderr
    assert "release train" in (root / json.loads(result.stdout)["path"]).read_text()


def test_the_environment_beats_the_enclosing_workspace_and_the_option_beats_both(run_in, project, tmp_path):
    _, nested = project
    env_ws = workspace_init.create(tmp_path / "from-env").root
    opt_ws = workspace_init.create(tmp_path / "from-option").root
    by_env = json.loads(run_in(nested, "status", "--json", env={"CLAWMEM_WORKSPACE": str(env_ws)}).stdout)
    assert (by_env["workspace"], by_env["workspace_rule"]) == (str(env_ws), "environment")
    by_opt = json.loads(run_in(nested, "-w", str(opt_ws), "status", "--json", env={"CLAWMEM_WORKSPACE": str(env_ws)}).stdout)
    assert (by_opt["workspace"], by_opt["workspace_rule"]) == (str(opt_ws), "option")


def test_outside_any_workspace_the_per_user_default_is_used(run_in, tmp_path):
    default = workspace_init.create(tmp_path / "home" / ".local" / "share" / "clawmem").root  # XDG_DATA_HOME of the test
    lonely = tmp_path / "nowhere"
    lonely.mkdir()
    result = run_in(lonely, "status", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["workspace"], data["workspace_rule"]) == (str(default), "default")
    assert "(the per-user default)" in run_in(lonely, "status").stdout


def test_no_workspace_anywhere_says_which_rule_looked_where(run_in, tmp_path):
    lonely = tmp_path / "nowhere"
    lonely.mkdir()
    result = run_in(lonely, "status")
    assert result.returncode == 1
    assert "no clawmem workspace at" in result.stderr and "the per-user default" in result.stderr


def test_init_creates_where_it_is_told_not_in_an_enclosing_workspace(run_in, project):
    _, nested = project
    result = run_in(nested, "init", "-w", str(nested / "inner"))
    assert result.returncode == 0, result.stderr
    assert (nested / "inner" / ".clawmem").is_dir()


@pytest.mark.parametrize("how", ["option", "environment"])
@pytest.mark.parametrize("command", [("status",), ("note", "add", "Something worth keeping here", "--origin", "owner"), ("init",)])
def test_a_workspace_path_that_is_a_file_is_a_clear_error(run_in, tmp_path, how, command):
    afile = tmp_path / "notes.txt"
    afile.write_text("not a workspace\n")
    args = [*command, "-w", str(afile)] if how == "option" else list(command)
    env = {"CLAWMEM_WORKSPACE": str(afile)} if how == "environment" else {}
    result = run_in(tmp_path, *args, env=env)
    assert result.returncode == 1
    assert f"the workspace path {afile}" in result.stderr and "is a file, not a directory" in result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    assert afile.read_text() == "not a workspace\n"


def test_a_workspace_path_under_a_file_is_a_clear_error(run_in, tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("x\n")
    result = run_in(tmp_path, "init", "-w", str(afile / "ws"))
    assert result.returncode == 1
    assert f"lies under the file {afile}" in result.stderr and "unexpected" not in result.stderr
