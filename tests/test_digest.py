"""``foundation.digest.sha256_hex``: hashlib's digest, without loading OpenSSL for short inputs (issue 26)."""

from __future__ import annotations

import hashlib

from clawmem.foundation.config import DIGEST_BUILTIN_MAX_BYTES
from clawmem.foundation.digest import sha256_hex


def test_the_digest_is_hashlibs_on_either_side_of_the_threshold():
    for size in (0, 1, 63, 64, 1000, DIGEST_BUILTIN_MAX_BYTES, DIGEST_BUILTIN_MAX_BYTES + 1, 1 << 20):
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        assert sha256_hex(data) == hashlib.sha256(data).hexdigest(), size
