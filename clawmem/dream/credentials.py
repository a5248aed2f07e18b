"""Credentials never reach the curated core.

``MEMORY.md`` and ``USER.md`` are injected into every session and shared with the team, so a
sentence that gives a secret's *value* is never curated, however often it is said or looked up:
"For your local .env it's 3f9a1c2e-…", "the staging password is hunter2-Blue!",
``STRIPE_KEY=sk_live_…``. Where the secret *lives* is a fact worth keeping ("The token is
POSTMARK_API_KEY in the Gigalixir config", "the password is in 1Password") and stays.

``found`` says which kind of value a text gives:

- a provider's key format: detect-secrets' regex detectors (AWS, GitHub, Slack, Stripe, JWT,
  private keys, URLs with a password, …), kept up to date upstream;
- an assignment to a credential-named variable (``API_TOKEN=…``, ``password: …``);
- a value given for a credential in prose ("the password is …", "token: …", "the token 7f3k…");
- an opaque string (a UUID, a long hex or base64 run) in a sentence about a credential.

The episodic tier keeps what was said (``clawmem forget --no-undo`` removes a leaked secret);
only curation refuses it. Dreaming applies ``found`` per sentence when it reads claims (the
rest of the turn still counts), to each directive, and again at the gate.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from detect_secrets.plugins.base import RegexBasedDetector

REASON = "gives a credential's value ({kind}): the curated core is injected into every session, so a secret is never curated"

# what a secret is called, in the languages people paste into a terminal
_CREDENTIAL = (
    r"pass(?:word|wd|phrase|code)s?|pin(?:\s+code)?|(?:api|access|auth|secret|private|signing|license|licence)?[\s_-]?keys?|"
    r"(?:api|access|auth|bearer|refresh|session|bot|personal access)?[\s_-]?tokens?|secrets?|credentials?|client[\s_-]secret|"
    r"mot de passe|contrase[ñn]a|passwort|kennwort|senha|parola d'ordine|has[łl]o|пароль|密码|口令|パスワード|비밀번호"
)
_WORD = rf"(?<![A-Za-z0-9_.])(?:{_CREDENTIAL})(?![A-Za-z0-9_])"  # ASCII bounds: "密码是…" has none
CREDENTIAL_WORD = re.compile(rf"{_WORD}|(?<!\w)\.env\b", re.IGNORECASE)
# NAME=value / name: value, where the name says it holds a secret
ASSIGNMENT = re.compile(
    r"\b(?P<name>[A-Za-z_][\w.-]*(?:key|token|secret|passw(?:or)?d|pass|pwd|credentials?)[\w.-]*)\s*[=:]\s*[\"'`]?(?P<value>[^\s\"'`,;]+)",
    re.IGNORECASE,
)
# "the password is hunter2-Blue!", "token: abc123", "le mot de passe est …": the value right after
GIVEN = re.compile(
    rf"{_WORD}(?:(?:\s+[\w.-]+){{0,4}}?\s+(?:is|was|are|est|es|ist|é)\b|'s|\s*(?:是|は)|(?:\s+(?:for|of|on|to|für|pour|para)(?:\s+[\w.-]+){{1,3}})?\s*[:=])\s*"
    r"[\"'`]?(?P<value>[^\s\"'`]+?)[\"'`]?(?=[.,;!?)]*(?:\s|$))",
    re.IGNORECASE,
)
# "the token 7f3k9QpZx2", "password Tr0ub4dor&3": a value in apposition
APPOSED = re.compile(rf"{_WORD}\s+[\"'`]?(?P<value>[^\s\"'`]{{8,}}?)[\"'`]?(?=[.,;!?)]*(?:\s|$))", re.IGNORECASE)
OPAQUE = re.compile(r"(?<![\w/-])[A-Za-z0-9+/_-]{16,}={0,2}(?![\w/-])")  # a UUID, a long hex or base64 run
REFERENCE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[$%<{].*|.*[}>]|(?:x+|\*+|\.{3}|…)", re.ASCII)  # another variable's name, a placeholder
SYMBOLS = frozenset("!@#$%^&*+=?~/")
PATH = re.compile(r"^(?:[~/]|\.{1,2}/|\w+://(?![^/\s]*:[^/\s]*@))")  # a file or a URL with no password in it


@functools.cache
def _detectors() -> tuple[RegexBasedDetector, ...]:
    """detect-secrets' format detectors (a public IPv4 address is no secret). Imported here, when
    a sweep first reads a claim: loading them costs about 0.1 s that nothing else should pay."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector
    from detect_secrets.plugins.ip_public import IPPublicDetector

    kinds: list[type] = list(get_mapping_from_secret_type_to_class().values())
    return tuple(k() for k in kinds if issubclass(k, RegexBasedDetector) and k is not IPPublicDetector)


def _secret_like(value: str) -> bool:
    """Whether ``value`` looks like a secret, not a word, a type or header name, a reference to a
    secret or a path: six or more characters with a digit or a symbol ("hunter2", "Tr0ub4dor&3").
    A passphrase of plain words ("correct-horse-battery") passes unseen."""
    value = value.rstrip(".,;:!?)")
    if len(value) < 6 or REFERENCE.fullmatch(value) or PATH.match(value):
        return False
    return any(c.isdigit() or c in SYMBOLS for c in value)


def _random(run: str) -> bool:
    """Whether a long run of letters and digits is random, not words: digits and letters mixed in
    it (a UUID, a hex digest, a base64 blob), and no separator-free English ("/run/secrets/db_password")."""
    return sum(c.isdigit() for c in run) >= 3 and sum(c.isalpha() for c in run) >= 3 and not run.startswith("/")


def found(text: str) -> str | None:
    """The kind of credential value ``text`` gives (module docstring), or None when it gives none."""
    for detector in _detectors():
        if any(True for _ in detector.analyze_string(text)):
            return detector.secret_type
    if any(_secret_like(m["value"]) for m in ASSIGNMENT.finditer(text)):
        return "an assignment to a credential"
    if any(_secret_like(m["value"]) for m in GIVEN.finditer(text)) or any(_random(m["value"]) for m in APPOSED.finditer(text)):
        return "a value given for a credential"
    if CREDENTIAL_WORD.search(text) and any(_random(m[0]) for m in OPAQUE.finditer(text)):
        return "an opaque string beside a credential"
    return None


def reason(text: str) -> str | None:
    """Why ``text`` may not be curated because it gives a credential's value; None when it gives none."""
    kind = found(text)
    return REASON.format(kind=kind) if kind else None
