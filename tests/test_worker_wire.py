"""The worker's wire format (``clawmem.worker.wire``): what goes in comes out, anything else is refused."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clawmem.worker import wire

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def read_all(data: bytes, limit: int = 1 << 20) -> list[dict]:
    stream = io.BytesIO(data)
    found = []
    while (message := wire.unpack(stream.read, limit)) is not None:
        found.append(message)
    return found


@given(st.lists(st.dictionaries(st.text(max_size=12), VALUES, max_size=6), max_size=3))
def test_messages_come_out_as_they_went_in_one_after_another(messages):
    assert read_all(b"".join(wire.pack(m) for m in messages)) == messages


def test_a_hooks_stdin_travels_as_bytes():
    data = "naïve \udcff".encode("utf-8", "surrogateescape") + bytes(range(256))
    assert read_all(wire.pack({"stdin": data})) == [{"stdin": data}]


@pytest.mark.parametrize("data, why", [
    (json.dumps({"ok": True}).encode() + b"\n", "not the protocol"),  # a JSON line: protocol 2
    (wire.START + (2048).to_bytes(wire.HEADER, "big") + b"x" * 2048, "at most 1024"),
    (wire.START + (10).to_bytes(wire.HEADER, "big") + b"short", "cut off"),
])
def test_anything_else_is_refused(data, why):
    with pytest.raises(ValueError, match=why):
        read_all(data, limit=1024)


def test_a_message_that_is_no_dict_is_refused():
    import marshal

    body = marshal.dumps(["not", "a", "dict"])
    with pytest.raises(ValueError, match="not one message"):
        read_all(wire.START + len(body).to_bytes(wire.HEADER, "big") + body)


def test_a_body_of_another_format_raises_what_the_callers_catch():
    body = b"\xff\x00 not marshal"
    with pytest.raises(wire.NOT_THE_PROTOCOL):
        read_all(wire.START + len(body).to_bytes(wire.HEADER, "big") + body)


def test_the_end_of_the_stream_is_no_message():
    assert read_all(b"") == []
