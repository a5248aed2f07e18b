"""The optional [onnx] and [st] backends against the same reference vectors.

These extras are not part of a plain install nor of CI (the [st] extra pulls a multi-gigabyte
torch), so these two tests are allowed skips, like the dataset ones: they skip with the reason
even under CLAWMEM_REQUIRE_ALL=1, and `-rs` lists them.
"""

from __future__ import annotations

import pytest

from clawmem.embeddings import backend_status, load_embedder


def require_backend(backend: str, model_dir) -> None:
    status = backend_status(backend, str(model_dir))
    if not status["available"]:
        pytest.skip(f"optional extra not installed: {status['reason']}")


@pytest.mark.model
def test_onnx_int8_stays_close_to_reference(model_dir, reference, cosines):
    require_backend("onnx", model_dir)
    embedder = load_embedder("onnx", str(model_dir))
    vectors = embedder.embed(reference["sentences"])
    cos = cosines(vectors, reference["vectors"])
    assert embedder.id == "all-MiniLM-L6-v2/onnx/384"
    assert vectors.shape == (len(reference["sentences"]), 384) and str(vectors.dtype) == "float32"
    assert embedder.embed([]).shape == (0, 384)
    # int8 weights: ~0.9995 on text, lowest (~0.996) on the empty string's [CLS] [SEP] alone
    assert min(cos) > 0.995 and sum(cos) / len(cos) > 0.999, dict(zip(reference["sentences"], cos, strict=True))


@pytest.mark.model
@pytest.mark.slow
def test_sentence_transformers_backend_matches_reference(model_dir, reference, cosines):
    require_backend("sentence-transformers", model_dir)
    embedder = load_embedder("sentence-transformers", str(model_dir))
    cos = cosines(embedder.embed(reference["sentences"]), reference["vectors"])
    assert embedder.id == "all-MiniLM-L6-v2/sentence-transformers/384"
    assert min(cos) > 0.9999
    assert embedder.embed([]).shape == (0, 384)
