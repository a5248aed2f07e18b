"""The external consolidator on a short leash, with honest model stand-ins (real scripts, real sweeps).

The scripts mock a hosted model CLI (allowed: they are the model, everything else is real).
Hostile ones live in ``tests/security/attacks_consolidator.py``; these check that a faithful
model's ordinary work (compacting, merging, retiring by a gated key) is still accepted, that
the built-in's clean-up of keys the file already holds twice still passes, and where the
command runs.
"""

from __future__ import annotations

import json
import pathlib
import sys
import textwrap

from clawmem.entries import grammar


def script(tmp_path, body: str):
    path = tmp_path / "model.py"
    path.write_text("import json, os, pathlib, sys\nd = json.load(sys.stdin)\n" + textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_a_faithful_compaction_is_accepted_and_passes_audit(ws, clawmem, workaround_sessions, configure, tmp_path):
    ws.memory_md.write_text("# Memory\n\n- The team prefers squash merges on main.\n")
    command = script(tmp_path, """\
        c = d["candidates"][0]
        short = "Build fails with undefined reference errors: run make clean before make."
        sys.stdout.write(d["memory_md"] + c["line"].replace(c["text"], short))
    """)
    configure(consolidator_command=command)
    data = clawmem("dream", "--json").json()
    assert data["consolidator"] == "external" and not data["fallback_used"], data["fallback_reason"]
    bodies = [e.body for e in grammar.parse(ws.memory_md.read_text()).entries]
    assert bodies == ["The team prefers squash merges on main.", "Build fails with undefined reference errors: run make clean before make."]
    audit = clawmem("audit", "--ci")
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_the_command_runs_in_an_empty_directory_without_clawmem_variables(ws, clawmem, workaround_sessions, configure, tmp_path):
    report = tmp_path / "seen.json"
    command = script(tmp_path, f"""\
        here = pathlib.Path.cwd()
        pathlib.Path({str(report)!r}).write_text(json.dumps({{
            "cwd": str(here), "files": sorted(p.name for p in here.iterdir()),
            "same_input": json.loads((here / "input.json").read_text()) == d,
            "clawmem_vars": sorted(k for k in os.environ if k.startswith("CLAWMEM_")),
            "pwd": os.environ.get("PWD"), "oldpwd": os.environ.get("OLDPWD"),
        }}))
        sys.stdout.write(d["memory_md"] + "".join(c["line"] for c in d["candidates"]))
    """)
    configure(consolidator_command=command)
    result = clawmem("dream", "--json", env={"CLAWMEM_WORKSPACE": str(ws.root), "OLDPWD": str(ws.root)})
    assert result.returncode == 0 and not result.json()["fallback_used"], result.stdout + result.stderr
    seen = json.loads(report.read_text())
    assert seen["files"] == ["input.json"] and seen["same_input"]
    assert seen["clawmem_vars"] == [] and seen["pwd"] == seen["cwd"] and seen["oldpwd"] is None
    assert str(ws.root) not in seen["cwd"] and not pathlib.Path(seen["cwd"]).exists(), "a private directory, removed afterwards"


def test_a_key_the_file_already_holds_twice_may_be_retired_without_a_candidate(ws, days_ago):
    """An earlier append fallback left two active lines with one key: the built-in keeps the newest."""
    from clawmem.commands.notes import add_note
    from clawmem.dream import run_sweep

    ws.memory_md.write_text(
        "- On-call is Alice. <!-- key: oncall --> <!-- observed: 2026-11-01 -->\n"
        "- On-call is Bob now. <!-- key: oncall --> <!-- observed: 2026-11-20 -->\n"
    )
    for n in (3, 2, 1):
        add_note(ws, "Integration tests need the postgres container running first.", origin="owner", session=f"p{n}", at=days_ago(n))
    report = run_sweep(ws)
    assert not report.fallback_used, report.fallback_reason
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert [e.body for e in entries if e.key == "oncall"] == ["On-call is Bob now."]
    assert [c.text for c in report.superseded] == ["On-call is Alice."]


def test_marking_an_entry_superseded_by_a_gated_key_is_accepted(ws, clawmem, configure, tmp_path, days_ago):
    from clawmem.commands.notes import add_note

    ws.memory_md.write_text("- The staging host is stage-1.internal <!-- key: staging-host -->\n- Lunch orders go in the #food channel.\n")
    for n in (3, 2, 1):
        add_note(ws, "The staging host is now stage-2.internal", origin="agent", session=f"k{n}", key="staging-host", at=days_ago(n))
    command = script(tmp_path, """\
        c = d["candidates"][0]
        old = "".join(l.rstrip("\\n") + " <!-- status: superseded -->\\n" if "key: staging-host" in l else l for l in d["memory_md"].splitlines(True))
        sys.stdout.write(old + c["line"])
    """)
    configure(consolidator_command=command)
    data = clawmem("dream", "--json").json()
    assert not data["fallback_used"], data["fallback_reason"]
    assert [c["text"] for c in data["superseded"]] == ["The staging host is stage-1.internal"]
    entries = grammar.parse(ws.memory_md.read_text()).entries
    assert [(e.body, e.status) for e in entries if e.key == "staging-host"] == [
        ("The staging host is stage-1.internal", "superseded"), ("The staging host is now stage-2.internal", None)]
