"""Coding-sessions benchmark: replay multi-day coding-agent sessions and score MEMORY.md and USER.md.

The data (``benchmarks/data/coding-sessions/``, written by its ``make.py``) is three projects of
five to seven simulated days, each day one or two sessions in the hosts' own formats (Claude
Code JSONL, Codex rollout JSONL) plus the look-ups an agent makes that day. For every project
and every clawmem tree given, the replay drives the real CLI on a simulated clock
(``CLAWMEM_NOW``): ``init`` a fresh workspace, then day by day ``ingest`` each session (origin
owner, the session id read from the file) when it ends, ``search`` the day's queries in the
evening, and ``dream`` at 03:00 the next night.

The final files are scored against the hand-written ``gold.json`` by rules that live here and
import nothing from clawmem, so every tree is judged the same way:

- **facts**: required gold facts stated by some active MEMORY.md line;
- **directives**: required gold directives stated by some active USER.md line;
- **superseded active**: replaced directives still stated by an active line (either file);
- **stale active**: facts an update replaced, still stated by an active line (either file);
- **never**: active lines containing a junk substring (tool names, JSON, reminders, thanks…);
- **dup pairs**: pairs of active lines of one file stating the same gold item;
- **unmatched**: active lines stating no gold item at all (facts, directives, stale, optional);
- **misplaced**: gold facts found only in USER.md, or directives only in MEMORY.md (information).

Each project also gets a blind ``review.md``: every active line, numbered, followed by the
transcript lines it cites through its ``<!-- source: … -->`` comments, for a human reviewer
who does not see the gold labels.

Run: ``python benchmarks/coding_sessions.py [--src DIR ...] [--out DIR] [--projects NAME ...]``.
This checkout is always replayed; each ``--src`` (e.g. ``git worktree add /tmp/base REV``) adds a
row per project for that tree. Without ``--out`` the workspaces are deleted afterwards and the
review packets and ``results.json`` stay in a temporary directory, whose path is printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "coding-sessions"
EVENING = dt.time(18, 0)  # the day's look-ups, unless a session runs later
NIGHT = dt.time(3, 0)  # dream runs at 03:00 after each simulated day
REVIEW_CONTEXT_LINES = 12  # most lines quoted per cited anchor in review.md

# Runs one clawmem command with the package imported from SRC (argv[1]) ahead of any installed copy.
RUNNER = """
import sys
sys.path.insert(0, sys.argv[1])
sys.argv = ["clawmem", *sys.argv[2:]]
try:
    from clawmem.launcher import main
except ImportError:
    from clawmem.cli import main
main()
"""


# replay ------------------------------------------------------------------------------------------
@dataclass
class Tree:
    """One clawmem checkout to replay, and the label of its rows."""

    label: str
    src: Path


@dataclass
class Replay:
    """What one project's replay under one tree produced."""

    project: str
    tree: Tree
    workspace: Path
    seconds: dict[str, float] = field(default_factory=lambda: {"ingest": 0.0, "search": 0.0, "dream": 0.0})
    ingests: list[dict[str, Any]] = field(default_factory=list)
    searches: list[dict[str, Any]] = field(default_factory=list)
    dreams: list[dict[str, Any]] = field(default_factory=list)


def _now(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).isoformat(timespec="seconds")


def run_clawmem(tree: Tree, args: list[str], when: dt.datetime, state: Path) -> subprocess.CompletedProcess:
    """Run the CLI of ``tree`` with the clock pinned; raise with its stderr when it fails."""
    env = {k: v for k, v in os.environ.items() if k != "CLAWMEM_WORKSPACE"}
    env.update({"CLAWMEM_NOW": _now(when), "PYTHONPATH": str(tree.src), "XDG_STATE_HOME": str(state), "NO_COLOR": "1"})
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(tree.src), *args], capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"clawmem {' '.join(args[:3])} failed ({proc.returncode}) with {tree.src}:\n{proc.stderr[-3000:]}")
    return proc


