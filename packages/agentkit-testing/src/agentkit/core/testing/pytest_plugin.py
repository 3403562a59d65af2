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
  a real RunContext on virtual time whose spans are recorded, with no LLM.
  Because it is built from the other two fixtures, a test that also asks for
  ``fake_clock`` or ``recording_tracer`` gets the very objects behind it.
- ``make_ctx``: the factory behind ``test_ctx``, for a test that wires its own
  doubles: ``make_ctx(llm=FakeLLM(...), chat_middleware=[...])`` takes every
  keyword of ``make_test_ctx`` and defaults ``clock`` / ``trace`` to the
  ``fake_clock`` / ``recording_tracer`` fixtures (a keyword given wins).

- ``allow_real_processes``: lets the real ``default_spawn`` start processes
  in the test that requests it (see below).

Two checks run around every test, strict by default:

- **Verification of the doubles.** Each test runs inside
  :func:`~agentkit.core.verification.collect_doubles`; after its fixtures
  are torn down, every double created during the test (with ``verify=True``,
  the default) is verified, and a violation -- script turns left unused, a
  swallowed ``ScriptExhausted``, a missed URL, a tool call to a tool never
  offered -- fails the test as an error at teardown, with one message naming
  each double, where it was created, what went wrong and how to fix it. A
  test that already failed (or was skipped) gets no verification on top: its
  own failure is the one to read. Opt out per test with
  ``@pytest.mark.agentkit(verify=False)``, per double with ``verify=False``.
  A double made by a fixture broader than one test (module, class, package,
  session scope) is shared by that fixture's tests, so it is verified when
  the fixture is torn down instead, failing the teardown of the last test.
- **No real processes.** The test runs inside
  :func:`~agentkit.core.process_guard.block_real_processes`, so the real
  ``default_spawn`` raises ``RealProcessBlocked`` instead of starting the
  claude or codex binary, unless the test carries
  ``@pytest.mark.agentkit(real_processes=True)`` or requests the
  ``allow_real_processes`` fixture.

pytest is imported here and only here: ``import agentkit.core.testing``
does not need pytest installed.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from agentkit.core import process_guard
from agentkit.core.verification import Verifiable, Violation, collect_doubles

if TYPE_CHECKING:
    # Imported by the fixtures that use them: the plugin loads in every pytest session of
    # a project that installs the kit, and the run context alone costs ~0.1 s to import.
    from agentkit.core.runtime import RunContext
    from agentkit.fakes.ctx import FakeCtx, RecordingTracer
    from agentkit.fakes.io import FakeClock

__all__ = [
    "allow_real_processes",
    "fake_clock",
    "fake_ctx",
    "make_ctx",
    "recording_tracer",
    "test_ctx",
]

_MARKER_OPTIONS = {"verify": True, "real_processes": False}

OPT_IN = (
    "the agentkit pytest plugin blocks real processes in tests; pass a fake spawn "
    "(spawn=FakeClaudeCli(...) / FakeCodexCli(...)), or let this test start real processes "
    "with @pytest.mark.agentkit(real_processes=True) or the allow_real_processes fixture"
)


@dataclass
class _TestState:
    """What the plugin keeps for one test between its setup and its teardown report."""

    verify: bool
    stack: ExitStack = field(default_factory=ExitStack)
    doubles: list[Verifiable] = field(default_factory=list)
    passed: bool = True


_STATE = pytest.StashKey[_TestState]()
_FAILED = pytest.StashKey[int]()  # how many tests have failed so far in this session


@dataclass
class _SharedDoubles:
    """Doubles a fixture broader than one test made, verified when that fixture is torn down."""

    doubles: list[Verifiable]
    failed_before: int
    verify: bool


_SHARED: dict[int, _SharedDoubles] = {}


def _options(item: pytest.Item | pytest.Collector) -> dict[str, bool]:
    """The ``agentkit`` marker's options for ``item``; the closest marker wins per option."""
    __tracebackhide__ = True
    options = dict(_MARKER_OPTIONS)
    for marker in reversed(list(item.iter_markers("agentkit"))):
        if marker.args:
            raise pytest.UsageError(
                f"{item.nodeid}: @pytest.mark.agentkit takes keywords only "
                f"({', '.join(k + '=' for k in _MARKER_OPTIONS)}), got {marker.args!r}"
            )
        for key, value in marker.kwargs.items():
            if key not in _MARKER_OPTIONS:
                raise pytest.UsageError(
                    f"{item.nodeid}: @pytest.mark.agentkit has no option {key!r}; "
                    f"it takes {', '.join(k + '=' for k in _MARKER_OPTIONS)}"
                )
            if not isinstance(value, bool):
                raise pytest.UsageError(
                    f"{item.nodeid}: @pytest.mark.agentkit({key}=...) must be a bool, got {value!r}"
                )
            options[key] = value
    return options


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "agentkit(verify=True, real_processes=False): per-test switches of the agentkit plugin -- "
        "verify=False skips the teardown check of the doubles this test created; "
        "real_processes=True lets the real default_spawn start processes in this test.",
    )


