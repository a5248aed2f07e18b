"""Which file a session's transcript goes to: a session id is bound to the caller that sent it.

A session id is a name any caller can say. Keyed by the id alone, the first caller to ingest
it (an MCP client, say) owned ``transcripts/<session>.md``, and the owner's own session-end
ingest of the same session was then refused as "replacing" it: the owner's turns were lost.
So the identity of a transcript is the session id *with* the sender's origin class and the
host (channel) it came through. The first sender takes the plain name; a sender with another
origin or host gets its own file, ``<session>@<host>-<origin>.md`` (``@`` never appears in a
session id, so no session's plain name can be another's slot). Nobody replaces another
sender's transcript, and nobody is refused because someone else used the id first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from clawmem.foundation.config import SESSION_SLOT_SEPARATOR
from clawmem.storage.ledger_records import LedgerRecord, TranscriptRecord, is_kind

TRANSCRIPTS = "transcripts"
NAME_PART = re.compile(r"[^a-z0-9-]+")


def _claimants(records: Iterable[LedgerRecord], rel: str) -> set[tuple[str, str | None]]:
    """(origin, host) of every sender of the transcript at ``rel`` (host None: recorded before hosts were)."""
    return {
        (str(r.get("origin")), r.get("host") if isinstance(r.get("host"), str) else None)
        for r in records
        if is_kind(r, TranscriptRecord) and r.get("path") == rel
    }


def _same_sender(claimant: tuple[str, str | None], origin: str, host: str) -> bool:
    """A claim is this sender's when the origin agrees and the host does (or was not recorded)."""
    return claimant[0] == origin and claimant[1] in (None, host)


def slot_rel(session: str, origin: str, host: str) -> str:
    """The sender's own transcript path for a session another sender named first."""
    tag = f"{NAME_PART.sub('-', host.lower())}-{NAME_PART.sub('-', origin.lower())}"
    return f"{TRANSCRIPTS}/{session}{SESSION_SLOT_SEPARATOR}{tag}.md"


def session_slot(records: Sequence[LedgerRecord], session: str, origin: str, host: str) -> str:
    """The transcript path of ``session`` as sent by ``origin`` through ``host`` (relative to the workspace).

    The plain ``transcripts/<session>.md`` when nobody else sent it; else this sender's own slot.
    """
    plain = f"{TRANSCRIPTS}/{session}.md"
    claims = _claimants(records, plain)
    if not claims or all(_same_sender(c, origin, host) for c in claims):
        return plain
    return slot_rel(session, origin, host)


def unbound_slot(records: Sequence[LedgerRecord], session: str, origin: str, host: str) -> str:
    """The rule before sessions were bound to their sender: the id alone names the file."""
    return f"{TRANSCRIPTS}/{session}.md"


def session_files(rels: Iterable[str], session: str) -> list[str]:
    """Every transcript file of ``session`` among ``rels``: its plain name and each sender's slot."""
    plain = f"{TRANSCRIPTS}/{session}.md"
    prefix = f"{TRANSCRIPTS}/{session}{SESSION_SLOT_SEPARATOR}"
    return sorted(r for r in rels if r == plain or (r.startswith(prefix) and r.endswith(".md") and "/" not in r[len(prefix):]))