def file_session_id(path: Path) -> str:
    """The session id a host wrote into its own file: Claude Code's sessionId, Codex's session_meta id."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("type") == "session_meta":
                return str(record["payload"]["id"])
            if isinstance(record.get("sessionId"), str):
                return record["sessionId"]
    raise ValueError(f"{path}: no session id in the file")


def _parse_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def replay(project: dict[str, Any], tree: Tree, data: Path, workdir: Path) -> Replay:
    """Init a fresh workspace and play the project's days: ingest, look up, dream."""
    ws = workdir / tree.label / project["name"] / "workspace"
    if ws.exists():
        shutil.rmtree(ws)
    ws.parent.mkdir(parents=True, exist_ok=True)
    state = workdir / ".state"
    result = Replay(project["name"], tree, ws)
    first = _parse_time(project["days"][0]["sessions"][0]["start"]) - dt.timedelta(hours=1)
    run_clawmem(tree, ["init", "-w", str(ws)], first, state)
    for day in project["days"]:
        last_end = first
        for session in day["sessions"]:
            path = data / session["file"]
            sid = file_session_id(path)
            if sid != session["session"]:
                raise ValueError(f"{path}: the file says session {sid}, the manifest {session['session']}")
            end = _parse_time(session["end"]) + dt.timedelta(minutes=1)  # a host hands the transcript over when the session ends
            last_end = max(last_end, end)
            started = time.perf_counter()
            proc = run_clawmem(tree, ["ingest", str(path), "--session", sid, "--origin", "owner", "-w", str(ws), "--json"], end, state)
            result.seconds["ingest"] += time.perf_counter() - started
            out = _json(proc.stdout) or {}
            result.ingests.append({"session": sid, "file": session["file"], "turns": out.get("turns"), "written": out.get("written"),
                                   "skipped": out.get("skipped"), "unknown": out.get("unknown")})
        evening = max(dt.datetime.combine(dt.date.fromisoformat(day["date"]), EVENING, dt.UTC), last_end + dt.timedelta(minutes=5))
        for offset, query in enumerate(day["searches"]):
            started = time.perf_counter()
            proc = run_clawmem(tree, ["search", query, "-w", str(ws), "--json"], evening + dt.timedelta(minutes=offset), state)
            result.seconds["search"] += time.perf_counter() - started
            hits = (_json(proc.stdout) or {}).get("results") or []
            result.searches.append({"date": day["date"], "query": query, "hits": len(hits), "top": [h.get("citation") for h in hits[:3]]})
        night = dt.datetime.combine(dt.date.fromisoformat(day["date"]) + dt.timedelta(days=1), NIGHT, dt.UTC)
        started = time.perf_counter()
        proc = run_clawmem(tree, ["dream", "-w", str(ws), "--json"], night, state)
        result.seconds["dream"] += time.perf_counter() - started
        result.dreams.append({"night_after": day["date"], "report": _json(proc.stdout)})
    return result


# reading the curated files ---------------------------------------------------------------------
COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
ANCHOR = re.compile(r"([^\s;,<>]+?)#L(\d+)(?:-L?(\d+))?")
ITEM = re.compile(r"^\s{0,3}[-*+]\s+(.*)$")


@dataclass
class Line:
    """One list item of MEMORY.md or USER.md: its text without comments, and what the comments say."""

    file: str
    number: int  # 1-based line in the file
    raw: str
    text: str  # lowercased, comments removed, whitespace collapsed
    status: str
    sources: list[tuple[str, int, int]]


def read_entries(path: Path, name: str) -> list[Line]:
    """Every list item of a curated file (continuation lines folded in); superseded ones are marked."""
    if not path.exists():
        return []
    items: list[tuple[int, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if ITEM.match(line):
            items.append((number, line))
        elif items and line.startswith((" ", "\t")) and line.strip():
            items[-1] = (items[-1][0], items[-1][1] + " " + line.strip())
    entries = []
    for number, raw in items:
        comments = [c.strip() for c in COMMENT.findall(raw)]
        meta: dict[str, list[str]] = {}
        for comment in comments:
            key, sep, value = comment.partition(":")
            if sep:
                meta.setdefault(key.strip().lower(), []).append(value.strip())
        body = ITEM.match(COMMENT.sub(" ", raw)).group(1)  # type: ignore[union-attr]
        sources = [(m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))) for value in meta.get("source", []) for m in ANCHOR.finditer(value)]
        status = (meta.get("status") or ["active"])[-1].lower()
        entries.append(Line(name, number, raw, " ".join(body.lower().split()), status, sources))
    return entries


def active(lines: list[Line]) -> list[Line]:
    return [line for line in lines if line.status != "superseded"]


# scoring (this file's rules only: the same for every tree) -------------------------------------
def keyword_in(keyword: str, text: str) -> bool:
    """A gold keyword occurs in a lowercased line: word-bounded at alphanumeric ends, ``*`` = prefix, ``re:`` = regex."""
    if keyword.startswith("re:"):
        return re.search(keyword[3:], text) is not None
    prefix = keyword.endswith("*")
    word = keyword.rstrip("*").lower()
    pattern = re.escape(word)
    if word[:1].isalnum():
        pattern = r"(?<![a-z0-9])" + pattern
    if word[-1:].isalnum() and not prefix:
        pattern += r"(?![a-z0-9])"
    return re.search(pattern, text) is not None


