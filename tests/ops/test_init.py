"""``clawmem init`` as a user reruns it: idempotent, a .gitignore for derived files, clear refusals."""

from __future__ import annotations


def test_init_twice_exits_0_and_says_nothing_changed(clawmem, tmp_path):
    first = clawmem("init", "--json")
    assert first.returncode == 0 and first.json()["created"] is True
    again = clawmem("init")
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert clawmem("init", "--json").json() == {"workspace": str(tmp_path / "ws"), "created": False, "changed": []}


def test_init_completes_an_older_workspace_and_keeps_the_users_ignore_lines(clawmem, tmp_path):
    assert clawmem("init").returncode == 0
    root = tmp_path / "ws"
    (root / ".gitignore").write_text("*.swp\n")
    (root / ".clawmem" / "audit" / "baseline.json").unlink()
    memory = (root / "MEMORY.md").read_bytes()
    result = clawmem("init", "--json").json()
    assert result["created"] is False and set(result["changed"]) == {".gitignore", "audit baseline"}
    ignore = (root / ".gitignore").read_text()
    assert ignore.startswith("*.swp\n") and ".clawmem/index.db\n" in ignore and ".clawmem/locks/\n" in ignore
    assert ".clawmem/audit" not in ignore.replace("# .clawmem/audit/baseline.json", "")  # the baseline stays tracked
    assert (root / "MEMORY.md").read_bytes() == memory


def test_a_workspace_path_that_is_a_file_is_refused_and_nothing_is_written(clawmem, tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine\n")
    for target in (blocker, blocker / "ws"):
        result = clawmem("init", "-w", str(target))
        assert result.returncode == 1 and "not a directory" in result.stderr and "Traceback" not in result.stderr
    assert blocker.read_text() == "mine\n" and sorted(p.name for p in tmp_path.iterdir()) == ["home", "notes.txt"]
