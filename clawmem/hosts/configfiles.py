"""Edit a host's config file without clobbering it: parse, change only clawmem's entries, check.

JSON files are parsed, changed in place and written back (other keys keep their order). TOML
files (Codex ``config.toml``) are edited with tomlkit, which keeps comments and layout: only
clawmem's own table (``[mcp_servers.clawmem]`` running ``clawmem mcp``) and, when asked, the
trust records of clawmem's hooks change; the result is parsed again and compared with the
original settings before anything is written. Codex itself rewrites ``config.toml`` (folder
trust, hook trust, ``[tui]``, ``codex mcp add``), so clawmem finds its table by what it runs,
not by marker comments.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from clawmem.foundation.config import MCP_SERVER
from clawmem.foundation.errors import BadInput
from clawmem.foundation.records import dataclass

SERVER = MCP_SERVER
# the marker lines an older clawmem wrote around its table; install and uninstall take them out
LEGACY_BEGIN = re.compile(r"# BEGIN clawmem \(managed by")
END = "# END clawmem"
TABLE_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


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


def is_clawmem_server(entry: object) -> bool:
    """An MCP server entry clawmem wrote: ``<.../clawmem> mcp ...`` (any install path)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args")
    return Path(entry["command"]).name.startswith("clawmem") and isinstance(args, list) and args[:1] == ["mcp"]


@dataclass(frozen=True)
class TomlMerge:
    text: str
    kept: list[str]  # what was found among clawmem's lines and kept: the user's and the host's
    dropped: list[str]  # settings of clawmem's own server entry that an uninstall removed with it


def _legacy_block(text: str) -> tuple[str, list[str]]:
    """``text`` without the marker lines of an older install's block, and the tables others wrote inside it.

    Codex adds tables at the end of ``config.toml``, so its folder trust, hook trust and ``[tui]``
    settings landed between the markers; they stay, only the two comment lines go.
    """
    kept, inside, lines = [], False, []
    for line in text.splitlines(keepends=True):
        if LEGACY_BEGIN.match(line):
            inside = True
            continue
        if inside and line.rstrip("\r\n") == END:
            inside = False
            continue
        if inside and (header := TABLE_HEADER.match(line)) and not header.group(1).replace(" ", "").startswith(f"mcp_servers.{SERVER}"):
            kept.append(f"[{header.group(1).strip()}]")
        lines.append(line)
    return "".join(lines), kept