def states(item: dict[str, Any], text: str) -> bool:
    """The line states the gold item: one of its keyword sets all occur, and none of its ``unless`` sets."""
    if not any(all(keyword_in(k, text) for k in group) for group in item["match"]):
        return False
    return not any(all(keyword_in(k, text) for k in group) for group in item.get("unless", []))


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def score(gold: dict[str, Any], never_common: list[str], memory: list[Line], user: list[Line]) -> dict[str, Any]:
    """Every metric of one project's final MEMORY.md and USER.md against its gold labels."""
    facts, directives, stale = gold["facts"], gold["directives"], gold["stale"]
    everything = [*memory, *user]
    by_id = {item["id"]: item for item in [*facts, *directives, *stale]}

    def where(item: dict[str, Any], lines: list[Line]) -> list[int]:
        return [line.number for line in lines if states(item, line.text)]

    def anywhere(item: dict[str, Any]) -> list[str]:
        return [f"{line.file}:{line.number}" for line in everything if states(item, line.text)]

    required_facts = [f for f in facts if not f.get("optional")]
    required_directives = [d for d in directives if not d.get("optional") and not d.get("superseded_by")]
    superseded = [d for d in directives if d.get("superseded_by")]
    fact_hits = {f["id"]: where(f, memory) for f in facts}
    directive_hits = {d["id"]: where(d, user) for d in directives}
    never = [s.lower() for s in [*never_common, *gold.get("never", [])]]
    never_hits = [{"file": line.file, "line": line.number, "found": [s for s in never if s in line.raw.lower()]} for line in everything
                  if any(s in line.raw.lower() for s in never)]
    stated = {(line.file, line.number) for line in everything for item in by_id.values() if states(item, line.text)}
    unmatched = [{"file": line.file, "line": line.number, "text": line.text} for line in everything if (line.file, line.number) not in stated]
    misplaced = [f["id"] for f in required_facts if not fact_hits[f["id"]] and where(f, user)]
    misplaced += [d["id"] for d in required_directives if not directive_hits[d["id"]] and where(d, memory)]
    return {
        "memory_lines": len(memory),
        "user_lines": len(user),
        "facts": sum(bool(fact_hits[f["id"]]) for f in required_facts),
        "facts_total": len(required_facts),
        "facts_missing": [f["id"] for f in required_facts if not fact_hits[f["id"]]],
        "directives": sum(bool(directive_hits[d["id"]]) for d in required_directives),
        "directives_total": len(required_directives),
        "directives_missing": [d["id"] for d in required_directives if not directive_hits[d["id"]]],
        "superseded_active": [{"id": d["id"], "lines": anywhere(d)} for d in superseded if anywhere(d)],
        "superseded_total": len(superseded),
        "stale_active": [{"id": s["id"], "lines": anywhere(s)} for s in stale if anywhere(s)],
        "stale_total": len(stale),
        "never_hits": never_hits,
        "dup_pairs": sum(_pairs(len(v)) for v in fact_hits.values()) + sum(_pairs(len(v)) for v in directive_hits.values()),
        "duplicates": {k: v for k, v in {**fact_hits, **directive_hits}.items() if len(v) > 1},
        "unmatched": unmatched,
        "misplaced": misplaced,
        "matched": {k: v for k, v in {**fact_hits, **directive_hits}.items() if v},
    }


# the blind review packet -----------------------------------------------------------------------
def review_packet(project: str, ws: Path, memory: list[Line], user: list[Line]) -> str:
    """Every active line, numbered, then the workspace lines its sources cite; no gold labels."""
    out = [f"# Review packet: {project}", "", "Judge each line on its own: is it true to the cited text, durable, useful to an agent next week, "
           "and stated once? Cited lines are quoted from the workspace files.", ""]
    cache: dict[str, list[str]] = {}
    for number, line in enumerate([*memory, *user], 1):
        body = COMMENT.sub("", line.raw).strip()
        out.append(f"## {number}. {line.file} line {line.number}")
        out.append("")
        out.append(body)
        out.append("")
        if not line.sources:
            out.append("_(no source cited)_")
            out.append("")
        for path, start, end in line.sources:
            if path not in cache:
                target = (ws / path).resolve()
                inside = target.is_relative_to(ws.resolve()) and target.is_file()
                cache[path] = target.read_text(encoding="utf-8").splitlines() if inside else []
            text = cache[path][start - 1:min(end, start + REVIEW_CONTEXT_LINES - 1)]
            out.append(f"> `{path}#L{start}" + (f"-L{end}`" if end != start else "`") + ("" if text else " (not found in the workspace)"))
            out.extend(f"> {t}" for t in text)
            if end - start + 1 > REVIEW_CONTEXT_LINES:
                out.append(f"> … ({end - start + 1 - REVIEW_CONTEXT_LINES} more lines)")
            out.append("")
    return "\n".join(out) + "\n"


