"""The real clock."""

from __future__ import annotations

import asyncio
import time

__all__ = ["SystemClock"]


class SystemClock:
    """ClockPort on the wall clock: ``now`` is unix time, ``sleep`` really waits."""

    __slots__ = ()

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"cannot sleep a negative time: {seconds}")
        await asyncio.sleep(seconds)
