"""Repetition loops for async work: per-repetition wall times, warm-up excluded."""

from __future__ import annotations

import gc
import time
from collections.abc import Awaitable, Callable

__all__ = ["time_async"]


async def time_async(
    step: Callable[[], Awaitable[object]], repetitions: int, *, warmup: int = 3
) -> list[float]:
    """Microseconds each of ``repetitions`` awaited calls of ``step`` took.

    The warm-up calls are not timed: they fill caches every contender has
    (pydantic's validators, langchain's callback managers, the interpreter's
    own specialisation), which is the state a test suite is in after its
    first test. A collection is forced before the timed loop so that garbage
    left by the previous benchmark is not charged to this one.
    """
    if repetitions < 1:
        raise ValueError(f"repetitions must be >= 1, got {repetitions}")
    for _ in range(warmup):
        await step()
    gc.collect()
    out: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repetitions):
        start = clock()
        await step()
        out.append((clock() - start) / 1000)
    return out
