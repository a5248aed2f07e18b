"""The crontab block that runs ``dream`` nightly and ``intent due`` every minute for one workspace.

cron runs commands with ``/bin/sh``, a PATH of ``/usr/bin:/bin`` and none of the user's
variables, so ``clawmem dream`` from an interactive PATH fails there (``clawmem: not found``,
rc 127). Every line names the console script or interpreter actually running now by its
absolute path and sets what the command needs inline (``VAR=value command``: a crontab
assignment line would leak into every line after our block). The block sits between two
marker comments naming the workspace, so ``install`` replaces exactly it and nothing else.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

from clawmem.foundation.errors import BadInput, ClawmemError
from clawmem.foundation.records import dataclass
from clawmem.rules.hints import clawmem_command
from clawmem.storage.workspace import ENV_WORKSPACE, Workspace

BEGIN = "# BEGIN clawmem {root}"
END = "# END clawmem {root}"
DREAM_LOG = "dream.jsonl"
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
# The grammar a schedule must match before it goes into a crontab line: five time fields
# (numbers, names such as mon or jan, ``*``, ranges, lists and steps) separated by spaces or
# tabs, or one of cron's ``@`` words. Nothing else: no newline, no ``%`` (cron's stdin), no command.
_ATOM = r"(?:\*|[0-9]{1,4}|[A-Za-z]{3})(?:-(?:[0-9]{1,4}|[A-Za-z]{3}))?(?:/[0-9]{1,4})?"
_FIELD = rf"{_ATOM}(?:,{_ATOM})*"
CRON_FIELDS = re.compile(rf"{_FIELD}(?:[ \t]+{_FIELD}){{4}}", re.ASCII)
CRON_WORDS = ("@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")


@dataclass(frozen=True)
class Installed:
    """What ``install``/``remove`` did: the block, and whether the crontab changed."""

    block: str
    changed: bool
    replaced: bool


def _path_value(command: str) -> str:
    """The script's folder first (its interpreter's tools), then the caller's absolute PATH entries."""
    first = shlex.split(command)[0]
    entries = [str(Path(first).parent)]
    entries += [p for p in os.environ.get("PATH", "").split(os.pathsep) if os.path.isabs(p)]
    entries += SYSTEM_PATH
    return ":".join(dict.fromkeys(entries))


def _environment(ws: Workspace, command: str) -> str:
    env = {ENV_WORKSPACE: str(ws.root), "PATH": _path_value(command)}
    zone = os.environ.get("TZ") or ws.config.intents.timezone
    if zone:
        env["TZ"] = zone
    return " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())


def check_schedule(schedule: str) -> str:
    """``schedule`` if it is five crontab time fields or a known ``@`` word, else BadInput (exit 1).

    It is pasted into the user's crontab, so anything past the grammar (a newline, a sixth
    field, a command) would be a line of its own or a command cron runs.
    """
    text = schedule.strip(" \t")
    if CRON_FIELDS.fullmatch(text) or text in CRON_WORDS:
        return text
    from clawmem.foundation.config import shown

    raise BadInput(
        f"dream.cron_schedule {shown(schedule)} is not five crontab time fields or one of {', '.join(CRON_WORDS)}",
        hint="e.g. clawmem config set dream.cron_schedule '17 3 * * *' (minute hour day month weekday)",
    )


def block(ws: Workspace, *, command: str | None = None) -> str:
    """The marked crontab block for ``ws`` (``%`` escaped: cron turns it into a newline)."""
    exe = command or clawmem_command()
    schedule = check_schedule(ws.config.dream.cron_schedule)
    env = _environment(ws, exe)
    log = shlex.quote(str(ws.state_dir / DREAM_LOG))
    lines = [
        BEGIN.format(root=ws.root) + " (managed by `clawmem cron --install`: edits inside are replaced)",
        f"{schedule} {env} {exe} dream --json-lines >> {log}",
        f"* * * * * {env} {exe} intent due",
        END.format(root=ws.root),
    ]
    return "\n".join(line.replace("%", "\\%") for line in lines) + "\n"


def _read(crontab: str) -> str:
    try:
        proc = subprocess.run(check=False, args=[crontab, "-l"], capture_output=True, text=True, timeout=30)
    except FileNotFoundError as err:
        raise ClawmemError(f"cannot run {crontab!r}: not found", hint="install cron, or print the lines with `clawmem cron` and add them yourself") from err
    if proc.returncode == 0:
        return proc.stdout
    if "no crontab" in proc.stderr.lower():
        return ""
    raise ClawmemError(f"`{crontab} -l` failed: {proc.stderr.strip() or f'exit {proc.returncode}'}")


def _write(crontab: str, text: str) -> None:
    proc = subprocess.run(check=False, args=[crontab, "-"], input=text, capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        raise ClawmemError(f"`{crontab} -` refused the new crontab: {proc.stderr.strip() or f'exit {proc.returncode}'}", hint="your crontab was left as it was")


def _split(text: str, root: Path) -> tuple[str, str, bool]:
    """``text`` before and after this workspace's marked block(s); other lines untouched, byte for byte."""
    begin, end = BEGIN.format(root=root), END.format(root=root)
    before: list[str] = []
    after: list[str] = []
    inside = found = False
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\n")
        if not inside and (bare == begin or bare.startswith(begin + " ")):
            inside = found = True
        elif inside and bare == end:
            inside = False
        elif not inside:
            (after if found else before).append(line)
    if inside:
        raise ClawmemError(f"your crontab has {begin!r} without its end marker", hint=f"add {end!r} after the clawmem lines (crontab -e), then rerun")
    head = "".join(before)
    if head and not head.endswith("\n"):
        head += "\n"
    return head, "".join(after), found


def install(ws: Workspace, *, crontab: str = "crontab", command: str | None = None) -> Installed:
    """Put this workspace's block into the user's crontab, replacing an earlier one in place of duplicating it."""
    new_block = block(ws, command=command)
    current = _read(crontab)
    before, after, found = _split(current, ws.root)
    updated = before + new_block + after
    if updated != current:
        _write(crontab, updated)
    return Installed(new_block, updated != current, found)


def remove(root: Path, *, crontab: str = "crontab") -> Installed:
    """Take the block of the workspace at ``root`` out of the user's crontab (other lines untouched).

    Only the path is needed, so the block of a workspace that was deleted can still be removed.
    """
    current = _read(crontab)
    before, after, found = _split(current, root)
    if found:
        _write(crontab, before + after)
    return Installed("", found, found)
