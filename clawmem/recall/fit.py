"""Context that fits the host: the cap filled by value, no entry cut, and what stayed out said.

Claude Code and Codex cut hook output past about 10,000 characters (Claude Code keeps a 2 KB
preview and a file path, Codex cuts out the middle), so an oversized bootstrap reaches the
model as a fragment. ``fit`` keeps the whole hook output within the host's cap
(``hooks.<host>_context_chars``), counted as the host counts it (``hook_chars``): the context
JSON-escaped inside its ``hookSpecificOutput`` envelope, framing included.

Filled by value, whole entries only, in this order: ``USER.md`` directives (the owner's
rules), fired intents and due aspirations (already recorded as fired or shown, and few),
``MEMORY.md`` entries by importance and recency (``bootstrap.rank``), the project block
(entries already shown from ``MEMORY.md`` are not repeated), trigger hits. The escalation
hint is always kept (its query is bounded). The last line counts what stayed out and names
the MCP tool and the shell line that reach it (``render.left_out_line``).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from clawmem.foundation.records import replace
from clawmem.recall import bootstrap, render

# clawmem.hosts.hook.context_output prints this shape; the longest event name, so the count is an upper bound
ENVELOPE = json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": ""}}, ensure_ascii=False) + "\n"


def hook_chars(context: str) -> int:
    """The characters a host reads from a hook that injects ``context``: the whole stdout line."""
    return len(ENVELOPE) + _cost(context)


def _cost(piece: str) -> int:
    """What ``piece`` adds inside a JSON string (a newline is two characters there, a quote two).

    ``encode_basestring`` is what ``json.dumps(piece, ensure_ascii=False)`` runs for a string,
    without building an encoder per call: a session start over its cap costs one per entry.
    """
    return len(encode_basestring(piece)) - 2


def budget_left_out(files: list[bootstrap.BootstrapFile]) -> int:
    """Entries of eligible curated files that their bootstrap budgets kept out."""
    return sum(f.omitted for f in files if f.eligible)


class _Unit(NamedTuple):
    """One entry the context could show (a tuple: a session start over its cap makes one per curated line)."""

    section: str  # a curated file's path, or intents, aspirations, project, triggers
    position: int  # index in that section's list
    line: str  # as the context shows it


def _units(result) -> list[_Unit]:
    """Every entry the context could show, most valuable first (the order the module doc gives)."""
    files = {f.path: f for f in result.bootstrap if f.eligible}

    def curated(path: str) -> list[_Unit]:
        return [_Unit(path, i, line) for i, line in enumerate(files[path].lines)] if path in files else []

    return [
        *curated("USER.md"),
        *(_Unit("intents", i, render.intent_line(x)) for i, x in enumerate(result.intents)),
        *(_Unit("aspirations", i, render.aspiration_line(x)) for i, x in enumerate(result.aspirations)),
        *curated("MEMORY.md"),
        *(_Unit("project", i, render.project_line(x)) for i, x in enumerate(result.project_block)),
        *(_Unit("triggers", i, render.trigger_line(x)) for i, x in enumerate(result.triggers)),
    ]


def _heading(result, section: str) -> str:
    headings = {
        "intents": render.INTENTS_HEADING, "aspirations": render.ASPIRATIONS_HEADING,
        "project": render.project_heading(result), "triggers": render.TRIGGERS_HEADING,
    }
    return headings.get(section, f"## {section}")


def _rebuild(result, chosen: set[tuple[str, int]], repeated: set[int]) -> Any:
    """``result`` showing only the ``chosen`` units; ``repeated``: project entries shown from MEMORY.md."""

    def kept(section: str, items: list) -> list:
        return [x for i, x in enumerate(items) if (section, i) in chosen]

    files = []
    for f in result.bootstrap:
        if not f.eligible:
            files.append(f)
            continue
        lines = f.lines  # split once: the property splits the text at every use
        shown = [i for i in range(len(lines)) if (f.path, i) in chosen]
        text = "\n".join(lines[i] for i in shown)
        files.append(replace(f, text=text, omitted=f.entries - len(shown), text_hashes=[f.text_hashes[i] for i in shown]))
    dropped = sum(
        1
        for section, items in (("intents", result.intents), ("aspirations", result.aspirations), ("project", result.project_block), ("triggers", result.triggers))
        for i in range(len(items))
        if (section, i) not in chosen and not (section == "project" and i in repeated)
    )
    return replace(
        result, bootstrap=files, intents=kept("intents", result.intents), aspirations=kept("aspirations", result.aspirations),
        project_block=kept("project", result.project_block), triggers=kept("triggers", result.triggers),
        left_out=budget_left_out(files) + dropped,
    )


def fit(result, max_chars: int) -> Any:
    """``result`` (a ``RecallResult``) cut to whole entries so its hook output is at most ``max_chars``."""
    if hook_chars(render.context_block(result)) <= max_chars:
        return result
    units = _units(result)
    skeleton = _rebuild(result, set(), set())
    used = hook_chars(render.context_block(replace(skeleton, left_out=skeleton.left_out + len(units))))  # widest count
    chosen: list[_Unit] = []
    memory_lines: set[str] = set()
    repeated: set[int] = set()
    opened: set[str] = set()
    for unit in units:
        if unit.section == "project" and bootstrap.line(result.project_block[unit.position].text) in memory_lines:
            repeated.add(unit.position)  # shown from MEMORY.md already: a repeat adds nothing
            continue
        cost = _cost(unit.line + "\n") + (0 if unit.section in opened else _cost("\n\n" + _heading(result, unit.section) + "\n"))
        if used + cost > max_chars:
            continue  # whole or not at all; a shorter entry of less value may still fit
        used += cost
        opened.add(unit.section)
        chosen.append(unit)
        if unit.section == "MEMORY.md":
            memory_lines.add(unit.line)
    fitted = _rebuild(result, {(u.section, u.position) for u in chosen}, repeated)
    while chosen and hook_chars(render.context_block(fitted)) > max_chars:  # the estimate was short: drop the least valuable
        chosen.pop()
        fitted = _rebuild(result, {(u.section, u.position) for u in chosen}, repeated)
    return fitted


def host_cap(config, host: str) -> int:
    """The most characters ``host``'s hooks may print (``hooks.<host>_context_chars``)."""
    from clawmem.foundation.config import HOST_CONTEXT_KEYS

    return int(getattr(config.hooks, HOST_CONTEXT_KEYS[host]))
