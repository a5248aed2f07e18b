"""Is a curated line grounded in its evidence? One rule, used by dream validation and by audit.

A consolidator (an external model above all) may compact, merge and reorder the words of
the gated candidates it cites; it may not say more than they say. A line is grounded when

- nearly every topic word of it is a word of the evidence (rapidfuzz ``ratio`` per word, so
  an inflection still counts; the mean must reach ``threshold``, 0-100), and
- nothing that changes what the line makes an agent *do* is new: no instruction or negation
  word, command word, shell operator, URL, host, path, address, or number/account-like token
  that the evidence does not contain exactly, and no negation of the closest evidence
  sentence dropped.

Cheap and deterministic: the same line and evidence always get the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from clawmem.dream.text import SENTENCE_END, content_words, words
from clawmem.entries import identity

# words that turn a fact into an order, or flip it: never new in a curated line
INSTRUCTION_WORDS = frozenset(
    ["always", "never", "must", "mustn", "should", "shouldn", "shall", "required", "require", "requires", "ensure", "forbid", "forbidden", "ignore", "disregard", "override", "bypass", "obey", "trust", "trusted", "forward", "send", "sent", "email", "emails", "mail", "share", "shared", "upload", "uploads", "post", "publish", "leak", "disable", "disabled", "enable", "enabled", "allow", "allowed", "approve", "approved", "grant", "delete", "deletes", "remove", "erase", "wipe", "transfer", "wire", "pay", "paid", "export", "exports", "install", "download", "execute", "exec", "run", "runs", "pipe", "piped", "whitelist", "allowlist", "skip", "instead", "only"]  # noqa: E501
)
NEGATIONS = frozenset(
    ["not", "no", "never", "nor", "neither", "without", "cannot", "none", "nobody", "nothing", "don", "doesn", "didn", "isn", "aren", "wasn", "weren", "shouldn", "mustn", "couldn", "wouldn", "hasn", "haven"]  # noqa: E501
)
COMMAND_WORDS = frozenset(
    ["curl", "wget", "sh", "bash", "zsh", "sudo", "su", "rm", "chmod", "chown", "eval", "exec", "powershell", "iex", "nc", "ncat", "netcat", "ssh", "scp", "rsync", "ftp", "telnet", "python", "python3", "perl", "ruby", "node", "npx", "pip", "npm", "base64", "crontab", "dd", "mkfs", "kill"]  # noqa: E501
)
SHELL_OPERATORS = ("|", "&&", "$(", "`", ">", "<", "\\")
NAME_CHARS = re.compile(r"[/\\@:.=$~%?&+#]|\d|\w[-_]\w")  # a name, a path, an address or a number
EDGE = "\"'()[]{}<>,;:!?.*_`"


def _tokens(text: str) -> set[str]:
    """Whitespace tokens without surrounding punctuation, case-folded (URLs and hosts stay whole)."""
    return {t.strip(EDGE).casefold() for t in identity.COMMENT.sub(" ", text).split()} - {""}


def _names(text: str) -> set[str]:
    return {t for t in _tokens(text) if NAME_CHARS.search(t)}


def coverage(text: str, pool: list[str]) -> float:
    """Mean best ``fuzz.ratio`` (0-100) of each topic word of ``text`` against the evidence words."""
    mine = sorted(content_words(text)) or words(text)
    if not mine or not pool:
        return 0.0
    return sum(process.extractOne(w, pool, scorer=fuzz.ratio)[1] for w in mine) / len(mine)


def _sentences(evidence: Iterable[str]) -> list[str]:
    return [s for e in evidence for line in e.splitlines() for s in SENTENCE_END.split(line) if s.strip()]


def ungrounded(text: str, evidence: Iterable[str], threshold: float) -> str | None:
    """Why ``text`` says something ``evidence`` does not; ``None`` when it is grounded in it."""
    evidence = [e for e in evidence if e and e.strip()]
    if not evidence:
        return "no evidence text to ground it in"
    joined = "\n".join(evidence)
    have_words = set(words(joined))
    mine = set(words(text))
    for label, vocabulary in (("instruction", INSTRUCTION_WORDS | NEGATIONS), ("command", COMMAND_WORDS)):
        new = sorted((mine & vocabulary) - have_words)
        if new:
            return f"adds the {label} word(s) {', '.join(new)} that its evidence does not say"
    new_ops = [op for op in SHELL_OPERATORS if op in identity.COMMENT.sub(" ", text) and op not in joined]
    if new_ops:
        return f"adds the shell operator(s) {' '.join(new_ops)} that its evidence does not contain"
    new_names = sorted(_names(text) - _tokens(joined))
    if new_names:
        return f"adds {', '.join(new_names[:3])} (a name, address, path or number its evidence does not contain)"
    score = coverage(text, sorted(have_words))
    if score < threshold:
        return f"its words match its evidence only {score:.0f}% (at least {threshold:g}% needed)"
    closest = max(_sentences(evidence), key=lambda s: fuzz.token_set_ratio(identity.normalise(s), identity.normalise(text)))
    dropped = _dropped_negations(words(closest), mine)
    if dropped:
        return f"drops the negation {', '.join(dropped)} of its evidence"
    return None


def _dropped_negations(sentence: list[str], mine: set[str]) -> list[str]:
    """Negations of ``sentence`` missing from the line although the word they negate is in it
    ("never deploy on Fridays" -> "deploy on Fridays"); a clause dropped whole is compaction."""
    dropped = []
    for i, word in enumerate(sentence):
        if word in NEGATIONS and word not in mine:
            negated = next((w for w in sentence[i + 1 : i + 4] if w in content_words(w)), None)
            if negated in mine:
                dropped.append(word)
    return sorted(set(dropped))
