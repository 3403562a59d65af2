"""The agentkit-testing pytest plugin: fixtures for the doubles most tests start from.

Registered through the ``pytest11`` entry point (name ``agentkit_testing``),
so it is active wherever ``agentkit-testing`` is installed;
``-p no:agentkit_testing`` disables it. The strict verification of doubles
and the real-process guard are not here: they come with agentkit-core
(:mod:`agentkit.core.pytest_plugin`, name ``agentkit``), so that installing
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

pytest is imported here and by the core plugin only: ``import
agentkit.core.testing`` does not need pytest installed.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    # Imported by the fixtures that use them: the plugin loads in every pytest session of
    # a project that installs the kit, and the run context alone costs ~0.1 s to import.
    from agentkit.core.runtime import RunContext
    from agentkit.fakes.ctx import FakeCtx, RecordingTracer
    from agentkit.fakes.io import FakeClock

__all__ = [
    "fake_clock",
    "fake_ctx",
    "make_ctx",
    "recording_tracer",
    "test_ctx",
]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    if "pytester" in getattr(item, "fixturenames", ()):
        # Before the pytester fixture snapshots sys.modules (see _preload_agentkit).
        _preload_agentkit()
    return (yield)


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
def make_ctx(fake_clock: FakeClock, recording_tracer: RecordingTracer) -> Callable[..., RunContext]:
    """``make_test_ctx`` on ``fake_clock`` and ``recording_tracer``: call it with your doubles.

    A factory rather than a context, because the doubles a test wires in
    (an LLM, middleware, a checkpointer) are the test's own: annotate it
    ``make_ctx: Callable[..., RunContext]``. Every keyword of
    :func:`~agentkit.fakes.ctx.make_test_ctx` is accepted and wins over the
    fixture's defaults, so ``make_ctx(clock=my_clock)`` runs on ``my_clock``.
    """
    from agentkit.fakes.ctx import make_test_ctx

    def build(**keywords: Any) -> RunContext:
        __tracebackhide__ = True  # a wrong keyword shows the test's line
        return make_test_ctx(**{"clock": fake_clock, "trace": recording_tracer, **keywords})

    return build


@pytest.fixture
def test_ctx(make_ctx: Callable[..., RunContext]) -> RunContext:
    """A real RunContext on ``fake_clock``, tracing into ``recording_tracer``, with no LLM."""
    return make_ctx()


# --- for the kit's own tests: run a user's test file under this plugin -------------------
# The plugin's promises (a broken test fails at teardown saying what to fix, a correct one
# passes, a failing one gets no extra noise) can only be shown in a fresh pytest session.
# Every package's tests that add a violation kind do it the same way, with these:
#     pytest_plugins = ["pytester"]
#     from agentkit.core.testing.pytest_plugin import run_inner, assert_verification_failed
# They live here because this is the one module of the kit allowed to import pytest.

INNER_INI = """
[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""


def _preload_agentkit() -> None:
    """Import every installed ``agentkit.core`` / ``agentkit.fakes`` module once.

    An in-process pytester run restores ``sys.modules`` after itself, so a
    module first imported inside one run is imported afresh by the next: two
    class objects for one ``PriceTable``, and a type check that refuses the
    very class the inner test passed. Loading the whole namespace before the
    ``pytester`` fixture takes its snapshot (the plugin does it in
    ``pytest_runtest_setup`` for every test that uses ``pytester``) keeps every
    run on the same objects, whatever order the tests run in.
    """
    import agentkit.core
    import agentkit.fakes

    for namespace in (agentkit.core, agentkit.fakes):
        for info in pkgutil.walk_packages(namespace.__path__, namespace.__name__ + "."):
            if info.name.endswith("__main__") or info.name in sys.modules:
                continue
            try:
                importlib.import_module(info.name)
            except ImportError:  # an optional extra that is not installed
                continue


def run_inner(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    """Write ``source`` as ``test_inner.py`` and run it in-process, in a fixed order."""
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=source)
    # Without hypothesis' plugin: its end-of-run summary imports hypothesis afresh in every
    # inner run (pytester restores sys.modules after each), seconds per run for nothing an
    # inner test of a double uses.
    return pytester.runpytest("-p", "no:randomly", "-p", "no:hypothesispytest", *args)


def assert_verification_failed(
    result: pytest.RunResult,
    *,
    kind: str,
    double: str,
    passed: int = 0,
    errors: int = 1,
    skipped: int = 0,
) -> str:
    """The inner test body passed and the plugin failed it at teardown for ``kind``.

    Returns the text of the report, for further asserts. The message must name
    the double, where it was created (``test_inner.py:<line>``), the
    violation kind and a fix.
    """
    __tracebackhide__ = True
    result.assert_outcomes(passed=passed + errors, errors=errors, skipped=skipped)
    text = result.stdout.str()
    assert "ERROR at teardown of" in text, text
    assert "test-double violation" in text, text
    assert f"{double} created at " in text, text
    assert "test_inner.py:" in text, text
    assert f"{kind}: " in text, text
    assert "fix: " in text, text
    return text


def assert_passed_clean(result: pytest.RunResult, *, passed: int = 1) -> None:
    """Every inner test passed and nothing was said about doubles."""
    __tracebackhide__ = True
    result.assert_outcomes(passed=passed)
    assert "test-double violation" not in result.stdout.str()
