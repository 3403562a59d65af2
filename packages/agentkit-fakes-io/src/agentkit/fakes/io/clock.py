"""FakeClock: virtual time for backoff, timeouts and schedules."""

from __future__ import annotations

import asyncio
import math

__all__ = ["FakeClock"]


def _seconds(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} takes a number of seconds, got {type(value).__name__}")
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{what} needs a finite number of seconds, got {value}")
    if value < 0:
        raise ValueError(
            f"{what} cannot take a negative time (time never moves backwards): {value}"
        )
    return float(value)


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
    a negative sleep.
    """

    __slots__ = ("_now", "sleeps")

    def __init__(self, start: float = 0.0) -> None:
        if isinstance(start, bool) or not isinstance(start, int | float):
            raise TypeError(f"start must be a unix timestamp, got {type(start).__name__}")
        if not math.isfinite(start):
            raise ValueError(f"start must be finite, got {start}")
        self._now = float(start)
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
