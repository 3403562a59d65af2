"""Clocks: the real one (SystemClock) and a virtual one for tests (FakeClock).

FakeClock lives here, beside the port's real implementation, rather than only
in agentkit-fakes-io: ``make_test_ctx`` (agentkit-fakes-ctx, which depends on
agentkit-core alone) puts one on every test context by default, so a test
never waits real seconds unless it asks for a SystemClock. It is re-exported
unchanged as :class:`agentkit.fakes.io.FakeClock`.
"""

from __future__ import annotations

import asyncio
import math
import time

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_number,
)

__all__ = ["FakeClock", "SystemClock"]


class SystemClock:
    """ClockPort on the wall clock: ``now`` is unix time, ``sleep`` really waits."""

    __slots__ = ()

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"cannot sleep a negative time: {seconds}")
        await asyncio.sleep(seconds)


_SECONDS = "a finite number of seconds >= 0"


def _seconds(value: float, what: str) -> float:
    given: object = value
    if isinstance(given, bool) or not isinstance(given, int | float):
        raise ArgumentTypeError(what, "seconds", _SECONDS, given)
    if not math.isfinite(given):
        raise ArgumentValueError(what, "seconds", _SECONDS, given)
    if given < 0:
        raise ArgumentValueError(
            what, "seconds", _SECONDS, given, "it is negative, and time never moves backwards"
        )
    return float(given)


class FakeClock:
    """Deterministic offline ClockPort.

    ``start`` is the initial unix timestamp; :meth:`now` returns the current
    virtual time; :meth:`sleep` advances it by the slept amount with no real
    wall-clock wait, and records the amount in :attr:`sleeps`, so a retry
    test runs instantly and can still assert every backoff it took.

    :meth:`sleep` does yield to the event loop once (``asyncio.sleep(0)``)
    after advancing. A real sleep suspends its caller, and code relies on
    that: concurrent tasks interleave at it (a watchdog gets to look, a
    consumer drains what a producer queued), and it is where a pending
    ``Task.cancel()`` is delivered. A fake sleep that never suspended would
    let a backoff loop on virtual time starve every other task and run on
    uncancellably -- a test double changing the concurrency of the code
    under test.

    Time never moves backwards: a negative (or non-finite) sleep or advance
    raises ValueError, as :class:`~agentkit.core.clock.SystemClock` does for
    a negative sleep; ``start`` must be a finite number (a bool is refused).

    It verifies nothing at teardown: a clock holds no material to leave
    unused and cannot be asked for something it does not have.
    """

    __slots__ = ("_now", "sleeps")

    def __init__(self, start: float = 0.0) -> None:
        self._now = check_number(start, "FakeClock", "start (a unix timestamp)", minimum=None)
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Advance virtual time by ``seconds``, record it, and yield to the loop once."""
        seconds = _seconds(seconds, "FakeClock.sleep")
        self.sleeps.append(seconds)
        self._now += seconds
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Test-only escape hatch: move the clock forward WITHOUT recording a sleep.

        For simulating external time passing between agent steps (a session
        expiring, a cache entry ageing) while keeping :attr:`sleeps` a record
        of what the code under test itself waited for.
        """
        self._now += _seconds(seconds, "FakeClock.advance")

    @property
    def slept(self) -> float:
        """Total virtual time the code under test has slept (advances excluded)."""
        return math.fsum(self.sleeps)
