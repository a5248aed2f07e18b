"""The provenance ledger read once per audit: when each entry was first recorded, taints, tombstones."""

from __future__ import annotations

import datetime as dt

from clawmem.foundation.records import dataclass, field
from clawmem.storage import ledger
from clawmem.storage.ledger_records import EntryRecord, TaintRecord, TombstoneRecord, is_kind
from clawmem.storage.workspace import Workspace
from clawmem.trust import provenance


def when(value: str | None) -> dt.datetime | None:
    """An ISO time or date as a naive local datetime (aware values converted); public: the review report reads stored times with it."""
    if not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone().replace(tzinfo=None) if parsed.tzinfo else parsed


@dataclass
class Ledger:
    """The ledger as the audit reads it; public: the review report shows when each curated entry entered from it."""

    intact: bool
    first_at: dict[tuple[str, str], str | None] = field(default_factory=dict)  # (path, hash) -> first record time
    taints: dict[str, list[tuple[str | None, str | None]]] = field(default_factory=dict)  # path -> [(origin, at)]
    tombstoned: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, ws: Workspace) -> Ledger:
        read = ledger.read(ws)
        found = cls(read.ledger_id is not None)
        for r in read.records:
            if is_kind(r, EntryRecord) and isinstance(r.get("path"), str) and isinstance(r.get("hash"), str):
                found.first_at.setdefault((r["path"], r["hash"]), r.get("at"))
            elif is_kind(r, TaintRecord) and isinstance(r.get("path"), str):
                found.taints.setdefault(r["path"], []).append((r.get("origin"), r.get("at")))
            elif is_kind(r, TombstoneRecord) and isinstance(r.get("hash"), str):
                found.tombstoned.add(r["hash"])
        return found

    def tainted_before(self, path: str, moment: str | None) -> str | None:
        """The least trusted untrusted/system taint of ``path`` recorded no later than ``moment`` (any, if None)."""
        limit = when(moment)
        bad = [
            origin for origin, at in self.taints.get(path, ())
            if provenance.untrusted_class(origin) and (limit is None or (when(at) or dt.datetime.min) <= limit)
        ]
        return provenance.least_trusted(*bad) if bad else None
