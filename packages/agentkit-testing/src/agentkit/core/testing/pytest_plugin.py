"""The agentkit pytest plugin: a few fixtures for the doubles most tests start from.

Registered through the ``pytest11`` entry point (name ``agentkit``), so it is
active wherever ``agentkit-testing`` is installed; ``-p no:agentkit``
disables it. Kept small on purpose -- a fixture is only worth having when it
saves wiring that tests would otherwise repeat, and every fixture here is a
fresh object per test:

- ``fake_clock``: a :class:`~agentkit.fakes.io.FakeClock` at t=0;
- ``recording_tracer``: a :class:`~agentkit.fakes.ctx.RecordingTracer`;
- ``fake_ctx``: a :class:`~agentkit.fakes.ctx.FakeCtx`;
- ``test_ctx``: ``make_test_ctx(clock=fake_clock, trace=recording_tracer)`` --
  a real RunContext on virtual time whose spans are recorded, with no LLM
  (a test that needs one calls ``make_test_ctx(llm=...)`` itself). Because it
  is built from the other two fixtures, a test that also asks for
  ``fake_clock`` or ``recording_tracer`` gets the very objects behind it.

pytest is imported here and only here: ``import agentkit.core.testing``
does not need pytest installed.
"""

from __future__ import annotations

import pytest

from agentkit.core.runtime import RunContext
from agentkit.fakes.ctx import FakeCtx, RecordingTracer, make_test_ctx
from agentkit.fakes.io import FakeClock

__all__ = ["fake_clock", "fake_ctx", "recording_tracer", "test_ctx"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "agentkit(verify=True, real_processes=False): per-test switches of the agentkit plugin -- "
        "verify=False skips the teardown check of the doubles this test created; "
        "real_processes=True lets the real default_spawn start processes in this test.",
    )


@pytest.fixture
def fake_clock() -> FakeClock:
    """A FakeClock at t=0: ``sleep`` advances virtual time and is recorded."""
    return FakeClock()


@pytest.fixture
def recording_tracer() -> RecordingTracer:
    """A RecordingTracer: every span opened on it is kept in ``.spans``."""
    return RecordingTracer()


@pytest.fixture
def fake_ctx() -> FakeCtx:
    """A FakeCtx: a Ctx recording its spans (``.spans``) and observations."""
    return FakeCtx()


@pytest.fixture
def test_ctx(fake_clock: FakeClock, recording_tracer: RecordingTracer) -> RunContext:
    """A real RunContext on ``fake_clock``, tracing into ``recording_tracer``, with no LLM."""
    return make_test_ctx(clock=fake_clock, trace=recording_tracer)
