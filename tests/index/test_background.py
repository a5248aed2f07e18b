"""``foundation.background.in_background``: the query encoding that runs beside the lexical lane (``search.lanes.vector_lane``)."""

from __future__ import annotations

import threading

import pytest

from clawmem.foundation.background import in_background


def test_the_work_runs_on_a_helper_thread_and_its_value_comes_back():
    started = threading.Event()
    release = threading.Event()

    def work() -> str:
        started.set()
        release.wait(timeout=30)
        return threading.current_thread().name

    result = in_background(work, "clawmem-embed")
    assert started.wait(timeout=30)  # running already, before anyone asked for the value
    release.set()
    assert result() == "clawmem-embed" != threading.current_thread().name


def test_the_work_s_error_is_raised_to_the_caller():
    def work() -> None:
        raise ValueError("the model failed")

    result = in_background(work, "clawmem-embed")
    with pytest.raises(ValueError, match="the model failed"):
        result()
