"""Hand-written bytes of MEMORY.md come back byte-identical after a sweep that adds other lines.

docs/design.md section 11: malformed or unusual hand-edited content is kept verbatim. Each case is
a real MEMORY.md written as bytes, a real ``clawmem dream`` (the built-in consolidator, and an
external one that normalises what it copies the way a model CLI does), and a byte comparison.
"""

from __future__ import annotations

import sys
import textwrap
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clawmem.dream import verbatim
from clawmem.entries import lines

NFD = unicodedata.normalize("NFD", "Café déjà vu: the façade team owns the naïve parser.")
CASES = {
    "crlf": b"# Memory\r\n\r\n- The team prefers squash merges on main.\r\n- Lunch orders go in the #food channel.\r\n",
    "bom": "\ufeff# Memory\n\n- The team prefers squash merges on main.\n".encode(),
    "non-nfc": f"# Memory\n\n- {NFD}\n".encode(),
    "trailing spaces": b"# Memory   \n\n- The team prefers squash merges on main.  \n-\tTabbed entry about the on-call rota.\t\n",
    "invalid utf-8": b"# Memory\n\n- Legacy note from the old wiki: caf\xe9 \xff\xfe opens at nine.\n- Another \xc3\x28 odd byte line.\n",
    "no final newline": b"# Memory\n\n- The team prefers squash merges on main.",
    "mixed endings": b"# Memory\r\n\n- One line with CRLF.\r\n- One with LF.\n- One with a lone CR.\r- After it.\n",
    "odd separators": "# Memory\n\n- A line with a form feed \x0c inside and a U+2028 \u2028 inside.\n".encode(),
    "all at once": "\ufeff# Memory \r\n\r\n".encode() + f"- {NFD}  \r\n".encode() + b"- Bytes \x80\x81 here.\r\n",
}

NORMALISING = textwrap.dedent(
    """\
    # A model CLI stand-in (mocking a hosted model): it copies MEMORY.md the way models do,
    # LF only, NFC, no trailing spaces, no BOM, and appends each candidate's line.
    import json, sys, unicodedata
    d = json.load(sys.stdin)
    text = unicodedata.normalize("NFC", d["memory_md"]).lstrip("\\ufeff")
    kept = "".join(line.rstrip() + "\\n" for line in text.splitlines())
    sys.stdout.write(kept + "".join(c["line"] for c in d["candidates"]))
    """
)


@pytest.mark.parametrize("consolidator", ["built-in", "normalising model"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_sweep_keeps_hand_written_bytes(ws, clawmem, workaround_sessions, configure, tmp_path, case, consolidator):
    original = CASES[case]
    if consolidator != "built-in":
        script = tmp_path / "normalise.py"
        script.write_text(NORMALISING)
        configure(consolidator_command=f"{sys.executable} {script}")
    ws.memory_md.write_bytes(original)
    result = clawmem("dream", "--json")
    assert result.returncode == 0, result.stderr
    data = result.json()
    if consolidator != "built-in" and lines.flatten_breaks(original.decode("utf-8", "replace")) != original.decode("utf-8", "replace").replace("\r\n", "\n"):
        # a model that breaks lines at a lone CR, a form feed or U+2028 has split a line in two: the
        # new line cites nothing, so the rewrite is refused and the sweep appends, bytes untouched
        assert data["fallback_used"] and "cites no gated evidence" in data["fallback_reason"]
        assert ws.memory_md.read_bytes().startswith(original)
        return
    assert not data["fallback_used"], data["fallback_reason"]
    assert data["memory_changed"] and [c["text"] for c in data["promoted"]] == [workaround_sessions]
    after = ws.memory_md.read_bytes()
    assert after.startswith(original), (original, after)
    added = after[len(original):].decode()
    assert "make clean" in added and added.count("\n") == 1 + (not original.endswith((b"\n", b"\r")))


text_lines = st.lists(
    st.builds(
        lambda body, end: body + end,
        st.binary(max_size=30).filter(lambda b: b"\n" not in b and b"\r" not in b),
        st.sampled_from([b"\n", b"\r\n", b"  \n", b"\t\r\n"]),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(text_lines, st.lists(st.sampled_from(["- Added line one.\n", "- Added line two.\n"]), max_size=3))
def test_restore_gives_back_every_kept_line_as_its_bytes(lines, added):
    """Whatever bytes the file holds, a rewrite that keeps every line and appends others
    (as consolidation sees it: decoded with U+FFFD) writes the original bytes back first."""
    original = b"".join(lines)
    seen = original.decode("utf-8", "replace")
    out = verbatim.restore(original, seen + "".join(added))
    assert out.startswith(original)
    assert out[len(original):].decode().replace("\r\n", "\n") == "".join(added)


def test_restore_drops_what_the_rewrite_dropped_and_writes_changed_lines_new():
    original = b"- keep \xff me\r\n- drop me\r\n- change me\r\n"
    out = verbatim.restore(original, "- keep \ufffd me\n- changed <!-- source: memory/2026-11-29.md#L3 -->\n")
    assert out == b"- keep \xff me\r\n- changed <!-- source: memory/2026-11-29.md#L3 -->\r\n"
