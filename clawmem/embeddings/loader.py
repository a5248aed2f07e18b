"""Which backend runs here, and loading it once per process: path checks first, heavy imports only in ``load_embedder``."""

from __future__ import annotations

from pathlib import Path

from .base import Embedder, EmbedderUnavailable
from .locate import explicit_model_path
from .registry import AUTO_ORDER, AUTO_WITH_MODEL_PATH, BACKENDS, BY_NAME, Backend

LEXICAL = "search is lexical only"

_cache: dict[tuple[str, str], Embedder] = {}


def _auto_order(model_path: str | None) -> tuple[str, ...]:
    return AUTO_WITH_MODEL_PATH if explicit_model_path(model_path) else AUTO_ORDER


def _resolve(backend: str, model_path: str | None) -> tuple[Backend | None, Path | None, str]:
    """Resolve ``backend`` to (record, weights, "" or why nothing can run)."""
    if backend not in BACKENDS:
        return None, None, f"unknown embedding backend {backend!r}; choose one of {', '.join(BACKENDS)}"
    if backend == "none":
        return None, None, f"embeddings disabled (backend = none): {LEXICAL}"
    if backend != "auto":
        record = BY_NAME[backend]
        weights, reason = record.check(model_path)
        return record, weights, reason
    reasons = []
    for name in _auto_order(model_path):
        weights, reason = BY_NAME[name].check(model_path)
        if not reason:
            return BY_NAME[name], weights, ""
        reasons.append(reason)
    return None, None, f"no embedding backend can run here: {'; '.join(reasons)}"


def backend_status(backend: str = "auto", model_path: str | None = None) -> dict:
    """Say which backend would run and why not, using only path checks: safe for ``clawmem status``."""
    record, weights, reason = _resolve(backend, model_path)
    model_id = record.embedder_id(weights) if record and weights else None
    if record and weights and model_id is None:
        reason = f"unreadable config.json in {weights}"
    if reason or record is None:
        return {"backend": "none", "model_id": None, "available": False, "reason": reason}
    return {"backend": record.name, "model_id": model_id, "available": True, "reason": f"{model_id} from {weights}"}


def load_embedder(backend: str = "auto", model_path: str | None = None) -> Embedder:
    """Load (once per process) the requested backend or raise EmbedderUnavailable saying what to install."""
    record, weights, reason = _resolve(backend, model_path)
    if record is None or weights is None:
        raise EmbedderUnavailable(reason)
    key = (record.name, str(weights))
    if key not in _cache:
        try:
            _cache[key] = record.construct(weights)
        except (ImportError, OSError, ValueError, KeyError, AttributeError, RuntimeError) as exc:
            raise EmbedderUnavailable(f"could not load the {record.name} embedder from {weights}: {exc}") from exc
    return _cache[key]
