"""``python -m clawmem.worker ROOT``: the detached worker process that ``clawmem.worker.lifecycle`` starts."""

from __future__ import annotations

import sys
from pathlib import Path

from clawmem.storage.workspace import Workspace
from clawmem.worker.server import serve

if __name__ == "__main__":
    root = Path(sys.argv[1])
    sys.exit(serve(root, Workspace(root).config.worker.idle_s))
