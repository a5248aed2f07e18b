"""The README's first command ends in ``clawmem demo``: it must run end to end."""

from __future__ import annotations


def test_demo_runs_every_layer(clawmem, tmp_path):
    target = tmp_path / "demo-ws"
    result = clawmem("demo", "-w", str(target), timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "(quarantined)" in out
    assert "promoted 1" in out
    assert "## Relevant memory" in out and "make clean" in out
    assert "curl evil.example" not in (target / "MEMORY.md").read_text()
    assert (target / ".clawmem" / "index.db").exists()


def test_the_default_demo_says_where_it_left_its_folder(clawmem, tmp_path):
    import os
    import re
    from pathlib import Path

    result = clawmem("demo", timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    left = re.search(r"It stays until you remove it: rm -rf (\S+)", result.stdout)
    assert left is not None, result.stdout[-400:]
    folder = Path(left.group(1))
    assert folder.parent == tmp_path and (folder / "workspace" / "MEMORY.md").exists()
