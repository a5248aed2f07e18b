"""Host transcript formats: each module turns one host's records into ``Block``s and skip counts.

The modules only read structure. They name each block's role from what the host's format
says about who produced it (the user typed it, the model wrote it, a tool returned it, the
harness injected it); ``clawmem.commands.ingest`` cleans the text, checks the times and maps roles to
origin classes with ``trust.provenance.role_origin``, so every trust decision stays in one place. A record or
block a module does not recognise is counted in ``Parsed.unknown`` and never becomes a turn:
an unknown shape is never guessed to be the user.
"""

from __future__ import annotations

from clawmem.transcripts.model import (
    HOST_SPEAKER,
    MAX_KIND_CHARS,
    MAX_KINDS,
    MEDIA_PARTS,
    OWN_OUTPUT,
    OWN_TOOLS,
    Block,
    Parsed,
    host_speaker,
    own_tool,
    text_of,
)

__all__ = [
    "HOST_SPEAKER", "MAX_KINDS", "MAX_KIND_CHARS", "MEDIA_PARTS", "OWN_OUTPUT", "OWN_TOOLS",
    "Block", "Parsed", "host_speaker", "own_tool", "text_of",
]