def format_violations(violations: list[Violation]) -> str:
    """The teardown failure: every violation, then how to opt out if it is intended."""
    count = len(violations)
    lines = [
        f"agentkit: {count} test-double violation{'' if count == 1 else 's'} "
        "(the test body passed, but its doubles were not used as scripted):"
    ]
    for violation in violations:
        lines.append(f"  - {violation.double} created at {violation.created_at}")
        lines.append(f"    {violation.kind}: {violation.detail}")
        lines.append(f"    fix: {violation.fix}")
    lines.append(
        "(if this is intended: verify=False on the double, or "
        "@pytest.mark.agentkit(verify=False) on the test)"
    )
    return "\n".join(lines)


def _violations_of(doubles: list[Verifiable]) -> list[Violation]:
    """Every violation of the ``doubles`` that verify, for a teardown failure to list."""
    return [
        violation
        for double in doubles
        if double.verify_enabled
        for violation in double.violations()
    ]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    if "pytester" in getattr(item, "fixturenames", ()):
        # Before the pytester fixture snapshots sys.modules (see _preload_agentkit).
        _preload_agentkit()
    options = _options(item)
    state = _TestState(verify=options["verify"])
    item.stash[_STATE] = state
    state.doubles = state.stack.enter_context(collect_doubles(isolate=True))
    if options["real_processes"]:
        # An allow rather than no block, so it also holds inside an enclosing block
        # (a pytester run inside a test that blocks).
        state.stack.enter_context(process_guard.allow_real_processes())
    else:
        state.stack.enter_context(process_guard.block_real_processes(OPT_IN))
    return (yield)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    try:
        return (yield)
    finally:
        state = item.stash.get(_STATE, None)
        if state is not None:
            state.stack.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    state = item.stash.get(_STATE, None)
    if state is None:
        return report
    if call.when in ("setup", "call") and not report.passed:
        state.passed = False  # failed, errored or skipped: its own outcome is the news
        if report.failed:
            item.config.stash[_FAILED] = item.config.stash.get(_FAILED, 0) + 1
    if call.when == "teardown":
        del item.stash[_STATE]
        if state.passed and state.verify and report.passed:
            found = _violations_of(state.doubles)
            if found:
                report.outcome = "failed"
                report.longrepr = format_violations(found)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> Generator[None, object, object]:
    """Keep the doubles a module-, class-, package- or session-scoped fixture makes apart.

    Such a double is shared by several tests, each using part of its material
    (a module-scoped FakeFetch whose pages the module's tests fetch between
    them), so the test during whose setup it happened to be made cannot be
    held to all of it. It is verified instead when the fixture is torn down,
    after the last test that used it, and a violation fails that teardown --
    unless a test failed meanwhile (its failure is the news) or the fixture's
    module, class or package is marked ``@pytest.mark.agentkit(verify=False)``.
    """
    if fixturedef.scope == "function":
        return (yield)
    with collect_doubles(isolate=True) as made:
        result = yield
    if made:
        _SHARED[id(fixturedef)] = _SharedDoubles(
            doubles=made,
            failed_before=request.config.stash.get(_FAILED, 0),
            verify=_options(request.node)["verify"],
        )
    return result


def pytest_fixture_post_finalizer(
    fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> None:
    __tracebackhide__ = True
    shared = _SHARED.pop(id(fixturedef), None)
    if shared is None or not shared.verify:
        return
    if request.config.stash.get(_FAILED, 0) != shared.failed_before:
        return
    found = _violations_of(shared.doubles)
    if found:
        pytest.fail(
            f"the {fixturedef.scope}-scoped fixture {fixturedef.argname!r} made doubles that "
            "were shared by its tests and verified when it was torn down\n"
            + format_violations(found),
            pytrace=False,
        )


@pytest.fixture
def allow_real_processes() -> Iterator[None]:
    """Let the real ``default_spawn`` start processes in this test (the plugin blocks them)."""
    with process_guard.allow_real_processes():
        yield


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
    result: pytest.RunResult, *, kind: str, double: str, passed: int = 0, errors: int = 1
) -> str:
    """The inner test body passed and the plugin failed it at teardown for ``kind``.

    Returns the text of the report, for further asserts. The message must name
    the double, where it was created (``test_inner.py:<line>``), the
    violation kind and a fix.
    """
    __tracebackhide__ = True
    result.assert_outcomes(passed=passed + errors, errors=errors)
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
