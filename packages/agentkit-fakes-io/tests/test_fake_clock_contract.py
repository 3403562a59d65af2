"""One behavioural contract for the clock port, run against FakeClock AND the real SystemClock.

The checks are the ones code on a ClockPort may rely on whichever clock it
gets; they avoid asserting how long anything took, so they hold on a loaded
machine for the real clock too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from agentkit.core.clock import SystemClock
from agentkit.core.ports import ClockPort
from agentkit.fakes.io import FakeClock

CLOCKS: list[Callable[[], ClockPort]] = [FakeClock, lambda: FakeClock(start=1e9), SystemClock]


@pytest.fixture(params=CLOCKS, ids=["fake", "fake-at-1e9", "system"])
def clock(request: pytest.FixtureRequest) -> ClockPort:
    factory: Callable[[], ClockPort] = request.param
    return factory()


def test_now_is_a_float(clock: ClockPort) -> None:
    assert isinstance(clock.now(), float)


async def test_now_is_monotone_non_decreasing_across_zero_sleeps(clock: ClockPort) -> None:
    readings = [clock.now()]
    for _ in range(20):
        await clock.sleep(0.0)
        readings.append(clock.now())
    assert readings == sorted(readings)


async def test_now_does_not_decrease_across_a_short_sleep(clock: ClockPort) -> None:
    before = clock.now()
    await clock.sleep(0.001)
    assert clock.now() >= before


async def test_sleep_returns_none(clock: ClockPort) -> None:
    result = await clock.sleep(0.0)  # type: ignore[func-returns-value]
    assert result is None


async def test_negative_sleep_raises_value_error(clock: ClockPort) -> None:
    with pytest.raises(ValueError, match="negative"):
        await clock.sleep(-1.0)


async def test_sleep_zero_lets_other_tasks_run(clock: ClockPort) -> None:
    ran: list[str] = []

    async def other() -> None:
        ran.append("other")

    task = asyncio.create_task(other())
    await clock.sleep(0.0)
    assert ran == ["other"]
    await task


async def test_a_sleep_loop_can_be_cancelled(clock: ClockPort) -> None:
    # Bounded, so that a clock whose sleep never suspended would let the loop finish (and the
    # test fail) instead of spinning the event loop forever.
    iterations: list[int] = []

    async def backoff_loop() -> None:
        for n in range(1000):
            iterations.append(n)
            await clock.sleep(0.001)

    task = asyncio.create_task(backoff_loop())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=5)
    assert len(iterations) < 1000
