"""The agentkit-testing pytest plugin: its fixtures, and that the pytest11 entry point registers it.

The fixtures are exercised twice: directly (this session has the plugin,
since agentkit-testing is installed) and through ``pytester`` in-process
runs, which is what shows that a fresh pytest session finds the plugin by
its entry point -- and that ``-p no:agentkit_testing`` takes the fixtures away.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.noop import NoopObserver, NoopTrace
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext
from agentkit.core.types import Message
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import FakeLLM
from tests.support.inner_session import INNER_INI

pytest_plugins = ["pytester"]

INNER_TESTS = """
from agentkit.core.runtime import RunContext
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeClock


def test_fake_clock(fake_clock):
    assert isinstance(fake_clock, FakeClock)
    assert fake_clock.now() == 0.0


def test_fake_ctx(fake_ctx):
    assert isinstance(fake_ctx, FakeCtx)


def test_recording_tracer(recording_tracer):
    assert isinstance(recording_tracer, RecordingTracer)


async def test_test_ctx(test_ctx, fake_clock, recording_tracer):
    assert type(test_ctx) is RunContext
    assert test_ctx.clock is fake_clock
    assert test_ctx.trace is recording_tracer
    await test_ctx.clock.sleep(5)
    assert fake_clock.now() == 5.0
"""


def test_the_entry_point_registers_the_plugin_in_a_fresh_session(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=4)


def test_the_plugin_is_named_agentkit_testing_and_can_be_disabled(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner="def test_needs_it(fake_clock):\n    pass\n")
    result = pytester.runpytest("-q", "-p", "no:agentkit_testing")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'fake_clock' not found*"])


def test_fixtures_are_fresh_per_test(pytester: pytest.Pytester) -> None:
    # Order-independent (it passes under pytest-randomly): both tests check that they start
    # fresh and then dirty their fixtures, so whichever runs second proves freshness; the
    # second also checks that it was handed other objects than the first.
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        test_inner="""
import pytest

seen = []

@pytest.mark.parametrize("n", [1, 2])
def test_each(n, fake_ctx, test_ctx, fake_clock):
    assert fake_ctx.spans == []
    assert fake_clock.now() == 0.0
    with fake_ctx.trace.span("dirty"):
        pass
    fake_clock.advance(10)
    for earlier in seen:
        assert all(a is not b for a, b in zip(earlier, (fake_ctx, test_ctx, fake_clock)))
    seen.append((fake_ctx, test_ctx, fake_clock))
"""
    )
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=2)


def test_fake_clock_fixture(fake_clock: FakeClock) -> None:
    assert fake_clock.now() == 0.0
    assert fake_clock.sleeps == []


def test_fake_ctx_fixture(fake_ctx: FakeCtx) -> None:
    with fake_ctx.trace.span("s", a=1):
        fake_ctx.observer.emit("e")
    assert fake_ctx.spans == [("s", "internal", {"a": 1})]
    assert fake_ctx.observations == [("e", {})]


async def test_test_ctx_fixture_is_a_run_context_on_the_other_fixtures(
    test_ctx: RunContext, fake_clock: FakeClock, recording_tracer: RecordingTracer
) -> None:
    assert type(test_ctx) is RunContext
    assert test_ctx.clock is fake_clock
    assert test_ctx.trace is recording_tracer
    assert test_ctx.invoker is None
    assert isinstance(test_ctx.observer, NoopObserver)
    with test_ctx.trace.span("traced"):
        await test_ctx.clock.sleep(1.5)
    assert [s.name for s in recording_tracer.spans] == ["traced"]
    assert fake_clock.sleeps == [1.5]


async def test_make_ctx_wires_the_tests_doubles_on_the_fixtures_clock_and_tracer(
    make_ctx: Callable[..., RunContext], fake_clock: FakeClock, recording_tracer: RecordingTracer
) -> None:
    llm = FakeLLM("ok", fail_times=1)
    ctx = make_ctx(llm=llm, chat_middleware=[RetryMiddleware()])
    assert type(ctx) is RunContext
    assert ctx.clock is fake_clock
    assert ctx.trace is recording_tracer
    assert ctx.invoker is not None
    response = await ctx.invoker.chat(ctx, ChatRequest(messages=[Message.user("q")], model="m"))
    assert response.content == "ok"
    assert fake_clock.sleeps == [0.5]  # the retry backed off on the fixture's clock


def test_make_ctx_keywords_win_over_its_defaults(make_ctx: Callable[..., RunContext]) -> None:
    own = FakeClock(start=100.0)
    assert make_ctx(clock=own).clock is own
    assert isinstance(make_ctx(trace=None).trace, NoopTrace)


def test_make_ctx_refuses_a_wrong_keyword_by_name(make_ctx: Callable[..., RunContext]) -> None:
    with pytest.raises(ArgumentTypeError, match="llm"):
        make_ctx(llm=42)
    with pytest.raises(TypeError, match="lm"):
        make_ctx(lm=FakeLLM("x", verify=False))


def test_a_user_test_that_requests_pytester_loads_nothing_more_of_the_kit(
    pytester: pytest.Pytester,
) -> None:
    # In a subprocess: this session has long loaded every agentkit module.
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        test_inner="""
import sys

pytest_plugins = ["pytester"]
SEEN = []


def loaded():
    return {name for name in sys.modules if name.startswith("agentkit.")}


def test_without_pytester():
    SEEN.append(loaded())


def test_with_pytester(pytester):
    assert loaded() == SEEN[0]
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=2)
