"""all-MiniLM-L6-v2 (any BERT encoder in safetensors) run in plain numpy.

Why: sentence-transformers costs ~6-8 s to start (torch) and onnxruntime ~0.4 s; this forward pass
starts in ~0.15 s (import + load + one query) and reproduces sentence-transformers' vectors to ~3e-7.
Weights are memory-mapped, not copied, except the fused query/key/value matrices (1.7 MB per layer).
"""

from __future__ import annotations

import json
import mmap
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
from tokenizers import Encoding, Tokenizer

from clawmem.foundation.records import dataclass

from .base import (
    DEFAULT_MODEL,
    SymmetricQuery,
    make_embedder_id,
    max_seq_length,
    model_config,
)

_DTYPES = {"F32": np.float32, "I64": np.int64}

# Rational approximation of erf for float32 on [-4, 4] (Eigen's generic_fast_erf_float);
# max abs error 4.4e-7 vs math.erf, so GELU matches torch's exact-erf GELU, unlike the tanh form.
_ERF_ALPHA = (
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
)
_ERF_BETA = (
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
)
_GELU_CHUNK_ROWS = 256
_SCORE_BUDGET = 1 << 18  # attention scores (floats) computed at once: ~1 MiB


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Map every tensor of a safetensors file as a read-only array without copying it."""
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    base = 8 + header_len
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in _DTYPES:
            raise ValueError(f"{path}: tensor {name} has dtype {info['dtype']}; only float32 weights are supported")
        dtype = np.dtype(_DTYPES[info["dtype"]])
        start, end = info["data_offsets"]
        count = (end - start) // dtype.itemsize
        array = np.frombuffer(buffer, dtype=dtype, count=count, offset=base + start)
        tensors[name] = array.reshape(info["shape"])
    return tensors


def load_tokenizer(model_dir: Path) -> Tokenizer:
    """Load tokenizer.json with sentence-transformers' truncation, replacing its fixed 128 padding."""
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.enable_truncation(max_seq_length(model_dir))
    tokenizer.no_padding()
    return tokenizer


def length_batches(
    encodings: Sequence[Encoding], batch_size: int
) -> Iterator[tuple[list[int], np.ndarray, np.ndarray]]:
    """Yield (original indices, padded ids, mask) for batches of similar length to waste no compute on padding."""
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        width = max(len(encodings[i].ids) for i in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.float32)
        for row, i in enumerate(rows):
            n = len(encodings[i].ids)
            ids[row, :n] = encodings[i].ids
            mask[row, :n] = 1.0
        yield rows, ids, mask


def mean_pool_normalize(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Average the real tokens' states and scale to unit length, as sentence-transformers' Pooling+Normalize."""
    summed = np.einsum("bld,bl->bd", hidden, mask)
    counts = np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
    pooled = summed / counts
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return (pooled / norms).astype(np.float32, copy=False)


Forward = Callable[[np.ndarray, np.ndarray], np.ndarray]


def embed_with(tokenizer: Tokenizer, forward: Forward, texts: list[str], batch_size: int, dimension: int) -> np.ndarray:
    """Tokenise, run ``forward(ids, mask) -> hidden`` per length batch, pool, and restore input order."""
    if isinstance(texts, str):
        raise TypeError("embed() takes a list of strings, not a single string")
    out = np.zeros((len(texts), dimension), dtype=np.float32)
    if not texts:
        return out
    encodings = tokenizer.encode_batch(list(texts))
    for rows, ids, mask in length_batches(encodings, max(1, batch_size)):
        out[rows] = mean_pool_normalize(forward(ids, mask), mask)
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    x = x - x.mean(axis=-1, keepdims=True)
    variance = np.einsum("ij,ij->i", x, x)[:, None] / x.shape[-1]
    x *= 1.0 / np.sqrt(variance + eps)
    x *= weight
    x += bias
    return x


def _horner(x2: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    result = x2 * coefficients[0]
    result += coefficients[1]
    for coefficient in coefficients[2:]:
        result *= x2
        result += coefficient
    return result


def _erf_inplace(x: np.ndarray) -> None:
    np.clip(x, -4.0, 4.0, out=x)
    x2 = x * x
    x *= _horner(x2, _ERF_ALPHA)
    x /= _horner(x2, _ERF_BETA)


def _gelu_inplace(x: np.ndarray) -> None:
    """Exact (erf) GELU, in row chunks so the temporaries stay in cache."""
    for start in range(0, x.shape[0], _GELU_CHUNK_ROWS):
        chunk = x[start : start + _GELU_CHUNK_ROWS]
        half_erf = chunk * np.float32(0.7071067811865476)
        _erf_inplace(half_erf)
        half_erf += 1.0
        half_erf *= 0.5
        chunk *= half_erf


@dataclass(frozen=True)
class _Layer:
    """One encoder layer; query weights are pre-scaled by 1/sqrt(head_dim)."""

    qkv_w: np.ndarray
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    up_w: np.ndarray
    up_b: np.ndarray
    down_w: np.ndarray
    down_b: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


def _load_layer(t: dict[str, np.ndarray], i: int, head_dim: int) -> _Layer:
    p = f"encoder.layer.{i}."
    scale = np.float32(1.0 / np.sqrt(head_dim))
    attn = p + "attention.self."
    qkv_w = np.concatenate([t[attn + "query.weight"] * scale, t[attn + "key.weight"], t[attn + "value.weight"]])
    qkv_b = np.concatenate([t[attn + "query.bias"] * scale, t[attn + "key.bias"], t[attn + "value.bias"]])
    return _Layer(
        qkv_w=np.ascontiguousarray(qkv_w.T),
        qkv_b=qkv_b,
        out_w=t[p + "attention.output.dense.weight"].T,
        out_b=t[p + "attention.output.dense.bias"],
        ln1_w=t[p + "attention.output.LayerNorm.weight"],
        ln1_b=t[p + "attention.output.LayerNorm.bias"],
        up_w=t[p + "intermediate.dense.weight"].T,
        up_b=t[p + "intermediate.dense.bias"],
        down_w=t[p + "output.dense.weight"].T,
        down_b=t[p + "output.dense.bias"],
        ln2_w=t[p + "output.LayerNorm.weight"],
        ln2_b=t[p + "output.LayerNorm.bias"],
    )


class MiniLMNumpy(SymmetricQuery):
    """BERT encoder forward pass (post-LayerNorm, exact GELU) + mean pooling + L2 normalisation."""

    backend = "numpy"

    def __init__(self, model_dir: Path, model: str = DEFAULT_MODEL) -> None:
        config = model_config(model_dir)
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config['hidden_act']!r} in {model_dir}")
        self.model = model
        self.dimension = int(config["hidden_size"])
        self.id = make_embedder_id(model, self.backend, self.dimension)
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        t = read_safetensors(model_dir / "model.safetensors")
        head_dim = self.dimension // self._heads
        self._word = t["embeddings.word_embeddings.weight"]
        self._position = t["embeddings.position_embeddings.weight"]
        self._token_type = t["embeddings.token_type_embeddings.weight"][0]
        self._emb_ln = (t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        self._layers = [_load_layer(t, i, head_dim) for i in range(int(config["num_hidden_layers"]))]
        self._tokenizer = load_tokenizer(model_dir)

    def embed(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts; rows are unit-length float32 in input order."""
        return embed_with(self._tokenizer, self.forward, texts, batch_size, self.dimension)

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden state, shape (batch, length, dimension), for padded ids and a 0/1 mask."""
        batch, length = ids.shape
        x = self._word[ids] + self._position[:length] + self._token_type
        x = _layer_norm(x.reshape(batch * length, self.dimension), *self._emb_ln, self._eps)
        attention_bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in self._layers:
            x = self._layer(layer, x, batch, length, attention_bias)
        return x.reshape(batch, length, self.dimension)

    def _layer(self, w: _Layer, x: np.ndarray, batch: int, length: int, bias: np.ndarray) -> np.ndarray:
        context = self._attention(w, x, batch, length, bias)
        attended = context @ w.out_w
        attended += w.out_b
        attended += x
        x = _layer_norm(attended, w.ln1_w, w.ln1_b, self._eps)
        hidden = x @ w.up_w
        hidden += w.up_b
        _gelu_inplace(hidden)
        out = hidden @ w.down_w
        out += w.down_b
        out += x
        return _layer_norm(out, w.ln2_w, w.ln2_b, self._eps)

    def _attention(self, w: _Layer, x: np.ndarray, batch: int, length: int, bias: np.ndarray) -> np.ndarray:
        head_dim = self.dimension // self._heads
        qkv = x @ w.qkv_w
        qkv += w.qkv_b
        q, k, v = qkv.reshape(batch, length, 3, self._heads, head_dim).transpose(2, 0, 3, 1, 4)
        context = np.empty((batch, length, self._heads, head_dim), dtype=np.float32)
        step = max(1, _SCORE_BUDGET // (self._heads * length * length))
        for start in range(0, batch, step):
            rows = slice(start, start + step)
            context[rows] = _attend(q[rows], k[rows], v[rows], bias[rows]).transpose(0, 2, 1, 3)
        return context.reshape(batch * length, self.dimension)


def _attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Softmax attention for a few sequences at a time, so the score matrix stays cache-sized."""
    scores = q @ k.transpose(0, 1, 3, 2)
    scores += bias
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores @ v