# the run ---------------------------------------------------------------------------------------
def _trees(extra: list[Path]) -> list[Tree]:
    trees = [Tree("current", ROOT)]
    for src in extra:
        src = src.resolve()
        if not (src / "clawmem" / "__init__.py").exists():
            raise SystemExit(f"--src {src}: no clawmem package there")
        if src == ROOT:
            continue
        label = src.name or "src"
        while label in {t.label for t in trees}:
            label += "'"
        trees.append(Tree(label, src))
    return trees


def _fmt_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


HEADER = ["project", "src", "MEMORY lines", "USER lines", "facts", "directives", "superseded active", "stale active", "never hits", "dup pairs",
          "unmatched", "misplaced", "seconds"]


def row(project: str, label: str, s: dict[str, Any], seconds: float) -> list[str]:
    return [project, label, str(s["memory_lines"]), str(s["user_lines"]), f"{s['facts']}/{s['facts_total']}", f"{s['directives']}/{s['directives_total']}",
            f"{len(s['superseded_active'])}/{s['superseded_total']}", f"{len(s['stale_active'])}/{s['stale_total']}", str(len(s["never_hits"])),
            str(s["dup_pairs"]), str(len(s["unmatched"])), str(len(s["misplaced"])), f"{seconds:.0f}"]


def totals(label: str, scores: list[tuple[dict[str, Any], float]]) -> list[str]:
    def add(key: str) -> int:
        return sum(s[key] if isinstance(s[key], int) else len(s[key]) for s, _ in scores)

    return ["**total**", label, str(add("memory_lines")), str(add("user_lines")), f"{add('facts')}/{add('facts_total')}",
            f"{add('directives')}/{add('directives_total')}", f"{add('superseded_active')}/{add('superseded_total')}",
            f"{add('stale_active')}/{add('stale_total')}", str(add("never_hits")), str(add("dup_pairs")), str(add("unmatched")), str(add("misplaced")),
            f"{sum(t for _, t in scores):.0f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the data directory (manifest.json, gold.json, transcripts)")
    parser.add_argument("--src", type=Path, action="append", default=[], help="another clawmem checkout to replay beside this one (repeatable)")
    parser.add_argument("--out", type=Path, help="keep workspaces, review packets and results.json here (default: a temporary directory, workspaces deleted)")
    parser.add_argument("--projects", nargs="*", help="project names to replay (default: all)")
    args = parser.parse_args()
    data = args.data.resolve()
    manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
    gold = json.loads((data / "gold.json").read_text(encoding="utf-8"))
    projects = [p for p in manifest["projects"] if not args.projects or p["name"] in args.projects]
    if not projects:
        raise SystemExit("no such project: " + ", ".join(args.projects or []))
    out = (args.out or Path(tempfile.mkdtemp(prefix="clawmem-coding-sessions-"))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    trees = _trees(args.src)
    results: list[dict[str, Any]] = []
    rows: list[list[str]] = []
    for tree in trees:
        per_tree: list[tuple[dict[str, Any], float]] = []
        for project in projects:
            print(f"{tree.label}: replaying {project['name']} with clawmem from {tree.src}", file=sys.stderr, flush=True)
            rep = replay(project, tree, data, out)
            memory = active(read_entries(rep.workspace / "MEMORY.md", "MEMORY.md"))
            user = active(read_entries(rep.workspace / "USER.md", "USER.md"))
            s = score(gold["projects"][project["name"]], gold["never_common"], memory, user)
            seconds = sum(rep.seconds.values())
            packet = rep.workspace.parent / "review.md"
            packet.write_text(review_packet(project["name"], rep.workspace, memory, user), encoding="utf-8")
            per_tree.append((s, seconds))
            rows.append(row(project["name"], tree.label, s, seconds))
            results.append({"project": project["name"], "src": str(tree.src), "label": tree.label, "score": s, "review": str(packet),
                            "seconds": {k: round(v, 1) for k, v in rep.seconds.items()}, "ingests": rep.ingests, "searches": rep.searches,
                            "dreams": rep.dreams, "memory": [line.raw for line in memory], "user": [line.raw for line in user]})
        rows.append(totals(tree.label, per_tree))
    (out / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    if not args.out:
        for tree in trees:
            for project in projects:
                shutil.rmtree(out / tree.label / project["name"] / "workspace", ignore_errors=True)
        shutil.rmtree(out / ".state", ignore_errors=True)
    print(_fmt_row(HEADER))
    print(_fmt_row(["---"] * len(HEADER)))
    for cells in rows:
        print(_fmt_row(cells))
    print(f"\nreview packets and results.json: {out}")


if __name__ == "__main__":
    main()
