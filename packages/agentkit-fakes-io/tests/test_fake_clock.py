"""FakeClock: virtual time that records every sleep and still yields to the loop."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from agentkit.fakes.io import FakeClock


def test_now_starts_at_start() -> None:
    assert FakeClock().now() == 0.0
    assert FakeClock(start=1_700_000_000.5).now() == 1_700_000_000.5
    assert isinstance(FakeClock(start=3).now(), float)


async def test_sleep_advances_virtual_time_and_records_each_amount() -> None:
    clock = FakeClock(start=100.0)
    await clock.sleep(0.5)
    await clock.sleep(2)
    await clock.sleep(0.0)
    assert clock.now() == pytest.approx(102.5)
    assert clock.sleeps == [0.5, 2.0, 0.0]
    assert all(isinstance(s, float) for s in clock.sleeps)
    assert clock.slept == pytest.approx(2.5)


async def test_a_long_sleep_takes_no_real_time() -> None:
    clock = FakeClock()
    # A day of virtual time under a tiny real timeout: a real wait would time out.
    async with asyncio.timeout(5):
        await clock.sleep(86_400.0)
    assert clock.now() == 86_400.0


async def test_negative_sleep_raises_value_error_and_records_nothing() -> None:
    clock = FakeClock(start=5.0)
    with pytest.raises(ValueError, match="backwards"):
        await clock.sleep(-0.1)
    assert clock.sleeps == []
    assert clock.now() == 5.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
async def test_non_finite_sleep_raises_value_error(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        await FakeClock().sleep(bad)


async def test_non_number_sleep_raises_type_error() -> None:
    with pytest.raises(TypeError, match="number of seconds"):
        await FakeClock().sleep(cast(Any, "1"))


def test_advance_moves_time_without_recording_a_sleep() -> None:
    clock = FakeClock(start=10.0)
    clock.advance(5)
    assert clock.now() == 15.0
    assert clock.sleeps == []
    assert clock.slept == 0.0


def test_advance_cannot_move_time_backwards() -> None:
    clock = FakeClock(start=10.0)
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1)
    assert clock.now() == 10.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_start_must_be_finite(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        FakeClock(start=bad)


async def test_sleep_yields_so_concurrent_tasks_interleave() -> None:
    clock = FakeClock()
    order: list[str] = []

    async def worker(name: str) -> None:
        for step in range(3):
            order.append(f"{name}{step}")
            await clock.sleep(1.0)

    await asyncio.gather(worker("a"), worker("b"))
    assert order == ["a0", "b0", "a1", "b1", "a2", "b2"]
    assert clock.now() == 6.0


async def test_a_backoff_loop_on_virtual_time_can_be_cancelled() -> None:
    # Without the yield in sleep this loop would never suspend: it would run all its
    # iterations without the cancel below ever being delivered. Bounded so that failure is a
    # finished task, not a hang.
    clock = FakeClock()

    async def retry_forever() -> None:
        for _ in range(10_000):
            await clock.sleep(1.0)

    task = asyncio.create_task(retry_forever())
    for _ in range(10):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert 5 <= len(clock.sleeps) <= 11
