"""The resident worker: one process per workspace that keeps clawmem imported and the embedder loaded.

Never required. ``recall`` and the ``prompt``/``session-start`` hooks ask it first
(``clawmem.worker.client``) and do the work in their own process when it is not there or
answers anything unexpected. It runs the very function the in-process path runs
(``clawmem.worker.server``), so the bytes printed are the same either way; it holds no state
that the files and the index do not, so killing it loses nothing.

This module is what the client needs before it knows whether a worker answers: where the
socket is and the fingerprints that must match. Only ``os`` and ``sys`` at import: the client
runs it before anything else on every turn.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: the client imports this module on every turn
if TYPE_CHECKING:
    from pathlib import Path

PROTOCOL = 4  # 3: ``wire`` (length and marshal) where 2 sent JSON lines; 4: a hook's stdin comes with the request
RUN_DIR = "run"  # .clawmem/run/: the worker's socket, lock and process record, owner-only
SOCKET_NAME = "worker.sock"
LOCK_NAME = "worker.lock"
RECORD_NAME = "worker.json"
# How long the client waits before doing the work itself. Here, not in clawmem.foundation.config, because
# importing that module costs about as much as the worker's whole answer.
CONNECT_TIMEOUT_S = 0.2  # to connect
REPLY_TIMEOUT_S = 10.0  # for the answer (a recall's own budget bounds the work; the hosts stop hooks at 30 s)
# A hook's stdin is read up to this much: more than config.HOOK_STDIN_MAX_BYTES, so the worker
# still sees an oversized one as oversized (tests/test_worker.py checks the order).
STDIN_READ_MAX = 9 * 1024 * 1024
MESSAGE_MAX_BYTES = 256 * 1024 * 1024  # a reply the client accepts (a search's --json of every hit is far less)
ENV_SWITCH = "CLAWMEM_WORKER"  # "off": never ask a worker nor start one (this process and its children)
# What the worker's answers depend on besides its arguments: a client whose values differ is
# served in its own process (the worker keeps the environment it was started with).
ENV_PREFIXES = ("CLAWMEM_", "XDG_", "LC_", "PYTHON", "HF_", "OMP_", "ONNX", "TRANSFORMERS_")
ENV_NAMES = ("HOME", "TZ", "LANG", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")
# Commands served only when the client prints to no terminal: a terminal's layout depends on
# its width, which the worker cannot see (``client._route``, ``commands.planned``).
PIPED_ONLY = ("status", "search")
# The session a host runs the client in (``config.HOST_SESSION_ENV``, named again so the client
# imports nothing more; a test keeps the two equal): sent with every request and set for it, never
# compared, so one worker serves every session and what it shows joins the client's lineage.
SESSION_ENV = ("CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID")


def run_dir(root: Path) -> Path:
    return root / ".clawmem" / RUN_DIR


def socket_path(root: Path) -> Path:
    return run_dir(root) / SOCKET_NAME


def disabled() -> bool:
    return os.environ.get(ENV_SWITCH, "").lower() in ("off", "0", "no", "false")


def interpreter() -> str:
    """The Python install a process runs: its environment and its interpreter binary, links resolved,
    so ``python`` and ``python3`` of one virtualenv (a console script's shebang names one, ``python -m``
    often the other) are one install."""
    return f"{sys.prefix}|{os.path.realpath(sys.executable)}"


def package_dir() -> str:
    """The folder of the ``clawmem`` package this process runs."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def identity() -> str:
    """Which install a client runs (version, interpreter, package folder): cheap enough for every turn.

    A worker serves only clients of its own install, and only while its source files are what
    they were when it started (``worker.sources``): the client names the install, the worker
    checks the files.
    """
    from clawmem import __version__

    return f"{__version__}|{interpreter()}|{package_dir()}"


def session_env() -> dict[str, str]:
    """This process's host session variables (``SESSION_ENV``), for the worker to set per request."""
    return {k: os.environ[k] for k in SESSION_ENV if k in os.environ}


def env_chosen() -> dict[str, str]:
    """The environment variables the answers may depend on (compared whole: no checksum to import)."""
    return {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES}
