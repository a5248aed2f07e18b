"""Edit a host's config file without clobbering it: parse, change only clawmem's entries, check.

JSON files are parsed, changed in place and written back (other keys keep their order). TOML
files (Codex ``config.toml``) are not rewritten: a parser round trip would drop the user's
comments and layout, so clawmem's table lives in a marked block appended to the file and is
the only text ever changed; the result is parsed again before anything is written.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from clawmem.errors import BadInput

SERVER = "clawmem"
BEGIN = "# BEGIN clawmem (managed by `clawmem install`; remove with `clawmem install {host} --uninstall`)"
END = "# END clawmem"
BLOCK = re.compile(r"\n?# BEGIN clawmem \(managed by[^\n]*\n.*?# END clawmem\n?", re.DOTALL)


def read_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not UTF-8 text; nothing was written", hint="fix or move the file, then rerun") from None
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror}; nothing was written") from err


def load_json(path: Path, text: str | None) -> dict[str, Any]:
    """The JSON object in ``text`` ({} for a missing or empty file); a malformed file is an error."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as err:
        raise BadInput(f"{path} is not valid JSON ({err}); nothing was written", hint="fix the file (or move it away), then rerun") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path} does not hold a JSON object; nothing was written", hint="fix the file (or move it away), then rerun")
    return data


def dump_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _table(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise BadInput(f"{path}: \"{key}\" is not an object; nothing was written", hint="fix the file, then rerun")
    return value


def is_clawmem_command(command: object) -> bool:
    """A hook command clawmem wrote: ``<.../clawmem> hook EVENT ...`` (any install path)."""
    if not isinstance(command, str):
        return False
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    return len(argv) >= 3 and Path(argv[0]).name.startswith("clawmem") and argv[1] == "hook"


def merge_hooks(data: dict[str, Any], path: Path, handlers: dict[str, dict[str, Any]], all_events: list[str]) -> list[str]:
    """Replace clawmem's handlers under ``hooks`` with ``handlers`` (event -> handler); others stay.

    Returns the events that carry a clawmem handler afterwards.
    """
    hooks = _table(data, "hooks", path)
    for event in all_events:
        groups = hooks.get(event)
        if groups is None:
            continue
        if not isinstance(groups, list):
            raise BadInput(f"{path}: hooks.{event} is not a list; nothing was written", hint="fix the file, then rerun")
        kept = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                own = [h for h in group["hooks"] if isinstance(h, dict) and is_clawmem_command(h.get("command"))]
                if own:
                    rest = [h for h in group["hooks"] if h not in own]
                    if not rest:
                        continue  # a group that held only clawmem's handler was clawmem's
                    group = {**group, "hooks": rest}
            kept.append(group)
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    for event, handler in handlers.items():
        hooks.setdefault(event, []).append({"hooks": [handler]})
    if not hooks:
        del data["hooks"]
    return list(handlers)


def merge_server(data: dict[str, Any], path: Path, entry: dict[str, Any] | None) -> None:
    """Set (or with None remove) the ``clawmem`` entry under ``mcpServers``; other servers stay."""
    servers = _table(data, "mcpServers", path)
    if entry is None:
        servers.pop(SERVER, None)
    else:
        servers[SERVER] = entry
    if not servers:
        del data["mcpServers"]


def toml_block(host: str, entry: dict[str, Any]) -> str:
    import tomli_w  # deferred: only the installer writes TOML

    return f"{BEGIN.format(host=host)}\n{tomli_w.dumps({'mcp_servers': {SERVER: entry}})}{END}\n"


def merge_toml(path: Path, text: str | None, host: str, entry: dict[str, Any] | None) -> str:
    """``text`` with clawmem's marked block replaced by one for ``entry`` (or removed with None)."""
    import tomllib

    def parse(candidate: str, what: str) -> dict[str, Any]:
        try:
            return tomllib.loads(candidate)
        except tomllib.TOMLDecodeError as err:
            raise BadInput(f"{path} {what} ({err}); nothing was written", hint="fix the file, then rerun") from None

    original = text or ""
    parse(original, "is not valid TOML")
    rest = BLOCK.sub("\n", original).rstrip("\n")
    rest = rest + "\n" if rest else ""
    servers = parse(rest, "is not valid TOML without clawmem's block").get("mcp_servers", {})
    if entry is None:
        return rest
    if isinstance(servers, dict) and SERVER in servers:
        raise BadInput(
            f"{path} already has an [mcp_servers.{SERVER}] table that clawmem did not write; nothing was written",
            hint=f"remove that table (clawmem writes its own), then rerun `clawmem install {host}`",
        )
    merged = (rest + "\n" if rest else "") + toml_block(host, entry)
    if parse(merged, "cannot take an [mcp_servers.clawmem] table").get("mcp_servers", {}).get(SERVER) != entry:
        raise BadInput(f"{path}: mcp_servers is not a table clawmem can add to; nothing was written", hint="use [mcp_servers.NAME] tables, then rerun")
    return merged
