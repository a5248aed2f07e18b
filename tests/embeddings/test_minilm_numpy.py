"""The numpy MiniLM backend against real weights and sentence-transformers' reference vectors."""

from __future__ import annotations

import json
import math
import struct

import pytest

from tests.conftest import require_module

np = require_module("numpy", "numpy is a core dependency: pip install numpy")
require_module("tokenizers", "tokenizers is a core dependency: pip install tokenizers")

from clawmem.embeddings import Embedder, load_embedder  # noqa: E402  imported only after the numpy/tokenizers skip checks above
from clawmem.embeddings.minilm_numpy import _gelu_inplace, read_safetensors  # noqa: E402  imported only after the numpy/tokenizers skip checks above


@pytest.fixture(scope="module")
def embedder(model_dir):
    return load_embedder("numpy", str(model_dir))


@pytest.mark.model
def test_reproduces_sentence_transformers_reference(embedder, reference, cosines):
    vectors = embedder.embed(reference["sentences"])
    cos = cosines(vectors, reference["vectors"])
    assert reference["model"] == embedder.model
    assert min(cos) > 0.9999, dict(zip(reference["sentences"], cos, strict=True))
    assert np.abs(vectors - np.asarray(reference["vectors"])).max() < 1e-5


def test_reference_covers_truncation_and_scripts(reference):
    assert max(reference["token_counts_untruncated"]) > reference["max_seq_length"] == 256
    text = "".join(reference["sentences"])
    for sample in ("我们", "データベース", "데이터베이스", "🚀"):
        assert sample in text


@pytest.mark.model
def test_embedder_shape_dtype_and_id(embedder):
    vectors = embedder.embed(["one note", "another note", ""])
    assert isinstance(embedder, Embedder)
    assert embedder.id == "all-MiniLM-L6-v2/numpy/384"
    assert (embedder.model, embedder.backend, embedder.dimension) == ("all-MiniLM-L6-v2", "numpy", 384)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@pytest.mark.model
def test_empty_input_gives_zero_rows(embedder):
    vectors = embedder.embed([])
    assert vectors.shape == (0, 384) and vectors.dtype == np.float32


@pytest.mark.model
def test_rejects_a_bare_string(embedder):
    with pytest.raises(TypeError):
        embedder.embed("not a list")


@pytest.mark.model
def test_batching_and_order_do_not_change_vectors(embedder, reference):
    texts = reference["sentences"]
    together = embedder.embed(texts, batch_size=64)
    one_by_one = embedder.embed(texts, batch_size=1)
    reversed_rows = embedder.embed(texts[::-1], batch_size=3)[::-1]
    np.testing.assert_allclose(one_by_one, together, atol=1e-5)
    np.testing.assert_allclose(reversed_rows, together, atol=1e-5)


@pytest.mark.model
def test_similar_meaning_scores_higher(embedder):
    cat, kitten, keys = embedder.embed(
        ["The cat sits on the mat.", "A kitten is resting on a rug.", "Rotate the staging API keys."]
    )
    assert cat @ kitten > 0.5 > cat @ keys


@pytest.mark.model
def test_word_embeddings_stay_memory_mapped(model_dir):
    tensors = read_safetensors(model_dir / "model.safetensors")
    word = tensors["embeddings.word_embeddings.weight"]
    assert word.shape == (30522, 384)
    assert not word.flags.owndata and not word.flags.writeable


def test_read_safetensors_parses_header_offsets_and_dtypes(tmp_path):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([[7, -8]], dtype=np.int64)
    header = {
        "__metadata__": {"format": "pt"},
        "b": {"dtype": "I64", "shape": [1, 2], "data_offsets": [0, 16]},
        "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [16, 40]},
    }
    raw = json.dumps(header).encode()
    path = tmp_path / "tiny.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b.tobytes() + a.tobytes())
    tensors = read_safetensors(path)
    assert set(tensors) == {"a", "b"}
    np.testing.assert_array_equal(tensors["a"], a)
    np.testing.assert_array_equal(tensors["b"], b)


def test_gelu_matches_exact_erf_definition():
    x = np.linspace(-10, 10, 4001, dtype=np.float32).reshape(1, -1).repeat(300, axis=0)
    expected = np.array([v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x[0].tolist()])
    _gelu_inplace(x)
    assert np.abs(x - expected).max() < 2e-6
