"""The README's quick start, run literally: each line of its block in one shell, in a fresh folder
and a sandbox home, standard error on a terminal (where the ``next:`` hints and recall's reason go)
and standard output in a pipe (what hosts and scripts read)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import CLAWMEM
from tests.ttyrun import drain, run_with_tty_stderr

pytestmark = pytest.mark.e2e  # a terminal (pty, tmux)

REPO = Path(__file__).resolve().parents[2]
MARK = "@@step"


def quick_start_lines() -> list[str]:
    """The commands of the README's quick-start block, as a reader copies them."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Quick start\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "the quick start has no ```bash block"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def run_quick_start(tmp_path: Path) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of each README line, run in order in one bash in a fresh folder."""
    here = tmp_path / "clone"
    (here / "examples").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "session.jsonl", here / "examples")
    script = "".join(f"{line}\necho \"{MARK} $?\"; echo {MARK} >&2\n" for line in quick_start_lines())
    env = {k: v for k, v in os.environ.items() if k != "CLAWMEM_WORKSPACE"}
    env["PATH"] = f"{Path(CLAWMEM).parent}{os.pathsep}{env.get('PATH', '')}"  # the clawmem under test first
    code, out, err = run_with_tty_stderr(script, cwd=here, env=env, shell=True, timeout=600)
    assert code == 0, err
    outs = out.split(f"{MARK} ")
    errs = err.split(f"{MARK}\n")
    steps = []
    for n, chunk in enumerate(outs[1:]):
        status, _, rest = chunk.partition("\n")
        outs[n + 1] = rest
        steps.append((int(status), outs[n], errs[n]))
    return steps


def test_the_readme_quick_start_runs_as_written_and_says_what_to_do_next(tmp_path):
    lines = quick_start_lines()
    steps = run_quick_start(tmp_path)
    assert len(steps) == len(lines), steps
    by_command = dict(zip(lines, steps, strict=True))
    for line, (code, _, err) in by_command.items():
        assert code == 0, f"{line!r} failed: {err}"
        assert "Traceback" not in err and "error:" not in err, (line, err)
    workspace = tmp_path / "clone" / "my-memory"

    def step(prefix: str, nth: int = 0) -> tuple[str, str]:
        found = [(out, err) for line, (_, out, err) in zip(lines, steps, strict=True) if line.startswith(prefix)]
        return found[nth]

    out, err = step("clawmem init")
    assert f"Created a clawmem workspace at {workspace}" in out and "next: cd my-memory, then clawmem note add" in err
    assert (workspace / ".clawmem").is_dir() and (workspace / "MEMORY.md").is_file()
    out, err = step("clawmem note add")
    assert re.search(r"Noted in memory/\d{4}-\d\d-\d\d\.md:\d+", out) and "next: clawmem search" in err
    out, err = step("clawmem ingest")
    assert "Ingested transcripts/s-42.md (jsonl): 4 of 4 turns kept" in out and "next: clawmem search" in err
    out, err = step("clawmem index")
    assert "Indexed" in out and "next: clawmem search" in err
    out, _ = step("clawmem search")
    assert "Deploys go to fly.io" in out
    out, err = step("clawmem recall")
    assert out == ""  # a host reads stdout: nothing to inject is nothing at all
    assert "recall injected nothing" in err and "MEMORY.md and USER.md are empty" in err and "no recall intent in the message" in err
    out, err = step("clawmem dream")
    assert "Promoted: We decided to keep a 30s health check grace period on every service." in out
    assert re.search(r"^Not promoted \(\d\):$", out, re.M), out
    assert "- Deploys go to fly.io  [memory/" in out and "needs 1 more recall" in out, out
    assert "next: clawmem cron" in err
    out, err = step("clawmem recall", 1)
    assert "30s health check grace period" in out and "injected nothing" not in err
    out, _ = step("clawmem status")
    assert f"workspace: {workspace} (the nearest enclosing workspace of the current directory)" in out
    assert not (tmp_path / "home" / ".local" / "share" / "clawmem").exists()  # nothing landed in the per-user default


