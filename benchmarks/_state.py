"""A benchmark's throwaway workspaces are trusted in a private state folder, never the user's own.

``clawmem init`` (``workspace_init.create``) appends each new workspace to
``$XDG_STATE_HOME/clawmem/trusted-workspaces``; a benchmark that builds hundreds of them would
otherwise grow the list every ``is_trusted`` reads on every walk-up. The folder is set in the
environment, so every ``clawmem`` process the benchmark starts inherits it, and removed at exit.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def private_user_state() -> str:
    """Point ``XDG_STATE_HOME`` at a fresh folder removed at exit; returns it."""
    folder = tempfile.mkdtemp(prefix="clawmem-bench-state-")
    os.environ["XDG_STATE_HOME"] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder
