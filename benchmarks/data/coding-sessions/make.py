"""Write the coding-sessions evaluation set: three projects of multi-day coding-agent sessions.

Why a generator: the sessions are hand-written as format-neutral steps (user turn, assistant
text, shell call and its output, file edit, memory look-up…) so that the same content can be
rendered in the two host formats clawmem ingests from real agents, Claude Code session JSONL
(``~/.claude/projects/<project>/<session>.jsonl``) and Codex rollout JSONL
(``~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl``), with the host-injected records real files
carry (``isMeta`` caveats, ``<system-reminder>`` blocks, compaction summaries, AGENTS.md and
environment context, ``event_msg`` echoes). Sessions alternate between the two formats.

Nothing here is random at run time: ids and timestamps derive from the project, the session's
number and a seeded generator, so rerunning the script rewrites byte-identical files. Output:
``<project>/claude/<session>.jsonl``, ``<project>/codex/YYYY/MM/DD/rollout-….jsonl`` and
``manifest.json`` (days, their sessions and the look-ups an agent makes each day). The gold
labels (``gold.json``) are written by hand, not by this script.

Run: ``python benchmarks/data/coding-sessions/make.py`` (``--check`` only verifies the files
on disk match what it would write).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import random
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
NS = uuid.UUID("6f1d7c52-3a4b-4c8e-9d21-0b7e5c3a9f10")
CLAUDE_VERSION = "2.0.37"
CLAUDE_MODEL = "claude-sonnet-4-5-20250929"
CODEX_VERSION = "0.58.0"

Step = tuple


# steps: what happened in a session, independent of the host format ------------------------------
def U(text: str, *, reminder: str | None = None) -> Step:
    """A turn the user typed; ``reminder`` is a ``<system-reminder>`` Claude Code appends to it."""
    return ("user", text, reminder)


def A(text: str) -> Step:
    """The assistant's visible reply text."""
    return ("assistant", text)


def TH(text: str) -> Step:
    """Model reasoning (Claude thinking block, Codex reasoning item): never shown to the user."""
    return ("thinking", text)


def SH(cmd: str, out: str, code: int = 0, desc: str | None = None) -> Step:
    """A shell command the agent ran and what it printed."""
    return ("shell", cmd, out, code, desc)


def RD(path: str, text: str) -> Step:
    """The agent reads a file."""
    return ("read", path, text)


def ED(path: str, old: str, new: str) -> Step:
    """The agent edits a file in place."""
    return ("edit", path, old, new)


def WR(path: str, text: str) -> Step:
    """The agent creates a file."""
    return ("write", path, text)


def MEM(query: str, hits: list[tuple[str, str]]) -> Step:
    """The agent calls clawmem's MCP ``search_memory`` tool."""
    return ("memory", query, hits)


def WEB(url: str, text: str) -> Step:
    """The agent fetches a web page (third-party text)."""
    return ("web", url, text)


def COMPACT(summary: str) -> Step:
    """Context compaction: the host replaces the history with the model's summary."""
    return ("compact", summary)


def CMD(name: str, stdout: str = "") -> Step:
    """A local slash command the user ran (Claude Code only; Codex has no such record)."""
    return ("command", name, stdout)


def CAVEAT() -> Step:
    """Claude Code's ``isMeta`` caveat record that precedes local commands."""
    return ("caveat",)


@dataclass
class Session:
    fmt: str  # "claude" or "codex"
    start: str  # "HH:MM" on its day
    steps: list[Step]
    title: str = ""
    branch: str = "main"


@dataclass
class Day:
    date: str
    sessions: list[Session]
    searches: list[str] = field(default_factory=list)


@dataclass
class Project:
    name: str
    cwd: str
    repo: str
    agents_md: str
    days: list[Day]
    sids: dict[str, str] = field(default_factory=dict)  # "s1".. -> session id, for citations in memory look-ups


# rendering --------------------------------------------------------------------------------------
class Clock:
    """Advance a session's time by plausible, seeded gaps."""

    def __init__(self, start: dt.datetime, seed: str) -> None:
        self.now = start
        self.rng = random.Random(seed)

    def tick(self, low: float, high: float) -> str:
        self.now += dt.timedelta(seconds=self.rng.uniform(low, high))
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"


def _hex(seed: str, n: int) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:n]


def _numbered(text: str, first: int = 1) -> str:
    return "\n".join(f"{i:>6}→{line}" for i, line in enumerate(text.split("\n"), first))


def _memory_result(query: str, hits: list[tuple[str, str]], sids: dict[str, str]) -> str:
    """What ``search_memory`` returned; citations name earlier sessions of the same project."""
    hits = [(cite.format(**sids), text) for cite, text in hits]
    results = [
        {"citation": cite, "path": cite.split("#")[0], "text": text, "score": round(0.71 - 0.09 * i, 3), "origin": "owner" if i == 0 else "agent",
         "tier": "episodic", "kind": "transcript"}
        for i, (cite, text) in enumerate(hits)
    ]
    return json.dumps({"query": query, "mode": "hybrid", "decay": "relaxed", "warnings": [] if hits else ["no entry matched"], "results": results}, ensure_ascii=False)


SYSTEM_READ_REMINDER = (
    "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide "
    "analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write "
    "reports, or answer questions about the code behavior.\n</system-reminder>\n"
)


