"""The agentkit pytest plugin: strict verification of every double, and no real processes.

Registered by agentkit-core itself through the ``pytest11`` entry point (name
``agentkit``), so it is active wherever any agentkit double is installed --
``agentkit-fakes-llm`` alone as much as the whole ``agentkit-testing`` --
and ``-p no:agentkit`` disables it. pytest is imported by this module only,
and only pytest loads it: agentkit-core stays standard-library only for
everything else, and ``import agentkit.core.<anything else>`` never needs
pytest. The fixtures that build doubles (``fake_clock``, ``test_ctx`` ...)
need the fakes packages, so they are a separate plugin of agentkit-testing.

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

And a failure the kit raises on purpose (a :func:`~agentkit.core.failures.kit_failure`:
a script run past its end, a changed replay, a blocked process ...) is reported
without the kit's frames: the test's line, the user's own frames, the message.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest

from agentkit.core import process_guard
from agentkit.core.failures import hide_kit_frames, is_kit_failure
from agentkit.core.verification import Verifiable, Violation, collect_doubles

__all__ = ["OPT_IN", "allow_real_processes", "format_violations"]

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
    if call.excinfo is not None and is_kit_failure(call.excinfo.value):
        # Before the report is drawn: the kit's frames leave the traceback it is drawn from.
        hide_kit_frames(call.excinfo.value)
        call.excinfo.traceback = type(call.excinfo.traceback)(call.excinfo.tb)
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
