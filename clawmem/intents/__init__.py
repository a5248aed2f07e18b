"""Standing intents: prospective memory compiled out of the model (docs/design.md section 8).

* **event** intents ("when the release comes up, mention the changelog"): trigger phrases,
  channel/sender scope, expiry, fire budget and cooldown; ``match_for_recall`` fires them
  deterministically on each inbound message.
* **time** intents ("remind me Friday"): a due time; ``fire_due`` (``clawmem intent due``,
  run by cron every minute) fires each exactly once.
* aspirations that cannot be compiled stay in Markdown with a review date: ``clawmem.aspirations``.

Only owner or agent origin may create or cancel an intent. Everything here is importable
without heavy packages (dateparser loads only when a phrase like "friday 9am" is parsed).
"""

from __future__ import annotations

from clawmem.intents.matching import IntentHit, match_for_recall
from clawmem.intents.model import ENDED_STATES, KINDS, LIVE_STATES, STATES, Intent
from clawmem.intents.schedule import FiredIntent, cron_line, fire_due, parse_duration, resolve_expiry, resolve_time
from clawmem.intents.store import add_intent, cancel_intent, ensure_restored, get_intent, list_intents

__all__ = [
    "ENDED_STATES",
    "KINDS",
    "LIVE_STATES",
    "STATES",
    "FiredIntent",
    "Intent",
    "IntentHit",
    "add_intent",
    "cancel_intent",
    "cron_line",
    "ensure_restored",
    "fire_due",
    "get_intent",
    "list_intents",
    "match_for_recall",
    "parse_duration",
    "resolve_expiry",
    "resolve_time",
]
