"""An external consolidator: any model CLI behind ``dream.consolidator_command``.

The command (split like a shell would, run without one) gets one JSON document on stdin (the
same document is ``input.json`` in its working directory) and must print the complete
revised ``MEMORY.md`` on stdout within ``dream.consolidator_timeout_s``. It runs in an empty
private directory, with clawmem's own environment variables removed (``isolated``): nothing
on its path leads to the workspace, its quarantine or its transcripts, so give the command
as absolute paths. It runs in its own process group, so a timeout kills whatever it started
too (a wrapper script's ``sleep`` would otherwise hold the pipes open and hang the sweep).
Whatever it prints goes through the same validation as the built-in consolidator's output
(``consolidate.validate``: only entry lines change, each new or changed line grounded in the
candidates it cites); any failure means the sweep appends instead. ``llm_adapter`` is such a
command for the ``llm`` CLI.

stdin document (version 1)::

    {"version": 1, "memory_md": "<current file>", "budget_chars": 20000, "max_loss_fraction": 0.25,
     "timeout_s": 60.0, "rules": ["..."],
     "candidates": [{"id": 3, "text": "...", "sources": ["transcripts/a.md#L7"], "evidence": [...],
                     "importance": 7, "triggers": ["build fails"], "key": null, "score": 0.83,
                     "wordings": ["..."], "line": "- ... <!-- source: ... -->\\n"}]}
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from clawmem.dream.consolidate import Proposal
from clawmem.foundation.config import DreamConfig

RULES = (
    "Print the complete revised MEMORY.md and nothing else.",
    "Keep every existing line you do not deliberately merge or retire; keep headings and prose verbatim, in place; add none.",
    "Merge duplicates into one line; retire an entry (remove it, or mark it superseded) only when a candidate has its key.",
    "Every new or rewritten line is one '- ' list item that keeps at least one <!-- source: ... --> anchor of its candidate.",
    (
        "Say only what the cited candidates' wordings say: no new instruction, command, URL, name or number; "
        "metadata only from the candidate (its sources, importance, triggers, key)."
    ),
)


class ConsolidatorFailed(Exception):
    """The external consolidator timed out, crashed, or printed something unusable."""


def payload(memory_text: str, proposals: list[Proposal], cfg: DreamConfig) -> dict:
    candidates = []
    for p in proposals:
        item = asdict(p)
        item["id"] = item.pop("candidate_id")
        item.pop("origin")
        item["line"] = p.line()
        candidates.append(item)
    return {
        "version": 1,
        "memory_md": memory_text,
        "budget_chars": cfg.memory_chars,
        "max_loss_fraction": cfg.max_loss_fraction,
        "timeout_s": cfg.consolidator_timeout_s,
        "rules": list(RULES),
        "candidates": candidates,
    }


@contextmanager
def isolated(data: bytes) -> Iterator[tuple[Path, dict[str, str]]]:
    """Where the command runs: an empty private directory holding only ``input.json``, and the
    caller's environment without ``CLAWMEM_*`` (the workspace) or ``PWD``/``OLDPWD``. A model
    CLI keeps its own settings and keys (``HOME``, ``PATH``, API variables); it cannot reach
    the quarantine by a relative path or a variable (an absolute path is the OS's business)."""
    with tempfile.TemporaryDirectory(prefix="clawmem-consolidator-") as tmp:
        (Path(tmp) / "input.json").write_bytes(data)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLAWMEM_") and k not in ("PWD", "OLDPWD")}
        yield Path(tmp), {**env, "PWD": tmp}


def run(command: str, document: dict, *, timeout: float) -> str:
    """Run the command (``isolated``) and return its stdout as text, or raise ``ConsolidatorFailed``."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise ConsolidatorFailed(f"cannot parse consolidator_command: {err}") from err
    if not argv:
        raise ConsolidatorFailed("consolidator_command is empty")
    data = json.dumps(document, ensure_ascii=False).encode()
    with isolated(data) as (cwd, env):
        return communicate(argv, data, timeout=timeout, cwd=cwd, env=env)


def communicate(argv: list[str], data: bytes, *, timeout: float, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Feed ``data`` to ``argv`` in its own process group; its stdout as text, or ``ConsolidatorFailed``."""
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True
        )
    except OSError as exc:
        raise ConsolidatorFailed(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from exc
    try:
        out, err = proc.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise ConsolidatorFailed(f"timed out after {timeout:g}s") from None
    except BaseException:
        _kill_group(proc)
        raise
    if proc.returncode != 0:
        tail = err.decode("utf-8", errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise ConsolidatorFailed(f"exited with status {proc.returncode}: {tail[0][:200]}")
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConsolidatorFailed(f"printed invalid UTF-8 (byte {exc.start})") from None
    if not text.strip():
        raise ConsolidatorFailed("printed nothing")
    return text


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.communicate()
