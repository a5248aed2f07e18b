"""Late interaction: a turn scores by its best-matching sentence, not only by its whole vector.

One vector per turn averages every sentence of it, so the sentence that answers a question
("The 2 younger kids love nature." inside a turn about a camping trip) is diluted by the rest.
Each sentence of a multi-sentence transcript turn (a shared photo's caption is one) is embedded
like an entry, keyed by its content hash in the embedding cache, and a candidate's vector score
moves towards its best sentence's when that is higher; the blend with BM25 then fuses it with
the lexical lane by score. Only candidates are scored, so the cost is one cache read per search.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial
from typing import Any

from clawmem.entries.identity import text_hash
from clawmem.foundation.config import PIECE_MAX_PER_ENTRY, PIECE_MIN_WORDS
from clawmem.foundation.timeparse import now_iso
from clawmem.index.db import Index, in_batches

SPEAKER = re.compile(r"^([^\s:][^:\n]{0,40}):\s+")
SENTENCE = re.compile(r"(?<=[.!?])\s+|\s*(?=\[shares )")


def split(text: str) -> list[str]:
    """A transcript turn's sentences, without its speaker label; [] for a one-sentence turn.

    The label stays out: in a short sentence the speaker's name weighs more than in the whole
    turn, so a question naming one person would lift that person's every sentence (the speaker
    boost already rewards the named speaker's turns, and LoCoMo's adversarial questions name the
    wrong one).
    """
    label = SPEAKER.match(text)
    body = text[label.end():] if label else text
    parts = [p.strip() for p in SENTENCE.split(body) if len(p.split()) >= PIECE_MIN_WORDS]
    return parts[:PIECE_MAX_PER_ENTRY] if len(parts) >= 2 else []


def _pieces(rows: Iterable[dict]) -> dict[int, list[str]]:
    return {r["id"]: found for r in rows if r["kind"] == "transcript" and (found := split(r["text"]))}


def _cached(index: Index, embedder_id: str, hashes: list[str]) -> dict[str, Any]:
    import numpy as np  # deferred: only vector work needs numpy

    found: dict[str, Any] = {}
    for part, marks in in_batches(hashes):
        rows = index.query(f"SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN ({marks})", [embedder_id, *part])
        found.update({r["text_hash"]: np.frombuffer(r["vector"], dtype=np.float32) for r in rows})
    return found


def _embed(index: Index, embedder: Any, todo: list[tuple[str, str]]) -> dict[str, Any]:
    """Embed (hash, sentence) pairs and keep their vectors in the embedding cache."""
    import numpy as np

    from clawmem.index.vectors import BATCH, _blob, interruptible

    found: dict[str, Any] = {}
    now = now_iso()
    for start in range(0, len(todo), BATCH):
        batch = todo[start : start + BATCH]
        vectors = interruptible(partial(embedder.embed, [t for _, t in batch], batch_size=BATCH))
        found.update({h: np.asarray(v, dtype=np.float32) for (h, _), v in zip(batch, vectors, strict=True)})
        with index.transaction():
            index.executemany(
                "INSERT INTO embedding_cache(embedder, text_hash, vector, last_used) VALUES (?,?,?,?) "
                "ON CONFLICT(embedder, text_hash) DO UPDATE SET last_used = excluded.last_used",
                [(embedder.id, h, _blob(found[h]), now) for h, _ in batch],
            )
    return found


def _vectors(index: Index, embedder: Any, pieces: dict[int, list[str]], max_new: int | None) -> dict[str, Any]:
    """Sentence hash -> vector: the cache's, then the model's for at most ``max_new`` missing sentences."""
    texts = {text_hash(p): p for found in pieces.values() for p in found}
    vectors = _cached(index, embedder.id, sorted(texts))
    todo = [(h, t) for h, t in texts.items() if h not in vectors][:max_new]
    return {**vectors, **_embed(index, embedder, todo)} if todo else vectors


def embed_all(index: Index, embedder: Any) -> int:
    """Embed the sentences of every transcript turn (``clawmem index`` with ``search.piece_weight`` on); how many were new."""
    found = _pieces(index.query("SELECT id, kind, text FROM entries WHERE kind = 'transcript'"))
    before = len(_cached(index, embedder.id, sorted({text_hash(p) for ps in found.values() for p in ps})))
    return len(_vectors(index, embedder, found, None)) - before


def best(index: Index, embedder: Any, query_vector: Any, rows: dict[int, dict], *, max_new: int | None) -> dict[int, tuple[float, str]]:
    """Entry id -> (its best sentence's score on the common scale, that sentence), for multi-sentence turns;
    sentences not embedded yet are embedded first (at most ``max_new``: `clawmem index` embeds them all)."""
    from clawmem.embeddings.base import similarity

    pieces = _pieces(rows.values())
    vectors = _vectors(index, embedder, pieces, max_new)
    scored: dict[int, tuple[float, str]] = {}
    for entry_id, found in pieces.items():
        cosines = [(float(vectors[h] @ query_vector), p) for p in found if (h := text_hash(p)) in vectors]
        if cosines:
            cosine, piece = max(cosines)
            scored[entry_id] = (max(0.0, float(similarity(cosine, embedder.cosine_floor))), piece)
    return scored


def lifted(vector_score: float, piece_score: float, weight: float) -> float:
    """The vector score moved ``weight`` of the way up to the best sentence's (never down)."""
    return vector_score + weight * max(0.0, piece_score - vector_score)
