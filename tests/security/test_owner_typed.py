"""Owner means typed: a user-role record is the owner's only when the host marks it as typed.

Hosts keep adding records they write in the user role (skill bodies, task notifications,
reminders, AGENTS.md, environment context). A denylist of their shapes lags behind every
release; an allowlist of what the person typed does not. These tests vary the injected text
(any Unicode, any shape, including text that looks like a typed prompt) and the host format,
and show the record lands as the owner's with the allowlist switched off.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clawmem.ingest import parse_transcript
from clawmem.transcripts import claude_code, codex

PAYLOAD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=3, max_size=80).filter(
    lambda s: s.strip() and " ".join(s.split()) != "fix the flaky test"
)
TYPED = "fix the flaky test"


def _cc(text: str, **marks: object) -> dict:
    return {"type": "user", "uuid": f"u-{len(text)}-{sorted(marks)}", "sessionId": "s", "timestamp": "2026-11-30T10:00:00Z",
            "message": {"role": "user", "content": text}, **marks}


def _owner_texts(records: list[dict]) -> list[str]:
    return [t.content for t in parse_transcript("\n".join(json.dumps(r) for r in records)).turns if t.role == "user"]


INJECTED_CC = st.sampled_from([{"promptSource": "system"}, {"origin": {"kind": "task-notification"}},
                               {"promptSource": "typed", "origin": {"kind": "task-notification"}}, {}])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=PAYLOAD, marks=INJECTED_CC)
def test_claude_code_records_not_marked_typed_are_never_the_owner(payload, marks):
    records = [_cc(TYPED, promptSource="typed"), _cc(payload, **marks)]
    assert _owner_texts(records) == [TYPED]


@settings(max_examples=60, deadline=None)
@given(payload=PAYLOAD)
def test_codex_user_messages_are_the_owner_only_where_typed(payload):
    def item(text: str) -> dict:
        return {"timestamp": "2026-11-30T10:00:00Z", "type": "response_item",
                "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}}
    typed = {"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": TYPED}}
    records = [item(payload), item(f"{payload}\n\n{TYPED}"), item(TYPED), typed]
    owner = _owner_texts(records)
    assert owner == [TYPED, TYPED], owner  # the injected record is context; the shared message keeps only the prompt


def test_the_allowlist_off_lets_host_records_in(monkeypatch):
    """Control: without the typed marks, a task notification and a plugin's user message are the owner's."""
    monkeypatch.setattr(claude_code, "_typed", lambda record, marked: True)
    monkeypatch.setattr(codex, "typed_only", lambda block, typed: [block])
    assert "notification text" in _owner_texts([_cc(TYPED, promptSource="typed"), _cc("notification text", origin={"kind": "task-notification"})])
    plugin = {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "plugin says deploy"}]}}
    typed = {"type": "event_msg", "payload": {"type": "user_message", "message": TYPED}}
    assert "plugin says deploy" in _owner_texts([plugin, typed])


def test_files_without_marks_fall_back_to_the_shape_rules():
    """Claude Code before 2.1 and mid-2025 Codex write no typed marks: the shape rules decide."""
    assert _owner_texts([_cc(TYPED)]) == [TYPED]
    assert _owner_texts([_cc("caveat", isMeta=True), _cc(TYPED)]) == [TYPED]


@pytest.mark.parametrize("source", ["typed", "sdk"])
def test_typed_and_sdk_prompts_are_the_owner(source):
    assert _owner_texts([_cc(TYPED, promptSource=source)]) == [TYPED]
