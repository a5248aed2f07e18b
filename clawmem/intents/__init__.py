"""Standing intents: prospective memory compiled out of the model (docs/design.md section 8).

* **event** intents ("when the release comes up, mention the changelog"): trigger phrases,
  channel/sender scope, expiry, fire budget and cooldown; ``match_for_recall`` fires them
  deterministically on each inbound message.
* **time** intents ("remind me Friday"): a due time; ``fire_due`` (``clawmem intent due``,
  run by cron every minute) fires each exactly once.
* **aspirations** that cannot be compiled stay in Markdown with a review date (``aspirations``).

Only owner or agent origin may create or cancel an intent. Everything here is importable
without heavy packages (dateparser loads only when a phrase like "friday 9am" is parsed).
This face imports nothing: ``status`` and every recall read the aspirations, and must not
load the matching, the schedule and the store for it. Import from the modules
(``matching``, ``model``, ``schedule``, ``store``, ``aspirations``).
"""
