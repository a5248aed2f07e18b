"""Vocabulary bridges for the lexical lane: a query word also searches for its nearest index words.

A question names a category ("kids", "instruments") where the turns name its members or its
synonyms ("children", "son", "guitar"); BM25 cannot cross that gap. The index's own words that
occur in at least two entries are embedded once (cached by content hash like entry vectors, and
as a memory-mapped matrix in ``.clawmem/cache/`` named by the entry set, so it is rebuilt when
entries change); each query word's nearest of them above a cosine floor are searched for in a
second BM25 round, blended into the text score. No model beyond the installed embedder.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

from clawmem.config import BRIDGE_MIN_COSINE, BRIDGE_MIN_DOCS, BRIDGE_PER_TERM
from clawmem.index import tokens
from clawmem.index.db import Index
from clawmem.index.matrix import cache_root

WORD = re.compile(r"[^\W\d_]{3,}")


def _root(word: str) -> str:
    """A crude shared root, only to keep a query word's own inflections (which BM25's stemmer finds) out of its bridges."""
    return word[:4]


def _words(index: Index) -> list[str]:
    """Words of at least ``BRIDGE_MIN_DOCS`` entries, casefolded, without stopwords."""
    df: Counter[str] = Counter()
    for (text,) in index.conn.execute("SELECT text FROM entries"):
        df.update({w.casefold() for w in WORD.findall(text)})
    return sorted(w for w, n in df.items() if n >= BRIDGE_MIN_DOCS and w not in tokens.STOPWORDS)


def _name(index: Index, embedder_id: str) -> str:
    count, largest = index.conn.execute("SELECT count(*), coalesce(max(id), 0) FROM entries").fetchone()
    return f"bridges-{hashlib.sha256(embedder_id.encode()).hexdigest()[:16]}-{count}-{largest}.npz"


def vocabulary(index: Index, embedder: Any) -> tuple[list[str], Any]:
    """The index's words and their unit vectors, (re)built when the entry set changed."""
    import numpy as np  # deferred: only vector work needs numpy

    root = cache_root(index)
    path = root / _name(index, embedder.id)
    if path.is_file():
        try:
            with np.load(path) as saved:
                return [str(w) for w in saved["words"]], saved["vectors"]
        except (OSError, ValueError, KeyError):
            path.unlink(missing_ok=True)
    words = _words(index)
    vectors = _embedded(index, embedder, words)
    root.mkdir(parents=True, exist_ok=True)
    for stale in root.glob(path.name.rsplit("-", 2)[0] + "-*.npz"):
        stale.unlink(missing_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".bridges-", suffix=".npz", dir=root)
    with os.fdopen(handle, "wb") as out:
        np.savez(out, words=np.array(words), vectors=vectors)
    Path(temporary).replace(path)  # concurrent searches see the old file or the whole new one
    return words, vectors


def _embedded(index: Index, embedder: Any, words: list[str]) -> Any:
    """Each word's vector, from the embedding cache or the model (then cached)."""
    import numpy as np

    from clawmem.index.vectors import BATCH, _blob, interruptible
    from clawmem.ledger import now_iso
    from clawmem.loopguard import text_hash

    hashes = [text_hash(w) for w in words]
    found: dict[str, Any] = {}
    for start in range(0, len(hashes), 500):
        part = hashes[start : start + 500]
        marks = ",".join("?" * len(part))
        rows = index.query(f"SELECT text_hash, vector FROM embedding_cache WHERE embedder = ? AND text_hash IN ({marks})", [embedder.id, *part])
        found.update({r["text_hash"]: np.frombuffer(r["vector"], dtype=np.float32) for r in rows})
    todo = [(h, w) for h, w in zip(hashes, words, strict=True) if h not in found]
    now = now_iso()
    for start in range(0, len(todo), BATCH * 8):
        batch = todo[start : start + BATCH * 8]
        fresh = interruptible(partial(embedder.embed, [w for _, w in batch], batch_size=BATCH * 4))
        found.update({h: np.asarray(v, dtype=np.float32) for (h, _), v in zip(batch, fresh, strict=True)})
        with index.transaction():
            index.executemany(
                "INSERT INTO embedding_cache(embedder, text_hash, vector, last_used) VALUES (?,?,?,?) "
                "ON CONFLICT(embedder, text_hash) DO UPDATE SET last_used = excluded.last_used",
                [(embedder.id, h, _blob(found[h]), now) for h, _ in batch],
            )
    if not words:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    return np.stack([found[h] for h in hashes]).astype(np.float32)


def expansions(index: Index, embedder: Any, query: str) -> dict[str, list[str]]:
    """Query word -> its nearest index words (similarity on the common scale >= ``BRIDGE_MIN_COSINE``, at most ``BRIDGE_PER_TERM``)."""
    asked = [t.casefold() for t in tokens.query_terms(query) if WORD.fullmatch(t)]
    if not asked:
        return {}
    words, vectors = vocabulary(index, embedder)
    if not words:
        return {}
    roots = {_root(a) for a in asked}
    query_vectors = embedder.embed(asked)
    bridges: dict[str, list[str]] = {}
    from clawmem.embeddings.base import similarity

    for word, cosines in zip(asked, similarity(query_vectors @ vectors.T, embedder.symmetric_floor), strict=True):
        near = [words[i] for i in cosines.argsort()[::-1][: BRIDGE_PER_TERM * 4] if cosines[i] >= BRIDGE_MIN_COSINE]
        found = [w for w in near if _root(w) not in roots][:BRIDGE_PER_TERM]
        if found:
            bridges[word] = found
    return bridges
