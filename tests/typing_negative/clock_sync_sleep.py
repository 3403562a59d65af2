"""REJECTED by mypy: a clock whose ``sleep`` is sync.

``ClockPort.sleep`` is awaited; a sync sleep returns None, and ``await None``
fails at run time -- only in the backoff path, which is why it must fail here.
"""

from __future__ import annotations

from agentkit.core.ports import ClockPort


class SyncSleepClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


_clock: ClockPort = SyncSleepClock()
