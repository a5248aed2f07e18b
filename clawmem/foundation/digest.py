"""SHA-256 without loading OpenSSL for the short texts every command hashes: lines, ids, queries (issue 26).

``hashlib`` loads OpenSSL's libcrypto as it is imported: about 4 ms of wall time, a sixth of the
interpreter's own start, paid by ``status`` and ``search`` for digests of a few dozen bytes.
CPython's own SHA-256 (what ``hashlib`` falls back to without OpenSSL) gives the same digest, at
about the same speed for short inputs and five times slower for long ones, so an input longer than
``config.DIGEST_BUILTIN_MAX_BYTES`` (a file's contents) goes to ``hashlib``.
"""

from __future__ import annotations

from clawmem.foundation.config import DIGEST_BUILTIN_MAX_BYTES

# CPython's own modules (no stubs): _sha2 from 3.12, _sha256 before; an interpreter without either has hashlib's only
try:
    from _sha2 import sha256 as _builtin_sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:
    try:
        from _sha256 import sha256 as _builtin_sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:
        from hashlib import sha256 as _builtin_sha256  # type: ignore[assignment,unused-ignore]


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex, as ``hashlib.sha256(data).hexdigest()``."""
    if len(data) > DIGEST_BUILTIN_MAX_BYTES:
        import hashlib

        return hashlib.sha256(data).hexdigest()
    return _builtin_sha256(data).hexdigest()
