"""Transcript ingestion for the stop, pre-compaction and session-end hooks, in a detached process.

Claude Code gives all SessionEnd hooks 1.5 s together and Codex runs Stop after every turn: an
ingest done inside the hook is cut off, or holds up the host. So the hook only checks its input
and ``spawn``s ``python -m clawmem.hosts.background`` in a new session (stdin and stdout closed,
stderr to a log in the workspace's runtime directory) and returns. The worker takes the
session's lock, so two Stops of one session run one after the other, each reading the
transcript as it is then (the later one ingests the newest; ingestion is idempotent), and
records its outcome in ``runtime/ingest/<session>.json``: exit code, the tail of its stderr,
when (``jobs.py``). ``clawmem status`` reports the last failure (``jobs.last_failure``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

from clawmem.foundation.config import BACKGROUND_LOCK_TIMEOUT_S, HOOK_TRANSCRIPT_MAX_BYTES
from clawmem.hosts import jobs
from clawmem.rules.inputs import read_transcript
from clawmem.storage.workspace import Workspace


def limit(ws: Workspace) -> int:
    """The largest transcript a hook's ingest reads."""
    return max(HOOK_TRANSCRIPT_MAX_BYTES, ws.config.limits.max_ingest_bytes)


def refuse(path: Path, most: int) -> str | None:
    """Why the transcript at ``path`` cannot be ingested, from its metadata alone (the hook says it at once), or None."""
    import stat

    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:  # ValueError: a path with a NUL byte
        return f"transcript {path} unreadable ({getattr(err, 'strerror', None) or type(err).__name__}): nothing ingested"
    if not stat.S_ISREG(info.st_mode):
        return f"transcript {path} is not a regular file: nothing ingested"
    if info.st_size > most:
        return f"transcript {path} is {info.st_size:,} bytes; the limit is {most:,}: nothing ingested"
    return None


def ingest_transcript(ws: Workspace, host: ModuleType, session: str, path: Path, problems: list[str]) -> None:
    """Ingest the host's transcript of ``session`` at ``path`` (read within the hook limits); say why not in ``problems``."""
    from clawmem.commands.ingest import ingest
    from clawmem.trust import provenance, sessions

    raw = read_transcript(path, limit(ws), problems)
    if raw is None:
        return
    # the host's own format, forced: the file is the host's transcript, never guessed as another shape
    typed = sessions.typed_prompts(ws, session)
    ingest(ws, raw, session=session, origin=provenance.HOST_SENDER_ORIGIN, session_kind="interactive", fmt=host.NAME, typed=typed)


def spawn(ws: Workspace, host: str, session: str, transcript: Path) -> int:
    """Start the detached worker that ingests ``session``'s transcript; return its process id.

    Nothing of the hook's process is shared: a new session (the host killing the hook's process
    group does not reach it), stdin and stdout closed, stderr into the job's own log.
    """
    folder = jobs.job_dir(ws)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{session}.{time.time_ns()}.log"  # while it exists, the job is under way
    with log.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "clawmem.hosts.background", str(ws.root), host, session, str(transcript), str(log)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True, close_fds=True,
        )
    return proc.pid


def work(root: str, host: str, session: str, transcript: str, log: Path) -> int:
    """The worker: ingest under the session's lock, record the outcome, remove the job's log."""
    import traceback

    from clawmem.foundation.errors import ClawmemError
    from clawmem.hosts import host_module
    from clawmem.rules.output import report_failure

    code, ws = 1, None
    try:
        ws = Workspace.open(root)
        problems: list[str] = []
        with ws.lock(f"ingest-session:{session}", timeout=BACKGROUND_LOCK_TIMEOUT_S):
            ingest_transcript(ws, host_module(host), session, Path(transcript), problems)
        for problem in problems:
            print(f"clawmem: error: {problem}", file=sys.stderr)
        code = 1 if problems else 0
    except ClawmemError as err:
        code = report_failure(err, as_json=False)  # its message and hint, as every front end reports them
    except Exception:  # noqa: BLE001 -- recorded for `clawmem status`, never lost in a closed terminal
        traceback.print_exc()
    sys.stderr.flush()
    if ws is not None:
        jobs.record(ws, host, session, transcript, code, log)
    log.unlink(missing_ok=True)
    return code


if __name__ == "__main__":
    root, host, session, transcript, log = sys.argv[1:6]
    sys.exit(work(root, host, session, transcript, Path(log)))
