"""``handshake.json``: the SDK server's own answers to the handshake and the list requests, per protocol version.

The stdio fast path (``clawmem.mcp.stdio``) answers ``initialize``, ``ping`` and the four
list requests from this file, before the SDK is imported. The file is what the SDK server
itself answered, recorded by ``generate`` (run by ``scripts/gen_docs.py``) from the SDK-only
server in a subprocess, so the fast answers cannot drift from the slow ones:
``tests/test_docs.py`` fails when the file is stale and ``tests/test_mcp_stdio.py`` compares
both servers on the wire. ``instructions`` (they depend on ``CLAWMEM_HOST_HOOKS``) and the
version in ``serverInfo`` are left out and filled in at run time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("handshake.json")
LISTS = ("tools/list", "resources/list", "resources/templates/list", "prompts/list")
SDK_SERVER = "import sys; from clawmem.mcp.server import build_server; build_server(None).run('stdio')"


def load() -> tuple[list[str], dict[str, dict[str, Any]]]:
    """The handshake versions (oldest first) and, per version, each method's recorded result."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    results = data["results"]
    return data["versions"], {version: {method: results[i] for method, i in methods.items()} for version, methods in data["answers"].items()}


def _exchange(version: str) -> dict[str, Any]:
    """The SDK server's results for one handshake at ``version`` (a fresh process, no hooks variable)."""
    import os
    import subprocess
    import sys

    from clawmem.foundation.config import ENV_HOST_HOOKS

    package_root = str(Path(__file__).resolve().parents[2])
    env = {k: v for k, v in os.environ.items() if k != ENV_HOST_HOOKS}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
    requests = [("initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "gen_docs", "version": "0"}}), *((m, None) for m in LISTS)]
    proc = subprocess.Popen([sys.executable, "-c", SDK_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    results: dict[str, Any] = {}
    try:
        for number, (method, params) in enumerate(requests, 1):
            request: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method, **({"params": params} if params else {})}
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            if method == "initialize":
                proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
            proc.stdin.flush()
            response = json.loads(proc.stdout.readline())
            if "result" not in response:
                raise RuntimeError(f"the SDK server answered {method} with {response}")
            results[method] = response["result"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    initialize = results["initialize"]
    initialize.pop("instructions", None)
    initialize["serverInfo"].pop("version", None)
    return results


def generate() -> str:
    """The content of ``handshake.json``, from the SDK server of the installed SDK."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    results: list[Any] = []  # each distinct result once: most are the same at every version
    answers: dict[str, dict[str, int]] = {}
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        for method, result in _exchange(version).items():
            if result not in results:
                results.append(result)
            answers.setdefault(version, {})[method] = results.index(result)
    return json.dumps({"versions": list(HANDSHAKE_PROTOCOL_VERSIONS), "answers": answers, "results": results}, indent=1, sort_keys=True) + "\n"
