"""The frames clawmem prints around what it hands an agent, and the stripper that removes them.

Two frames, built only here (search, get, forget, audit, recall and the MCP server use them):

* the recall block, ``<clawmem-recall id="N">`` … ``</clawmem-recall id="N">``: clawmem's own
  output (injected context, search results, excerpts); writers drop it when an agent echoes it
  back, so recalled text never comes back as new memory;
* the untrusted frame, ``<untrusted-content id="N" source="S">`` … ``</untrusted-content id="N">``:
  text of untrusted or system origin, data to evaluate and never instructions.

``N`` is a fresh random nonce per frame, the way collision-proof fences work: content that does
not know it cannot close the frame, even if neutralisation were bypassed. And every string
printed inside a frame (text, labels, ids, citations, metadata values, suggested commands) goes
through ``inert``, the one neutraliser, so content cannot spell a marker in the first place.
"""

from __future__ import annotations

import os
import re

from clawmem.entries import neutralise as _neutraliser
from clawmem.rules import inputs

RECALL = "clawmem-recall"
UNTRUSTED = "untrusted-content"
NONCE_BYTES = 8
_OPEN_RECALL = re.compile(r'<\s*clawmem-recall\b(?:[^>]*?\bid\s*=\s*"(?P<id>[^"]*)")?[^>]*>', re.IGNORECASE)
_LEGACY_CLOSE = re.compile(r"<\s*/\s*clawmem-recall\s*>", re.IGNORECASE)


def new_nonce() -> str:
    """A fresh nonce for one frame (unguessable, so no stored text can carry it): ``secrets.token_hex``
    without importing ``secrets`` (and ``random``) on every search and recall."""
    return os.urandom(NONCE_BYTES).hex()


def inert(text: str) -> str:
    """``text`` as it may be printed inside a frame: neutralised, so it spells no marker or comment,
    and printable, so it holds no C0 or C1 control a terminal would obey."""
    return inputs.printable(_neutraliser.neutralise(text))


def _attribute(value: str) -> str:
    """An attribute value that stays one quoted value on one line."""
    flat = " ".join(inert(value).split())
    return flat.replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def _open(name: str, nonce: str, source: str | None = None) -> str:
    """An opening tag; without a nonce (only the gates-off control asks for that) the legacy form."""
    attrs = f' id="{nonce}"' if nonce else ""
    attrs += f' source="{_attribute(source)}"' if source is not None else ""
    return f"<{name}{attrs}>"


def _close(name: str, nonce: str) -> str:
    return f'</{name} id="{nonce}">' if nonce else f"</{name}>"


def frame_untrusted(text: str, source: str) -> str:
    """Untrusted or system text inside its own untrusted-content frame, citing where it came from."""
    nonce = new_nonce()
    return f"{_open(UNTRUSTED, nonce, source)}\n{inert(text)}\n{_close(UNTRUSTED, nonce)}"


def recall_block(body: str) -> str:
    """Mark what clawmem hands out, so writers drop it when it is echoed back.

    ``body`` is already made of framed or ``inert`` parts (the caller composes it, so the
    untrusted frames inside stay frames); it is not neutralised again here.
    """
    nonce = new_nonce()
    return f"{_open(RECALL, nonce)}\n{body.rstrip()}\n{_close(RECALL, nonce)}"


def holds_untrusted(text: str) -> bool:
    """Whether ``text`` carries an untrusted-content frame (recalled untrusted text the agent then saw)."""
    return f"<{UNTRUSTED}" in text.casefold()


def strip_marked(text: str) -> tuple[str, int]:
    """Remove recall blocks from ``text``; return what is left and how many blocks went.

    A block runs from its opening tag to the closing tag with the same nonce; nothing inside
    (forged closes, nested opens) ends it early. A nonce-less block (written before nonces) is
    removed conservatively: to the last nonce-less closing tag after it. An opening tag that
    nothing closes in ``text`` (one turn, one flush, one note) opens no block: ``unclosed_end``.
    """
    kept: list[str] = []
    pos = count = 0
    while (opening := _OPEN_RECALL.search(text, pos)) is not None:
        kept.append(text[pos : opening.start()])
        count += 1
        pos = _block_end(text, opening)
    kept.append(text[pos:])
    return "".join(kept), count


def _block_end(text: str, opening: re.Match) -> int:
    """Where the block opened by ``opening`` ends (``unclosed_end`` when nothing closes it)."""
    nonce = opening["id"]
    if nonce:
        closing = re.compile(rf'<\s*/\s*clawmem-recall\s+id\s*=\s*"{re.escape(nonce)}"\s*>', re.IGNORECASE).search(text, opening.end())
        return closing.end() if closing else unclosed_end(text, opening)
    closings = list(_LEGACY_CLOSE.finditer(text, opening.end()))
    return closings[-1].end() if closings else unclosed_end(text, opening)


def unclosed_end(text: str, opening: re.Match) -> int:
    """An opening tag that nothing closes removes only itself and the rest of its line.

    A marker opens a block only when the block closes in the same text (one turn, flush or
    note): clawmem always writes both tags. An unclosed one comes from content (a web page, a
    tool result) or from a cut-off echo; running it to the end would swallow every later line
    the agent or the owner wrote. Injected lines left behind by a cut-off echo are still
    dropped, by identity (``echoes.injected_copy``).
    """
    newline = text.find("\n", opening.end())
    return len(text) if newline < 0 else newline
