"""Optional ``[st]`` backend: sentence-transformers on torch, the reference implementation.

Why only as a reference: importing it takes ~8 s, far too slow for per-turn recall.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .base import DEFAULT_MODEL, SymmetricQuery, make_embedder_id, model_config


class SentenceTransformersEmbedder(SymmetricQuery):
    """Load the local model directory by path on CPU, with the Hugging Face hub forced offline."""

    backend = "sentence-transformers"

    def __init__(self, model_dir: Path, model: str = DEFAULT_MODEL) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        from sentence_transformers import (
            SentenceTransformer,  # deferred: reads the offline flags at import
        )

        self._model = SentenceTransformer(str(model_dir), device="cpu")
        self.model = model
        self.dimension = int(model_config(model_dir)["hidden_size"])
        self.id = make_embedder_id(model, self.backend, self.dimension)

    def embed(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts; rows are unit-length float32 in input order."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings, not a single string")
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(
            list(texts),
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
