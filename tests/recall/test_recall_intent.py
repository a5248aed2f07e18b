"""Recall-intent detection on a table of positive and negative messages."""

from __future__ import annotations

import pytest

from clawmem.commands.recall_intent import detect

POSITIVE = [
    "What did we decide about the database?",
    "Remember the deploy target we picked?",
    "You said something about arm64 builds earlier",
    "When did we move the staging server?",
    "what was the name of that library from last week",
    "Did I tell you about my sister's wedding?",
    "How did we fix the flaky test previously?",
    "We talked about this two weeks ago",
    "Which hotel did we book back in March?",
    "why did we drop redis",
]
NEGATIVE = [
    "Remind me tomorrow to call the bank",
    "remind me to water the plants in 2 hours",
    "Please write a haiku about autumn",
    "Deploy the app to staging",
    "What is the capital of France?",
    "Schedule a meeting next week",
    "How do I configure nginx?",
    "thanks!",
]


@pytest.mark.parametrize("message", POSITIVE)
def test_recall_intent_found(message):
    assert detect(message).present, message


@pytest.mark.parametrize("message", NEGATIVE)
def test_no_recall_intent(message):
    assert not detect(message).present, message
