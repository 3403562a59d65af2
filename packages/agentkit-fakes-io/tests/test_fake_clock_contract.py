"""The ClockPort contract suite, run against FakeClock AND the real SystemClock.

The checks (:mod:`agentkit.core.testing.contracts`, the suite a user runs on
their own clock) are the ones code on a ClockPort may rely on whichever clock
it gets; they never assert how long anything took, so they hold on a loaded
machine for the real clock too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentkit.core.clock import SystemClock
from agentkit.core.ports import ClockPort
from agentkit.core.testing.contracts import ClockPortContract
from agentkit.fakes.io import FakeClock

CLOCKS: dict[str, Callable[[], ClockPort]] = {
    "fake": FakeClock,
    "fake-at-1e9": lambda: FakeClock(start=1e9),
    "system": SystemClock,
}


class TestEveryClockPassesTheClockPortContract(ClockPortContract):
    @pytest.fixture(params=list(CLOCKS), ids=list(CLOCKS))
    def make_port(self, request: pytest.FixtureRequest) -> Callable[[], ClockPort]:
        return CLOCKS[request.param]
