"""A derived, memory-mapped int8 copy of the vec0 table: the vector scan that meets the 100k target.

sqlite-vec's float32 scan took 67-83 ms over 100k entries; converting int8 rows to float32 a
block at a time and multiplying with BLAS takes about a sixth of that, maps a quarter of the
bytes (so peak RSS stays low) and, rescored exactly afterwards, returns the same neighbours
(``benchmarks/README.md``, Speed). The index stays the one source of truth: the matrix lives
in ``.clawmem/cache/`` under a name made of the embedder and the vector set's (count, largest
rowid) — rowids are never reused, so that pair names the set — and a stale or missing one is
rebuilt (new rows appended when nothing was deleted) on the next scan. Writes go to a temporary
folder renamed into place, so concurrent searches never see half a matrix.
"""

from __future__ import annotations

import json
import os
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from clawmem.foundation.config import VECTOR_SCAN_BLOCK_ROWS, VECTOR_SCAN_SHARED_MIN_ROWS
from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.records import dataclass
from clawmem.index.db import Index

if TYPE_CHECKING:
    import numpy as np

POOL_FACTOR = 2  # candidates kept from the quantised scan per wanted neighbour, for exact rescoring (2 and 4: the same results at 100k and on LoCoMo dev)
VEC_TABLE = "entry_vectors"
PARTS = ("ids", "codes", "scales", "trusted", "tiers")
FILES = (*(f"{part}.npy" for part in PARTS), "meta.json")
MATRIX_TABLES = frozenset({VEC_TABLE, f"{VEC_TABLE}_rowids"})  # what ``_state`` reads: ``Index.derived`` keeps it while they stand


@dataclass(frozen=True)
class Matrix:
    ids: np.ndarray  # int64 rowids
    codes: np.ndarray  # int8 (n, dimension), memory-mapped
    scales: np.ndarray  # float32 per row: vector ~= codes * scale
    trusted: np.ndarray  # bool per row (the vec0 row's flag)
    tiers: np.ndarray  # uint8 code per row into ``tier_names``
    tier_names: list[str]


def cache_root(index: Index) -> Path:
    return Path(index.path).parent / "cache"


def _prefix(embedder_id: str) -> str:
    return "vectors-" + sha256_hex(embedder_id.encode())[:16]


def _state(index: Index) -> tuple[int, int]:
    count, largest = index.conn.execute(f"SELECT count(*), coalesce(max(rowid), 0) FROM {VEC_TABLE}_rowids").fetchone()
    return int(count), int(largest)


def _read_rows(index: Index, after: int) -> tuple[list[int], list[bytes], list[str], list[int]]:
    ids, blobs, tiers, trusted = [], [], [], []
    for rowid, blob, tier, flag in index.conn.execute(
        f"SELECT rowid, embedding, tier, trusted FROM {VEC_TABLE} WHERE rowid > ? ORDER BY rowid", (after,)
    ):
        ids.append(rowid)
        blobs.append(blob)
        tiers.append(tier or "")
        trusted.append(flag)
    return ids, blobs, tiers, trusted


def _quantise(blobs: list[bytes], dimension: int) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    floats = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), dimension)
    scales = np.abs(floats).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    return np.rint(floats / scales[:, None]).astype(np.int8), scales.astype(np.float32)


def _load(folder: Path) -> Matrix:
    import numpy as np

    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    return Matrix(
        ids=np.load(folder / "ids.npy"), codes=np.load(folder / "codes.npy", mmap_mode="r"), scales=np.load(folder / "scales.npy"),
        trusted=np.load(folder / "trusted.npy"), tiers=np.load(folder / "tiers.npy"), tier_names=meta["tiers"],
    )


def _write(root: Path, name: str, m: Matrix) -> Path:
    import shutil  # deferred with tempfile (which imports it): their compression modules load only for a rebuild
    import tempfile

    import numpy as np

    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    for part in PARTS:
        np.save(work / f"{part}.npy", np.ascontiguousarray(getattr(m, part)))
    (work / "meta.json").write_text(json.dumps({"tiers": m.tier_names}), encoding="utf-8")
    final = root / name
    try:
        os.rename(work, final)
    except OSError:  # another search built the same matrix first: same name, same content
        shutil.rmtree(work, ignore_errors=True)
    return final


