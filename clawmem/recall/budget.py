"""A time budget: every recall step asks how much is left before it starts."""

from __future__ import annotations

import time


class Budget:
    def __init__(self, budget_ms: int) -> None:
        self.total_ms = max(1, budget_ms)
        self.started = time.perf_counter()

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000.0

    def remaining_ms(self, *, floor: int = 0) -> int:
        return max(floor, int(self.total_ms - self.elapsed_ms()))

    def remaining_s(self, *, floor: float = 0.0) -> float:
        return max(floor, (self.total_ms - self.elapsed_ms()) / 1000.0)

    def expired(self) -> bool:
        return self.elapsed_ms() >= self.total_ms
