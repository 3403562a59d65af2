"""The ClockPort contract: time that never goes backwards, and a sleep that yields."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.ports import ClockPort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Broken, Factory, Maker, Suite, describe_got

__all__ = ["CLOCK_SUITE", "ClockPortContract", "check_clock_port"]

CLOCK_SUITE = Suite("ClockPort", ("now", "sleep"), ClockPort)
_check = CLOCK_SUITE.check


@_check()
async def now_is_a_float(make: Maker[ClockPort], options: Mapping[str, Any]) -> None:
    clock = await make()
    value = clock.now()
    if not isinstance(value, float):
        raise Broken(f"now() returned {describe_got(value)}")


@_check()
async def time_never_goes_backwards(make: Maker[ClockPort], options: Mapping[str, Any]) -> None:
    clock = await make()
    readings = [clock.now()]
    for _ in range(10):
        await clock.sleep(0.0)
        readings.append(clock.now())
    await clock.sleep(0.001)
    readings.append(clock.now())
    for before, after in itertools.pairwise(readings):
        if after < before:
            raise Broken(f"now() went from {before!r} to {after!r}")


SLEPT = 0.05
"""Long enough to tell seconds from milliseconds, short enough for a real clock."""


@_check()
async def sleep_moves_now_by_the_seconds_slept(
    make: Maker[ClockPort], options: Mapping[str, Any]
) -> None:
    clock = await make()
    before, real_before = clock.now(), time.monotonic()
    await clock.sleep(SLEPT)
    after, real = clock.now(), time.monotonic() - real_before
    moved = after - before
    # 1 ms of slack below: a real loop may wake within its clock's resolution of the deadline.
    if moved < SLEPT - 0.001:
        raise Broken(f"sleep({SLEPT}) moved now() by {moved!r} only")
    if moved > max(SLEPT, real) * 1.5 + 0.01:
        raise Broken(
            f"sleep({SLEPT}) moved now() by {moved!r}, though {real:.3f}s really passed: "
            "is now() in seconds?"
        )


@_check()
async def sleep_returns_none(make: Maker[ClockPort], options: Mapping[str, Any]) -> None:
    clock = await make()
    result = await clock.sleep(0.0)  # type: ignore[func-returns-value]
    if result is not None:
        raise Broken(f"sleep(0) returned {describe_got(result)}")


@_check()
async def sleep_zero_yields_to_the_loop(make: Maker[ClockPort], options: Mapping[str, Any]) -> None:
    clock = await make()
    ran: list[str] = []

    async def other() -> None:
        ran.append("other")

    task = asyncio.ensure_future(other())
    await clock.sleep(0.0)
    done = bool(ran)
    await task
    if not done:
        raise Broken("sleep(0) returned without letting a ready task run")


@_check()
async def negative_sleep_raises_value_error(
    make: Maker[ClockPort], options: Mapping[str, Any]
) -> None:
    clock = await make()
    try:
        await clock.sleep(-1.0)
    except ValueError:
        return
    except Exception as exc:
        raise Broken(f"sleep(-1) raised {type(exc).__name__}, not ValueError") from None
    raise Broken("sleep(-1) returned normally")


@_check()
async def a_sleep_can_be_cancelled(make: Maker[ClockPort], options: Mapping[str, Any]) -> None:
    clock = await make()
    steps: list[int] = []

    async def backoff() -> None:
        for n in range(1000):
            steps.append(n)
            await clock.sleep(0.001)

    task = asyncio.ensure_future(backoff())
    await asyncio.sleep(0)
    task.cancel()
    try:
        await asyncio.wait_for(task, 5)
    except asyncio.CancelledError:
        if len(steps) >= 1000:
            raise Broken("the sleeping loop ran to its end before the cancel") from None
        return
    raise Broken(f"the cancelled task finished normally after {len(steps)} sleeps")


async def check_clock_port(factory: Factory, *, skip: Sequence[str] = ()) -> list[str]:
    """Run every ClockPort check on implementations ``factory`` makes.

    Raises :class:`ContractViolation` listing every broken rule; returns the
    names of checks skipped (none: this suite needs no options).
    """
    return await CLOCK_SUITE.run(factory, {}, skip=skip)


class ClockPortContract(ContractTests):
    """Subclass as ``TestMyClock(ClockPortContract)`` with a ``make_port`` fixture."""

    _suite = CLOCK_SUITE
