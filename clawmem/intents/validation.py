"""What an intent may be made of, checked before anything is written: phrases, scope, text (the creator: ``trust.authority.check_creator``).

Apart from ``store.py`` (rows and their ledger mirror) so the rules a request must meet can
be read, and reused by aspirations, without the replay machinery.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from clawmem.foundation.errors import BadInput, BadValue
from clawmem.index.tokens import query_terms
from clawmem.rules import incoming
from clawmem.rules.inputs import decode_input
from clawmem.storage.workspace import Workspace

MAX_PHRASES = 20
MAX_PHRASE_CHARS = 200
MAX_SCOPE_CHARS = 200


def check_fire_limits(budget: int | None, cooldown_s: int | None) -> None:
    """``--budget`` and ``--cooldown`` within range, before anything is written: a larger number
    would overflow SQLite's integer now, or the cooldown's time when the intent next fires."""
    from clawmem.foundation.config import DURATION_MAX_S, INTENT_BUDGET_MAX, shown

    if budget is not None and not 1 <= budget <= INTENT_BUDGET_MAX:
        raise BadValue(f"--budget {shown(budget)} is out of range", hint=f"give 1 to {INTENT_BUDGET_MAX:,} fires")
    if cooldown_s is not None and not 0 <= cooldown_s <= DURATION_MAX_S:
        raise BadValue(f"--cooldown of {shown(cooldown_s)} seconds is out of range", hint=f"give at most {DURATION_MAX_S // 86400:,}d")


def clean_phrases(raw: Iterable[str]) -> list[str]:
    """Trigger phrases from ``--when`` values (each may hold several, split on ``,`` or ``;``)."""
    phrases: list[str] = []
    seen: set[str] = set()
    for value in raw:
        for part in re.split(r"[,;]", value):
            phrase = incoming.clean_value(part)
            if not phrase:
                continue
            if len(phrase) > MAX_PHRASE_CHARS:
                raise BadInput(f"trigger phrase is longer than {MAX_PHRASE_CHARS} characters: {phrase[:40]!r}…")
            if not query_terms(phrase):
                raise BadInput(f"trigger phrase {phrase!r} has no words to match", hint="give keywords such as --when 'release'")
            if phrase.casefold() not in seen:
                seen.add(phrase.casefold())
                phrases.append(phrase)
    if len(phrases) > MAX_PHRASES:
        raise BadInput(f"{len(phrases)} trigger phrases; at most {MAX_PHRASES}")
    return phrases


def clean_scope(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    cleaned = incoming.clean_value(value)
    if len(cleaned) > MAX_SCOPE_CHARS:
        raise BadInput(f"{what} is longer than {MAX_SCOPE_CHARS} characters")
    return cleaned or None


def clean_text(ws: Workspace, text: str, origin: str) -> str:
    text = decode_input(text, limit=ws.config.limits.max_note_bytes, what="intent text")
    text = incoming.clean(text, typed_by_owner=origin == "owner")[0].strip()
    if not text:
        raise BadInput("intent text is empty once recalled blocks are removed")
    return text


# operations ------------------------------------------------------------------------------
