"""The ``ClawmemError`` tree: every expected failure, with an exit code and a hint; ``warn`` for
one that does not stop the command (here, below every layer, so storage can warn too)."""

from __future__ import annotations

import sys


def warn(message: str) -> None:
    """One line on stderr, prefixed like every clawmem diagnostic."""
    sys.stderr.write(f"clawmem: {message}\n")


class ExitCode:
    """Named process exit codes (documented in the README)."""

    OK = 0
    ERROR = 1
    USAGE = 2
    VIOLATIONS = 3
    INTERRUPTED = 130


class ClawmemError(Exception):
    """An expected failure: shown as ``clawmem: error: ...`` plus a hint."""

    exit_code = ExitCode.ERROR
    code = "error"
    hint = ""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint


class BadUsage(ClawmemError):
    """Arguments a command does not take as given: one line naming ``command``'s help, exit 2.

    Typer's own usage errors are converted to this by the root group, so one reporter
    (``output.report_error``) prints every usage error the same way."""

    code = "usage"
    exit_code = ExitCode.USAGE

    def __init__(self, message: str, *, command: str) -> None:
        super().__init__(message, hint=f"see `{command} -h`")


class WorkspaceNotFound(ClawmemError):
    """The workspace directory does not exist or was never initialised."""

    code = "workspace_not_found"
    hint = "create one with `clawmem init DIR` (`clawmem init` alone: here) and run clawmem inside it, or pass --workspace DIR"


class UntrustedWorkspace(ClawmemError):
    """The nearest enclosing workspace was neither created nor trusted by this user on this machine."""

    code = "untrusted_workspace"


class WorkspaceExists(ClawmemError):
    """``init`` was asked to create a workspace that already exists."""

    code = "workspace_exists"


class BadInput(ClawmemError):
    """Input text or a file argument was rejected; nothing was written."""

    code = "bad_input"


class BadValue(BadInput):
    """A value clawmem cannot represent (invalid UTF-8, a lone surrogate, a time out of range,
    JSON nested too deep): a usage error, refused before anything is written."""

    code = "bad_value"
    exit_code = ExitCode.USAGE


class UnsafePath(BadInput):
    """A path-like argument tried to leave the workspace or name a hidden file."""

    code = "unsafe_path"


class ConfigError(ClawmemError):
    """``clawmem.toml`` could not be read or holds an unknown or mistyped setting."""

    code = "config_error"
    hint = "check clawmem.toml against `clawmem config show` and the README's config table"


class IndexUnavailable(ClawmemError):
    """The SQLite index is missing, corrupt or locked."""

    code = "index_unavailable"
    hint = "run `clawmem index --rebuild` to restore it from the files"


class NotFound(ClawmemError):
    """A named entry, intent, session or file does not exist."""

    code = "not_found"


class Forbidden(ClawmemError):
    """A provenance rule refused the operation (for example an untrusted intent)."""

    code = "forbidden"


class Busy(ClawmemError):
    """Another process holds the lock this operation needs."""

    code = "busy"
    hint = "wait for the other clawmem process to finish, then try again"