def _build(index: Index, root: Path, prefix: str, state: tuple[int, int], dimension: int) -> Matrix:
    """The matrix for ``state``: the newest older one extended when no row was deleted, else from scratch."""
    import shutil

    import numpy as np

    base: Matrix | None = None
    for old in sorted(root.glob(f"{prefix}-*"), key=lambda p: p.stat().st_mtime, reverse=True) if root.is_dir() else []:
        try:
            count, largest = (int(x) for x in old.name.rsplit("-", 2)[1:])
        except ValueError:
            continue
        kept = index.scalar(f"SELECT count(*) FROM {VEC_TABLE}_rowids WHERE rowid <= ?", (largest,))
        if kept == count and largest <= state[1]:
            base = _load(old)
            break
    after = int(base.ids[-1]) if base is not None and len(base.ids) else 0
    ids, blobs, tiers, trusted = _read_rows(index, after)
    names = list(base.tier_names) if base is not None else []
    for tier in tiers:
        if tier not in names:
            names.append(tier)
    codes, scales = _quantise(blobs, dimension) if blobs else (np.zeros((0, dimension), np.int8), np.zeros(0, np.float32))
    fresh = Matrix(
        np.asarray(ids, dtype=np.int64), codes, scales, np.asarray(trusted, dtype=bool),
        np.asarray([names.index(t) for t in tiers], dtype=np.uint8), names,
    )
    if base is not None:
        fresh = Matrix(
            np.concatenate([base.ids, fresh.ids]), np.concatenate([base.codes, fresh.codes]), np.concatenate([base.scales, fresh.scales]),
            np.concatenate([base.trusted, fresh.trusted]), np.concatenate([base.tiers, fresh.tiers]), names,
        )
    folder = _write(root, f"{prefix}-{state[0]}-{state[1]}", fresh)
    for old in root.glob(f"{prefix}-*"):
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return _opened(index, folder)


def current(index: Index, dimension: int) -> Matrix:
    """The matrix of the vec0 table as it is now, rebuilt first when stale.

    Which matrix that is takes counting the vec0 rows (about 3 ms at 100k entries), so a
    connection that serves many searches (the worker, the MCP server) keeps the count until the
    index changes (``Index.derived``), and keeps the mapped files too (``_opened``).
    """
    embedder_id = index.meta("embedder_id") or ""
    root, prefix = cache_root(index), _prefix(embedder_id)
    state = index.derived("matrix.state", MATRIX_TABLES, lambda: _state(index))
    folder = root / f"{prefix}-{state[0]}-{state[1]}"
    if (folder / "meta.json").is_file():
        try:
            m = _opened(index, folder)
            if m.codes.shape == (len(m.ids), dimension) and len(m.ids) == state[0]:
                return m
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache is rebuilt, like a stale one
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return _build(index, root, prefix, state, dimension)


_kept: weakref.WeakKeyDictionary[Index, tuple[tuple, Matrix]] = weakref.WeakKeyDictionary()


def _opened(index: Index, folder: Path) -> Matrix:
    """The matrix in ``folder``, mapped once per connection while its files stay the ones mapped.

    Mapping the 38 MB of codes afresh cost a search about 6 ms at 100k entries (the page faults),
    as much as the scan itself. Each file's identity, size and modification time are checked on
    every call (a few microseconds): a file damaged in place or replaced is opened again, never
    read through the old mapping. A file changed after that check, during the scan, is as much a
    risk as it was with a mapping made per search.
    """
    signature = (folder, tuple(_identity(folder / name) for name in FILES))
    kept = _kept.get(index)
    if kept is not None and kept[0] == signature:
        return kept[1]
    m = _load(folder)
    _kept[index] = (signature, m)
    return m


def _identity(path: Path) -> tuple[int, int, int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def _products(codes: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``codes @ query`` a block at a time, the blocks shared by this thread and, over a large matrix, a helper.

    Each block is taken by whichever thread is free next (one shared iterator: ``next`` holds the
    GIL, the conversion and the product release it), so on two free cores the scan takes about
    half as long, and when another process holds a core the caller does most blocks itself.
    """
    import numpy as np

    n = len(codes)
    scores = np.empty(n, dtype=np.float32)
    blocks = iter(range(0, n, VECTOR_SCAN_BLOCK_ROWS))

    def work() -> None:
        for start in blocks:
            block = codes[start : start + VECTOR_SCAN_BLOCK_ROWS]
            scores[start : start + len(block)] = block.astype(np.float32) @ query

    if n >= VECTOR_SCAN_SHARED_MIN_ROWS:
        from clawmem.foundation.background import in_background

        helper = in_background(work, "clawmem-scan")
        work()
        helper()
    else:
        work()
    return scores


def scan(index: Index, query_vector: np.ndarray, *, k: int, tier: str | None, trusted_only: bool) -> list[tuple[int, float]] | None:
    """Approximate top ``k x POOL_FACTOR`` by cosine; None when the matrix cannot be had (the caller uses vec0)."""
    import numpy as np

    query = np.asarray(query_vector, dtype=np.float32)
    try:
        m = current(index, len(query))
    except (OSError, ValueError) as err:
        from clawmem.foundation.errors import warn

        warn(f"vector cache unavailable, scanning the index instead: {err}")
        return None
    n = len(m.ids)
    if not n:
        return []
    scores = _products(m.codes, query)
    scores *= m.scales
    keep = np.ones(n, dtype=bool)
    if trusted_only:
        keep &= m.trusted
    if tier is not None:
        keep &= m.tiers == (m.tier_names.index(tier) if tier in m.tier_names else 255)
    scores[~keep] = -np.inf
    pool = min(int(keep.sum()), max(k, 1) * POOL_FACTOR)
    if pool <= 0:
        return []
    best = np.argpartition(-scores, pool - 1)[:pool]
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(int(m.ids[i]), max(0.0, float(scores[i]))) for i in best]
