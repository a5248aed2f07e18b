"""``clawmem config show|set|path``: the workspace's ``clawmem.toml``."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from clawmem.cli.options import JsonOpt, WorkspaceOpt

app = typer.Typer(help="Show and change settings in the workspace's clawmem.toml.", no_args_is_help=True)


def _complete_key(incomplete: str) -> list[str]:
    """Tab completion for setting names (section.name)."""
    from clawmem.foundation.config import reference

    return [row["key"] for row in reference() if row["key"].startswith(incomplete)]


@app.command("show")
def show(
    key: Annotated[Optional[str], typer.Argument(help="One setting (section.name) to print alone [default: all].", show_default=False, autocompletion=_complete_key)] = None,
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Show every setting's effective value (defaults plus clawmem.toml overrides).

    Human output is valid TOML, overridden settings marked with a comment; with KEY only that
    value is printed, for scripts. The README's config table lists every setting and default.

    Examples:

    \b
        clawmem config show
        clawmem config show recall.trigger_threshold
        clawmem config show --json | jq .overridden
    """
    from clawmem.commands import config_file
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    if key is not None:
        value = config_file.get_value(ws.root, key)
        if json_output:
            emit_json({"key": key, "value": value, "default": config_file.default_of(key)})
        else:
            print(_toml_value(value))
        return
    view = config_file.show(ws.root)
    if json_output:
        emit_json(view)
        return
    import sys

    where = view.path if view.exists else f"{view.path} (not created yet: every setting is at its default)"
    if sys.stdout.isatty():
        sys.stderr.write(f"# {where}\n")
    for section, values in view.settings.items():
        print(f"[{section}]")
        for name, value in values.items():
            mark = f"  # default: {_toml_value(config_file.default_of(f'{section}.{name}'))}" if f"{section}.{name}" in view.overridden else ""
            print(f"{name} = {_toml_value(value)}{mark}")
        print()


def _toml_value(value) -> str:
    import tomli_w  # deferred: only config output needs it

    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


@app.command("set")
def set_(
    key: Annotated[str, typer.Argument(help="The setting, as section.name (see `clawmem config show`).", autocompletion=_complete_key)],
    value: Annotated[str, typer.Argument(help="The new value; parsed as the setting's type (number, true/false or text).")],
    workspace: WorkspaceOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Set one setting in clawmem.toml (validated first; the file is replaced atomically).

    Only overrides are stored, so every setting you did not set follows the defaults of the
    installed version. The file is rewritten: comments in it are not kept (you are warned).

    Examples:

    \b
        clawmem config set search.limit 10
        clawmem config set recall.escalation_mode off
        clawmem config set embeddings.backend none --json
    """
    from clawmem.commands import config_file
    from clawmem.foundation.errors import warn
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import Workspace

    ws = Workspace.open(workspace)
    result = config_file.set_value(ws.root, key, value)
    if result.comments_dropped:
        warn(f"comments in {result.path} were not kept (the file is rewritten by `config set`)")
    if json_output:
        emit_json(result)
        return
    was = "invalid" if result.previous is None else _toml_value(result.previous)
    print(f"{result.key} = {_toml_value(result.value)}  (was {was}; default {_toml_value(result.default)})")


@app.command("path")
def path(workspace: WorkspaceOpt = None, json_output: JsonOpt = False) -> None:
    """Print where the workspace's clawmem.toml is (it need not exist yet).

    Examples:

    \b
        clawmem config path
        $EDITOR "$(clawmem config path)"
    """
    from clawmem.commands.config_file import config_path
    from clawmem.rules.output import emit_json
    from clawmem.storage.workspace import resolve_root

    target = config_path(resolve_root(workspace))
    if json_output:
        emit_json({"path": str(target), "exists": target.exists()})
    else:
        print(target)
