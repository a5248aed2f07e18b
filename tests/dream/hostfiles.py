"""One owner's turn and the agent's reply as each host writes them to disk: Codex's rollout JSONL,
Claude Code's session JSONL and a Markdown transcript, so a test can vary the host format."""

from __future__ import annotations

import datetime as dt
import json


def codex(turn: str, reply: str, when: dt.datetime) -> str:
    stamp = when.isoformat() + ".000Z"
    meta = {"id": "0199a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b", "timestamp": stamp, "cwd": "/home/gen/belay", "originator": "codex_cli_rs", "cli_version": "0.63.0"}
    lines = [
        {"timestamp": stamp, "type": "session_meta", "payload": meta},
        {"timestamp": stamp, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": turn}]}},
        {"timestamp": stamp, "type": "event_msg", "payload": {"type": "user_message", "message": turn, "images": [], "kind": "plain"}},
        {"timestamp": stamp, "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": reply}]}},
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def claude(turn: str, reply: str, when: dt.datetime) -> str:
    stamp = when.isoformat() + ".000Z"
    common = {"isSidechain": False, "userType": "external", "cwd": "/home/gen/belay", "sessionId": "329a7cf4-e816-4540-9b70-000000000001", "version": "2.0.14"}
    lines = [
        {**common, "parentUuid": None, "type": "user", "message": {"role": "user", "content": turn}, "uuid": "a1f0c6de-0000-4000-8000-000000000001", "timestamp": stamp},
        {**common, "parentUuid": "a1f0c6de-0000-4000-8000-000000000001", "type": "assistant", "uuid": "a1f0c6de-0000-4000-8000-000000000002", "timestamp": stamp,
         "message": {"id": "msg_01A", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": reply}]}},
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def markdown(turn: str, reply: str, when: dt.datetime) -> str:
    return f"user: {turn}\nassistant: {reply}\n"


HOSTS = {"codex.jsonl": codex, "claude.jsonl": claude, "chat.md": markdown}
