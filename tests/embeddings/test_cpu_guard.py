"""The CPU check that keeps an AVX2-only engine from killing the process with SIGILL.

The cpuinfo text is passed in because the machine's CPU is outside our control: these are the
CPUs we cannot run on, shown to the same parser that reads ``/proc/cpuinfo``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clawmem.embeddings.cpu import cpu_flags, unsupported_reason

HASWELL = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) CPU E5-2680 v3
flags\t\t: fpu vme de pse tsc msr pae mce cx8 sse sse2 ssse3 fma cx16 sse4_1 sse4_2 avx f16c avx2 bmi1 bmi2

processor\t: 1
flags\t\t: fpu sse sse2 avx avx2 fma
"""
SANDY_BRIDGE = """processor\t: 0
model name\t: Intel(R) Core(TM) i7-2600 CPU @ 3.40GHz
flags\t\t: fpu vme de pse tsc sse sse2 ssse3 cx16 sse4_1 sse4_2 popcnt aes xsave avx
"""
AVX2_NO_FMA = "flags\t: sse sse2 avx avx2\n"


def test_flags_are_read_from_the_first_processor():
    assert {"avx2", "fma", "sse4_2"} <= cpu_flags(HASWELL)
    assert cpu_flags("processor : 0\nmodel name : mystery\n") == set()


def test_a_cpu_with_avx2_and_fma_may_load_the_engine():
    assert unsupported_reason("x86_64", "linux", HASWELL) == ""


@pytest.mark.parametrize(("cpuinfo", "missing"), [(SANDY_BRIDGE, "AVX2 and FMA"), (AVX2_NO_FMA, "FMA"), ("", "AVX2 and FMA")])
def test_a_cpu_without_them_is_refused_with_the_missing_flags(cpuinfo, missing):
    reason = unsupported_reason("x86_64", "linux", cpuinfo)
    assert reason.endswith(f"lacks {missing}, which the engine needs")


def test_arm_needs_no_check_and_unverifiable_x86_is_refused():
    assert unsupported_reason("aarch64", "linux", "") == ""
    assert unsupported_reason("arm64", "darwin", None) == ""
    assert "cannot check" in unsupported_reason("x86_64", "darwin", None)
    assert "cannot check" in unsupported_reason("AMD64", "win32", None)


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="Linux only")
def test_this_machine_is_judged_from_its_real_cpuinfo():
    flags = cpu_flags(Path("/proc/cpuinfo").read_text())
    if os.uname().machine != "x86_64":
        assert unsupported_reason() == ""
    else:
        assert flags, "no flags line in /proc/cpuinfo"
        assert (unsupported_reason() == "") == ({"avx2", "fma"} <= flags)
