"""``clawmem report`` as a user runs it: where it writes, what it refuses, what the page says."""

from __future__ import annotations

import hashlib

from tests.report.htmlcheck import Page

SECTION_IDS = {"overview", "curated", "dreaming", "recall", "growth", "untrusted", "sources"}


def _digests(root) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*.md")}


def test_default_target_is_printed_and_has_every_section(clawmem, attacked_ws):
    result = clawmem("report", "-w", str(attacked_ws))
    assert result.returncode == 0, result.stderr
    path = attacked_ws / ".clawmem" / "report.html"
    assert result.stdout.strip() == str(path)
    page = Page(path.read_text(encoding="utf-8"))
    assert {a.get("id") for a in page.tags("section")} >= SECTION_IDS
    assert len(page.tags("svg")) == 4  # growth: entries, MEMORY.md entries and size, hit rate


def test_bad_targets_are_refused_and_nothing_changes(clawmem, attacked_ws, tmp_path):
    before = _digests(attacked_ws)
    for target, words in (
        (attacked_ws / "MEMORY.md", "not an .html file"),
        (tmp_path / "missing" / "r.html", "does not exist"),
        (tmp_path, "not an .html file"),
    ):
        result = clawmem("report", "-w", str(attacked_ws), "-o", str(target))
        assert result.returncode != 0 and words in result.stderr, (target, result.stderr)
        assert result.stdout == ""
    folder = tmp_path / "dir.html"
    folder.mkdir()
    result = clawmem("report", "-w", str(attacked_ws), "-o", str(folder))
    assert result.returncode != 0 and "is a folder" in result.stderr
    assert _digests(attacked_ws) == before


def test_missing_workspace_says_how_to_create_one(clawmem, tmp_path):
    result = clawmem("report", "-w", str(tmp_path / "nowhere"))
    assert result.returncode == 1 and "clawmem init" in result.stderr


def test_stdout_and_json_agree_with_dream_explain(clawmem, attacked_ws):
    w = ("-w", str(attacked_ws))
    html = clawmem("report", "-o", "-", *w)
    assert html.returncode == 0 and html.stdout.startswith("<!DOCTYPE html>")
    data = clawmem("report", "--json", *w).json()
    explain = {e["candidate_id"]: e for e in clawmem("dream", "--dry-run", "--explain", "--json", *w).json()["explain"] if e["candidate_id"]}
    text = Page(html.stdout).text
    staged = data["dreaming"]["candidates"]["items"]
    assert staged, "the fixture leaves candidates waiting"
    for c in staged:  # the report reuses the gate: same misses, same signals as dream --explain, said as dream says them
        assert explain[c["candidate_id"]]["failed"] == c["failed"]
        assert explain[c["candidate_id"]]["signals"]["encounters"] == c["signals"]["encounters"]
        assert len(c["in_words"]) == len(c["failed"])
        for miss in c["in_words"]:
            assert miss in text
    assert any(w.startswith("needs ") for c in staged for w in c["in_words"])
    assert "passes every threshold" not in text or any(not c["failed"] and not c["last_sweep"] for c in staged)
    memory = {e["text"]: e for e in data["curated"]["MEMORY.md"]["items"]}
    promoted = memory["If the build fails with undefined reference errors, run make clean before make."]
    assert promoted["origin"] == "agent" and [s["state"] for s in promoted["sources"]] == ["ok"] * len(promoted["sources"])
    assert promoted["sweeps"] and promoted["sweeps"][0].endswith("promoted")
    assert promoted["recalls"] == data["recall"]["top"][0]["recalls"] >= 1
    hand = next(e for t, e in memory.items() if t.startswith("Hand-written"))
    assert hand["hand_written"] and hand["key"] == "deploy-target"
    assert {(link["text"], link["live"]) for link in hand["lineage"]} >= {("Deploys go to fly.io", False)}
    assert data["untrusted"]["total"] >= 3 and all(u["origin"] != "owner" or u["kind"] == "quarantine" for u in data["untrusted"]["items"])
    sweeps = data["dreaming"]["sweeps"]
    assert sweeps["total"] == 1 and "Promoted" in sweeps["items"][0]["groups"]


def test_long_lists_are_capped_with_their_counts(clawmem, ws):
    from clawmem.report import data

    lines = "".join(f"- Hand-written fact number {i} about topic {i % 7}\n" for i in range(data.MAX_CURATED + 40))
    ws.memory_md.write_text(ws.memory_md.read_text(encoding="utf-8") + lines, encoding="utf-8")
    report = clawmem("report", "--json", "-w", str(ws.root)).json()
    listed = report["curated"]["MEMORY.md"]
    assert listed["total"] == data.MAX_CURATED + 40 and len(listed["items"]) == data.MAX_CURATED
    assert report["recall"]["never"]["total"] == data.MAX_CURATED and len(report["recall"]["never"]["items"]) == data.MAX_NEVER
    html = clawmem("report", "-o", "-", "-w", str(ws.root)).stdout
    assert "… and 40 more entries not listed here." in html


def test_demo_ends_with_the_report_path(clawmem, tmp_path):
    target = tmp_path / "demo-ws"
    result = clawmem("demo", "-w", str(target), timeout=300)
    assert result.returncode == 0, result.stderr
    last = [line for line in result.stdout.splitlines() if "report.html" in line]
    assert last and str(target / ".clawmem" / "report.html") in last[-1]
    assert (target / ".clawmem" / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_bootstrap_injection_counts_as_recalled(clawmem, ws):
    ws.memory_md.write_text(ws.memory_md.read_text(encoding="utf-8") + "- Deploys go to fly.io\n- Staging is called atlas\n", encoding="utf-8")
    w = ("-w", str(ws.root))
    before = clawmem("report", "--json", *w).json()["recall"]
    assert before["never"]["total"] == 2
    assert clawmem("recall", "hello there", "--session", "s-1", *w).returncode == 0  # the session's first turn: bootstrap
    after = clawmem("report", "--json", *w).json()
    injected = {e["text"]: e["injected"] for e in after["curated"]["MEMORY.md"]["items"]}
    assert injected == {"Deploys go to fly.io": True, "Staging is called atlas": True}
    assert after["recall"]["never"]["total"] == 0
