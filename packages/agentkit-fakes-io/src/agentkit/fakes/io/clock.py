"""FakeClock: virtual time for backoff, timeouts and schedules.

The class itself lives in :mod:`agentkit.core.clock`, so that agentkit-fakes-ctx
(core alone) can put one on every test context by default; this is the same
class, under the name the IO doubles are imported by.
"""

from __future__ import annotations

from agentkit.core.clock import FakeClock

__all__ = ["FakeClock"]
