"""A credential's value never reaches MEMORY.md or USER.md, whatever its shape, language or host.

The class: a secret said in a turn that also says something worth keeping ("we moved email to
Postmark … For your local .env it's 3f9a1c2e-…"). The fact is curated, the value never is,
nor printed by ``dream --explain`` or written to the diary. Varied: the value's shape (a UUID, a
provider's key, an assignment, a password in prose, base64), its language, the host format
(Claude Code JSONL, Codex rollout JSONL, Markdown), and the file (a transcript, a note). The
control runs the same days with ``credentials.found`` switched off: the value lands.
"""

from __future__ import annotations

import datetime as dt
import json
from types import SimpleNamespace

import pytest

from clawmem.dream import credentials, standalone
from clawmem.entries import grammar
from tests.dream.hostfiles import HOSTS

TODAY = dt.date(2026, 11, 20)
FACT = "We moved transactional email from Mailgun to Postmark this afternoon."

SECRETS = [
    "For your local .env it's 3f9a1c2e-5b7d-4e08-a6c4-9d2e7b1f0a53.",
    "The staging DB password is hunter2-Blue!",
    "Here's the key for the sandbox: Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==",
    "Put POSTMARK_API_KEY=pm_9d2e7b1f0a53c4e08a6 in your shell.",
    "My token is ghp_1234567890abcdefghijABCDEFGHIJ123456, use that one.",
    "The connection string is postgres://admin:s3cretPass@db.internal:5432/app.",
    "AKIAIOSFODNN7EXAMPLE is the access key for the export bucket.",
    "Le mot de passe du staging est Tr0ub4dor&3.",
    "Der Token für Staging ist 7f3k9QpZx2LmVb8N.",
    "测试环境的密码是abc12345。",
]
# where a secret lives, what it is for, how it is handled: facts worth keeping
NOT_SECRETS = [
    "The token is POSTMARK_API_KEY in the Gigalixir config.",
    "The password is in 1Password, in the Ops vault.",
    "Rotate the API key every 90 days.",
    "PASSWORD_FILE=/run/secrets/db_password is mounted by the chart.",
    "API_TOKEN=$API_TOKEN in CI, from the repository secrets.",
    "The access token expires after 3600 seconds.",
    "The release was tagged at commit 9f2c3d1a8b7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d.",
    "Build 3f9a1c2e-5b7d-4e08-a6c4-9d2e7b1f0a53 failed on arm64 with a linker error.",
    "The tokenizer is v2.14.3 now.",
    "max_tokens=2048 for the summariser.",
    "The staging server is at 203.0.113.7 behind the VPN.",
    "The secret is to restart the worker before the migration.",
]


def value(sentence: str) -> str:
    """The secret-looking part of a sentence: its longest word with a digit."""
    return max((w.strip(".,!。") for w in sentence.replace("=", " ").replace("是", " ").split() if any(c.isdigit() for c in w)), key=len)


@pytest.mark.parametrize("sentence", SECRETS)
def test_a_credentials_value_is_found_in_any_shape(sentence):
    assert credentials.found(sentence)


@pytest.mark.parametrize("sentence", NOT_SECRETS)
def test_where_a_secret_lives_and_ids_that_are_no_secret_are_not(sentence):
    assert credentials.found(sentence) is None


@pytest.fixture
def days(clawmem, tmp_path):
    """The owner tells the agent ``turn`` on three days (each host writes its own file); ``dream``
    runs each night. Returns the last sweep's ``--json --explain`` report and all that the sweeps printed."""

    def run(turn: str, host: str) -> tuple[dict, str]:
        outputs = []
        for n in (3, 2, 1):
            when = dt.datetime.combine(TODAY - dt.timedelta(days=n), dt.time(10))
            source = tmp_path / f"day{n}-{host}"
            source.write_text(HOSTS[host](turn, "Noted, I'll switch the Swoosh adapter to Postmark.", when))
            done = clawmem("ingest", str(source), "--session", f"s{n}", "--origin", "owner", env={"CLAWMEM_NOW": when.isoformat()})
            assert done.returncode == 0, done.stderr
            night = clawmem("dream", "--json", "--explain", env={"CLAWMEM_NOW": when.replace(hour=23).isoformat()})
            assert night.returncode == 0, night.stderr
            outputs.append(night.stdout.decode() if isinstance(night.stdout, bytes) else night.stdout)
        return json.loads(outputs[-1]), "".join(outputs)

    return run


def curated(ws) -> str:
    return "".join(p.read_text() for p in (ws.memory_md, ws.user_md) if p.exists())


TOLD = SECRETS[:4] + SECRETS[7:9]


@pytest.mark.parametrize("host", sorted(HOSTS))
@pytest.mark.parametrize("secret", TOLD)
def test_the_fact_is_kept_and_the_secret_beside_it_never_curated(ws, days, host, secret):
    _, printed = days(f"{FACT} {secret}", host)
    bodies = [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]
    assert any("Postmark" in b for b in bodies), bodies
    for where in (curated(ws), printed, (ws.root / "DREAMS.md").read_text() if (ws.root / "DREAMS.md").exists() else ""):
        assert value(secret) not in where


@pytest.mark.parametrize("secret", TOLD)
def test_with_the_rule_off_the_secret_lands(ws, days, monkeypatch, secret):
    """The control: the same days, ``credentials.found`` answering None, put the value in MEMORY.md."""
    monkeypatch.setattr(credentials, "found", lambda text: None)
    days(f"{FACT} {secret}", "codex.jsonl")
    assert value(secret) in ws.memory_md.read_text()


def test_a_secret_in_a_directive_never_reaches_user_md(ws, days):
    days("Always call the sandbox with the token 7f3k9QpZx2LmVb8N, please.", "chat.md")
    assert "7f3k9QpZx2LmVb8N" not in curated(ws)


def test_a_directive_naming_where_the_secret_lives_does(ws, days):
    """The control for the one above: the same directive without the value is the owner's and kept."""
    days("Always read the sandbox token from Doppler, please.", "chat.md")
    assert "Doppler" in ws.user_md.read_text()


def test_a_candidate_that_carries_a_secret_is_refused_at_the_gate(ws, days, monkeypatch):
    """A candidate staged with the value in it (by a version that read claims without the rule)
    never passes the gate, and the explanation says why without quoting it."""
    secret = SECRETS[1]
    monkeypatch.setattr(standalone, "credentials", SimpleNamespace(reason=lambda text: None))  # claims keep the sentence
    report, _ = days(f"{FACT} {secret}", "chat.md")
    assert value(secret) not in curated(ws)
    [row] = [e for e in report["explain"] if any("credential" in r for r in e["failed"])]
    assert row["text"] is None and row["status"] == "excluded"


def test_the_sentence_is_dropped_and_the_claim_before_it_stays():
    row = {"text": f"user: {FACT} {SECRETS[0]}", "kind": "transcript", "origin": "owner", "observed_at": "2026-11-19T10:00:00"}
    [unit] = [u for u in standalone.read(row) if u.text]
    assert "Postmark" in unit.text and value(SECRETS[0]) not in unit.text
    assert any(u.reason and "credential" in u.reason for u in standalone.read(row))
