"""Repository identity without running git per message, and the session's active set."""

from __future__ import annotations

import json
import subprocess

import pytest

from clawmem.commands import projects


@pytest.mark.parametrize(
    "url",
    [
        "git@github.com:openclaw/openclaw.git",
        "https://github.com/openclaw/openclaw",
        "https://github.com/openclaw/openclaw.git",
        "ssh://git@github.com/openclaw/openclaw.git",
        "https://user@GitHub.com/openclaw/openclaw/",
        "ssh://git@github.com:22/openclaw/openclaw",
    ],
)
def test_remote_forms_normalise_to_one_key(url):
    assert projects.normalise_remote(url) == "github.com/openclaw/openclaw"


def git(*args, cwd=None):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_clones_and_worktrees_share_a_key_forks_differ_and_no_remote_uses_the_root(tmp_path):
    main = tmp_path / "main"
    git("init", "-q", str(main))
    git("remote", "add", "origin", "git@github.com:acme/app.git", cwd=main)
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x", cwd=main)
    git("worktree", "add", "-q", str(tmp_path / "wt"), cwd=main)
    clone = tmp_path / "clone"
    git("init", "-q", str(clone))
    git("remote", "add", "origin", "https://github.com/acme/app", cwd=clone)
    fork = tmp_path / "fork"
    git("init", "-q", str(fork))
    git("remote", "add", "origin", "https://github.com/someone/app", cwd=fork)
    bare = tmp_path / "bare"
    git("init", "-q", str(bare))
    (main / "sub").mkdir()
    key = projects.identify(str(main / "sub")).key
    assert key == "github.com/acme/app"
    assert projects.identify(str(tmp_path / "wt")).key == key
    assert projects.identify(str(clone)).key == key
    assert projects.identify(str(fork)).key == "github.com/someone/app"
    assert projects.identify(str(bare)).key == str(bare)
    assert projects.identify(str(tmp_path)) is None


def test_semicolons_cannot_split_a_key(tmp_path):
    repo = tmp_path / "we;ird"
    git("init", "-q", str(repo))
    assert projects.identify(str(repo)).key == str(repo).replace(";", "\\;")


def test_active_set_is_capped_most_recent_first_and_per_session(ws):
    for key in ("a", "b", "c", "d", "e"):
        projects.prepare(ws, "sess-1", key, cap=4)
    assert projects.active_set(ws, "sess-1") == ["e", "d", "c", "b"]
    projects.prepare(ws, "sess-1", "c", cap=4)
    assert projects.active_set(ws, "sess-1") == ["c", "e", "d", "b"]
    assert projects.active_set(ws, "sess-2") == []


def test_project_cli_and_note_tagging(clawmem, tmp_path):
    repo = tmp_path / "repo"
    git("init", "-q", str(repo))
    git("remote", "add", "origin", "git@gitlab.com:team/svc.git", cwd=repo)
    clawmem("init")
    shown = clawmem("project", "--path", str(repo), "--json").json()
    assert shown["key"] == "gitlab.com/team/svc"
    prepared = clawmem("project", "prepare", str(repo), "--session", "cli-s", "--json").json()
    assert prepared["active"] == ["gitlab.com/team/svc"]
    assert clawmem("project", "active", "--session", "cli-s", "--json").json()["active"] == ["gitlab.com/team/svc"]
    assert clawmem("project", "active", "--session", "fresh-session", "--json").json()["active"] == []
    import os
    import sys

    env = {**os.environ}
    note = subprocess.run(
        [sys.executable, "-m", "clawmem", "note", "add", "svc needs redis 7", "--origin", "owner", "--json"], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    path = tmp_path / "ws" / json.loads(note.stdout)["path"]
    assert "<!-- project: gitlab.com/team/svc -->" in path.read_text()


def test_two_workspaces_reusing_a_session_id_do_not_share_the_active_set(clawmem, tmp_path):
    """Two agents, each with its own workspace, both call their session "main"."""
    repo = tmp_path / "repo"
    git("init", "-q", str(repo))
    git("remote", "add", "origin", "https://github.com/team/api.git", cwd=repo)
    first, second = tmp_path / "agent-1", tmp_path / "agent-2"
    for root in (first, second):
        assert clawmem("init", "-w", str(root)).returncode == 0
    prepared = clawmem("project", "prepare", str(repo), "--session", "main", "-w", str(first), "--json").json()
    assert prepared["active"] == ["github.com/team/api"]
    assert clawmem("project", "active", "--session", "main", "-w", str(first), "--json").json()["active"] == ["github.com/team/api"]
    assert clawmem("project", "active", "--session", "main", "-w", str(second), "--json").json()["active"] == []
    assert not (tmp_path / "run" / "clawmem").exists(), "nothing is kept per user outside the workspace any more"
