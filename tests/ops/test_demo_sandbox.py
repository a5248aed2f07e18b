"""``clawmem demo -w DIR`` writes inside DIR and nowhere else, even run from inside a git repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CLAWMEM = str(Path(sys.executable).with_name("clawmem"))


def _snapshot(root: Path, skip: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if not p.is_relative_to(skip) and not p.is_dir()
    }


def test_demo_touches_nothing_outside_its_folder(tmp_path, git):
    sandbox = tmp_path / "sandbox"
    home, run, tmp, cache = sandbox / "home", sandbox / "run", sandbox / "tmp", sandbox / "cache"
    for folder in (home, run, tmp, cache):
        folder.mkdir(parents=True)
    repo = sandbox / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "remote", "add", "origin", "https://github.com/team/app.git")
    given = sandbox / "given" / "demo"
    env = {
        **os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(run), "TMPDIR": str(tmp), "XDG_CACHE_HOME": str(cache),
        "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_CONFIG_HOME": str(home / ".config"), "CLAWMEM_WORKSPACE": str(sandbox / "default-ws"),
    }
    before = _snapshot(sandbox, given)
    proc = subprocess.run([CLAWMEM, "demo", "-w", str(given)], cwd=repo, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    assert (given / "MEMORY.md").is_file() and "Dream" in proc.stdout
    after = _snapshot(sandbox, given)
    assert after == before, f"written outside the demo folder: {sorted(set(after.items()) ^ set(before.items()))}"
    assert sorted(p.name for p in sandbox.iterdir()) == sorted(["home", "run", "tmp", "cache", "repo", "given"])