def merge_toml(path: Path, text: str | None, host: str, entry: dict[str, Any] | None, *, trust: dict[str, str] | None = None, untrust: dict[str, str] | None = None) -> TomlMerge:
    """``text`` with clawmem's ``[mcp_servers.clawmem]`` set to ``entry`` (removed with None); nothing else changes.

    ``trust`` adds ``[hooks.state."KEY"] trusted_hash`` records (what Codex writes when the user
    trusts a hook); ``untrust`` removes the records that trust exactly those hashes. The file is
    edited with tomlkit, so comments and layout stay; the result must parse to the original
    settings plus exactly these changes, or nothing is written.
    """
    import tomllib

    import tomlkit  # deferred: only the installer edits TOML
    from tomlkit.items import Table

    def parse(candidate: str, what: str) -> dict[str, Any]:
        try:
            return tomllib.loads(candidate)
        except tomllib.TOMLDecodeError as err:
            raise BadInput(f"{path} {what} ({err}); nothing was written", hint="fix the file, then rerun") from None

    original = text or ""
    before = parse(original, "is not valid TOML")
    cleaned, kept = _legacy_block(original)
    doc = tomlkit.parse(cleaned)
    servers = doc.get("mcp_servers")
    if servers is not None and not isinstance(servers, Table):
        raise BadInput(f"{path}: cannot take an [mcp_servers.clawmem] table (mcp_servers is not a table); nothing was written", hint="use [mcp_servers.NAME] tables, then rerun")
    current = servers.get(SERVER) if servers is not None else None
    if current is not None and not (isinstance(current, Table) and is_clawmem_server(current.unwrap())):
        raise BadInput(
            f"{path} already has an [mcp_servers.{SERVER}] table that clawmem did not write; nothing was written",
            hint=f"remove that table (clawmem writes its own), then rerun `clawmem install {host}`",
        )
    plain = current.unwrap() if current is not None else {}
    extra = sorted(set(plain) - OWN_KEYS)
    expected = parse(original, "")
    dropped: list[str] = []
    if entry is None:
        if current is not None and servers is not None:
            del servers[SERVER]
            dropped = [f"mcp_servers.{SERVER}.{key}" for key in extra]
            expected["mcp_servers"].pop(SERVER)
            if not servers:
                del doc["mcp_servers"]
                expected.pop("mcp_servers")
    else:
        desired = _desired(plain, entry)
        table = current if current is not None else tomlkit.table()
        for key in OWN_KEYS - set(desired):
            if key in table:
                del table[key]
        for key, value in desired.items():
            if key in OWN_KEYS and plain.get(key) != value:
                table[key] = _inline(value) if isinstance(value, dict) else value
        if current is None:
            if servers is None:
                doc["mcp_servers"] = servers = tomlkit.table(is_super_table=True)
            servers[SERVER] = table
        expected.setdefault("mcp_servers", {})[SERVER] = desired
    _set_trust(doc, expected, trust or {}, untrust or {})
    merged = tomlkit.dumps(doc)
    merged = merged.rstrip("\n") + "\n" if merged.strip() else ""
    if parse(merged, "cannot take clawmem's entries") != expected:
        raise BadInput(f"{path}: clawmem could not change only its own entries; nothing was written", hint="fix the file by hand (see `clawmem install --help`), then rerun")
    if expected == before and cleaned == original:
        merged = original  # nothing to change: the bytes stay as they are
    return TomlMerge(merged, kept, dropped)


OWN_KEYS = frozenset({"command", "args", "env", "alwaysLoad"})


def _desired(current: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """clawmem's server table: ``entry`` over the current one; the user's keys and other env variables stay."""
    from clawmem.foundation.config import ENV_HOST_HOOKS

    out = {k: v for k, v in entry.items() if k != "env"}
    out.update({k: v for k, v in current.items() if k not in OWN_KEYS})
    env = {k: v for k, v in (current.get("env") or {}).items() if k != ENV_HOST_HOOKS}
    env.update(entry.get("env") or {})
    if env:
        out["env"] = env
    return out


def _inline(value: dict[str, Any]) -> Any:
    import tomlkit

    table = tomlkit.inline_table()
    table.update(value)
    return table


def _set_trust(doc: Any, expected: dict[str, Any], trust: dict[str, str], untrust: dict[str, str]) -> None:
    """Add and remove ``[hooks.state."KEY"] trusted_hash`` records in ``doc`` and in the ``expected`` parse."""
    import tomlkit

    if not trust and not untrust:
        return
    hooks = doc.get("hooks")
    states = hooks.get("state") if hooks is not None else None
    exp_states = expected.get("hooks", {}).get("state", {})
    for key, value in untrust.items():
        if states is not None and key in states and states[key].get("trusted_hash") == value:
            if set(states[key].unwrap()) == {"trusted_hash"}:
                del states[key]
                exp_states.pop(key)
            else:
                del states[key]["trusted_hash"]
                exp_states[key].pop("trusted_hash")
    if trust:
        if hooks is None:
            doc["hooks"] = hooks = tomlkit.table(is_super_table=True)
        if states is None:
            hooks["state"] = states = tomlkit.table(is_super_table=True)
        for key, value in trust.items():
            if key in states:
                states[key]["trusted_hash"] = value
            else:
                record = tomlkit.table()
                record["trusted_hash"] = value
                states[key] = record
            expected.setdefault("hooks", {}).setdefault("state", {}).setdefault(key, {})["trusted_hash"] = value
    if states is not None and not states:
        del hooks["state"]
        expected["hooks"].pop("state", None)
    if hooks is not None and not hooks:
        del doc["hooks"]
        expected.pop("hooks", None)
