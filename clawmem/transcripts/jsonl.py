"""clawmem's own JSONL shape: one ``{"role", "content"}`` object per turn (or a JSON array of them).

The permissive format of the first releases: ``speaker``/``name``, a time under any of
``TIME_KEYS`` and a turn id under any of ``ID_KEYS`` are read, content may be a string or a
list of parts with ``text``. A record without a role is refused, as before: this format has
no way to say who produced it.
"""

from __future__ import annotations

from clawmem.foundation.errors import BadInput
from clawmem.transcripts.model import Block, Parsed

TIME_KEYS = ("timestamp", "time", "ts", "created_at", "date")
ID_KEYS = ("id", "turn_id", "dia_id", "turn")


def content(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in value]
        return "\n".join(p for p in parts if isinstance(p, str) and p)
    return "" if value is None else str(value)


def first(record: dict, keys: tuple[str, ...]) -> object:
    return next((record[k] for k in keys if record.get(k) is not None), None)


def parse(records: list[object]) -> Parsed:
    parsed = Parsed()
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict) or "role" not in record:
            raise BadInput(f"transcript record {number} has no role", hint="each line needs {\"role\": ..., \"content\": ...}")
        speaker = record.get("speaker") or record.get("name")
        turn_id = first(record, ID_KEYS)
        parsed.blocks.append(Block(
            role=str(record["role"]).lower(),
            content=content(record.get("content")),
            speaker=str(speaker) if speaker else None,
            when=next((record[k] for k in TIME_KEYS if k in record), None),
            turn_id=str(turn_id) if turn_id is not None else None,
            record=number,
        ))
    return parsed
