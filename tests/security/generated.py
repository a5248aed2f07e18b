"""A fixed sample of a hypothesis strategy, for the gates-off controls of the generated attack classes.

The property tests search the class with the gates on; each control replays a sample of the
same generator with a gate removed and must see it land. The sample is drawn derandomized,
so the control runs the same attacks on every machine.
"""

from __future__ import annotations

from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

T = TypeVar("T")


def sample(strategy: st.SearchStrategy[T], count: int) -> list[T]:
    """``count`` values of ``strategy``, the same ones on every run."""
    drawn: list[T] = []

    @settings(max_examples=count, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(value: T) -> None:
        drawn.append(value)

    draw()
    return drawn