def _walk(tmp_path: Path, *, terminal: bool) -> str:
    """The quick start in one bash, every stream on one terminal (what a person sees) or every stream
    in a pipe with no terminal at all (what a script sees); returns what was shown (stdout + stderr)."""
    import pty
    import subprocess

    here = tmp_path / "clone"
    (here / "examples").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "session.jsonl", here / "examples")
    env = {k: v for k, v in os.environ.items() if k not in ("CLAWMEM_WORKSPACE", "NO_COLOR")}
    env.update({"PATH": f"{Path(CLAWMEM).parent}{os.pathsep}{env.get('PATH', '')}", "TERM": "xterm-256color", "COLUMNS": "120"})
    script = "set -e\n" + "\n".join(quick_start_lines()) + "\n"
    if not terminal:
        proc = subprocess.run(["bash", "-c", script], cwd=here, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout + "\n@@stderr\n" + proc.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", "-c", script], cwd=here, env=env, stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    shown = drain(master).decode("utf-8", "replace")
    assert proc.wait(timeout=600) == 0, shown
    return shown.replace("\r\n", "\n")


def _walk_in_tmux(tmp_path: Path) -> str:
    """The quick start typed into a real terminal emulator (tmux, on a private socket): the screen's
    whole history afterwards, as the person saw it once progress bars and redraws settled."""
    import subprocess
    import time

    from tests.conftest import require

    require(shutil.which("tmux"), "tmux is not installed")
    here = tmp_path / "clone"
    (here / "examples").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "session.jsonl", here / "examples")
    done = tmp_path / "done"
    (tmp_path / "walk.sh").write_text("set -e\n" + "\n".join(quick_start_lines()) + f"\necho $? > {done}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CLAWMEM_WORKSPACE", "NO_COLOR", "TMUX")}
    env["PATH"] = f"{Path(CLAWMEM).parent}{os.pathsep}{env.get('PATH', '')}"
    tmux = ["tmux", "-L", f"clawmem-walk-{os.getpid()}", "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "120", "-y", "50", "-c", str(here), f"bash {tmp_path / 'walk.sh'}; sleep 600"],
                   env=env, check=True, timeout=60)
    try:
        subprocess.run([*tmux, "set-option", "-g", "history-limit", "10000"], env=env, check=True, timeout=60)
        deadline = time.monotonic() + 600
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        screen = subprocess.run([*tmux, "capture-pane", "-p", "-J", "-S", "-"], env=env, capture_output=True, text=True, check=True, timeout=60).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, check=False, timeout=60)
    assert done.exists() and done.read_text().strip() == "0", screen
    return screen


def test_the_walk_in_a_terminal_emulator_reads_as_text_for_people(tmp_path):
    screen = _walk_in_tmux(tmp_path)
    assert "Created a clawmem workspace at" in screen and "next: cd my-memory" in screen
    assert "30s health check grace period" in screen and "recall injected nothing" in screen
    rest = re.sub(r'<clawmem-recall id="(\w+)">.*?</clawmem-recall id="\1">', "", screen, flags=re.S)
    assert "<clawmem-recall" not in rest and "<untrusted-content" not in rest and "&lt;" not in screen, screen
    scores = _scores(screen)
    assert scores and scores == sorted(scores, reverse=True), scores


def _scores(shown: str) -> list[float]:
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    return [float(s) for s in re.findall(r"^\d+\. \S+  score ([\d.]+)", plain, re.M)]


def test_a_person_at_a_terminal_sees_text_for_people(tmp_path):
    shown = _walk(tmp_path, terminal=True)
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert "Deploys go to fly.io" in plain and "30s health check grace period" in plain
    # recall prints exactly what a host injects, frame and all (the one command whose output is the agent's context);
    # everything else a person reads is plain text
    injected = re.findall(r'<clawmem-recall id="(\w+)">.*?</clawmem-recall id="\1">', plain, re.S)
    assert len(injected) == 1, plain  # the second recall's context; the first injects nothing
    rest = re.sub(r'<clawmem-recall id="(\w+)">.*?</clawmem-recall id="\1">', "", plain, flags=re.S)
    assert "<clawmem-recall" not in rest and "<untrusted-content" not in rest and "&lt;" not in plain and "&gt;" not in plain, rest
    assert "next:" in plain and "Traceback" not in plain
    scores = _scores(shown)
    assert scores and scores == sorted(scores, reverse=True), scores  # results in the order of the scores shown


def test_a_script_in_pipes_gets_the_programs_contract_and_notices_on_stderr(tmp_path):
    shown = _walk(tmp_path, terminal=False)
    out, _, err = shown.partition("\n@@stderr\n")
    assert "\x1b[" not in shown  # no styling in a pipe
    assert "next:" not in shown  # the hints are for a person at a terminal
    assert "<clawmem-recall id=" in out  # what agents read stays marked
    before_status = out.partition("\nworkspace: ")[0]  # status (the last step) reports its warnings as its data
    assert not re.search(r"^(notice|note|warning|hint):", before_status, re.M), out  # every other notice goes to stderr
    scores = _scores(out)
    assert scores == sorted(scores, reverse=True), scores
    assert "Traceback" not in err
