"""The agentkit-testing pytest plugin: fixtures for the doubles most tests start from.

Registered through the ``pytest11`` entry point (name ``agentkit_testing``),
so it is active wherever ``agentkit-testing`` is installed;
``-p no:agentkit_testing`` disables it. The strict verification of doubles
and the real-process guard are not here: they come with agentkit-core
(:mod:`agentkit.core.verification.pytest_plugin`, name ``agentkit``), so that installing
one fakes package alone still verifies its doubles. Kept small on purpose --
a fixture is only worth having when it saves wiring that tests would
otherwise repeat, and every fixture here is a fresh object per test:

- ``fake_clock``: a :class:`~agentkit.fakes.io.FakeClock` at t=0;
- ``recording_tracer``: a :class:`~agentkit.fakes.ctx.RecordingTracer`;
- ``fake_ctx``: a :class:`~agentkit.fakes.ctx.FakeCtx`;
- ``test_ctx``: ``make_test_ctx(clock=fake_clock, trace=recording_tracer)`` --
  a real RunContext on virtual time whose spans are recorded, with no LLM.
  Because it is built from the other two fixtures, a test that also asks for
  ``fake_clock`` or ``recording_tracer`` gets the very objects behind it.
- ``make_ctx``: the factory behind ``test_ctx``, for a test that wires its own
  doubles: ``make_ctx(llm=FakeLLM(...), chat_middleware=[...])`` takes every
  keyword of ``make_test_ctx`` and defaults ``clock`` / ``trace`` to the
  ``fake_clock`` / ``recording_tracer`` fixtures (a keyword given wins).
  Annotate it :class:`~agentkit.core.testing.fixtures.MakeCtx` and mypy checks
  those keywords.

- ``api_recording``: a FakeApi per provider that replays the test's model
  recording, or (record modes, ``--agentkit-api-record``) records it from
  the real provider (:mod:`agentkit.core.testing._api_recording`).

pytest is imported here and by the core plugin only: ``import
agentkit.core.testing`` does not need pytest installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from agentkit.core.testing._api_recording import ApiRecorder, add_options, check_mode

if TYPE_CHECKING:
    # Imported by the fixtures that use them: the plugin loads in every pytest session of
    # a project that installs the kit, and the run context alone costs ~0.1 s to import.
    from agentkit.core.runtime import RunContext
    from agentkit.core.testing.fixtures import MakeCtx
    from agentkit.fakes.ctx import FakeCtx, RecordingTracer
    from agentkit.fakes.io import FakeClock

__all__ = [
    "ApiRecorder",
    "api_recording",
    "fake_clock",
    "fake_ctx",
    "make_ctx",
    "recording_tracer",
    "test_ctx",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    check_mode(config)  # a wrong ini value is refused before any test runs


@pytest.fixture
def api_recording(request: pytest.FixtureRequest) -> Iterator[ApiRecorder]:
    """A FakeApi per provider for this test: its model recording replayed, or recorded."""
    recorder = ApiRecorder(request)
    yield recorder
    recorder.finish()


@pytest.fixture
def fake_clock() -> FakeClock:
    """A FakeClock at t=0: ``sleep`` advances virtual time and is recorded."""
    from agentkit.fakes.io import FakeClock

    return FakeClock()


@pytest.fixture
def recording_tracer() -> RecordingTracer:
    """A RecordingTracer: every span opened on it is kept in ``.spans``."""
    from agentkit.fakes.ctx import RecordingTracer

    return RecordingTracer()


@pytest.fixture
def fake_ctx() -> FakeCtx:
    """A FakeCtx: a Ctx recording its spans (``.spans``) and observations."""
    from agentkit.fakes.ctx import FakeCtx

    return FakeCtx()


@pytest.fixture
def make_ctx(fake_clock: FakeClock, recording_tracer: RecordingTracer) -> MakeCtx:
    """``make_test_ctx`` on ``fake_clock`` and ``recording_tracer``: call it with your doubles.

    A factory rather than a context, because the doubles a test wires in
    (an LLM, middleware, a checkpointer) are the test's own: annotate it
    ``make_ctx: MakeCtx`` (:mod:`agentkit.core.testing.fixtures`), and mypy
    checks each keyword. Every keyword of
    :func:`~agentkit.fakes.ctx.make_test_ctx` is accepted and wins over the
    fixture's defaults, so ``make_ctx(clock=my_clock)`` runs on ``my_clock``.
    """
    from agentkit.fakes.ctx import make_test_ctx

    def build(**keywords: Any) -> RunContext:
        __tracebackhide__ = True  # a wrong keyword shows the test's line
        return make_test_ctx(**{"clock": fake_clock, "trace": recording_tracer, **keywords})

    return build


@pytest.fixture
def test_ctx(make_ctx: MakeCtx) -> RunContext:
    """A real RunContext on ``fake_clock``, tracing into ``recording_tracer``, with no LLM."""
    return make_ctx()
