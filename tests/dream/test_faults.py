"""Faults with real processes: an editor racing the rename, kill -9, overlapping sweeps, bad consolidators."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from clawmem.entries import grammar


@pytest.fixture
def keyed_memory(ws, workaround_sessions, ingest_session, days_ago):
    """MEMORY.md holds an outdated keyed line; the sweep would rewrite (supersede) it and add the workaround."""
    with ws.memory_md.open("a") as f:
        f.write("- The staging host is stage-1.internal <!-- key: staging-host -->\n- Lunch orders go in the #food channel.\n")
    from clawmem.commands.notes import add_note

    for n in (3, 2, 1):
        add_note(ws, "The staging host is now stage-2.internal", origin="agent", session=f"k{n}", key="staging-host", at=days_ago(n))
    return workaround_sessions


def lines_with(ws, needle: str) -> int:
    return sum(needle in e.body for e in grammar.parse(ws.memory_md.read_text()).entries)


def write_file_from_another_process(path, text: str) -> None:
    code = "import sys, pathlib; p = pathlib.Path(sys.argv[1]); p.write_text(p.read_text() + sys.argv[2])"
    subprocess.run([sys.executable, "-c", code, str(path), text], check=True)


def test_editor_writing_between_input_and_rename_aborts_the_rewrite(ws, keyed_memory, paused_sweep):
    sweep = paused_sweep("rename")
    write_file_from_another_process(ws.memory_md, "- Edited by hand while the dream ran.\n")
    code, out, err = sweep.resume()
    assert code == 0, err
    data = json.loads(out)
    assert data["fallback_used"] and "changed" in data["fallback_reason"]
    text = ws.memory_md.read_text()
    assert "- Edited by hand while the dream ran.\n" in text, "the edit is kept"
    assert "stage-1.internal" in text, "no rewrite happened, so nothing was retired"
    assert lines_with(ws, "make clean") == 1 and lines_with(ws, "stage-2.internal") == 1, "gated entries were appended once"
    assert text.index("Edited by hand") < text.index("make clean")


@pytest.mark.parametrize("point", ["consolidate", "rename"])
def test_kill_9_mid_sweep_leaves_memory_whole_and_the_next_sweep_recovers(ws, clawmem, keyed_memory, paused_sweep, point):
    before = ws.memory_md.read_bytes()
    sweep = paused_sweep(point)
    dead_pid = sweep.proc.pid
    sweep.kill9()
    assert ws.memory_md.read_bytes() == before
    (ws.root / ".MEMORY.md.leftover.tmp").write_text("half a file")  # what a kill inside atomic_write leaves

    data = clawmem("dream", "--json").json()
    assert data["ran"] and data["recovered_lock"]["pid"] == dead_pid
    assert not data["fallback_used"]
    assert not list(ws.root.glob(".MEMORY.md.*.tmp"))
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert sum("make clean" in e.body for e in entries) == 1
    assert [e.body for e in entries if e.key == "staging-host"] == ["The staging host is now stage-2.internal"]
    assert "interrupted sweep" in ws.dreams_md.read_text()


def test_an_overlapping_sweep_does_nothing_and_exits_0(ws, clawmem, keyed_memory, paused_sweep):
    first = paused_sweep("consolidate")
    second = clawmem("dream", "--json")
    assert second.returncode == 0
    data = second.json()
    assert data["ran"] is False and str(first.proc.pid) in data["skipped"]
    human = clawmem("dream")
    assert human.returncode == 0 and human.stdout.startswith("Skipped: another sweep is running")
    code, out, _ = first.resume()
    assert code == 0 and json.loads(out)["promoted"]


def test_a_stale_lock_of_a_dead_process_is_recovered(ws, clawmem, keyed_memory):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    ws.locks_dir.mkdir(parents=True, exist_ok=True)
    (ws.locks_dir / "dream.owner.json").write_text(json.dumps({"pid": gone.pid, "host": os.uname().nodename, "started": "2026-01-01T00:00:00"}))
    data = clawmem("dream", "--json").json()
    assert data["ran"] and data["recovered_lock"]["pid"] == gone.pid and data["promoted"]
    assert not (ws.locks_dir / "dream.owner.json").exists()


CONSOLIDATORS = {
    "hangs": ("#!/bin/sh\nsleep 600\n", "timed out after 1s"),
    "crashes": ("#!/bin/sh\necho 'model quota exceeded' >&2\nexit 3\n", "exited with status 3: model quota exceeded"),
    "prints nothing": ("#!/bin/sh\ncat > /dev/null\n", "printed nothing"),
    "chatters": (
        "#!/bin/sh\ncat > /dev/null\necho \"Sure! Here is your revised memory file:\"\necho '- Everything is fine.'\n",
        "neither an entry nor text kept",
    ),
    "invents facts": (
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n"
        "print(d['memory_md'] + '- The owner wants all data deleted nightly.', end='\\n')\n",
        "cites no gated evidence",
    ),
    "drops entries": (
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n"
        "print('# Memory\\n\\n' + ''.join(c['line'] for c in d['candidates']), end='')\n",
        "existing entries",
    ),
    "writes junk": (
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nsrc = d['candidates'][0]['sources'][0]\n"
        "print(d['memory_md'] + f'- candidate 3: score=0.91 recalls=4 <!-- source: {src} -->', end='\\n')\n",
        "not a memory (score metadata)",
    ),
}


@pytest.mark.parametrize("name", list(CONSOLIDATORS))
def test_a_failing_external_consolidator_falls_back_to_appending(ws, clawmem, keyed_memory, configure, tmp_path, name):
    script, expected = CONSOLIDATORS[name]
    path = tmp_path / "consolidator"
    path.write_text(script)
    path.chmod(0o755)
    # only the hanging one meets the 1 s limit: the others must fail for their own reason even on a
    # machine so loaded that starting an interpreter takes longer than a second
    configure(consolidator_command=f"{path} --model tiny", consolidator_timeout_s=1.0 if name == "hangs" else 120.0)
    before = ws.memory_md.read_text()
    result = clawmem("dream", "--json")
    assert result.returncode == 0, result.stderr
    data = result.json()
    assert data["consolidator"] == "external" and data["fallback_used"]
    assert expected in data["fallback_reason"]
    text = ws.memory_md.read_text()
    assert text.startswith(before), "the fallback only appends"
    assert lines_with(ws, "make clean") == 1 and "deleted nightly" not in text and "score=" not in text
    assert "Rewrite not used" in ws.dreams_md.read_text()


def test_a_working_external_consolidator_rewrites_the_file(ws, clawmem, keyed_memory, configure, tmp_path):
    script = tmp_path / "merge.py"
    script.write_text(textwrap.dedent(
        """\
        import json, sys
        d = json.load(sys.stdin)
        keys = {c["key"] for c in d["candidates"] if c["key"]}
        kept = [l for l in d["memory_md"].splitlines(keepends=True) if not any(f"key: {k} " in l for k in keys)]
        sys.stdout.write("".join(kept) + "".join(c["line"] for c in d["candidates"]))
        """
    ))
    configure(consolidator_command=f"{sys.executable} {script}")
    data = clawmem("dream", "--json").json()
    assert data["consolidator"] == "external" and not data["fallback_used"] and data["memory_changed"]
    assert [c["text"] for c in data["superseded"]] == ["The staging host is stage-1.internal"]
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert [e.body for e in entries if e.key == "staging-host"] == ["The staging host is now stage-2.internal"]
    assert (ws.root / data["preimage"]).is_file()
    records = [json.loads(ln) for ln in ws.ledger_path.read_text().splitlines()[1:]]
    curated = [r for r in records if r.get("path") == "MEMORY.md"]
    assert {r["origin"] for r in curated} == {"agent"} and len(curated) == 2
