"""``clawmem.toml`` on disk: what it overrides, and safe edits to it (``clawmem config``).

``clawmem/config.py`` owns the settings, their defaults and their validation; this module only
reads the file, shows the effective values and writes one setting at a time. The file keeps
overrides only (never a copy of every default), so a later release's better default still
applies to every setting the owner did not pin.
"""

from __future__ import annotations

import difflib
import math
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from clawmem import config as config_module
from clawmem.errors import ConfigError


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
    """The parsed overrides (validated) and the raw text; empty when there is no file."""
    path = config_path(root)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, ""
    except OSError as err:
        raise ConfigError(f"cannot read {path}: {err.strerror}") from err
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path} is not valid TOML: {err}", hint=f"fix or remove {path} by hand") from err
    config_module.from_mapping(data)
    return data, text


def show(root: Path) -> ConfigView:
    """Every setting's effective value and which ones the file overrides."""
    data, _ = read_file(root)
    effective = config_module.from_mapping(data)
    overridden = [f"{section}.{name}" for section, values in data.items() for name in values]
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
        raise ConfigError(f"{key} must be {kind}, got {text!r}", hint=f"the default is {default!r}") from None
    return text


def get_value(root: Path, key: str) -> Any:
    section, name = split_key(key)
    return show(root).settings[section][name]


def set_value(root: Path, key: str, text: str) -> SetResult:
    """Write one override to ``clawmem.toml`` (atomically, under the workspace's config lock)."""
    import tomli_w  # deferred: only `config set` writes TOML

    from clawmem.workspace import Workspace, atomic_write

    section, name = split_key(key)
    value = parse_value(key, text)
    ws = Workspace(root)
    path = config_path(root)
    with ws.lock(config_module.CONFIG_FILE):
        data, raw = read_file(root)
        previous = getattr(getattr(config_module.from_mapping(data), section), name)
        updated = {s: dict(v) for s, v in data.items()}
        updated.setdefault(section, {})[name] = value
        try:
            config_module.from_mapping(updated)  # type and choice checks, before anything is written
        except ConfigError as err:
            raise ConfigError(err.message, hint=f"the default is {default_of(key)!r}") from None
        ordered = {s: updated[s] for s in config_module.sections() if s in updated}
        atomic_write(path, tomli_w.dumps(ordered).encode("utf-8"))
    dropped = any(line.lstrip().startswith("#") or " #" in line for line in raw.splitlines())
    return SetResult(str(path), key, value, previous, default_of(key), dropped)
