"""The one cleaning step for text entering memory: every writer (note, flush, ingest,
intents, aspirations) passes its text and metadata values through here.

Injected recall blocks are removed (so what clawmem handed out never comes back as new
memory), and everything that was not typed by the owner is neutralised (so it can spell no
annotation or marker). Both steps are gates of their own (``framing.strip_marked`` and
``neutralise.neutralise``), looked up at call time so the gates-off harness can remove them.
"""

from __future__ import annotations

from clawmem.entries import grammar
from clawmem.entries import neutralise as neutraliser
from clawmem.trust import framing


def clean(text: str, *, typed_by_owner: bool) -> tuple[str, int]:
    """``text`` without recall blocks, neutralised unless the owner typed it; and the blocks removed."""
    text, marked = framing.strip_marked(text)
    return (text if typed_by_owner else neutraliser.neutralise(text)), marked


def clean_value(value: str, *, typed_by_owner: bool = False) -> str:
    """A metadata value (trigger, key, project, speaker, turn id): one line, no comment delimiters, inert."""
    return grammar.clean_value(value if typed_by_owner else neutraliser.neutralise(value))
