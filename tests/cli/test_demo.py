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
