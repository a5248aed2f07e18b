"""One hook event of an agent host: read its JSON, do the memory step, say what the host expects.

session start -> bootstrap plus the project block of the hook's ``cwd`` repository; user
prompt -> per-turn recall (no bootstrap: the session start put it in context) keyed by the
host's session id, the host as channel and the ``cwd`` project; pre-compaction, stop and
session end -> ingest the transcript at ``transcript_path`` (so far, or whole) in a detached
worker (``clawmem.hosts.background``: the hosts give these hooks 1.5 s, or run them every turn).

Trust: the hook runs as the host's process, with no person at a terminal. The transcript is
ingested with ``owner`` as the class of the session's *sender* (the local user typing into
the host); which turns are the user's, the agent's or tool output is decided per record by
the transcript parser (``clawmem.commands.ingest``), never by text in the hook's JSON.

Never fails the host's turn: every problem becomes a reason in ``degraded`` and less (or no)
output; the caller exits 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from clawmem.foundation.records import dataclass, field
from clawmem.hosts.names import CONTEXT_EVENTS


@dataclass(frozen=True)
class HookInput:
    """The fields of a host's hook JSON that clawmem uses."""

    event_name: str | None
    session_id: str | None
    cwd: str | None
    prompt: str | None
    transcript_path: str | None


@dataclass(frozen=True)
class HookOutcome:
    stdout: str
    degraded: list[str] = field(default_factory=list)
    action: str = "none"  # bootstrap, recall, ingest or none


def parse_input(raw: bytes) -> HookInput:
    """The hook JSON, or ValueError/TypeError with a reason fit for one stderr line."""
    from clawmem.foundation import jsonbound
    from clawmem.foundation.config import HOOK_JSON_MAX_DEPTH

    try:
        data = jsonbound.loads(raw, max_depth=HOOK_JSON_MAX_DEPTH)
    except ValueError as err:  # invalid UTF-8, invalid JSON, or nested too deep to parse safely
        reason = "nested too deep" if str(err).startswith("JSON nested deeper") else type(err).__name__
        raise ValueError(f"stdin is not the host's hook JSON ({reason})") from None
    if not isinstance(data, dict):
        raise TypeError("stdin is not the host's hook JSON (not an object)")

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value else None

    return HookInput(text("hook_event_name"), text("session_id"), text("cwd"), text("prompt"), text("transcript_path"))


def context_output(host: ModuleType, event: str, context: str) -> str:
    """What the host reads from stdout to add hidden context (nothing when there is none)."""
    if not context or event not in CONTEXT_EVENTS:
        return ""
    payload = {"hookSpecificOutput": {"hookEventName": host.EVENT_NAMES[event], "additionalContext": context}}
    return json.dumps(payload, ensure_ascii=False) + "\n"


def _session(data: HookInput, degraded: list[str]) -> str | None:
    from clawmem.foundation.errors import ClawmemError
    from clawmem.storage.workspace import validate_session_id

    if data.session_id is None:
        degraded.append("no session_id in the hook JSON")
        return None
    try:
        return validate_session_id(data.session_id)
    except ClawmemError as err:
        degraded.append(err.message)
        return None


def _recall(ws, host: ModuleType, event: str, data: HookInput, budget_ms: int | None, degraded: list[str]) -> str:
    from clawmem.recall import recall
    from clawmem.recall.fit import host_cap
    from clawmem.recall.render import context_block

    start = event == "session-start"
    if not start and data.prompt is None:
        degraded.append("no prompt in the hook JSON")
        return ""
    result = recall(
        ws, "" if start or data.prompt is None else data.prompt, session=_session(data, degraded), channel=host.NAME,
        include_bootstrap=start, budget_ms=budget_ms, cwd=data.cwd, max_chars=host_cap(ws.config, host.NAME),
    )
    degraded.extend(result.degraded)
    return context_output(host, event, context_block(result))


def _ingest(ws, host: ModuleType, data: HookInput, degraded: list[str]) -> None:
    """Hand the transcript to a detached worker (``clawmem.hosts.background``) and return at once."""
    session = _session(data, degraded)
    if session is None:
        return
    if data.transcript_path is None:
        degraded.append("no transcript_path in the hook JSON: nothing ingested")
        return
    from clawmem.hosts import background

    path = Path(data.transcript_path).expanduser()
    refused = background.refuse(path, background.limit(ws))  # what its metadata says, at once; the worker reads it
    if refused is not None:
        degraded.append(refused)
        return
    background.spawn(ws, host.NAME, session, path)


def _register(ws, host: ModuleType, data: HookInput) -> None:
    """Tell lineage where this session's transcript is (the agent's notes inherit what it saw) and
    what the person typed (``clawmem.trust.typed``: only those user turns are the owner's)."""
    from clawmem.foundation.errors import ClawmemError
    from clawmem.trust import sessions

    try:
        if data.session_id:
            transcript = Path(data.transcript_path).expanduser() if data.transcript_path else None
            sessions.remember(ws, data.session_id, transcript=transcript, host=host.NAME, prompt=data.prompt)
    except (ClawmemError, OSError, ValueError):
        pass  # an invalid id or path: notes fall back to the wording detector, turns to the host's marks


def run(event: str, host: str, raw: bytes, *, workspace: Any = None, budget_ms: int | None = None) -> HookOutcome:
    """Do the memory step of one hook event; never raises."""
    from clawmem.hosts import host_module

    module = host_module(host)
    if event not in module.EVENT_NAMES:
        return HookOutcome("", [f"{host} has no {event} hook event"])
    try:
        data = parse_input(raw)
    except (ValueError, TypeError) as err:
        return HookOutcome("", [str(err)])
    expected = module.EVENT_NAMES[event]
    if data.event_name is not None and data.event_name != expected:
        return HookOutcome("", [f"hook JSON is for {data.event_name}, not {expected}: nothing done"])
    degraded: list[str] = []
    try:
        from clawmem.storage.workspace import Workspace

        ws = Workspace.open(workspace)
        _register(ws, module, data)
        if event in CONTEXT_EVENTS:
            out = _recall(ws, module, event, data, budget_ms, degraded)
            return HookOutcome(out, degraded, "bootstrap" if event == "session-start" else "recall")
        _ingest(ws, module, data, degraded)
        return HookOutcome("", degraded, "ingest" if not degraded else "none")  # started: its outcome is in `clawmem status`
    except Exception as err:  # noqa: BLE001 -- a hook must never cost the host's turn: say why, do nothing more
        degraded.append(getattr(err, "message", None) or f"{type(err).__name__}: {err}")
        return HookOutcome("", degraded)