def render_claude(project: Project, session: Session, sid: str, start: dt.datetime) -> list[dict]:
    """Claude Code session JSONL: one record per content block, tool results in user records."""
    clock = Clock(start, sid)
    records: list[dict] = []
    state = {"parent": None, "n": 0, "msg": None}

    def new_uuid() -> str:
        state["n"] += 1
        return str(uuid.uuid5(NS, f"{sid}/{state['n']}"))

    def base(kind: str, when: str, **extra) -> dict:
        rec = {"parentUuid": state["parent"], "isSidechain": False, "userType": "external", "cwd": project.cwd, "sessionId": sid,
               "version": CLAUDE_VERSION, "gitBranch": session.branch, "type": kind}
        rec.update(extra)
        rec["uuid"] = new_uuid()
        rec["timestamp"] = when
        state["parent"] = rec["uuid"]
        return rec

    def user(content, when: str, **extra) -> None:
        records.append(base("user", when, message={"role": "user", "content": content}, **extra))
        state["msg"] = None

    def assistant(block: dict, when: str) -> None:
        if state["msg"] is None:
            state["msg"] = f"msg_01{_hex(sid + str(state['n']), 22)}"
        usage = {"input_tokens": 4, "cache_creation_input_tokens": 312 + state["n"] * 7, "cache_read_input_tokens": 14873 + state["n"] * 211,
                 "output_tokens": 40 + len(json.dumps(block)) // 4, "service_tier": "standard"}
        message = {"id": state["msg"], "type": "message", "role": "assistant", "model": CLAUDE_MODEL, "content": [block],
                   "stop_reason": None, "stop_sequence": None, "usage": usage}
        records.append(base("assistant", when, message=message, requestId=f"req_011{_hex(state['msg'], 21)}"))

    def tool(name: str, payload: dict, result, when_call: str, when_result: str, *, error: bool = False, raw=None) -> None:
        tool_id = f"toolu_01{_hex(sid + str(state['n']) + name, 22)}"
        assistant({"type": "tool_use", "id": tool_id, "name": name, "input": payload}, when_call)
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": result}
        if error:
            block["is_error"] = True
        user([block], when_result, toolUseResult=raw if raw is not None else result)

    records.append({"type": "file-history-snapshot", "messageId": str(uuid.uuid5(NS, sid + "/snap")),
                    "snapshot": {"messageId": str(uuid.uuid5(NS, sid + "/snap")), "trackedFileBackups": {}, "timestamp": clock.tick(0, 1)},
                    "isSnapshotUpdate": False})
    for step in session.steps:
        kind = step[0]
        if kind == "user":
            _, text, reminder = step
            when = clock.tick(20, 140)
            if reminder:
                user([{"type": "text", "text": text}, {"type": "text", "text": f"<system-reminder>\n{reminder}\n</system-reminder>"}], when)
            else:
                user(text, when)
        elif kind == "assistant":
            assistant({"type": "text", "text": step[1]}, clock.tick(3, 25))
        elif kind == "thinking":
            assistant({"type": "thinking", "thinking": step[1], "signature": "Eu" + _hex(step[1], 60)}, clock.tick(2, 9))
        elif kind == "shell":
            _, cmd, out, code, desc = step
            call = clock.tick(2, 8)
            done = clock.tick(1, 40)
            if code:
                tool("Bash", {"command": cmd, "description": desc or _describe(cmd)}, f"Exit code {code}\n{out}", call, done, error=True,
                     raw=f"Error: Exit code {code}\n{out}")
            else:
                tool("Bash", {"command": cmd, "description": desc or _describe(cmd)}, out, call, done,
                     raw={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
        elif kind == "read":
            _, path, text = step
            full = f"{project.cwd}/{path}"
            n = text.count("\n") + 1
            tool("Read", {"file_path": full}, _numbered(text) + SYSTEM_READ_REMINDER, clock.tick(2, 6), clock.tick(0.2, 1),
                 raw={"type": "text", "file": {"filePath": full, "content": text, "numLines": n, "startLine": 1, "totalLines": n}})
        elif kind == "edit":
            _, path, old, new = step
            full = f"{project.cwd}/{path}"
            tool("Edit", {"file_path": full, "old_string": old, "new_string": new},
                 f"The file {full} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{_numbered(new, 12)}",
                 clock.tick(4, 20), clock.tick(0.2, 1), raw={"filePath": full, "oldString": old, "newString": new, "replaceAll": False, "userModified": False})
        elif kind == "write":
            _, path, text = step
            full = f"{project.cwd}/{path}"
            tool("Write", {"file_path": full, "content": text}, f"File created successfully at: {full}", clock.tick(6, 30), clock.tick(0.2, 1),
                 raw={"type": "create", "filePath": full, "content": text, "structuredPatch": []})
        elif kind == "memory":
            _, query, hits = step
            text = _memory_result(query, hits, project.sids)
            tool("mcp__clawmem__search_memory", {"query": query, "limit": 5}, [{"type": "text", "text": text}], clock.tick(2, 6), clock.tick(0.3, 2),
                 raw=[{"type": "text", "text": text}])
        elif kind == "web":
            _, url, text = step
            tool("WebFetch", {"url": url, "prompt": "Summarise the workarounds people report"}, text, clock.tick(2, 6), clock.tick(2, 9),
                 raw={"bytes": len(text) * 9, "code": 200, "codeText": "OK", "result": text, "durationMs": 2211, "url": url})
        elif kind == "caveat":
            user("<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these "
                 "messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>",
                 clock.tick(0, 2), isMeta=True)
        elif kind == "command":
            _, name, stdout = step
            user(f"<command-name>{name}</command-name>\n            <command-message>{name.lstrip('/')}</command-message>\n            <command-args></command-args>",
                 clock.tick(5, 30))
            user(f"<local-command-stdout>{stdout}</local-command-stdout>", clock.tick(0, 2))
        elif kind == "compact":
            records.append(base("system", clock.tick(10, 40), subtype="compact_boundary", content="Conversation compacted", level="info", isMeta=False,
                                compactMetadata={"trigger": "auto", "preTokens": 155211}))
            user("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n"
                 + step[1], clock.tick(0, 1), isCompactSummary=True, isVisibleInTranscriptOnly=True)
            user("<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>", clock.tick(0, 1))
        else:
            raise ValueError(kind)
    if session.title:
        records.insert(0, {"type": "summary", "summary": session.title, "leafUuid": state["parent"]})
    return records


def _describe(cmd: str) -> str:
    words = cmd.replace("&&", " ").split()
    return "Run " + " ".join(words[:4])


def _patch(path: str, old: str | None, new: str) -> str:
    if old is None:
        body = "\n".join("+" + line for line in new.split("\n"))
        return f"*** Begin Patch\n*** Add File: {path}\n{body}\n*** End Patch"
    minus = "\n".join("-" + line for line in old.split("\n"))
    plus = "\n".join("+" + line for line in new.split("\n"))
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n{minus}\n{plus}\n*** End Patch"


PERMISSIONS = (
    "<permissions instructions>Filesystem sandboxing defines which files can be read or written. `sandbox_mode` is `workspace-write`: The sandbox "
    "permits reading files, and editing files in `cwd` and `writable_roots`. Editing files in other directories requires approval. Network access is "
    "restricted. Approvals are your mechanism to get user consent to run shell commands without the sandbox. `approval_policy` is `on-request`: "
    "Commands will be run in the sandbox by default, and you can specify in your tool call if you want to escalate a command to run without "
    "sandboxing.</permissions instructions>"
)


def render_codex(project: Project, session: Session, sid: str, start: dt.datetime) -> list[dict]:
    """Codex rollout JSONL: session_meta, response items, and the event_msg echoes the UI reads."""
    clock = Clock(start, sid)
    records: list[dict] = []
    counter = {"n": 0, "tokens": 8200}

    def put(kind: str, payload: dict, when: str | None = None) -> None:
        records.append({"timestamp": when or clock.tick(0.001, 0.05), "type": kind, "payload": payload})

    def call_id() -> str:
        counter["n"] += 1
        return f"call_{_hex(sid + str(counter['n']), 24)}"

    def tokens() -> None:
        counter["tokens"] += 1800 + counter["n"] * 37
        usage = {"input_tokens": counter["tokens"], "cached_input_tokens": counter["tokens"] - 1400, "output_tokens": 310 + counter["n"] * 3,
                 "reasoning_output_tokens": 128, "total_tokens": counter["tokens"] + 438}
        put("event_msg", {"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 272000},
                          "rate_limits": {"primary": {"used_percent": 11.0, "window_minutes": 299, "resets_in_seconds": 10455}}})

    def item(payload: dict, when: str | None = None) -> None:
        put("response_item", payload, when)

    def user_msg(text: str, when: str | None = None) -> None:
        item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}, when)

    def shell(cmd: str, out: str, code: int) -> None:
        cid = call_id()
        item({"type": "function_call", "name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", cmd], "workdir": project.cwd, "timeout_ms": 120000}),
              "call_id": cid}, clock.tick(2, 8))
        duration = round(clock.rng.uniform(0.05, 30), 1)
        item({"type": "function_call_output", "call_id": cid, "output": json.dumps({"output": out, "metadata": {"exit_code": code, "duration_seconds": duration}})},
             clock.tick(duration, duration + 0.5))

    def patch(path: str, old: str | None, new: str) -> None:
        cid = call_id()
        item({"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch", "input": _patch(path, old, new)}, clock.tick(4, 25))
        letter = "A" if old is None else "M"
        item({"type": "custom_tool_call_output", "call_id": cid,
              "output": json.dumps({"output": f"Success. Updated the following files:\n{letter} {path}\n", "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
             clock.tick(0.05, 0.3))

    put("session_meta", {"id": sid, "timestamp": clock.tick(0, 0.01), "cwd": project.cwd, "originator": "codex_cli_rs", "cli_version": CODEX_VERSION,
                         "instructions": None, "source": "cli", "model_provider": "openai",
                         "git": {"commit_hash": _hex(sid + "head", 40), "branch": session.branch, "repository_url": project.repo}})
    item({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": PERMISSIONS}]})
    user_msg(f"# AGENTS.md instructions for {project.cwd}\n\n<INSTRUCTIONS>\n{project.agents_md}\n</INSTRUCTIONS>")
    user_msg(f"<environment_context>\n  <cwd>{project.cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n"
             "  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>")
    last_reply = ""
    for step in session.steps:
        kind = step[0]
        if kind == "user":
            when = clock.tick(20, 140)
            if records[-1]["type"] != "session_meta" and last_reply:
                put("event_msg", {"type": "task_complete", "last_agent_message": last_reply})
            put("event_msg", {"type": "task_started", "model_context_window": 272000}, when)
            put("turn_context", {"cwd": project.cwd, "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write", "network_access": False},
                                 "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
            user_msg(step[1])
            put("event_msg", {"type": "user_message", "message": step[1], "images": [], "kind": "plain"})
            tokens()
        elif kind == "assistant":
            when = clock.tick(3, 25)
            item({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": step[1]}]}, when)
            put("event_msg", {"type": "agent_message", "message": step[1]})
            tokens()
            last_reply = step[1]
        elif kind == "thinking":
            summary = "**" + step[1].split(".")[0].strip() + "**\n\n" + step[1]
            item({"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}], "content": None,
                  "encrypted_content": "gAAAAABp" + _hex(step[1], 80)}, clock.tick(2, 9))
            put("event_msg", {"type": "agent_reasoning", "text": summary})
        elif kind == "shell":
            shell(step[1], step[2], step[3])
        elif kind == "read":
            shell(f"sed -n '1,200p' {step[1]}", step[2], 0)
        elif kind == "edit":
            patch(step[1], step[2], step[3])
        elif kind == "write":
            patch(step[1], None, step[2])
        elif kind == "memory":
            query = step[1]
            cid = call_id()
            item({"type": "function_call", "name": "mcp__clawmem__search_memory", "arguments": json.dumps({"query": query, "limit": 5}), "call_id": cid},
                 clock.tick(2, 6))
            item({"type": "function_call_output", "call_id": cid, "output": _memory_result(query, step[2], project.sids)}, clock.tick(0.3, 2))
        elif kind == "web":
            shell(f"curl -sL {step[1]} | python3 -m html2text | head -60", step[2], 0)
        elif kind == "compact":
            put("compacted", {"message": step[1]}, clock.tick(10, 40))
            put("event_msg", {"type": "context_compacted"})
        elif kind in ("caveat", "command"):
            continue  # Claude Code bookkeeping; Codex writes nothing for it
        else:
            raise ValueError(kind)
    put("event_msg", {"type": "task_complete", "last_agent_message": last_reply})
    return records


def session_id(project: str, number: int, fmt: str, start: dt.datetime) -> str:
    """Claude Code: a random-looking UUID; Codex: a time-ordered UUID v7 like its rollouts carry."""
    base = uuid.uuid5(NS, f"{project}/{number}")
    if fmt == "claude":
        return str(uuid.UUID(bytes=base.bytes, version=4))
    millis = int(start.timestamp() * 1000)
    tail = base.hex[13:]
    text = f"{millis:012x}7{tail}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:32]}"


def build(project: Project) -> tuple[dict[str, str], dict]:
    """Every file of one project (relative path -> text) and its manifest entry."""
    files: dict[str, str] = {}
    days = []
    number = 0
    for day in project.days:
        for session in day.sessions:
            number += 1
            start = dt.datetime.fromisoformat(f"{day.date}T{session.start}:00+00:00")
            project.sids[f"s{number}"] = session_id(project.name, number, session.fmt, start)
    number = 0
    for day in project.days:
        entries = []
        for session in day.sessions:
            number += 1
            start = dt.datetime.fromisoformat(f"{day.date}T{session.start}:00+00:00")
            sid = session_id(project.name, number, session.fmt, start)
            if session.fmt == "claude":
                records = render_claude(project, session, sid, start)
                rel = f"{project.name}/claude/{sid}.jsonl"
            else:
                records = render_codex(project, session, sid, start)
                y, m, d = day.date.split("-")
                rel = f"{project.name}/codex/{y}/{m}/{d}/rollout-{day.date}T{session.start.replace(':', '-')}-00-{sid}.jsonl"
            files[rel] = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
            end = max(r["timestamp"] for r in records if "timestamp" in r)
            entries.append({"file": rel, "session": sid, "format": session.fmt, "start": start.isoformat(), "end": end})
        days.append({"date": day.date, "sessions": entries, "searches": day.searches})
    return files, {"name": project.name, "cwd": project.cwd, "days": days}


# ================================================================================================
# Project 1: ledgerline, a FastAPI billing API (owner Priya, London)
# ================================================================================================
LEDGER_CWD = "/home/priya/src/ledgerline"

PYPROJECT_311 = """[tool.poetry]
name = "ledgerline"
version = "0.7.2"
description = "Billing API for council services"
authors = ["Priya Raman <priya@ledgerline.co.uk>"]
packages = [{ include = "ledgerline" }]

[tool.poetry.dependencies]
python = "^3.11"
fastapi = "^0.115"
uvicorn = { extras = ["standard"], version = "^0.32" }
sqlalchemy = "^2.0.36"
alembic = "^1.14"
psycopg = { extras = ["binary"], version = "^3.2" }
pydantic-settings = "^2.6"

[tool.poetry.group.dev.dependencies]
pytest = "^8.3"
pytest-repeat = "^0.9"
httpx = "^0.27"
ruff = "^0.7"
mypy = "^1.13"
"""

PG_REFUSED = """==================================== ERRORS ====================================
_____________________ ERROR at setup of test_create_invoice ______________________

    @pytest.fixture(scope="session")
    def engine():
        eng = create_engine(os.environ.get("TEST_DATABASE_URL", DEFAULT_TEST_URL))
>       with eng.connect() as conn:

tests/conftest.py:24:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
.venv/lib/python3.{py}/site-packages/sqlalchemy/engine/base.py:3278: in connect
    return self._connection_cls(self)
.venv/lib/python3.{py}/site-packages/psycopg/connection.py:119: in connect
    raise last_ex.with_traceback(None)
E   sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: connection to server at "127.0.0.1", port 5433 failed: Connection refused
E   \tIs the server running on that host and accepting TCP/IP connections?
E   (Background on this error at: https://sqlalche.me/e/20/e3q8)
=========================== short test summary info ============================
ERROR tests/api/test_invoices.py::test_create_invoice - sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: ...
ERROR tests/api/test_invoices.py::test_list_invoices - sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: ...
{more}"""

COMPOSE_DB_TEST = """  db-test:
    image: postgres:16
    environment:
      POSTGRES_USER: ledger
      POSTGRES_PASSWORD: ledger
      POSTGRES_DB: ledger_test
    ports:
      - "5433:5432"
    tmpfs:
      - /var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U ledger"]"""

STRIPE_MODULE = '''"""Stripe webhook receiver."""

import stripe
from fastapi import APIRouter, Header, HTTPException, Request

from ledgerline.settings import get_settings

router = APIRouter()


@router.post("/webhooks/stripe")
async def stripe_webhook(request: Request, stripe_signature: str = Header(alias="Stripe-Signature")) -> dict:
    payload = await request.body()
    secret = get_settings().stripe_webhook_secret.get_secret_value()
    try:
        event = stripe.Webhook.construct_event(payload, stripe_signature, secret)
    except (ValueError, stripe.SignatureVerificationError) as exc:
        raise HTTPException(status_code=400, detail="invalid signature") from exc
    await handle_event(event)
    return {"received": True}'''

DOCKERFILE_PASTE = """FROM python:3.12-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml poetry.lock ./
RUN pip install --no-cache-dir poetry==1.8.4 && poetry config virtualenvs.create false && poetry install --only main --no-root
COPY . .
CMD ["uvicorn", "ledgerline.main:app", "--host", "0.0.0.0", "--port", "8000"]"""

LEDGER_COMPACT = """Analysis:
The user (Priya) asked for PDF invoices. I added WeasyPrint and Jinja2 with poetry, wrote templates/invoice.html and ledgerline/pdf/render.py, and a route GET \
/invoices/{id}.pdf. Tests first failed with OSError: cannot load library 'libpango-1.0-0', because WeasyPrint needs Pango at the system level; the user pasted the \
Dockerfile and I added libpango-1.0-0 and libpangoft2-1.0-0 to an apt-get layer. The image builds and the PDF tests pass.

Summary:
1. Primary Request and Intent: PDF invoices rendered with WeasyPrint from a Jinja template, served at GET /invoices/{id}.pdf.
2. Key Technical Concepts: WeasyPrint, Pango/HarfBuzz system libraries, Jinja2, FastAPI Response with media_type application/pdf, amounts as integer pence (amount_minor).
3. Files and Code Sections:
   - ledgerline/pdf/render.py: render_invoice_pdf(invoice) -> bytes
   - templates/invoice.html: A4 layout, totals formatted from total_minor
   - Dockerfile: added `apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0`
4. Errors and fixes: OSError cannot load library 'libpango-1.0-0' -> install the Pango packages (locally and in the image).
5. Pending Tasks: check the rendered layout of a sample invoice; open a PR.
6. Current Work: about to render invoice 1042 to /tmp to check the layout.
7. User preferences noted: British English in replies and repository text; feature branch + PR, never push to main; poetry for dependencies."""


def ledgerline() -> Project:
    agents = ("## ledgerline\n- Run `make check` before you call a change done.\n- Do not hand-edit files under ledgerline/_gen/ (generated from openapi.yaml).\n"
              "- Deploy notes are in docs/ops.md.")
    s1 = Session("claude", "09:12", title="Store invoice amounts as integer pence", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Morning! Fresh start on ledgerline, our billing API — FastAPI on Python 3.11, Postgres 16, SQLAlchemy 2 with alembic migrations. One thing before "
          "anything else: always answer in British English. Colour, organise, licence, the lot. Our customers are UK councils and bits of your replies end up "
          "pasted into their documentation."),
        A("Good morning! Noted — British English throughout, in replies and in anything I write into the repository. Let me check my notes on ledgerline and "
          "then have a look round."),
        MEM("ledgerline conventions", []),
        SH("ls && cat pyproject.toml", "Dockerfile\nMakefile\nREADME.md\nalembic.ini\ndocker-compose.yml\ndocs\nledgerline\nmigrations\npoetry.lock\npyproject.toml\n"
           "scripts\ntests\n" + PYPROJECT_311),
        A("Here's the lie of the land:\n- `ledgerline/` — the app (`api/`, `billing/`, `models.py`, `settings.py`)\n- `migrations/` — alembic\n- `tests/` — pytest, "
          "with a `conftest.py` that connects to a separate test database\n- Poetry project, Python `^3.11`\n\nWhat would you like to tackle first?"),
        U("The /invoices endpoint is returning amounts like 10.299999999999999 and a customer noticed. Have a look at how we store money."),
        SH("grep -n 'amount\\|total' ledgerline/models.py",
           "31:    amount: Mapped[float] = mapped_column(Float, nullable=False)\n32:    quantity: Mapped[int] = mapped_column(Integer, default=1)\n"
           "47:    total: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)\n"),
        RD("ledgerline/billing/totals.py", "from ledgerline.models import Invoice, InvoiceLine\n\n\ndef invoice_total(lines: list[InvoiceLine]) -> float:\n"
           "    return sum(line.amount * line.quantity for line in lines)\n\n\ndef refresh_total(invoice: Invoice) -> None:\n"
           "    invoice.total = invoice_total(invoice.lines)"),
        A("Found it. `InvoiceLine.amount` and `Invoice.total` are `Float` columns, and `invoice_total()` sums floats, so binary rounding leaks straight into "
          "the JSON. Two sensible options:\n1. `Numeric(12, 2)` columns with `Decimal` in Python\n2. Integer minor units (pence) in a `BIGINT`, converting only at "
          "the API edge\n\nI'd favour (2): integer arithmetic is exact and cheap, and it's hard to mix up with floats by accident. Shall I go ahead?"),
        U("Yes, option 2. Let's make it a rule: all money is stored as integer minor units (pence) in `amount_minor` BIGINT columns — never floats, never Decimal "
          "in the database. Conversion to pounds happens only in the API schemas."),
        A("Right. I'll rename the columns to `amount_minor` / `total_minor`, make them `BigInteger`, and convert in the Pydantic schemas."),
        ED("ledgerline/models.py", "    amount: Mapped[float] = mapped_column(Float, nullable=False)",
           "    amount_minor: Mapped[int] = mapped_column(BigInteger, nullable=False)  # pence"),
        ED("ledgerline/models.py", "    total: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)",
           "    total_minor: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)  # pence"),
        ED("ledgerline/billing/totals.py", "def invoice_total(lines: list[InvoiceLine]) -> float:\n    return sum(line.amount * line.quantity for line in lines)",
           "def invoice_total(lines: list[InvoiceLine]) -> int:\n    \"\"\"Total in pence: integer arithmetic only.\"\"\"\n"
           "    return sum(line.amount_minor * line.quantity for line in lines)"),
        SH("poetry run alembic revision --autogenerate -m 'money as integer minor units'",
           "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\n"
           "INFO  [alembic.autogenerate.compare] Detected added column 'invoice_lines.amount_minor'\n"
           "INFO  [alembic.autogenerate.compare] Detected removed column 'invoice_lines.amount'\n"
           "  Generating /home/priya/src/ledgerline/migrations/versions/7c1e9a2f4b10_money_as_integer_minor_units.py ...  done"),
        SH("poetry run pytest -q", PG_REFUSED.replace("{py}", "11").replace("{more}", "88 errors in 2.31s"), 1),
        TH("Every test errors at the engine fixture: nothing listening on 127.0.0.1:5433. The conftest defaults to a separate test database; check "
           "docker-compose for the service that publishes 5433."),
        SH("grep -n -A14 'db-test:' docker-compose.yml", COMPOSE_DB_TEST),
        A("The tests expect a separate Postgres on port 5433 — the `db-test` service in `docker-compose.yml` — and it isn't running. Starting it:"),
        SH("docker compose up -d db-test", "[+] Running 2/2\n ✔ Network ledgerline_default      Created\n ✔ Container ledgerline-db-test-1  Started"),
        SH("poetry run pytest -q", "..........................F.............................F.............................\n"
           "FAILED tests/api/test_invoices.py::test_invoice_json_amounts - AssertionError: assert '10.30' == 10.3\n"
           "FAILED tests/api/test_invoices.py::test_invoice_total_after_update - AttributeError: 'InvoiceLine' object has no attribute 'amount'\n"
           "2 failed, 86 passed in 6.02s", 1),
        A("Database is up. The two failures are the API tests that still use the old field and expect floats; I'll serialise pounds as a two-decimal string."),
        ED("ledgerline/api/schemas.py", "    amount: float", "    amount_minor: int = Field(exclude=True)\n\n    @computed_field\n    def amount(self) -> str:\n"
           "        return f\"{self.amount_minor // 100}.{self.amount_minor % 100:02d}\""),
        SH("poetry run pytest -q", "........................................................................................\n88 passed in 6.41s"),
        A("All 88 tests pass. Summary:\n- `amount` → `amount_minor` (BIGINT, pence) on `invoice_lines`; `total` → `total_minor` on `invoices`\n- migration "
          "`7c1e9a2f4b10` converts existing rows with `round(amount * 100)`\n- the API still returns pounds, as a two-decimal string (`\"10.30\"`), converted in "
          "`schemas.py`\n\nWorth knowing: the test suite needs the `db-test` container (Postgres on port 5433). If tests fail with `connection refused` on "
          "5433, `docker compose up -d db-test` sorts it."),
        U("Nice one, cheers!"),
        A("You're welcome — shout if anything else crops up."),
        U("Oh, and for dependencies: we use poetry here. `poetry add`, never `pip install` into the venv — it drifts from the lock file."),
        A("Understood: `poetry add` for dependencies, never pip."),
    ])
    s2 = Session("codex", "15:40", branch="main", steps=[
        U("Next job: a Stripe webhook endpoint. POST /webhooks/stripe, verify the signature with STRIPE_WEBHOOK_SECRET. The secret lives in 1Password, vault "
          "ledgerline-prod, item \"Stripe webhook\". Never commit it, not even in .env.example — put a placeholder there."),
        TH("Look for existing Stripe code and how settings are loaded before adding the router."),
        SH("rg -n -i stripe --glob '!*.lock'", "docs/ops.md:14:Stripe dashboard: https://dashboard.stripe.com/acct_1Nq8/\n"
           "ledgerline/settings.py:22:    stripe_api_key: SecretStr | None = None\n"),
        SH("sed -n '1,40p' ledgerline/settings.py", "from functools import lru_cache\n\nfrom pydantic import SecretStr\nfrom pydantic_settings import BaseSettings, "
           "SettingsConfigDict\n\n\nclass Settings(BaseSettings):\n    model_config = SettingsConfigDict(env_file=\".env\")\n\n    database_url: str\n"
           "    stripe_api_key: SecretStr | None = None\n\n\n@lru_cache\ndef get_settings() -> Settings:\n    return Settings()\n"),
        SH("cat CONTRIBUTING.md | head -20", "# Contributing\n\n(Last updated 2023.)\n\n- Format with black.\n- Deploy: run `heroku container:push web && heroku "
           "container:release web`.\n- Tag releases as vX.Y.Z.\n"),
        A("No webhook code yet, and `settings.py` only has `stripe_api_key`. Plan: add `stripe_webhook_secret: SecretStr`, a router in "
          "`ledgerline/webhooks/stripe.py` using `stripe.Webhook.construct_event`, a placeholder in `.env.example`, and tests with a signed payload. "
          "(CONTRIBUTING.md is clearly out of date — it still talks about black and Heroku — so I'm ignoring it.)"),
        WR("ledgerline/webhooks/stripe.py", STRIPE_MODULE),
        ED("ledgerline/settings.py", "    stripe_api_key: SecretStr | None = None",
           "    stripe_api_key: SecretStr | None = None\n    stripe_webhook_secret: SecretStr = SecretStr(\"\")"),
        ED(".env.example", "DATABASE_URL=postgresql+psycopg://ledger:ledger@localhost:5432/ledger",
           "DATABASE_URL=postgresql+psycopg://ledger:ledger@localhost:5432/ledger\n# real value: 1Password, vault ledgerline-prod, item \"Stripe webhook\"\n"
           "STRIPE_WEBHOOK_SECRET=whsec_replace_me"),
        SH("poetry run pytest -q tests/webhooks", "ImportError while importing test module '/home/priya/src/ledgerline/tests/webhooks/test_stripe.py'.\n"
           "Hint: make sure your test modules/packages have valid Python names.\nTraceback:\n/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
           "    return _bootstrap._gcd_import(name[level:], package, level)\ntests/webhooks/test_stripe.py:4: in <module>\n"
           "    from ledgerline.webhooks.stripe import router\nledgerline/webhooks/stripe.py:3: in <module>\n    import stripe\n"
           "E   ModuleNotFoundError: No module named 'stripe'\n=========================== short test summary info ============================\n"
           "ERROR tests/webhooks/test_stripe.py\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.41s", 2),
        A("`stripe` isn't a dependency yet. Adding it with poetry, as you asked."),
        SH("poetry add 'stripe@^11.1'", "Updating dependencies\nResolving dependencies... (1.9s)\n\nPackage operations: 1 install, 0 updates, 0 removals\n\n"
           "  - Installing stripe (11.1.1)\n\nWriting lock file"),
        SH("poetry run pytest -q tests/webhooks", "....\n4 passed in 0.38s"),
        A("Webhook endpoint done:\n- `POST /webhooks/stripe` verifies `Stripe-Signature` with `STRIPE_WEBHOOK_SECRET` and returns 400 on a bad signature\n- "
          "`.env.example` has `STRIPE_WEBHOOK_SECRET=whsec_replace_me` and a comment pointing at the 1Password item\n- 4 tests pass (valid, tampered, "
          "missing header, unknown event type)"),
        U("Good. Commit it on a branch and open a PR. And just so it's said: never push to main directly. Branch protection is off on this repo and I've been "
          "burnt before."),
        A("Will do — feature branch and a PR, never a direct push to main."),
        SH("git checkout -b feat/stripe-webhooks && git add -A && git commit -q -m 'Add Stripe webhook endpoint' && git push -q -u origin feat/stripe-webhooks "
           "&& gh pr create --fill", "Switched to a new branch 'feat/stripe-webhooks'\nbranch 'feat/stripe-webhooks' set up to track 'origin/feat/stripe-webhooks'.\n"
           "\nCreating pull request for feat/stripe-webhooks into main in priya-ops/ledgerline\n\nhttps://github.com/priya-ops/ledgerline/pull/41\n"),
        A("PR #41 is open: https://github.com/priya-ops/ledgerline/pull/41"),
        U("ta"),
    ])
    s3 = Session("claude", "10:05", title="Fix failed fly.io deploy health check", steps=[
        U("We deploy to fly.io at the moment — `fly deploy` from the repo root, app name ledgerline-api. Last night's deploy failed its health check. Can you find "
          "out why?"),
        SH("fly status -a ledgerline-api", "App\n  Name     = ledgerline-api\n  Owner    = priya-ops\n  Hostname = ledgerline-api.fly.dev\n  Image    = "
           "ledgerline-api:deployment-01JD2K8F3\n\nMachines\nPROCESS\tID            \tVERSION\tREGION\tSTATE  \tROLE\tCHECKS            \tLAST UPDATED\n"
           "app    \t3d8d9e1c2e6589\t58     \tlhr   \tstopped\t    \t0 total, 1 critical\t2026-11-16T22:41:07Z\n"),
        SH("fly logs -a ledgerline-api --no-tail | tail -20", "2026-11-16T22:40:58Z app[3d8d9e1c2e6589] lhr [info]  File \"/app/ledgerline/db.py\", line 9, in "
           "<module>\n2026-11-16T22:40:58Z app[3d8d9e1c2e6589] lhr [info]    engine = create_engine(settings.database_url, pool_pre_ping=True)\n"
           "2026-11-16T22:40:58Z app[3d8d9e1c2e6589] lhr [info]  File \"/usr/local/lib/python3.11/site-packages/sqlalchemy/engine/create.py\", line 564, "
           "in create_engine\n2026-11-16T22:40:58Z app[3d8d9e1c2e6589] lhr [info]    entrypoint = u._get_entrypoint()\n"
           "2026-11-16T22:40:58Z app[3d8d9e1c2e6589] lhr [info] sqlalchemy.exc.NoSuchModuleError: Can't load plugin: sqlalchemy.dialects:postgres\n"
           "2026-11-16T22:41:02Z proxy[3d8d9e1c2e6589] lhr [error] [PM05] failed to connect to machine: gave up after 15 attempts (in 8.1s)\n"
           "2026-11-16T22:41:07Z health[3d8d9e1c2e6589] lhr [error] Health check on port 8000 has failed. Your app is not responding properly."),
        A("The app crashes at start-up, so the health check never gets an answer. The database attachment sets `DATABASE_URL=postgres://…`, and SQLAlchemy 2 "
          "dropped the `postgres://` alias — it only accepts `postgresql://`. We also want the psycopg 3 driver explicitly. I'll normalise the URL in "
          "`settings.py` so it works whatever scheme the host hands us."),
        ED("ledgerline/settings.py", "    database_url: str",
           "    database_url: str\n\n    @field_validator(\"database_url\")\n    @classmethod\n    def _psycopg_scheme(cls, url: str) -> str:\n"
           "        \"\"\"Hosts hand out postgres://, which SQLAlchemy 2 rejects; always use the psycopg 3 driver.\"\"\"\n"
           "        for prefix in (\"postgres://\", \"postgresql://\"):\n            if url.startswith(prefix):\n"
           "                return \"postgresql+psycopg://\" + url[len(prefix):]\n        return url"),
        SH("poetry run pytest -q tests/test_settings.py", "...\n3 passed in 0.12s"),
        A("Fixed: `Settings.database_url` now rewrites `postgres://` and `postgresql://` to `postgresql+psycopg://`, with a test for each form. Once it's merged "
          "the next `fly deploy` should pass its health check."),
        U("Great. By the way, your PR description yesterday said 'normalize' and 'behavior'. British spelling in PR descriptions and the changelog too, please."),
        A("Sorry about that — 'normalise' and 'behaviour'. I'll keep to British spelling in PR text and the changelog as well."),
        U("Also test_invoice_rollover failed in CI again last night. It passes locally and I've no idea why."),
        SH("poetry run pytest -q tests/billing/test_rollover.py::test_invoice_rollover --count 30", "..............................\n30 passed in 4.02s"),
        SH("gh run view 11873412 --log-failed | tail -12", "test\tRun tests\t    def test_invoice_rollover(db):\ntest\tRun tests\t        invoice = "
           "roll_over(make_subscription(db), today=date.today())\ntest\tRun tests\t>       assert invoice.period_start == first_of_next_month(date.today())\n"
           "test\tRun tests\tE       AssertionError: assert datetime.date(2026, 10, 31) == datetime.date(2026, 11, 1)\n"
           "test\tRun tests\tFAILED tests/billing/test_rollover.py::test_invoice_rollover - AssertionError\n"),
        A("I can't reproduce it locally (30 out of 30 pass). In CI the period starts a day early — 31 October instead of 1 November — which smells like a "
          "timezone edge around midnight: the runners are on UTC and the test calls `date.today()` in two places. That's a guess, though; I haven't confirmed it."),
        U("ugh. leave it for now, I'll look at it when I have time."),
        A("OK, leaving it alone."),
    ])
    s4 = Session("codex", "09:20", branch="chore/python-312", steps=[
        U("Heads up: we bumped to Python 3.12 yesterday evening. Dockerfile and CI are already on 3.12. Please make pyproject say so and drop the 3.11 bits."),
        SH("grep -n 'python' pyproject.toml Dockerfile .github/workflows/ci.yml", "pyproject.toml:9:python = \"^3.11\"\nDockerfile:1:FROM python:3.12-slim\n"
           ".github/workflows/ci.yml:18:          python-version: \"3.12\"\n"),
        ED("pyproject.toml", "python = \"^3.11\"", "python = \"^3.12\""),
        SH("poetry lock --no-update", "Resolving dependencies... (2.4s)\n\nWriting lock file"),
        U("While you're at it — every test errors for me this morning with some postgres connection thing. Laptop rebooted overnight, if that matters."),
        SH("poetry run pytest -q -x", PG_REFUSED.replace("{py}", "12").replace("{more}", "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!\n"
           "1 error in 1.87s"), 1),
        A("It's the same as on Monday: nothing is listening on 5433 because the `db-test` Postgres container didn't come back after the reboot. Starting it again."),
        SH("docker compose up -d db-test && poetry run pytest -q", "[+] Running 1/1\n ✔ Container ledgerline-db-test-1  Started\n"
           "..............................................................................................\n94 passed in 7.12s"),
        A("94 passed on Python 3.12. `pyproject.toml` now says `python = \"^3.12\"` and the lock file is refreshed."),
        U("VAT: Martin, our accountant, confirmed VAT is calculated on the invoice total, not per line, and rounded half-up to the penny. Can you make the code match?"),
        SH("rg -n -i 'vat' ledgerline/billing", "ledgerline/billing/vat.py:8:def vat_minor(lines: list[InvoiceLine], rate: Decimal) -> int:\n"
           "ledgerline/billing/vat.py:10:    return sum(round(line.amount_minor * line.quantity * rate) for line in lines)\n"),
        ED("ledgerline/billing/vat.py", "def vat_minor(lines: list[InvoiceLine], rate: Decimal) -> int:\n    \"\"\"VAT in pence.\"\"\"\n"
           "    return sum(round(line.amount_minor * line.quantity * rate) for line in lines)",
           "def vat_minor(lines: list[InvoiceLine], rate: Decimal) -> int:\n    \"\"\"VAT in pence: on the invoice total, rounded half-up to the penny (as agreed "
           "with the accountant).\"\"\"\n    net = Decimal(invoice_total(lines))\n    return int((net * rate).quantize(Decimal(1), rounding=ROUND_HALF_UP))"),
        SH("poetry run pytest -q tests/billing", "......F.....\nFAILED tests/billing/test_vat.py::test_vat_per_line - assert 61 == 62\n1 failed, 11 passed in 0.88s", 1),
        A("One test encoded the old per-line rule (three lines of £1.01 at 20%: per line gives 61p, on the total 60.6p → 61p… the test fixture uses £1.03 lines, "
          "giving 62 vs 61). I'll rewrite it to assert the total-based rule, including a half-penny case."),
        ED("tests/billing/test_vat.py", "def test_vat_per_line():", "def test_vat_on_total_rounds_half_up():"),
        SH("poetry run pytest -q tests/billing", "............\n12 passed in 0.81s"),
        A("Done: VAT is now computed once on the invoice total and rounded half-up to the penny; the test covers the half-penny case (£0.025 → 3p)."),
        U("perfect, thank you!"),
        A("My pleasure."),
    ])
    s5 = Session("claude", "14:30", title="Invoice PDFs with WeasyPrint", branch="feat/pdf-invoices", steps=[
        U("Customers want PDF invoices. Use WeasyPrint with a Jinja template; endpoint GET /invoices/{id}.pdf."),
        A("I'll add WeasyPrint and Jinja2, a template under `templates/`, a renderer in `ledgerline/pdf/` and the route."),
        SH("poetry add weasyprint@^63 jinja2@^3.1", "Updating dependencies\nResolving dependencies... (3.2s)\n\nPackage operations: 9 installs, 0 updates, 0 "
           "removals\n\n  - Installing cssselect2 (0.7.0)\n  - Installing fonttools (4.55.0)\n  - Installing pydyf (0.11.0)\n  - Installing pyphen (0.17.0)\n"
           "  - Installing tinycss2 (1.4.0)\n  - Installing weasyprint (63.0)\n\nWriting lock file"),
        WR("ledgerline/pdf/render.py", "from jinja2 import Environment, PackageLoader, select_autoescape\nfrom weasyprint import HTML\n\n"
           "env = Environment(loader=PackageLoader(\"ledgerline\", \"../templates\"), autoescape=select_autoescape())\n\n\n"
           "def render_invoice_pdf(invoice) -> bytes:\n    html = env.get_template(\"invoice.html\").render(invoice=invoice)\n"
           "    return HTML(string=html).write_pdf()"),
        SH("poetry run pytest -q tests/pdf", "E\n==================================== ERRORS ====================================\n"
           "__________________________ ERROR collecting tests/pdf/test_render.py ___________________________\ntests/pdf/test_render.py:3: in <module>\n"
           "    from ledgerline.pdf.render import render_invoice_pdf\nledgerline/pdf/render.py:2: in <module>\n    from weasyprint import HTML\n"
           ".venv/lib/python3.12/site-packages/weasyprint/text/ffi.py:433: in <module>\n    pango = _dlopen(\n"
           ".venv/lib/python3.12/site-packages/weasyprint/text/ffi.py:421: in _dlopen\n    return ffi.dlopen(names[0], flags)  # pragma: no cover\n"
           "E   OSError: cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file: No such file or directory.  Additionally, "
           "ctypes.util.find_library() did not manage to locate a library called 'libpango-1.0-0'\n1 error in 0.53s", 2),
        A("WeasyPrint needs Pango from the system, not from pip. Locally that's `sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0`, and the Docker image "
          "needs the same packages or the endpoint will fail in production."),
        SH("sudo apt-get install -y libpango-1.0-0 libpangoft2-1.0-0", "Reading package lists...\nBuilding dependency tree...\nThe following NEW packages will "
           "be installed:\n  libpango-1.0-0 libpangoft2-1.0-0\n0 upgraded, 2 newly installed, 0 to remove and 3 not upgraded.\nSetting up libpango-1.0-0:amd64 "
           "(1.50.12+ds-1) ...\nSetting up libpangoft2-1.0-0:amd64 (1.50.12+ds-1) ..."),
        SH("poetry run pytest -q tests/pdf", "...\n3 passed in 1.94s"),
        U("Here's the current Dockerfile, add what's needed:\n```dockerfile\n" + DOCKERFILE_PASTE + "\n```"),
        ED("Dockerfile", "WORKDIR /app", "WORKDIR /app\nRUN apt-get update && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 "
           "&& rm -rf /var/lib/apt/lists/*"),
        SH("docker build -q -t ledgerline:pdf .", "sha256:4be0f1a93c0d7e2b8a1c55d6e0f9c3b2a7d4e8f1c6b5a9d2e3f4a5b6c7d8e9f0"),
        COMPACT(LEDGER_COMPACT),
        U("where were we? did the PDF look right?"),
        A("We'd got the PDF route working and the image building with Pango. Let me render a sample invoice to check the layout."),
        SH("poetry run python -m ledgerline.pdf.render --invoice 1042 --out /tmp/inv1042.pdf && pdfinfo /tmp/inv1042.pdf | head -5",
           "Title:           Invoice INV-1042\nProducer:       WeasyPrint 63.0\nPages:          1\nPage size:      595.276 x 841.89 pts (A4)\nPDF version:    1.7"),
        A("It renders as a single A4 page titled \"Invoice INV-1042\"; totals come from `total_minor`, formatted as pounds."),
        U("Looks good. PR it — and don't forget, PRs, never main.",
          reminder="The user opened the file /home/priya/src/ledgerline/templates/invoice.html in the IDE. This may or may not be related to the current task."),
        SH("git add -A && git commit -q -m 'Add PDF invoices' && git push -q -u origin feat/pdf-invoices && gh pr create --fill",
           "\nCreating pull request for feat/pdf-invoices into main in priya-ops/ledgerline\n\nhttps://github.com/priya-ops/ledgerline/pull/43\n"),
        A("PR #43 is up: https://github.com/priya-ops/ledgerline/pull/43"),
    ])
    s6 = Session("codex", "10:00", branch="chore/render-uv", steps=[
        U("Big change: we moved deploys from fly.io to Render this morning. Render builds from our Dockerfile and auto-deploys every merge to main; the service is "
          "called ledgerline-api, health check path /healthz. The fly.io app gets deleted on Friday, so nothing in the repo should reference fly any more."),
        SH("rg -n -i 'fly' --glob '!*.lock'", "fly.toml:1:app = \"ledgerline-api\"\nMakefile:22:deploy:\nMakefile:23:\tfly deploy --remote-only\n"
           "docs/ops.md:3:Deploys: `fly deploy` from the repo root (app ledgerline-api, region lhr).\n"
           ".github/workflows/deploy.yml:19:      - uses: superfly/flyctl-actions/setup-flyctl@master\n"),
        A("fly references: `fly.toml`, the `deploy` target in the Makefile, `docs/ops.md` and `.github/workflows/deploy.yml`. Render's auto-deploy replaces the "
          "workflow, so I'll delete `fly.toml` and the workflow, drop the Makefile target and rewrite the ops notes."),
        SH("git rm -q fly.toml .github/workflows/deploy.yml && git status --short", "D  .github/workflows/deploy.yml\nD  fly.toml\n"),
        ED("docs/ops.md", "Deploys: `fly deploy` from the repo root (app ledgerline-api, region lhr).",
           "Deploys: Render, service `ledgerline-api`. Every merge to main is built from the Dockerfile and deployed automatically; health check `/healthz`.\n"
           "Rollback: Render dashboard → ledgerline-api → Events → pick the last good deploy → Rollback."),
        ED("Makefile", "deploy:\n\tfly deploy --remote-only\n", ""),
        U("Also, we're dropping poetry. Use uv from now on — `uv add`, `uv run`, `uv sync`. I've already deleted poetry.lock on main."),
        A("Switching to uv."),
        SH("uv sync", "error: No `project` table found in: `/home/priya/src/ledgerline/pyproject.toml`", 2),
        A("uv wants PEP 621 metadata (`[project]`), and ours is still `[tool.poetry]`. Converting the file."),
        ED("pyproject.toml", "[tool.poetry]\nname = \"ledgerline\"", "[project]\nname = \"ledgerline\"\nrequires-python = \">=3.12\""),
        SH("uv sync && uv run pytest -q", "Using CPython 3.12.7\nCreating virtual environment at: .venv\nResolved 47 packages in 812ms\nInstalled 45 packages in "
           "1.21s\n...................................................................................................\n99 passed in 7.88s"),
        ED("Makefile", "\tpoetry run pytest -q", "\tuv run pytest -q"),
        ED("README.md", "Install with `poetry install`.", "Install with `uv sync`; run anything with `uv run`. The API has a color-coded status page at /status."),
        A("Done:\n- fly.io removed (`fly.toml`, deploy workflow, Makefile target); `docs/ops.md` describes Render and how to roll back\n- `pyproject.toml` is "
          "PEP 621 now; `uv sync` resolves 47 packages; 99 tests pass under `uv run`\n- Makefile and README use uv"),
        U("Colour, not color, in the README — you just wrote 'color-coded status'. British English, always, everywhere."),
        ED("README.md", "color-coded status page", "colour-coded status page"),
        A("Fixed: 'colour-coded'. Sorry — British spelling everywhere, including the README."),
        SH("git add -A && git commit -q -m 'Move deploys to Render, switch to uv' && git push -q -u origin chore/render-uv && gh pr create --fill",
           "\nCreating pull request for chore/render-uv into main in priya-ops/ledgerline\n\nhttps://github.com/priya-ops/ledgerline/pull/44\n"),
        A("PR #44 is open."),
    ])
    s7 = Session("claude", "09:05", title="Start test database automatically", steps=[
        U("Morning. The e2e run on my machine blew up: `connection to server at \"127.0.0.1\", port 5433 failed`. Same thing as earlier in the week, I think?"),
        A("Let me check my notes."),
        MEM("postgres 5433 connection refused tests", [("transcripts/{s1}.md#L61", "Worth knowing: the test suite needs the `db-test` container "
                                                        "(Postgres on port 5433). If tests fail with `connection refused` on 5433, `docker compose up -d db-test` sorts it.")]),
        SH("docker compose ps --format '{{.Service}} {{.State}}'", "db running\n"),
        A("Yes, the same cause: the `db-test` container (the test Postgres on 5433) isn't running — only the dev `db` is."),
        SH("docker compose up -d db-test && uv run pytest -q tests/e2e", "[+] Running 1/1\n ✔ Container ledgerline-db-test-1  Started\n.............\n13 passed in 9.40s"),
        U("Third time this week. Can `make test` just start it itself?"),
        ED("Makefile", "test:\n\tuv run pytest -q", "test:\n\tdocker compose up -d --wait db-test\n\tuv run pytest -q"),
        SH("docker compose stop db-test && make test", "[+] Stopping 1/1\n ✔ Container ledgerline-db-test-1  Stopped\ndocker compose up -d --wait db-test\n"
           "[+] Running 1/1\n ✔ Container ledgerline-db-test-1  Healthy\nuv run pytest -q\n"
           "...................................................................................................\n99 passed in 7.61s"),
        A("Done: `make test` now runs `docker compose up -d --wait db-test` first, so the test database is started (and healthy) before pytest runs."),
        U("test_invoice_rollover failed again in CI this morning, by the way.", reminder="The TodoWrite tool hasn't been used recently. If you're working on tasks "
          "that would benefit from tracking progress, consider using the TodoWrite tool to track progress. Also consider cleaning up the todo list if has "
          "become stale and no longer matches what you are working on. Only use it if it's relevant to the current work. This is just a gentle reminder - "
          "ignore if not applicable."),
        SH("gh run view 11902287 --log-failed | grep -A1 AssertionError", "test\tRun tests\tE       AssertionError: assert datetime.date(2026, 11, 30) == "
           "datetime.date(2026, 12, 1)\ntest\tRun tests\tFAILED tests/billing/test_rollover.py::test_invoice_rollover - AssertionError"),
        A("Same failure as on Tuesday — the period starts a day early. I still suspect the UTC/midnight edge, but I can't reproduce it. I could freeze the clock "
          "in the test with time-machine to find out, if you like."),
        U("no time today, leave it. it's flaky, that's all we know."),
        A("Understood — leaving it."),
    ])
    s8 = Session("codex", "14:10", branch="main", steps=[
        U("One-off job: old invoices from before the migration have total_minor = 0 where the total was never computed. Write a backfill script that recomputes "
          "total_minor from the lines, in batches."),
        SH("rg -n 'total_minor' ledgerline scripts", "ledgerline/models.py:47:    total_minor: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)"
           "  # pence\nledgerline/billing/totals.py:12:    invoice.total_minor = invoice_total(invoice.lines)\n"),
        WR("scripts/backfill_totals.py", "\"\"\"Recompute invoices.total_minor from their lines, 500 invoices per batch.\"\"\"\n\nSQL = \"\"\"\nUPDATE invoices i SET "
           "total_minor = s.total::int\nFROM (SELECT invoice_id, SUM(amount_minor * quantity) AS total FROM invoice_lines GROUP BY invoice_id) s\n"
           "WHERE i.id = s.invoice_id AND i.total_minor = 0 AND i.id BETWEEN %(lo)s AND %(hi)s\n\"\"\""),
        SH("uv run python scripts/backfill_totals.py --dry-run", "Traceback (most recent call last):\n  File \"/home/priya/src/ledgerline/scripts/backfill_totals.py\", "
           "line 41, in <module>\n    main()\n  File \"/home/priya/src/ledgerline/scripts/backfill_totals.py\", line 35, in main\n    cur.execute(SQL, {\"lo\": lo, "
           "\"hi\": hi})\n  File \"/home/priya/src/ledgerline/.venv/lib/python3.12/site-packages/psycopg/cursor.py\", line 97, in execute\n"
           "    raise ex.with_traceback(None)\npsycopg.errors.NumericValueOutOfRange: integer out of range", 1),
        A("A few council invoices total more than £21.4 million in pence terms (2,147,483,647p is the `int` ceiling), and the script casts the sum to `::int`. "
          "The column is BIGINT, so the cast should be `::bigint`."),
        ED("scripts/backfill_totals.py", "total_minor = s.total::int", "total_minor = s.total::bigint"),
        SH("uv run python scripts/backfill_totals.py --dry-run", "would update 1284 invoices in 3 batches (dry run, rolled back)"),
        U("Run it for real against staging? No wait — don't. The staging database is read-only for agents; I run data fixes there myself. Just commit the script. "
          "Commit messages: conventional commits please — feat:, fix:, chore:. And a PR as always, never straight to main."),
        A("Understood: I won't touch staging; conventional commit message; PR, not main."),
        SH("git checkout -q -b chore/backfill-totals && git add scripts/backfill_totals.py && git commit -q -m 'chore: add total_minor backfill script' && git push "
           "-q -u origin chore/backfill-totals && gh pr create --fill", "\nCreating pull request for chore/backfill-totals into main in priya-ops/ledgerline\n\n"
           "https://github.com/priya-ops/ledgerline/pull/46\n"),
        A("PR #46: `chore: add total_minor backfill script`. Nothing was run against staging."),
        U("👍"),
    ])
    s9 = Session("claude", "10:30", title="Deploy and rollback questions", steps=[
        CAVEAT(),
        CMD("/cost", "Total cost:            $0.0000\nTotal duration (API):  0s\nTotal duration (wall): 4s\nTotal code changes:    0 lines added, 0 lines removed"),
        U("Quick ones before the weekend: where do we deploy now, and how do I roll back a bad deploy?"),
        MEM("where do we deploy ledgerline rollback", [("transcripts/{s6}.md#L5", "Big change: we moved deploys from fly.io to Render this morning. "
                                                       "Render builds from our Dockerfile and auto-deploys every merge to main; the service is called ledgerline-api, "
                                                       "health check path /healthz."),
                                                      ("docs/ops.md#L4", "Rollback: Render dashboard → ledgerline-api → Events → pick the last good deploy → Rollback.")]),
        A("- Deploys: Render, service `ledgerline-api`; every merge to main is built from the Dockerfile and deployed automatically; health check `/healthz`.\n"
          "- Rolling back: Render dashboard → ledgerline-api → Events → pick the last good deploy → **Rollback**. It's also written up in `docs/ops.md`."),
        U("and the test database port?"),
        A("5433 — the `db-test` container. `make test` starts it for you now."),
        U("brilliant, thanks. have a good weekend!"),
        A("Thanks, you too!"),
    ])
    return Project("ledgerline", LEDGER_CWD, "git@github.com:priya-ops/ledgerline.git", agents, [
        Day("2026-11-16", [s1, s2], ["how is money stored in ledgerline", "tests fail with connection refused on port 5433"]),
        Day("2026-11-17", [s3], ["stripe webhook secret location", "which tool do we use to add dependencies"]),
        Day("2026-11-18", [s4, s5], ["deploy health check failure postgres url", "British English spelling preference"]),
        Day("2026-11-19", [s6], ["VAT rounding rule", "PDF invoices missing libpango"]),
        Day("2026-11-20", [s7, s8], ["where do we deploy", "uv or poetry for dependencies"]),
        Day("2026-11-21", [s9], ["test database port", "never push to main"]),
    ])


# ================================================================================================
# Project 2: tidepool-web, a Next.js dashboard for a coastal sensor network (owner Sam)
# ================================================================================================
TIDE_CWD = "/home/sam/code/tidepool-web"

HEAP_OOM = """
<--- Last few GCs --->

[48211:0x7f8a4c008000]    91234 ms: Mark-Compact (reduce) 2031.2 (2083.4) -> 2029.8 (2084.1) MB, 1422.13 / 0.00 ms  (average mu = 0.142, current mu = 0.021) allocation \
failure; scavenge might not succeed

<--- JS stacktrace --->

FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb8a4b0 node::Abort() [node]
 2: 0xa96834  [node]
 3: 0xd67ff0 v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]
 4: 0xf3c1a5 v8::internal::Heap::FatalProcessOutOfMemory(char const*) [node]
Aborted (core dumped)"""

NEXT_BUILD_OK = """   ▲ Next.js 14.2.18

   Creating an optimized production build ...
 ✓ Compiled successfully
 ✓ Linting and checking validity of types
 ✓ Collecting page data
 ✓ Generating static pages (14/14)
 ✓ Finalizing page optimization

Route (app)                              Size     First Load JS
┌ ○ /                                    5.2 kB         98.1 kB
├ ○ /stations                            3.9 kB         112 kB
└ ƒ /stations/[id]                       41.7 kB        187 kB
+ First Load JS shared by all            87.3 kB"""

TIDE_COMPACT = """Analysis:
The map on /stations/[id] was blank on localhost with 401s from api.mapbox.com. The app reads NEXT_PUBLIC_MAPBOX_TOKEN; Sam's .env.local held the production token, which \
is URL-restricted to tidepool.app. Sam swapped in the unrestricted dev token (1Password item "Mapbox dev") and I documented this in .env.local.example. Sam then asked me \
not to add dependencies without asking (I had added date-fns on Tuesday without asking); date-fns stays.

Summary:
1. Primary Request and Intent: fix the blank map locally; document the token setup; battery column styling next.
2. Key Technical Concepts: Mapbox GL access tokens with URL restrictions, Next.js NEXT_PUBLIC_ env vars, Tailwind classes.
3. Files and Code Sections: .env.local.example (comment about the dev token), components/StationList.tsx.
4. Errors and fixes: 401 Unauthorized from api.mapbox.com on localhost -> use the dev token in .env.local.
5. Pending Tasks: battery column should turn red under 20%.
6. User preferences: npm only (no yarn/pnpm); named exports in components; never push to main, PRs are reviewed by Dana; ask before adding dependencies."""


def tidepool() -> Project:
    agents = "This is a Next.js app. Use `npm run lint` and `npm test` before finishing. Prefer server components; mark client components explicitly."
    t1 = Session("codex", "09:30", steps=[
        U("hey! quick intro: tidepool-web is the dashboard for our coastal sensor network — Next.js 14 with the app router, TypeScript in strict mode, Tailwind. "
          "Data comes from our API at api.tidepool.app. Please use npm for everything here; no yarn, no pnpm. We have a package-lock.json and I want to keep it "
          "that way."),
        A("Got it — Next.js 14 app router, strict TypeScript, Tailwind, npm only. Let me install and check the dev setup."),
        SH("npm ci", "npm error code EBADENGINE\nnpm error engine Unsupported engine\nnpm error engine Not compatible with your version of node/npm: "
           "tidepool-web@0.4.0\nnpm error notsup Not compatible with your version of node/npm: tidepool-web@0.4.0\nnpm error notsup Required: {\"node\":\">=20.11\"}\n"
           "npm error notsup Actual:   {\"npm\":\"10.2.4\",\"node\":\"v18.19.1\"}\n\nnpm error A complete log of this run can be found in: "
           "/home/sam/.npm/_logs/2026-11-17T09_31_12_400Z-debug-0.log", 1),
        SH("cat .nvmrc .npmrc", "20.11.1\nengine-strict=true\n"),
        SH("source ~/.nvm/nvm.sh && nvm install && nvm use && npm ci", "Found '/home/sam/code/tidepool-web/.nvmrc' with version <20.11.1>\nv20.11.1 is already "
           "installed.\nNow using node v20.11.1 (npm v10.2.4)\n\nadded 612 packages, and audited 613 packages in 21s\n\n148 packages are looking for funding\n"
           "  run `npm fund` for details\n\nfound 0 vulnerabilities"),
        A("Your shell had Node 18; the repo pins Node 20.11.1 in `.nvmrc` with `engine-strict=true`, so `npm ci` refuses anything older. After `nvm use` the "
          "install is clean."),
        U("right, forgot about that. ok first task: a StationList component for /stations — a table of stations with name, last reading time and battery. "
          "Use the existing fetchStations() from lib/api.ts."),
        SH("sed -n '1,40p' lib/api.ts", "const BASE = process.env.NEXT_PUBLIC_API_BASE ?? \"https://api.tidepool.app\";\n\nexport type Station = {\n  id: string;\n"
           "  name: string;\n  tz: string;\n  battery: number; // 0..1\n  lastReadingAt: string; // ISO 8601, UTC\n};\n\nexport async function fetchStations(): "
           "Promise<Station[]> {\n  const res = await fetch(`${BASE}/v1/stations`, { next: { revalidate: 60 } });\n  if (!res.ok) throw new Error(`stations: "
           "${res.status}`);\n  return res.json();\n}\n"),
        SH("npm install date-fns@4.1.0", "\nadded 1 package, and audited 614 packages in 2s\n\nfound 0 vulnerabilities"),
        WR("components/StationList.tsx", "import { formatDistanceToNow } from \"date-fns\";\nimport type { Station } from \"@/lib/api\";\n\nexport default function "
           "StationList({ stations }: { stations: Station[] }) {\n  return (\n    <table className=\"min-w-full text-sm\">\n      <tbody>\n        {stations.map((s) => "
           "(\n          <tr key={s.id}>\n            <td>{s.name}</td>\n            <td>{formatDistanceToNow(new Date(s.lastReadingAt))} ago</td>\n"
           "            <td>{Math.round(s.battery * 100)}%</td>\n          </tr>\n        ))}\n      </tbody>\n    </table>\n  );\n}"),
        U("one thing: named exports only in components please, no default exports. Next's page.tsx / layout.tsx are the only exception since Next needs them."),
        ED("components/StationList.tsx", "export default function StationList", "export function StationList"),
        ED("app/stations/page.tsx", "import StationList from \"@/components/StationList\";", "import { StationList } from \"@/components/StationList\";"),
        SH("npm run lint && npx tsc --noEmit", "\n> tidepool-web@0.4.0 lint\n> next lint\n\n✔ No ESLint warnings or errors"),
        A("Done — `StationList` is a named export, `app/stations/page.tsx` imports it by name, and lint and the type check are clean."),
        U("sweet, thanks 🙏"),
    ])
    t2 = Session("claude", "16:10", title="Next build runs out of memory", branch="feat/station-list", steps=[
        U("trying a production build before I open the PR and it dies:\n```" + HEAP_OOM + "\n```\nany idea?"),
        A("That's Node's default heap limit being hit during `next build`. Let me reproduce it."),
        SH("npm run build", "\n> tidepool-web@0.4.0 build\n> next build\n\n   ▲ Next.js 14.2.18\n\n   Creating an optimized production build ..." + HEAP_OOM, 134),
        WEB("https://github.com/vercel/next.js/discussions/48142", "Discussion: next build runs out of memory\n\n- Set NODE_OPTIONS=--max-old-space-size=4096 "
            "(most upvoted).\n- Someone: 'Workaround: downgrade to next@13.5, 14 leaks memory during type checking.' (12 downvotes)\n- Maintainer: try "
            "experimental.webpackMemoryOptimizations in next.config.js."),
        SH("NODE_OPTIONS=--max-old-space-size=4096 npm run build", "\n> tidepool-web@0.4.0 build\n> next build\n\n" + NEXT_BUILD_OK),
        A("With `NODE_OPTIONS=--max-old-space-size=4096` the build completes. The big GeoJSON coastline import in `lib/coastline.ts` plus type-checking pushes "
          "past the default ~2 GB heap. I'd bake the flag into the `build` script so nobody has to remember it."),
        U("yep do it. (ignore the downgrade-to-13 advice in that thread, we're not going back.)"),
        ED("package.json", "\"build\": \"next build\",", "\"build\": \"NODE_OPTIONS=--max-old-space-size=4096 next build\","),
        SH("npm run build", "\n> tidepool-web@0.4.0 build\n> NODE_OPTIONS=--max-old-space-size=4096 next build\n\n" + NEXT_BUILD_OK),
        U("cool. push it and open the PR. and never push to main directly — always a PR. Dana reviews everything, and every PR gets a Vercel preview. prod is on "
          "Vercel too (project tidepool-web, domain tidepool.app)."),
        A("Understood — PRs only, never main. Pushing the branch and opening the PR."),
        SH("git push -q -u origin feat/station-list && gh pr create --fill", "\nCreating pull request for feat/station-list into main in tidepool-labs/tidepool-web\n"
           "\nhttps://github.com/tidepool-labs/tidepool-web/pull/112\n"),
        A("PR #112 is open; the Vercel bot will post the preview URL on it."),
        U("🙌"),
    ])
    t3 = Session("claude", "10:00", title="Blank map on localhost", steps=[
        U("the map on /stations/[id] is blank on localhost. the console says:\n```\nGET https://api.mapbox.com/styles/v1/tidepool/clx0a1b2c/tiles/256/9/250/165@2x"
          "?access_token=pk.eyJ1IjoidGlkZXBvb2wi... 401 (Unauthorized)\nError: Unauthorized\n    at tA._requestManager (mapbox-gl.js:36:11912)\n```"),
        A("A 401 from Mapbox with a token present usually means the token isn't allowed for the page's URL. Let me see how the app reads it."),
        SH("grep -rn NEXT_PUBLIC_MAPBOX_TOKEN --include='*.ts*' app components lib", "components/StationMap.tsx:9:  accessToken: process.env.NEXT_PUBLIC_MAPBOX_TOKEN!,\n"),
        RD(".env.local.example", "NEXT_PUBLIC_API_BASE=https://api.tidepool.app\nNEXT_PUBLIC_MAPBOX_TOKEN="),
        A("The app reads `NEXT_PUBLIC_MAPBOX_TOKEN`. If your `.env.local` has the production token, that one is URL-restricted to tidepool.app, so localhost gets "
          "a 401. You need a token without URL restrictions (a dev token) in `.env.local`."),
        U("ah right. the dev token is in 1Password under 'Mapbox dev'. here's my .env.local now (redacted):\n```\nNEXT_PUBLIC_API_BASE=https://api.tidepool.app\n"
          "NEXT_PUBLIC_MAPBOX_TOKEN=pk.eyJ1IjoidGlkZXBvb2wiLCJhIjoi<prod…>\n```\nswapped it for the dev one, map works. can you add a comment to "
          ".env.local.example so the next person doesn't hit this?"),
        ED(".env.local.example", "NEXT_PUBLIC_MAPBOX_TOKEN=", "# Use the 'Mapbox dev' token from 1Password. The production token is URL-restricted to "
           "tidepool.app and returns 401 on localhost.\nNEXT_PUBLIC_MAPBOX_TOKEN="),
        A("Added the comment to `.env.local.example`."),
        U("also: don't add new dependencies without asking me first. you pulled in date-fns yesterday without a word."),
        A("You're right, I should have asked — sorry. From now on I'll check with you before adding any dependency. Do you want date-fns removed?"),
        U("no, keep date-fns, it's fine. just ask next time."),
        COMPACT(TIDE_COMPACT),
        U("ok next: the battery column should go red under 20%"),
        ED("components/StationList.tsx", "<td>{Math.round(s.battery * 100)}%</td>",
           "<td className={s.battery < 0.2 ? \"text-red-600 font-medium\" : undefined}>{Math.round(s.battery * 100)}%</td>"),
        SH("npm test -- StationList", "\n> tidepool-web@0.4.0 test\n> vitest run StationList\n\n ✓ components/StationList.test.tsx (3 tests) 41ms\n\n Test Files  1 passed "
           "(1)\n      Tests  3 passed (3)\n   Duration  1.62s"),
        A("Battery below 20% now renders in `text-red-600`; the StationList tests pass."),
    ])
    t4 = Session("codex", "15:00", steps=[
        U("the readings chart on the station page is painfully slow — Recharts with ~50k points per station per week. options?"),
        TH("Recharts renders SVG nodes per point; 50k points is too many. Options are downsampling or a canvas library. A new library is a new dependency, "
           "and Sam asked to be asked first."),
        A("Recharts draws every point as an SVG node, so 50k points means 50k DOM nodes on every render. Options:\n1. Downsample on the server (LTTB to ~2k "
          "points) and keep Recharts\n2. Switch the time series to uPlot — canvas-based, handles 100k+ points easily, ~45 kB\n3. visx with a canvas layer — more "
          "work\n\nI'd go with (2). uPlot would be a new dependency, so: may I add it?"),
        U("yes, go with uPlot for the time series. Recharts stays for the small bar charts on the overview. and thanks for asking first."),
        SH("npm install uplot@1.6.31", "\nadded 1 package, and audited 615 packages in 2s\n\nfound 0 vulnerabilities"),
        WR("components/ReadingsChart.tsx", "\"use client\";\nimport uPlot from \"uplot\";\nimport \"uplot/dist/uPlot.min.css\";\nimport { useEffect, useRef } from "
           "\"react\";\n\nexport function ReadingsChart({ data }: { data: uPlot.AlignedData }) {\n  const el = useRef<HTMLDivElement>(null);\n  useEffect(() => {\n"
           "    const plot = new uPlot({ width: el.current!.clientWidth, height: 280, series: [{}, { label: \"Water level\" }] }, data, el.current!);\n"
           "    return () => plot.destroy();\n  }, [data]);\n  return <div ref={el} />;\n}"),
        U("and tests: we write them with Vitest + Testing Library, not Jest. there's an old jest.config.js lying around, ignore it."),
        WR("components/ReadingsChart.test.tsx", "import { render } from \"@testing-library/react\";\nimport { describe, expect, it } from \"vitest\";\nimport { "
           "ReadingsChart } from \"./ReadingsChart\";\n\ndescribe(\"ReadingsChart\", () => {\n  it(\"mounts a canvas\", () => {\n    const { container } = "
           "render(<ReadingsChart data={[[1, 2], [0.4, 0.5]]} />);\n    expect(container.querySelector(\"canvas\")).not.toBeNull();\n  });\n});"),
        SH("npm test -- ReadingsChart", "\n> tidepool-web@0.4.0 test\n> vitest run ReadingsChart\n\n ❯ components/ReadingsChart.test.tsx (1 test | 1 failed)\n"
           "   × ReadingsChart > mounts a canvas\n     → ResizeObserver is not defined\n\n⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  components/ReadingsChart.test.tsx > "
           "ReadingsChart > mounts a canvas\nReferenceError: ResizeObserver is not defined\n ❯ new uPlot node_modules/uplot/dist/uPlot.esm.js:1734:18\n"
           " ❯ components/ReadingsChart.tsx:9:18\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)", 1),
        A("jsdom has no `ResizeObserver`. I'll stub it in `vitest.setup.ts` rather than in each test."),
        ED("vitest.setup.ts", "import \"@testing-library/jest-dom/vitest\";", "import \"@testing-library/jest-dom/vitest\";\n\n// jsdom has no ResizeObserver; uPlot "
           "needs one\nglobalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;"),
        SH("npm test", "\n> tidepool-web@0.4.0 test\n> vitest run\n\n ✓ components/StationList.test.tsx (3 tests) 44ms\n ✓ components/ReadingsChart.test.tsx "
           "(1 test) 63ms\n ✓ lib/api.test.ts (9 tests) 12ms\n ✓ lib/coastline.test.ts (6 tests) 188ms\n\n Test Files  4 passed (4)\n      Tests  19 passed (19)"),
        A("The time series now uses uPlot (canvas); Recharts is still used for the overview bar charts. A `ResizeObserver` stub in `vitest.setup.ts` keeps "
          "jsdom happy; all 19 tests pass. Rendering a week of data went from ~4 s to well under 100 ms locally."),
        U("nice"),
    ])
    t5 = Session("codex", "09:40", branch="chore/pnpm", steps=[
        U("CI is red on main. the Build job log:\n```\n> tidepool-web@0.4.0 build\n> next build\n\n   Creating an optimized production build ...\n\n<--- JS "
          "stacktrace --->\n\nFATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory\nError: Process completed "
          "with exit code 134.\n```"),
        SH("sed -n '20,40p' .github/workflows/ci.yml", "      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n          cache: npm\n"
           "      - run: npm ci\n      - run: npm run lint\n      - run: npm test\n      - name: Build\n        run: npx next build\n"),
        A("CI doesn't go through `npm run build`: the workflow calls `npx next build` directly, so the `NODE_OPTIONS` we put in the build script on Tuesday "
          "doesn't apply there. Same heap-limit problem, same fix — use the script, and set the flag in the job env as well."),
        ED(".github/workflows/ci.yml", "      - name: Build\n        run: npx next build", "      - name: Build\n        run: npm run build\n        env:\n"
           "          NODE_OPTIONS: --max-old-space-size=4096"),
        U("actually use pnpm instead of npm from now on. the monorepo move next month needs workspaces, and pnpm is what the rest of the team uses. convert the "
          "lockfile and the CI while you're in there."),
        SH("corepack enable && pnpm import && rm package-lock.json && pnpm install", "Progress: resolved 614, reused 598, downloaded 16, added 614, done\n\n"
           "dependencies:\n+ date-fns 4.1.0\n+ mapbox-gl 3.8.0\n+ next 14.2.18\n+ react 18.3.1\n+ recharts 2.13.3\n+ uplot 1.6.31\n\nDone in 8.4s"),
        ED("package.json", "\"private\": true,", "\"private\": true,\n  \"packageManager\": \"pnpm@9.12.3\","),
        ED(".github/workflows/ci.yml", "          cache: npm\n      - run: npm ci\n      - run: npm run lint\n      - run: npm test",
           "          cache: pnpm\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm lint\n      - run: pnpm test"),
        SH("pnpm install --frozen-lockfile", " ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with "
           "<ROOT>/package.json\n\nNote that in CI environments this setting is true by default. If you still need to run install in such cases, use \"pnpm "
           "install --no-frozen-lockfile\"", 1),
        A("The lockfile was generated before I added `packageManager`; regenerating it so the frozen install in CI matches."),
        SH("pnpm install && pnpm install --frozen-lockfile && pnpm build", "Lockfile is up to date, resolution step is skipped\nAlready up to date\n\n> "
           "tidepool-web@0.4.0 build /home/sam/code/tidepool-web\n> NODE_OPTIONS=--max-old-space-size=4096 next build\n\n" + NEXT_BUILD_OK),
        A("Converted:\n- `pnpm-lock.yaml` replaces `package-lock.json`; `\"packageManager\": \"pnpm@9.12.3\"`\n- CI: `pnpm/action-setup`, `pnpm install "
          "--frozen-lockfile`, `pnpm build` (the script carries the heap flag, and the job env sets it too)"),
        U("great. PR please, same as always, not main."),
        SH("git add -A && git commit -q -m 'Switch to pnpm; fix CI build heap limit' && git push -q -u origin chore/pnpm && gh pr create --fill",
           "\nCreating pull request for chore/pnpm into main in tidepool-labs/tidepool-web\n\nhttps://github.com/tidepool-labs/tidepool-web/pull/118\n"),
        A("PR #118 is open."),
    ])
    t6 = Session("claude", "10:15", title="Move from Vercel to Cloudflare Pages", branch="chore/cloudflare-pages", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("we moved hosting from Vercel to Cloudflare Pages over the weekend — Dana did the migration. prod is still tidepool.app, but it's served by Pages now, "
          "and previews live on <branch>.tidepool-web.pages.dev instead of the Vercel preview URLs. the Vercel project gets deleted at the end of the month. "
          "can you clean up the Vercel bits in the repo?",
          reminder="This is a reminder that your todo list is currently empty. DO NOT mention this to the user explicitly because they are already aware. If "
                   "you are working on tasks that would benefit from a todo list please use the TodoWrite tool to create one. If not, please feel free to ignore. "
                   "Again do not mention this message to the user."),
        SH("grep -rn -i vercel --exclude-dir=node_modules --exclude-dir=.next .", "./vercel.json:2:  \"$schema\": \"https://openapi.vercel.sh/vercel.json\",\n"
           "./README.md:31:Every PR gets a Vercel preview; production deploys from main on Vercel (project tidepool-web).\n"
           "./package.json:14:    \"@vercel/analytics\": \"^1.3.1\",\n./app/layout.tsx:3:import { Analytics } from \"@vercel/analytics/react\";\n"),
        A("Vercel bits: `vercel.json`, the README deploy paragraph, and `@vercel/analytics` in the root layout. Removing the analytics package means "
          "touching dependencies — OK to uninstall it?"),
        U("yes remove it, we'll use Cloudflare Web Analytics."),
        SH("rm vercel.json && pnpm remove @vercel/analytics", "Packages: -1\n-\nProgress: resolved 613, reused 613, downloaded 0, added 0, done\n\n"
           "dependencies:\n- @vercel/analytics 1.3.1\n\nDone in 1.9s"),
        ED("app/layout.tsx", "import { Analytics } from \"@vercel/analytics/react\";\n", ""),
        ED("README.md", "Every PR gets a Vercel preview; production deploys from main on Vercel (project tidepool-web).",
           "Hosting: Cloudflare Pages. Production is tidepool.app (deployed from main); every PR gets a preview at <branch>.tidepool-web.pages.dev."),
        U("and the first Pages build failed:\n```\n14:02:11.771 Executing user command: npx @cloudflare/next-on-pages@1\n14:02:14.020 ▲  Running \"next build\"...\n"
          "14:03:40.112 <--- Last few GCs --->\n14:03:40.113 FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n14:03:40.530 "
          "Failed: Error while executing user command. Exited with error code: 134\n```\nsame memory thing again?"),
        A("Yes — the same heap limit, biting in a third place. Pages runs `npx @cloudflare/next-on-pages@1`, which calls `next build` itself, so the flag in our "
          "`build` script isn't used. Set `NODE_OPTIONS=--max-old-space-size=4096` as an environment variable on the Pages project (Settings → Environment "
          "variables, for both Production and Preview) and retry the deploy."),
        U("added it in the dashboard, rebuild went green. ty. also we bumped Node to 22 — .nvmrc says 22.11.0 now and Pages has NODE_VERSION=22.11.0."),
        ED("package.json", "\"node\": \">=20.11\"", "\"node\": \">=22.11\""),
        SH("cat .nvmrc && pnpm install && pnpm build 2>&1 | tail -6", "22.11.0\nLockfile is up to date, resolution step is skipped\nAlready up to date\n"
           "├ ○ /stations                            3.9 kB         111 kB\n└ ƒ /stations/[id]                       41.7 kB        186 kB\n"
           "+ First Load JS shared by all            86.1 kB"),
        A("Done:\n- `vercel.json` and `@vercel/analytics` removed; the README describes Cloudflare Pages (prod tidepool.app, previews on "
          "`<branch>.tidepool-web.pages.dev`)\n- `engines.node` is `>=22.11` to match `.nvmrc` 22.11.0; the build passes on Node 22"),
    ])
    t7 = Session("codex", "15:30", steps=[
        U("bug: station pages crash for a couple of UK stations:\n```\nRangeError: Invalid time zone specified: Europe/London \n    at new DateTimeFormat "
          "(<anonymous>)\n    at formatInTimeZone (node_modules/date-fns-tz/dist/cjs/formatInTimeZone.js:21:12)\n    at ReadingsHeader "
          "(components/ReadingsHeader.tsx:18:17)\n```"),
        SH("curl -s https://api.tidepool.app/v1/stations/ST-0147 | jq '{id, name, tz}'", "{\n  \"id\": \"ST-0147\",\n  \"name\": \"Whitstable Pier\",\n"
           "  \"tz\": \"Europe/London \"\n}"),
        A("The API sends `tz` with a trailing space for this station (\"Europe/London \"), and `Intl.DateTimeFormat` rejects it. I'll trim it in `fetchStations`; "
          "the data should be fixed in the API as well."),
        U("for the record: the API returns all timestamps in UTC, and we always display them in the station's local timezone (station.tz, an IANA name), never "
          "the browser's timezone. please make sure everything goes through one helper."),
        SH("rg -n 'toLocale(String|TimeString)|formatInTimeZone|format\\(' components app", "components/ReadingsHeader.tsx:18:  const when = formatInTimeZone("
           "latest.at, station.tz, \"d MMM HH:mm\");\ncomponents/StationList.tsx:12:            <td>{new Date(s.lastReadingAt).toLocaleString()}</td>\n"
           "app/stations/[id]/page.tsx:27:        Updated {new Date(station.updatedAt).toLocaleTimeString()}\n"),
        WR("lib/time.ts", "import { formatInTimeZone } from \"date-fns-tz\";\n\n/** Format a UTC instant from the API in the station's own timezone "
           "(never the browser's). */\nexport function formatStationTime(utc: string, tz: string, pattern = \"d MMM yyyy HH:mm\"): string {\n"
           "  return formatInTimeZone(new Date(utc), tz.trim(), pattern);\n}"),
        ED("components/StationList.tsx", "<td>{new Date(s.lastReadingAt).toLocaleString()}</td>", "<td>{formatStationTime(s.lastReadingAt, s.tz)}</td>"),
        ED("app/stations/[id]/page.tsx", "Updated {new Date(station.updatedAt).toLocaleTimeString()}", "Updated {formatStationTime(station.updatedAt, station.tz, \"HH:mm\")}"),
        SH("npm test", "npm error code EBADDEVENGINES\nnpm error EBADDEVENGINES The developer of this package has specified the following through devEngines\n"
           "npm error EBADDEVENGINES Invalid engine \"packageManager\"\nnpm error EBADDEVENGINES Invalid name \"pnpm\" does not match \"npm\" for "
           "\"packageManager\"", 1),
        U("it's pnpm now, remember. not npm."),
        SH("pnpm test", "\n> tidepool-web@0.4.0 test /home/sam/code/tidepool-web\n> vitest run\n\n ✓ lib/time.test.ts (4 tests) 9ms\n ✓ components/StationList.test.tsx "
           "(3 tests) 51ms\n ✓ components/ReadingsChart.test.tsx (1 test) 60ms\n ✓ lib/api.test.ts (9 tests) 13ms\n ✓ lib/coastline.test.ts (6 tests) 190ms\n\n Test "
           "Files  5 passed (5)\n      Tests  23 passed (23)"),
        A("Sorry — pnpm. All times now go through `formatStationTime(utc, tz)` in `lib/time.ts` (trims the tz, formats in the station's zone); 23 tests pass."),
        U("the hydration mismatch warning on /stations is back btw. 'Text content does not match server-rendered HTML'."),
        A("Likely culprit: anything computed from \"now\" (relative times like \"5 minutes ago\") differs between the server render and the client render. "
          "The quick fix people reach for is `suppressHydrationWarning` on that cell."),
        U("no, not suppressHydrationWarning, that's papering over it. leave it, I'll dig into it later."),
        A("OK, leaving it as it is."),
    ])
    t8 = Session("claude", "11:00", title="Hosting notes for onboarding", steps=[
        U("morning! what's our hosting setup again, and what do preview URLs look like? writing the onboarding doc for Lee."),
        MEM("tidepool hosting preview urls", [("transcripts/{s6}.md#L4", "we moved hosting from Vercel to Cloudflare Pages over the weekend — Dana did the "
                                               "migration. prod is still tidepool.app, but it's served by Pages now, and previews live on "
                                               "<branch>.tidepool-web.pages.dev")]),
        A("- Production: tidepool.app on Cloudflare Pages (moved from Vercel last weekend; Dana did the migration)\n- Previews: every PR at "
          "`<branch>.tidepool-web.pages.dev`\n- Build: `npx @cloudflare/next-on-pages@1`, with `NODE_OPTIONS=--max-old-space-size=4096` and "
          "`NODE_VERSION=22.11.0` set in the Pages environment\n- Package manager: pnpm"),
        U("perfect. and one review thing: StationChart is default-exported again. named exports please — no default exports outside page/layout files."),
        SH("grep -rn 'export default' components", "components/StationChart.tsx:7:export default function StationChart({ station }: Props) {\n"),
        ED("components/StationChart.tsx", "export default function StationChart", "export function StationChart"),
        ED("app/stations/[id]/page.tsx", "import StationChart from \"@/components/StationChart\";", "import { StationChart } from \"@/components/StationChart\";"),
        SH("pnpm lint && pnpm tsc --noEmit", "\n> tidepool-web@0.4.0 lint /home/sam/code/tidepool-web\n> next lint\n\n✔ No ESLint warnings or errors"),
        A("Fixed — `StationChart` is a named export again, and nothing under `components/` default-exports any more."),
        U("great work this week 🙌"),
        A("Thanks! Enjoy the rest of the week."),
    ])
    return Project("tidepool-web", TIDE_CWD, "git@github.com:tidepool-labs/tidepool-web.git", agents, [
        Day("2026-11-17", [t1, t2], ["node version nvmrc", "next build heap out of memory"]),
        Day("2026-11-18", [t3, t4], ["mapbox 401 on localhost", "component export style"]),
        Day("2026-11-19", [t5], ["which package manager npm or pnpm", "time series chart library"]),
        Day("2026-11-23", [t6, t7], ["where is tidepool hosted", "build killed heap limit fix"]),
        Day("2026-11-24", [t8], ["station timezone display", "adding dependencies"]),
    ])


# ================================================================================================
# Project 3: rivet, a Rust file-sync tool (owner Tomasz)
# ================================================================================================
RIVET_CWD = "/home/tomasz/dev/rivet"

ADDR_IN_USE = """    Starting {n} tests across 4 binaries
        PASS [   0.011s] rivet-cli cmd::status::tests::renders_idle
        PASS [   0.014s] rivet-core index::tests::roundtrip
        FAIL [   0.103s] rivet-cli::daemon_it status_reports_peers

--- STDERR:              rivet-cli::daemon_it status_reports_peers ---
thread 'status_reports_peers' panicked at crates/rivet-cli/tests/daemon_it.rs:41:10:
failed to start test daemon: Os {{ code: 98, kind: AddrInUse, message: "Address already in use" }}
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

        FAIL [   0.098s] rivet-cli::daemon_it sync_two_peers
------------
     Summary [   1.204s] {n} tests run: {ok} passed, 2 failed, 0 skipped
error: test run failed"""

RIVET_COMPACT = """Analysis:
Tomasz asked to go back from cargo nextest to plain `cargo test`: nextest doesn't run doctests and the Buildkite agents don't have it installed. I changed \
.buildkite/pipeline.yml and CONTRIBUTING.md; `cargo test --workspace` passes including 12 doctests. He then said "the linker error is back" — the aarch64 cross build \
link failure (first -lzstd, then __aarch64_ldadd4_acq_rel), now also in CI; he asked me not to fix it now.

Summary:
1. Primary Request and Intent: switch test running to `cargo test --workspace`; next, add `--json` to `rivet status`.
2. Key Technical Concepts: cargo test vs nextest (doctests), Buildkite pipeline steps, serde_json output for status.
3. Files and Code Sections: .buildkite/pipeline.yml (test step), CONTRIBUTING.md, crates/rivet-cli/src/cmd/status.rs.
4. Errors and fixes: none new; aarch64 link error open, not being worked on.
5. Pending Tasks: `rivet status --json`.
6. User preferences: British English; short bulleted answers without preamble; no unwrap/expect in library code (thiserror in rivet-core, anyhow in binaries)."""


def rivet() -> Project:
    agents = "- Run `cargo fmt` before committing.\n- Keep public API changes in CHANGELOG.md.\n- Binaries: rivet (crates/rivet-cli) and rivetd (crates/rivetd)."
    r1 = Session("claude", "09:00", title="rivet status over the daemon socket", branch="feat/status", steps=[
        CAVEAT(),
        CMD("/clear"),
        U("Hi. Project: rivet — a file sync tool in Rust. Cargo workspace with rivet-core (library), rivet-cli (the `rivet` binary) and rivetd (the daemon). "
          "tokio everywhere, MSRV 1.74. Two things about how I like to work: answer in British English, and keep answers short — bullet points, no preamble, "
          "no summaries of what you're about to do."),
        A("- Understood: British English, short bulleted answers.\n- Reading the workspace now."),
        MEM("rivet project notes", []),
        SH("cat Cargo.toml && ls crates", "[workspace]\nresolver = \"2\"\nmembers = [\"crates/rivet-core\", \"crates/rivet-cli\", \"crates/rivetd\"]\n\n"
           "[workspace.package]\nedition = \"2021\"\nrust-version = \"1.74\"\nlicense = \"MIT OR Apache-2.0\"\n\n[workspace.dependencies]\ntokio = { version = "
           "\"1.41\", features = [\"full\"] }\nserde = { version = \"1\", features = [\"derive\"] }\nzstd = { version = \"0.13\", features = [\"pkg-config\"] }\n"
           "rivet-cli\nrivet-core\nrivetd\n"),
        U("Run tests with `cargo nextest run`, not `cargo test` — it's faster and the output's clearer."),
        A("- Noted: `cargo nextest run`."),
        U("Task: `rivet status` should ask the daemon over its Unix socket and print the sync state. The socket is $XDG_RUNTIME_DIR/rivetd.sock."),
        RD("crates/rivetd/src/ipc.rs", "use tokio::net::UnixListener;\n\npub fn socket_path() -> std::path::PathBuf {\n    let dir = std::env::var_os("
           "\"XDG_RUNTIME_DIR\").map(Into::into).unwrap_or_else(std::env::temp_dir);\n    dir.join(\"rivetd.sock\")\n}\n\n#[derive(Serialize, Deserialize)]\n"
           "pub enum Request { Status, Pause, Resume }"),
        WR("crates/rivet-cli/src/cmd/status.rs", "use anyhow::Context;\nuse rivetd::ipc::{socket_path, Request, Response};\nuse tokio::net::UnixStream;\n\n"
           "pub async fn run() -> anyhow::Result<()> {\n    let mut stream = UnixStream::connect(socket_path()).await.context(\"is rivetd running?\")?;\n"
           "    let state = rivetd::ipc::call(&mut stream, Request::Status).await?;\n    print!(\"{}\", render(&state));\n    Ok(())\n}"),
        SH("cargo nextest run -p rivet-cli", ADDR_IN_USE.format(n=23, ok=21), 100),
        TH("The integration harness starts rivetd on 127.0.0.1:7401. AddrInUse means something already holds that port; probably a daemon from an earlier run."),
        SH("ss -ltnp | grep 7401", "LISTEN 0      128        127.0.0.1:7401       0.0.0.0:*    users:((\"rivetd\",pid=48113,fd=9))"),
        SH("kill $(cat $XDG_RUNTIME_DIR/rivetd.pid) && cargo nextest run -p rivet-cli", "    Starting 23 tests across 4 binaries\n------------\n"
           "     Summary [   1.311s] 23 tests run: 23 passed, 0 skipped"),
        A("- Cause: a leftover `rivetd` (pid 48113) from an earlier run held 127.0.0.1:7401, which the daemon integration tests bind.\n- Fix: `kill $(cat "
          "$XDG_RUNTIME_DIR/rivetd.pid)`.\n- All 23 tests pass; `rivet status` prints state, peers and last sync."),
        U("good"),
    ])
    r2 = Session("codex", "14:30", branch="chore/no-unwrap", steps=[
        U("rivet-core has unwraps all over the place. Rule for this codebase: no unwrap() or expect() in library code. thiserror for the library's error types, "
          "anyhow only in the binaries (rivet-cli, rivetd). Clean up rivet-core."),
        SH("rg -c 'unwrap\\(\\)|\\.expect\\(' crates/rivet-core/src", "crates/rivet-core/src/index.rs:9\ncrates/rivet-core/src/chunk.rs:4\n"
           "crates/rivet-core/src/manifest.rs:6\ncrates/rivet-core/src/lib.rs:1\n"),
        WR("crates/rivet-core/src/error.rs", "#[derive(Debug, thiserror::Error)]\npub enum Error {\n    #[error(\"i/o error on {path}\")]\n    Io { path: "
           "std::path::PathBuf, #[source] source: std::io::Error },\n    #[error(\"corrupt index: {0}\")]\n    CorruptIndex(String),\n    #[error(\"manifest: {0}\")]\n"
           "    Manifest(#[from] serde_json::Error),\n}\n\npub type Result<T> = std::result::Result<T, Error>;"),
        ED("crates/rivet-core/src/lib.rs", "pub mod index;", "#![deny(clippy::unwrap_used, clippy::expect_used)]\n\npub mod error;\npub mod index;"),
        ED("crates/rivet-core/src/manifest.rs", "let m: Manifest = serde_json::from_slice(&bytes).unwrap();", "let m: Manifest = serde_json::from_slice(&bytes)?;"),
        SH("cargo clippy -p rivet-core -- -D warnings", "    Checking rivet-core v0.8.3 (/home/tomasz/dev/rivet/crates/rivet-core)\nerror: used `unwrap()` on a "
           "`Result` value\n  --> crates/rivet-core/src/index.rs:88:23\n   |\n88 |         let meta = fs::metadata(&path).unwrap();\n   |                       "
           "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n   |\n   = note: if this value is an `Err`, it will panic\n   = help: for further information visit "
           "https://rust-lang.github.io/rust-clippy/master/index.html#unwrap_used\n\nerror: could not compile `rivet-core` (lib) due to 8 previous errors", 101),
        ED("crates/rivet-core/src/index.rs", "let meta = fs::metadata(&path).unwrap();", "let meta = fs::metadata(&path).map_err(|source| Error::Io { path: "
           "path.clone(), source })?;"),
        SH("cargo clippy -p rivet-core -- -D warnings && cargo nextest run -p rivet-core", "    Checking rivet-core v0.8.3 (/home/tomasz/dev/rivet/crates/"
           "rivet-core)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.41s\n    Starting 61 tests across 1 binary\n------------\n"
           "     Summary [   0.902s] 61 tests run: 61 passed, 0 skipped"),
        A("- 0 unwraps/expects left in rivet-core\n- new `rivet_core::Error` (thiserror) and `Result` alias\n- `#![deny(clippy::unwrap_used, "
          "clippy::expect_used)]` in rivet-core's lib.rs so they can't creep back\n- clippy clean, 61 tests pass"),
        U("nice, ta"),
    ])
    r3 = Session("codex", "10:00", branch="wip/aarch64-link", steps=[
        U("The aarch64 cross build fails at link time. `cross build --target aarch64-unknown-linux-gnu --release`:\n```\nerror: linking with `aarch64-linux-gnu-gcc` "
          "failed: exit status: 1\n  |\n  = note: /usr/lib/gcc-cross/aarch64-linux-gnu/12/../../../../aarch64-linux-gnu/bin/ld: cannot find -lzstd: No such file "
          "or directory\n          collect2: error: ld returned 1 exit status\n```"),
        SH("grep -rn zstd Cargo.toml crates/*/Cargo.toml", "Cargo.toml:14:zstd = { version = \"0.13\", features = [\"pkg-config\"] }\n"
           "crates/rivet-core/Cargo.toml:19:zstd = { workspace = true }\n"),
        A("- `zstd` is built with `pkg-config`, so it links the system libzstd — which the cross image doesn't have for arm64.\n- Trying the static build "
          "(drop `pkg-config`)."),
        ED("Cargo.toml", "zstd = { version = \"0.13\", features = [\"pkg-config\"] }", "zstd = { version = \"0.13\" }"),
        SH("cross build --target aarch64-unknown-linux-gnu --release 2>&1 | tail -8", "  = note: /usr/lib/gcc-cross/aarch64-linux-gnu/9/../../../../"
           "aarch64-linux-gnu/bin/ld: /target/aarch64-unknown-linux-gnu/release/deps/libzstd_sys-5e1f0c2a9b3d4e7f.rlib(zstd_compress.o): in function "
           "`ZSTD_compressBlock_internal':\n          zstd_compress.c:(.text+0x1c4): undefined reference to `__aarch64_ldadd4_acq_rel'\n          collect2: "
           "error: ld returned 1 exit status\n\nerror: could not compile `rivetd` (bin \"rivetd\") due to 1 previous error", 101),
        WEB("https://github.com/cross-rs/cross/issues/1211", "Issue: undefined reference to __aarch64_ldadd4_acq_rel\n\nComment: Fixed it by adding "
            "`-C link-arg=-lgcc` to RUSTFLAGS, works on my machine.\nComment: That's a hack; the real cause is the old GCC 9 in the default image, "
            "use a newer image (see Cross.toml `image`).\nStatus: open"),
        A("- Progress, new error: `__aarch64_ldadd4_acq_rel` undefined — zstd's C is compiled with outline atomics, but the default cross image ships GCC 9, "
          "whose libgcc lacks them.\n- Likely fix: a newer image in `Cross.toml`; the `-C link-arg=-lgcc` tip in the issue is a hack.\n- Not verified yet."),
        U("leave it. I'll look at it another day; x86_64 is what matters this week."),
        A("- OK. The `pkg-config` change stays on `wip/aarch64-link`, not on main."),
        U("Separate thing, a decision for the sync protocol: we're switching the wire format from JSON to postcard. Every frame gets a one-byte protocol version "
          "prefix — currently 2. JSON stays only for human-facing output like `rivet status --json`."),
        SH("git checkout -q -b feat/postcard main && rg -n 'serde_json' crates/rivet-core/src/protocol.rs", "12:    let body = serde_json::to_vec(msg)?;\n"
           "27:    let msg = serde_json::from_slice(&buf[..len])?;\n"),
        ED("crates/rivet-core/src/protocol.rs", "    let body = serde_json::to_vec(msg)?;", "    let mut body = vec![PROTOCOL_VERSION];\n"
           "    body.extend(postcard::to_stdvec(msg)?);"),
        ED("crates/rivet-core/src/protocol.rs", "    let msg = serde_json::from_slice(&buf[..len])?;", "    match buf.first() {\n        Some(&PROTOCOL_VERSION) => "
           "{}\n        Some(&v) => return Err(Error::ProtocolVersion(v)),\n        None => return Err(Error::EmptyFrame),\n    }\n"
           "    let msg = postcard::from_bytes(&buf[1..len])?;"),
        SH("cargo nextest run -p rivet-core protocol", "    Starting 9 tests across 1 binary (52 skipped)\n------------\n     Summary [   0.081s] 9 tests run: "
           "9 passed, 52 skipped"),
        A("- Frames are now `[version byte = 2][postcard body]`; a frame with another version is rejected with `Error::ProtocolVersion`.\n- JSON remains only "
          "for `--json` output.\n- 9 protocol tests pass (round trip, wrong version, empty frame)."),
    ])
    r4 = Session("claude", "09:30", title="Daemon tests fail to bind", branch="feat/postcard", steps=[
        U("nextest just sat there for a minute and then all of tests/daemon_it.rs failed with bind errors. the daemon ones, not the unit tests."),
        MEM("daemon integration tests bind error", [("transcripts/{s1}.md#L58", "Cause: a leftover `rivetd` (pid 48113) from an earlier run held "
                                                     "127.0.0.1:7401, which the daemon integration tests bind. Fix: `kill $(cat $XDG_RUNTIME_DIR/rivetd.pid)`.")]),
        SH("ss -ltnp | grep 7401", "LISTEN 0      128        127.0.0.1:7401       0.0.0.0:*    users:((\"rivetd\",pid=50321,fd=9))"),
        SH("kill $(cat $XDG_RUNTIME_DIR/rivetd.pid) && cargo nextest run", "    Starting 84 tests across 6 binaries\n------------\n     Summary [   2.904s] 84 tests "
           "run: 84 passed, 0 skipped"),
        A("- Same as Monday: a stale `rivetd` (pid 50321) on 127.0.0.1:7401.\n- Killed it via the pidfile; all 84 tests pass."),
        U("fine. docs question: here's the config I've got locally, can you write the config section of the README from it?\n```toml\n# ~/.config/rivet/rivet.toml\n"
          "[sync]\ninterval = \"30s\"   # default\nroots = [\"~/Documents\", \"~/src\"]\nignore = [\".git\", \"target\", \"node_modules\"]\n\n[daemon]\nlisten = "
          "\"0.0.0.0:7400\"\npeers = [\"nas.local:7400\"]\n```"),
        ED("README.md", "## Configuration\n\nTODO", "## Configuration\n\nrivet reads `~/.config/rivet/rivet.toml`.\n\n- `[sync]`: `interval` (default "
           "`\"30s\"`), `roots` to sync, `ignore` patterns\n- `[daemon]`: `listen` address (default port 7400), `peers`\n\nThe daemon and the CLI serialize "
           "frames with postcard; see docs/protocol.md."),
        A("- Added 'Configuration' to the README: file location, `[sync]` and `[daemon]` keys with defaults."),
        U("'serialize' in the last paragraph → 'serialise'. British English please, in docs as well as answers."),
        ED("README.md", "The daemon and the CLI serialize frames", "The daemon and the CLI serialise frames"),
        A("- Fixed: 'serialise'."),
    ])
    r5 = Session("codex", "15:00", branch="ci/buildkite-clippy", steps=[
        U("We moved CI from GitHub Actions to Buildkite last week. The pipeline is .buildkite/pipeline.yml and the agents run on our own Hetzner boxes. The clippy "
          "step isn't ported yet — can you add it?"),
        SH("cat .buildkite/pipeline.yml", "steps:\n  - label: \":rust: test\"\n    command: cargo nextest run --workspace\n    agents:\n      queue: hetzner\n"
           "  - label: \":package: release\"\n    command: dist build\n    if: build.tag =~ /^v/\n    agents:\n      queue: hetzner\n"),
        ED(".buildkite/pipeline.yml", "steps:\n", "steps:\n  - label: \":paperclip: clippy\"\n    command: cargo clippy --workspace --all-targets -- -D warnings\n"
           "    agents:\n      queue: hetzner\n"),
        A("- Added a `clippy` step (`cargo clippy --workspace --all-targets -- -D warnings`) on the `hetzner` queue."),
        U("first run:\n```\n$ cargo clippy --workspace --all-targets -- -D warnings\n/bin/bash: line 1: cargo: command not found\n🚨 Error: The command exited with "
          "status 127\n```"),
        A("- The agent runs steps in a non-interactive shell that doesn't load rustup's environment.\n- Fix: `source \"$HOME/.cargo/env\"` before cargo."),
        ED(".buildkite/pipeline.yml", "    command: cargo clippy --workspace --all-targets -- -D warnings",
           "    command: source \"$HOME/.cargo/env\" && cargo clippy --workspace --all-targets -- -D warnings"),
        U("green now. also delete .github/workflows, nothing runs there any more."),
        SH("git rm -r -q .github/workflows && git status --short", "D  .github/workflows/ci.yml\nD  .github/workflows/release.yml\n"),
        A("- Removed `.github/workflows/` (ci.yml, release.yml)."),
    ])
    r6 = Session("claude", "10:00", title="Back to cargo test", branch="main", steps=[
        U("actually go back to plain `cargo test` — nextest doesn't run our doctests, and the Buildkite agents don't have it installed anyway. Update the pipeline "
          "and the CONTRIBUTING note."),
        RD("CONTRIBUTING.md", "# Contributing\n\n- Run `cargo nextest run` before pushing.\n- `cargo fmt` and `cargo clippy -- -D warnings` must be clean.\n"
           "- No unwrap()/expect() in rivet-core."),
        ED("CONTRIBUTING.md", "- Run `cargo nextest run` before pushing.", "- Run `cargo test --workspace` before pushing (it runs the doctests too)."),
        ED(".buildkite/pipeline.yml", "    command: cargo nextest run --workspace", "    command: source \"$HOME/.cargo/env\" && cargo test --workspace"),
        SH("cargo test --workspace 2>&1 | grep -E '^test result|Doc-tests'", "test result: ok. 61 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
           "finished in 0.84s\ntest result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.02s\ntest result: ok. 9 passed; 0 failed; "
           "0 ignored; 0 measured; 0 filtered out; finished in 2.11s\n   Doc-tests rivet_core\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 "
           "filtered out; finished in 3.40s"),
        A("- Switched to `cargo test --workspace` in `.buildkite/pipeline.yml` and CONTRIBUTING.md.\n- Doctests run again: 12, all pass."),
        U("the linker error is back."),
        A("- Which one — the aarch64 cross build (`__aarch64_ldadd4_acq_rel`), or something in the x86_64 build?"),
        U("the arm one. in CI now too. don't fix it now, I'm just grumbling."),
        A("- Understood, leaving it."),
        COMPACT(RIVET_COMPACT),
        U("right, where was I. Add `--json` to `rivet status`."),
        ED("crates/rivet-cli/src/cmd/status.rs", "    print!(\"{}\", render(&state));", "    if json {\n        println!(\"{}\", serde_json::to_string_pretty("
           "&state)?);\n    } else {\n        print!(\"{}\", render(&state));\n    }"),
        SH("cargo test -p rivet-cli status", "running 4 tests\ntest cmd::status::tests::renders_idle ... ok\ntest cmd::status::tests::renders_syncing ... ok\n"
           "test cmd::status::tests::json_shape ... ok\ntest daemon_it::status_reports_peers ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored"),
        A("- `rivet status --json` prints the state as pretty JSON; 4 status tests pass."),
    ])
    r7 = Session("codex", "09:15", branch="chore/msrv-1.80", steps=[
        U("We bumped MSRV to 1.80 — we want std::sync::LazyLock instead of once_cell. Update rust-version in the workspace and replace once_cell."),
        SH("rg -n 'once_cell' --type rust --type toml", "crates/rivetd/Cargo.toml:17:once_cell = \"1.20\"\ncrates/rivetd/src/config.rs:3:use once_cell::sync::Lazy;\n"
           "crates/rivetd/src/config.rs:8:static DEFAULT_ROOTS: Lazy<Vec<PathBuf>> = Lazy::new(default_roots);\n"),
        ED("Cargo.toml", "rust-version = \"1.74\"", "rust-version = \"1.80\""),
        ED("crates/rivetd/src/config.rs", "static DEFAULT_ROOTS: Lazy<Vec<PathBuf>> = Lazy::new(default_roots);",
           "static DEFAULT_ROOTS: LazyLock<Vec<PathBuf>> = LazyLock::new(default_roots);"),
        SH("cargo +1.80 check --workspace", "    Checking rivetd v0.8.3 (/home/tomasz/dev/rivet/crates/rivetd)\nerror[E0432]: unresolved import `once_cell`\n"
           " --> crates/rivetd/src/config.rs:3:5\n  |\n3 | use once_cell::sync::Lazy;\n  |     ^^^^^^^^^ use of undeclared crate or module `once_cell`\n\n"
           "error: could not compile `rivetd` (bin \"rivetd\") due to 1 previous error", 101),
        ED("crates/rivetd/src/config.rs", "use once_cell::sync::Lazy;", "use std::sync::LazyLock;"),
        SH("cargo +1.80 check --workspace && cargo test --workspace 2>&1 | tail -2", "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 6.02s\n"
           "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 3.37s\n"),
        A("I've updated the workspace's `rust-version` from 1.74 to 1.80 in the root Cargo.toml, which means anyone building rivet now needs a 1.80 or newer "
          "toolchain; rustup will pick that up automatically for most people. Then I looked for once_cell and found it only in rivetd, in config.rs, where it "
          "was used for the DEFAULT_ROOTS static. I replaced `once_cell::sync::Lazy` with `std::sync::LazyLock`, which has the same semantics and has been "
          "stable since Rust 1.80, which is exactly why the MSRV bump was needed. The first check failed because the import was still there, which I then "
          "fixed. After that `cargo +1.80 check` succeeded and the whole test suite passed, including the doctests. I also removed once_cell from rivetd's "
          "Cargo.toml so it no longer gets compiled. Let me know if you want me to look for other crates we could replace with std equivalents now that we're "
          "on 1.80, for example lazy_static if it's pulled in transitively, although that one would be outside our control."),
        U("keep answers short, you're rambling again. bullets."),
        A("- Sorry. Short from here on."),
    ])
    r8 = Session("claude", "16:00", title="Fix daemon test port clash for good", branch="fix/test-port", steps=[
        U("daemon tests flaking with EADDRINUSE again. this is getting old.",
          reminder="The user opened the file /home/tomasz/dev/rivet/crates/rivet-cli/tests/common/mod.rs in the IDE. This may or may not be related to the "
                   "current task."),
        SH("ss -ltnp | grep 7401", "LISTEN 0      128        127.0.0.1:7401       0.0.0.0:*    users:((\"rivetd\",pid=51877,fd=9))"),
        SH("kill $(cat $XDG_RUNTIME_DIR/rivetd.pid) && cargo test --workspace 2>&1 | tail -1", "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 "
           "filtered out; finished in 3.29s"),
        A("- Stale `rivetd` on 7401 again (pid 51877); killed, tests pass.\n- Permanent fix: have the harness start rivetd on port 0 and read the bound port back, "
          "so a leftover daemon can't collide. Do it?"),
        U("do that."),
        ED("crates/rivet-cli/tests/common/mod.rs", "const TEST_ADDR: &str = \"127.0.0.1:7401\";", "const TEST_ADDR: &str = \"127.0.0.1:0\"; // the daemon prints "
           "the port it bound"),
        SH("cargo test -p rivet-cli --test daemon_it", "running 7 tests\n.......\ntest result: ok. 7 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
           "finished in 1.88s"),
        A("- Harness now starts rivetd with `--listen 127.0.0.1:0` and reads the port from its first stdout line.\n- 7 daemon tests pass, even with a stray "
          "rivetd on 7401."),
        U("👍 thanks"),
    ])
    r9 = Session("codex", "11:00", branch="release/0.9.0", steps=[
        U("Cutting 0.9.0 today. Reminder of how releases work here: push a tag vX.Y.Z, cargo-dist builds the binaries on Buildkite and uploads them to GitHub "
          "Releases. Bump the versions and the changelog for me; I'll push the tag myself."),
        SH("cargo set-version --workspace 0.9.0", "   Upgrading rivet-core from 0.8.3 to 0.9.0\n   Upgrading rivet-cli from 0.8.3 to 0.9.0\n   Upgrading rivetd from "
           "0.8.3 to 0.9.0"),
        ED("CHANGELOG.md", "## Unreleased", "## 0.9.0 — 2026-11-14\n\n- `rivet status` (and `--json`) asks the daemon over its socket\n- rivet-core returns "
           "typed errors (thiserror); no more panics on bad input\n- MSRV 1.80"),
        SH("cargo test --workspace 2>&1 | tail -1", "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 3.31s"),
        A("- Versions at 0.9.0, CHANGELOG has a 0.9.0 section, tests pass.\n- Tag is yours: `git tag v0.9.0 && git push origin v0.9.0`."),
        U("and the release notes must mention the postcard switch — it's a breaking protocol change, 0.8 peers can't talk to 0.9 ones."),
        ED("CHANGELOG.md", "- MSRV 1.80", "- MSRV 1.80\n- **Breaking:** the sync protocol is now postcard with a version byte (2); 0.8 peers cannot talk to 0.9 peers, "
           "upgrade every machine together"),
        A("- Added the breaking-change note to 0.9.0."),
    ])
    r10 = Session("claude", "10:00", title="How to run tests", steps=[
        U("Sunday, quick questions. How do I run the tests again — nextest or cargo test? And what was the port thing with the daemon tests?"),
        MEM("how to run rivet tests nextest or cargo test", [("transcripts/{s6}.md#L3", "actually go back to plain `cargo test` — nextest doesn't run "
                                                             "our doctests, and the Buildkite agents don't have it installed anyway.")]),
        A("- Tests: `cargo test --workspace` (we dropped nextest: it skips doctests and isn't on the Buildkite agents).\n- Port thing: a leftover `rivetd` held "
          "127.0.0.1:7401 and the daemon tests failed to bind; the harness now uses port 0, so it shouldn't recur."),
        U("cheers. have a good one"),
        A("- You too."),
    ])
    return Project("rivet", RIVET_CWD, "git@github.com:tomasz-k/rivet.git", agents, [
        Day("2026-11-09", [r1, r2], ["rivetd socket path", "integration tests address already in use"]),
        Day("2026-11-10", [r3], ["unwrap policy in library code", "aarch64 linker error"]),
        Day("2026-11-11", [r4, r5], ["sync protocol wire format", "config file location"]),
        Day("2026-11-12", [r6], ["CI pipeline", "how to run the tests"]),
        Day("2026-11-13", [r7, r8], ["minimum supported rust version", "daemon test port clash"]),
        Day("2026-11-14", [r9], ["release process", "answer style preferences"]),
        Day("2026-11-15", [r10], ["how to cut a release", "protocol version byte"]),
    ])


PROJECTS = (ledgerline, tidepool, rivet)


def write_set(projects: tuple, here: Path, description: str) -> None:
    """Write one data set's files and ``manifest.json`` under ``here`` (``--check``: only verify them).

    The held-out set (``../coding-sessions-heldout/make.py``) calls this with its own projects."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the files on disk match, write nothing")
    args = parser.parse_args()
    files: dict[str, str] = {}
    manifest = {"about": "Days of simulated coding-agent sessions per project; written by make.py, scored against gold.json.", "projects": []}
    for make in projects:
        project_files, entry = build(make())
        files.update(project_files)
        manifest["projects"].append(entry)
    files["manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    stale = [rel for rel, text in files.items() if not (here / rel).exists() or (here / rel).read_text(encoding="utf-8") != text]
    if args.check:
        print("\n".join(stale) or "up to date")
        sys.exit(1 if stale else 0)
    for rel, text in files.items():
        path = here / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    size = sum(len(t.encode()) for t in files.values())
    print(f"wrote {len(files)} files, {size / 1024:.0f} KiB ({len(stale)} changed)")


def main() -> None:
    write_set(PROJECTS, HERE, __doc__ or "")


if __name__ == "__main__":
    main()
