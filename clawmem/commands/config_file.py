"""``clawmem.toml`` on disk: what it overrides, and safe edits to it (``clawmem config``).

``clawmem/foundation/config.py`` owns the settings, their defaults and their validation; this module only
reads the file, shows the effective values and writes one setting at a time. The file keeps
overrides only (never a copy of every default), so a later release's better default still
applies to every setting the owner did not pin.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import fields
from pathlib import Path
from typing import Any

from clawmem.foundation import config as config_module
from clawmem.foundation.errors import ConfigError
from clawmem.foundation.records import dataclass


@dataclass(frozen=True)
class ConfigView:
    path: str
    exists: bool
    settings: dict[str, dict[str, Any]]  # every setting's effective value, by section
    overridden: list[str]  # "section.name" keys that clawmem.toml sets


@dataclass(frozen=True)
class SetResult:
    path: str
    key: str
    value: Any
    previous: Any  # the effective value before (a default or an earlier override)
    default: Any
    comments_dropped: bool  # the old file had comments, which a rewrite cannot keep


def config_path(root: Path) -> Path:
    return root / config_module.CONFIG_FILE


def read_file(root: Path) -> tuple[dict[str, Any], str]:
    """The parsed overrides (validated) and the raw text; empty when there is none."""
    return _read(config_path(root))


def _read(path: Path) -> tuple[dict[str, Any], str]:
    data = config_module.read_toml(path)
    try:
        config_module.from_mapping(data)
    except ConfigError as err:
        raise ConfigError(f"{path}: {err.message}", hint=err.hint) from None
    return data, path.read_text(encoding="utf-8") if data else ""


def write_target(root: Path, key: str) -> Path:
    """Where ``config set KEY`` writes: this machine's own config for a setting that runs a command
    in a git-shared workspace (a shared file may not hold one), else the workspace's ``clawmem.toml``."""
    section, name = split_key(key)
    if config_module.local_only(section, name) and config_module.shared_by_git(root):
        return config_module.local_config_path()
    return config_path(root)


def show(root: Path) -> ConfigView:
    """Every setting's effective value and which ones the files override (the workspace's or this machine's)."""
    shared, local = config_module.layers(root)
    effective = config_module.from_mapping(config_module.merged(shared, local))
    overridden = {f"{section}.{name}" for data in (shared, local) for section, values in data.items() for name in values}
    path = config_path(root)
    return ConfigView(str(path), path.exists(), config_module.as_mapping(effective), sorted(overridden, key=_order))


def _order(key: str) -> int:
    keys = [row["key"] for row in config_module.reference()]
    return keys.index(key) if key in keys else len(keys)


def split_key(key: str) -> tuple[str, str]:
    """``section.name`` -> (section, name), with a suggestion when the key is unknown."""
    known = [row["key"] for row in config_module.reference()]
    if key not in known:
        close = difflib.get_close_matches(key, known, n=3)
        hint = f"did you mean {' or '.join(close)}?" if close else "`clawmem config show` lists every setting"
        raise ConfigError(f"unknown setting {key!r}", hint=hint)
    section, name = key.split(".", 1)
    return section, name


def default_of(key: str) -> Any:
    section, name = split_key(key)
    cls = config_module.sections()[section]
    return next(f.default for f in fields(cls) if f.name == name)


def parse_value(key: str, text: str) -> Any:
    """Turn the command-line text into the setting's type (int, float, bool or str)."""
    default = default_of(key)
    try:
        if isinstance(default, bool):
            lowered = text.strip().lower()
            if lowered not in ("true", "false"):
                raise ValueError
            return lowered == "true"
        if isinstance(default, int):
            return int(text.strip())
        if isinstance(default, float):
            value = float(text.strip())
            if not math.isfinite(value):
                raise ValueError
            return value
    except ValueError:
        kind = {bool: "true or false", int: "a whole number", float: "a number"}[type(default)]
        raise ConfigError(f"{key} must be {kind}, got {config_module.shown(text)}", hint=f"the default is {default!r}") from None
    return text


def get_value(root: Path, key: str) -> Any:
    section, name = split_key(key)
    return show(root).settings[section][name]


def _current(root: Path, section: str, name: str) -> Any:
    """The value in force before a ``config set``; None when the files hold an invalid one, which
    the set may be repairing (a refused value must never lock the owner out of fixing it)."""
    try:
        return getattr(getattr(config_module.from_mapping(config_module.merged(*config_module.layers(root))), section), name)
    except ConfigError:
        return None


def set_value(root: Path, key: str, text: str) -> SetResult:
    """Write one override (atomically, under the workspace's config lock) to ``write_target``'s file."""
    import tomli_w  # deferred: only `config set` writes TOML

    from clawmem.storage.durable import atomic_write
    from clawmem.storage.workspace import Workspace

    section, name = split_key(key)
    value = parse_value(key, text)
    if (section, name) == ("dream", "cron_schedule"):
        from clawmem.commands.cron import check_schedule

        check_schedule(value)
    ws = Workspace(root)
    path = write_target(root, key)
    with ws.lock(config_module.CONFIG_FILE):
        previous = _current(root, section, name)
        data = config_module.read_toml(path)  # not validated: the set may be repairing it; the result is
        raw = path.read_text(encoding="utf-8") if data else ""
        updated = {s: dict(v) for s, v in data.items()}
        updated.setdefault(section, {})[name] = value
        try:
            config_module.from_mapping(updated)  # type, range and choice checks, before anything is written
        except ConfigError as err:
            raise ConfigError(err.message, hint=f"the default is {default_of(key)!r}") from None
        ordered = {s: updated[s] for s in config_module.sections() if s in updated}
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, tomli_w.dumps(ordered).encode("utf-8"))
    dropped = any(line.lstrip().startswith("#") or " #" in line for line in raw.splitlines())
    return SetResult(str(path), key, value, previous, default_of(key), dropped)
