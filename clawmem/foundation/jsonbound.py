"""JSON from outside (a hook's stdin, a union-merged ledger line) parsed only when it is shallow enough.

``json`` recurses once per nesting level and raises ``RecursionError`` (not ``ValueError``) near
a thousand levels, so a 100,000-deep array would escape every ``except ValueError``. The depth is
measured first, without recursion, and a deeper text is refused as ``ValueError`` like any other
text that is not the JSON wanted.
"""

from __future__ import annotations

import json
import re
from typing import Any

# one pass, left to right: a string (to its closing quote, or to the end when unclosed) or a bracket
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)|[\[\]{}]', re.DOTALL)


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= 1:
        return text.count("[") + text.count("{")
    depth = deepest = 0
    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif mark in ("]", "}"):
            depth -= 1
    return deepest


def loads(data: bytes | str, *, max_depth: int) -> Any:
    """``json.loads`` for untrusted text: ValueError for invalid UTF-8, invalid JSON or nesting past ``max_depth``."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data  # UnicodeDecodeError is a ValueError
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth:
        raise ValueError(f"JSON nested deeper than {max_depth} levels")
    return json.loads(text)
