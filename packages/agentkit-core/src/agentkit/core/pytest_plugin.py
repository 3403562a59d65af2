"""The agentkit pytest plugin: strict verification of every double, and no real processes.

Registered by agentkit-core itself through the ``pytest11`` entry point (name
``agentkit``), so it is active wherever any agentkit double is installed --
``agentkit-fakes-llm`` alone as much as the whole ``agentkit-testing`` --
and ``-p no:agentkit`` disables it. pytest is imported by this module only,
and only pytest loads it: agentkit-core stays standard-library only for
everything else, and ``import agentkit.core.<anything else>`` never needs
pytest. The fixtures that build doubles (``fake_clock``, ``test_ctx`` ...)
need the fakes packages, so they are a separate plugin of agentkit-testing.

Two checks run around every test, strict by default.

**Verification of the doubles.** Every double made while the session runs
is judged once, whatever its lifetime (docs/guides/verification.md has the
rules with examples):

- made by a test or a function-scoped fixture: verified after the test's
  fixtures are torn down; a violation fails the test as an error at
  teardown naming the double, where it was made, what went wrong and the
  fix. A test that already failed or was skipped gets nothing on top.
- shared -- made by a module-, class-, package- or session-scoped fixture,
  at import time (module level), at collection time (a parametrize list) --
  a certain error (a miss, a swallowed exhaustion, a call to a tool never
  offered) fails the test during which it happened; material left unused
  is reported only once every test that requested the double ran in this
  process and passed (a skip, a ``-k``/``-m`` deselection, another xdist
  worker, an xfail or an opt-out on any of them, and it is not judged).
- made by work that outlived its test (a task or thread still running):
  judged at the end of the session, naming the test that started the work.
- under hypothesis: each example is judged on its own, and the doubles of
  an example hypothesis rejected are dropped.
- in an xfail test: a violation is part of its expected failure.

Opt out per test with ``@pytest.mark.agentkit(verify=False)`` (it reaches
the shared doubles the test uses), per double with ``verify=False``.

**No real processes.** The test runs inside
:func:`~agentkit.core.process_guard.block_real_processes`, so the real
``default_spawn`` (and a ``CapturingSpawn`` around a real spawn) raises
``RealProcessBlocked`` instead of starting the claude or codex binary,
unless the test carries ``@pytest.mark.agentkit(real_processes=True)`` or
requests the ``allow_real_processes`` fixture.

The plugin never takes the run down: a double whose own ``violations()``
raises is reported as that test's error, and a report lists at most
:data:`~agentkit.core.verification.REPORT_LIMIT` violations, then counts the rest.

And a failure the kit raises on purpose (a :func:`~agentkit.core.failures.kit_failure`:
a script run past its end, a changed replay, a blocked process ...) is reported
without the kit's frames: the test's line, the user's own frames, the message.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import inspect
import itertools
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest

from agentkit.core import process_guard
from agentkit.core.failures import hide_kit_frames, is_kit_failure
from agentkit.core.verification import (
    REPORT_LIMIT,
    Verifiable,
    VerificationError,
    Violation,
    _carry_into_threads,
    _certain_and_unused,
    _recorded,
    _session_block,
    _share_blocks,
    collect_doubles,
)

__all__ = ["OPT_IN", "allow_real_processes", "format_violations"]

_MARKER_OPTIONS = {"verify": True, "real_processes": False}

OPT_IN = (
    "the agentkit pytest plugin blocks real processes in tests; pass a fake spawn "
    "(spawn=FakeClaudeCli(...) / FakeCodexCli(...)), or let this test start real processes "
    "with @pytest.mark.agentkit(real_processes=True) or the allow_real_processes fixture"
)

_INTENDED = (
    "(if this is intended: verify=False on the double, or "
    "@pytest.mark.agentkit(verify=False) on the test)"
)
_RAISES_HINT = (
    "this test expects an exception (pytest.raises / assertRaises): if it provokes the "
    "miss on purpose, build that double with verify=False -- the violation is still "
    "readable with violations(), it just does not fail the test"
)


@dataclass(eq=False)
class _Shared:
    """A double more than one test may use, and what it is judged on."""

    double: Verifiable
    origin: str
    """How it came to be shared, for the report (``"made at import time (file:line)"``)."""
    requesters: frozenset[str] | None
    """The node ids of the tests it is judged on; None: every test of the session."""
    at_end: bool = False
    """Judged only at the end of the session (work that may still be using it)."""
    reported: int = 0
    """Its certain errors already reported against the test they happened in."""
    pending: int = 0
    """Its requesters that have not finished yet (judged when none is left)."""


@dataclass(eq=False)
class _TestState:
    """What the plugin keeps for one test between its setup and its teardown report."""

    nodeid: str
    verify: bool
    xfail: bool
    expects_raise: bool
    stack: ExitStack = field(default_factory=ExitStack)
    doubles: list[Verifiable] = field(default_factory=list)
    marks: dict[int, int] = field(default_factory=dict)
    passed: bool = True
    reported: bool = False


@dataclass(eq=False)
class _Session:
    """The plugin's state for one pytest session (one per xdist worker)."""

    stack: ExitStack = field(default_factory=ExitStack)
    items: dict[str, pytest.Item] = field(default_factory=dict)
    collected: bool = False
    pending: list[_Shared] = field(default_factory=list)
    shared: list[_Shared] = field(default_factory=list)
    fixtures: dict[int, tuple[list[_Shared], bool]] = field(default_factory=dict)
    finished: dict[str, bool] = field(default_factory=dict)
    opted_out: set[str] = field(default_factory=set)
    current: _TestState | None = None
    waiting: dict[str, list[_Shared]] = field(default_factory=dict)
    ready: list[_Shared] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    unreported: list[str] = field(default_factory=list)


_STATE = pytest.StashKey[_TestState]()
_SESSION = pytest.StashKey[_Session]()


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


# --- reading a double without letting it break the run -------------------------------------


def _name(double: object) -> str:
    name = getattr(double, "_double_name", None)
    return name if isinstance(name, str) else type(double).__name__


def _site(double: object) -> str:
    try:
        site = getattr(double, "created_at", None)
    except Exception:
        site = None
    return site if isinstance(site, str) else "<unknown>"


def _crashed(double: object, error: BaseException) -> Violation:
    lines = traceback.format_exception(type(error), error, error.__traceback__, limit=-3)
    return Violation(
        _name(double),
        _site(double),
        "verification_crashed",
        "asking the double for its violations raised:\n      " + "      ".join(lines).rstrip(),
        "fix the double's violations() / verify_enabled (or the attribute the test "
        "overwrote on it); until then nothing about this double can be checked",
    )


def _checked(double: object, found: object) -> list[Violation]:
    if not isinstance(found, list | tuple):
        return [_crashed(double, TypeError(f"violations() returned {found!r}, not a list"))]
    return [
        v
        if isinstance(v, Violation)
        else Violation(
            _name(double),
            _site(double),
            "not_a_violation",
            repr(v)[:200],
            "violations() must return Violation records",
        )
        for v in found
    ]


def _judge(double: Verifiable) -> tuple[list[Violation], list[Violation]]:
    """``(certain errors, unused material)`` of a double that verifies; never raises."""
    try:
        if not double.verify_enabled:
            return [], []
        certain, unused = _certain_and_unused(double)
        return _checked(double, certain), _checked(double, unused)
    except Exception as error:
        return [_crashed(double, error)], []


def _recorded_since(double: Verifiable, start: int) -> list[Violation]:
    try:
        if not double.verify_enabled:
            return []
        return _checked(double, _recorded(double)[start:])
    except Exception as error:
        return [_crashed(double, error)]


def _count(double: Verifiable) -> int:
    try:
        return len(_recorded(double))
    except Exception:
        return 0


# --- reports ---------------------------------------------------------------------------------


def format_violations(
    violations: list[Violation], *, header: str | None = None, expects_raise: bool = False
) -> str:
    """The failure text: the violations (at most ``REPORT_LIMIT``), then how to opt out.

    ``header`` replaces the first line (a shared double says whose it is);
    ``expects_raise`` adds the hint for a test that provokes a miss on
    purpose inside ``pytest.raises``.
    """
    count = len(violations)
    lines = [
        header
        or f"agentkit: {count} test-double violation{'' if count == 1 else 's'} "
        "(the test body passed, but its doubles were not used as scripted):"
    ]
    for violation in violations[:REPORT_LIMIT]:
        lines.append(f"  - {violation.double} created at {violation.created_at}")
        lines.append(f"    {violation.kind}: {violation.detail}")
        lines.append(f"    fix: {violation.fix}")
    if count > REPORT_LIMIT:
        lines.append(f"  ... and {count - REPORT_LIMIT} more violations ({count} in all)")
    if expects_raise:
        lines.append(f"  note: {_RAISES_HINT}")
    lines.append(_INTENDED)
    return "\n".join(lines)


def _shared_header(shared: _Shared, count: int) -> str:
    plural = "" if count == 1 else "s"
    if shared.requesters is None or shared.at_end:
        judged = "judged at the end of the session"
    else:
        judged = f"shared by {len(shared.requesters)} test(s), judged once they had all run"
    return f"agentkit: {count} test-double violation{plural} of a double {shared.origin}, {judged}:"


def _expects_raise(item: pytest.Item) -> bool:
    code = getattr(getattr(item, "obj", None), "__code__", None)
    names = getattr(code, "co_names", ())
    return "raises" in names or "assertRaises" in names or "RaisesGroup" in names


def _fail(report: pytest.TestReport, text: str) -> None:
    report.outcome = "failed"
    if report.longrepr and not isinstance(report.longrepr, tuple):
        report.longrepr = f"{report.longrepr}\n\n{text}"
    else:
        report.longrepr = text


# --- the session ------------------------------------------------------------------------------


def _start(config: pytest.Config) -> None:
    if _SESSION in config.stash:
        return
    session = _Session()
    config.stash[_SESSION] = session

    def arrived(double: Verifiable, started_by: str | None) -> None:
        if started_by is not None:
            origin = f"made by work started in {started_by} after it had ended ({_site(double)})"
            starter = session.labels.get(started_by)
            requesters = None if starter is None else frozenset({starter})
            session.shared.append(_Shared(double, origin, requesters, at_end=True))
        elif not session.collected:
            session.pending.append(
                _Shared(double, f"made at import or collection time ({_site(double)})", None)
            )
        else:
            origin = f"made outside any test ({_site(double)})"
            session.shared.append(_Shared(double, origin, None, at_end=True))

    session.stack.enter_context(_session_block(arrived))
    _carry_into_threads()


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    # As early as a plugin can: a double at the top of a conftest.py is judged too.
    _start(early_config)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "agentkit(verify=True, real_processes=False): per-test switches of the agentkit plugin -- "
        "verify=False skips the teardown check of the doubles this test uses; "
        "real_processes=True lets the real default_spawn start processes in this test.",
    )
    _start(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        del config.stash[_SESSION]
        session.stack.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # tryfirst: before -k / -m deselect, so a deselected test still counts as a requester.
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.items.update((item.nodeid, item) for item in items)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Note every test a collector found, before any plugin filters the list.

    ``--lf`` (and other plugins) drop tests from a module's collected list, not
    through ``-k``'s deselection: a test dropped so still counts as a test a
    shared double is judged on -- it did not run, so the double's unused
    material is not judged.
    """
    report = yield
    session = collector.config.stash.get(_SESSION, None)
    if session is not None and not session.collected:
        for node in report.result or ():
            if isinstance(node, pytest.Item):
                session.items.setdefault(node.nodeid, node)
    return report


def pytest_deselected(items: list[pytest.Item]) -> None:
    for item in items:
        session = item.config.stash.get(_SESSION, None)
        if session is not None:
            session.items.setdefault(item.nodeid, item)


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash.get(_SESSION, None)
    if state is None:
        return
    state.collected = True
    for item in session.items:
        state.items.setdefault(item.nodeid, item)
    requesters = _import_requesters([s.double for s in state.pending], state.items.values())
    for shared in state.pending:
        shared.requesters = requesters[id(shared.double)]
        shared.at_end = shared.requesters is None
        state.shared.append(shared)
        _watch(state, shared)
    state.pending.clear()


def _watch(session: _Session, shared: _Shared) -> None:
    """Have ``shared`` judged once the last of its requesters has finished."""
    if shared.at_end or shared.requesters is None:
        return
    left = [nodeid for nodeid in shared.requesters if nodeid not in session.finished]
    shared.pending = len(left)
    for nodeid in left:
        session.waiting.setdefault(nodeid, []).append(shared)
    if not left:
        session.ready.append(shared)


def _held(value: object, wanted: frozenset[int], depth: int = 3) -> set[int]:
    """The ids among ``wanted`` of the doubles ``value`` is or holds.

    Held in a container, or as a field of an object: a parametrize case is
    often a small object (``Scenario(llm=FakeLLM...)``) or a dict of them.
    Looked into a few levels deep and a bounded number of entries wide, so a
    large data structure costs little.
    """
    if id(value) in wanted:
        return {id(value)}
    if depth == 0 or isinstance(value, str | bytes | int | float | type | ModuleType):
        return set()
    try:
        if isinstance(value, dict):
            parts: Iterable[object] = value.values()
        elif isinstance(value, list | tuple | set | frozenset):
            parts = value
        elif callable(value):
            return set()
        elif dataclasses.is_dataclass(value):
            parts = [getattr(value, f.name, None) for f in dataclasses.fields(value)]
        else:
            parts = getattr(value, "__dict__", {}).values()
        found: set[int] = set()
        for part in itertools.islice(parts, _WIDTH):
            found |= _held(part, wanted, depth - 1)
        return found
    except Exception:  # an object that will not be looked into holds nothing we can find
        return set()


_WIDTH = 256
"""How many entries of one container or object :func:`_held` looks at."""


def _holds(value: object, double: object) -> bool:
    return bool(_held(value, frozenset({id(double)})))


def _import_requesters(
    doubles: list[Verifiable], items: Iterable[pytest.Item]
) -> dict[int, frozenset[str] | None]:
    """The tests each double made at import or collection time is judged on, by its id.

    The tests it was handed to by parametrize, if any; else the tests of the
    module that made it and of every other test module holding it in its
    globals (``from test_agent import LLM``); else (made in a helper module or
    a conftest) every test. Each test and each module is looked at once.
    """
    wanted = frozenset(id(double) for double in doubles)
    sites = {id(double): _site(double).rpartition(":")[0] for double in doubles}
    users: dict[int, set[str]] = {key: set() for key in wanted}
    module_tests: dict[str, set[str]] = {}
    modules: dict[str, frozenset[int]] = {}
    for item in items:
        callspec = getattr(item, "callspec", None)
        for value in getattr(callspec, "params", {}).values():
            for key in _held(value, wanted):
                users[key].add(item.nodeid)
        path = str(getattr(item, "path", ""))
        module_tests.setdefault(path, set()).add(item.nodeid)
        if path not in modules:
            modules[path] = _globals_held(getattr(item, "module", None), wanted)
    found: dict[int, frozenset[str] | None] = {}
    for key in wanted:
        if users[key]:
            found[key] = frozenset(users[key])
        elif sites[key] in module_tests:
            tests = set(module_tests[sites[key]])
            for path, held in modules.items():
                if key in held:
                    tests |= module_tests[path]
            found[key] = frozenset(tests)
        else:
            found[key] = None
    return found


def _globals_held(module: object, wanted: frozenset[int]) -> frozenset[int]:
    """The doubles a test module holds in its own globals, one level in (``SCRIPTS = [...]``).

    Not its dunders: ``__builtins__`` is a dict of everything.
    """
    held: set[int] = set()
    for name, value in list(getattr(module, "__dict__", {}).items()):
        if not name.startswith("__"):
            held |= _held(value, wanted, depth=2)
    return frozenset(held)


# --- each test ------------------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    session = item.config.stash.get(_SESSION, None)
    options = _options(item)
    state = _TestState(
        nodeid=item.nodeid,
        verify=options["verify"],
        xfail=item.get_closest_marker("xfail") is not None,
        expects_raise=_expects_raise(item),
    )
    item.stash[_STATE] = state
    if session is not None:
        session.current = state
        if not state.verify:
            session.opted_out.add(item.nodeid)
        state.marks = {id(s): _count(s.double) for s in session.shared}
    label = f"the test {item.nodeid}"
    if session is not None:
        session.labels[label] = item.nodeid
    state.doubles = state.stack.enter_context(collect_doubles(isolate=True, label=label))
    if options["real_processes"]:
        # An allow rather than no block, so it also holds inside an enclosing block
        # (a pytester run inside a test that blocks).
        state.stack.enter_context(process_guard.allow_real_processes())
    else:
        state.stack.enter_context(process_guard.block_real_processes(OPT_IN))
    _adopt_captured_contexts(item)
    return (yield)


def _adopt_captured_contexts(item: pytest.Item) -> None:
    """Open this test's block in contexts its test case captured before the test began.

    ``unittest.IsolatedAsyncioTestCase`` copies the context when pytest makes
    the instance, at collection, and runs ``asyncSetUp`` and the test in that
    copy: without this, a double its ``asyncSetUp`` makes would belong to no
    test at all.
    """
    instance = getattr(item, "instance", None)
    for value in getattr(instance, "__dict__", {}).values():
        if isinstance(value, contextvars.Context):
            _share_blocks(value)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    state = item.stash.get(_STATE, None)
    if state is None or not state.verify:
        return (yield)
    restore = _judge_each_example(item, state)
    try:
        result = yield
    finally:
        restore()
    if state.xfail:
        # Judged now, in the call: a violation of an xfail test is its expected failure,
        # and a strict xfail whose only failure is a violation is not an XPASS.
        found = _found(item, state)
        if found:
            state.reported = True
            pytest.fail(format_violations(found, expects_raise=state.expects_raise), pytrace=False)
    return result


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
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
    try:
        _after(item, call.when, state, report)
    except Exception as error:  # the plugin must never end the run with INTERNALERROR
        _fail(
            report,
            "agentkit: the verification itself failed:\n"
            + "".join(traceback.format_exception(type(error), error, error.__traceback__)),
        )
    return report


def _after(item: pytest.Item, when: str, state: _TestState, report: pytest.TestReport) -> None:
    if when in ("setup", "call"):
        if not report.passed or hasattr(report, "wasxfail"):
            state.passed = False  # failed, errored, skipped or xfail: its own outcome is the news
        return
    if when != "teardown":
        return
    del item.stash[_STATE]
    session = item.config.stash.get(_SESSION, None)
    if state.passed and state.verify and report.passed and not state.reported and not state.xfail:
        found = _found(item, state)
        if found:
            _fail(report, format_violations(found, expects_raise=state.expects_raise))
    else:
        _found(item, state)  # the errors of this test's time are this test's, reported or not
    if session is None:
        return
    session.finished[item.nodeid] = state.passed and report.passed and not state.xfail
    session.current = None
    for shared in session.waiting.pop(item.nodeid, ()):
        shared.pending -= 1
        if shared.pending == 0:
            session.ready.append(shared)
    texts = _settle(session, end=False)
    if texts:
        _fail(report, "\n\n".join(texts))


def _found(item: pytest.Item, state: _TestState) -> list[Violation]:
    """This test's doubles' violations, and the certain errors its shared doubles recorded."""
    found: list[Violation] = []
    for double in state.doubles:
        certain, unused = _judge(double)
        found += certain + unused
    session = item.config.stash.get(_SESSION, None)
    if session is not None:
        for shared in session.shared:
            now = _count(shared.double)
            start = max(state.marks.get(id(shared), 0), shared.reported)
            if now > start:
                found += _recorded_since(shared.double, start)
                shared.reported = now
    state.doubles.clear()
    return found


def _settle(session: _Session, *, end: bool) -> list[str]:
    """Judge the shared doubles whose tests have all run; at the ``end``, all of them.

    A double is judged on its requesters: its unused material counts only if
    every one of them ran in this process and passed, none opted out. One
    whose requesters never all run here (deselected, skipped, on another
    xdist worker) is judged at the end on its certain errors alone.
    """
    texts: list[str] = []
    finished = session.finished
    if end:
        in_fixtures = {id(s) for group, _ in session.fixtures.values() for s in group}
        # A fixture's doubles are judged when it is torn down.
        candidates = [s for s in session.shared if id(s) not in in_fixtures]
    else:
        candidates, session.ready = session.ready, []
    for shared in candidates:
        if shared not in session.shared:
            continue  # judged already
        requesters = shared.requesters
        if requesters is None:
            requesters = frozenset(session.items)
        done = all(nodeid in finished for nodeid in requesters)
        if not done and not end:
            continue
        judged_unused = (
            done
            and all(finished[nodeid] for nodeid in requesters)
            and not (requesters & session.opted_out)
        )
        session.shared.remove(shared)
        text = _judge_shared(shared, judged_unused=judged_unused)
        if text:
            texts.append(text)
    return texts


def _judge_shared(shared: _Shared, *, judged_unused: bool) -> str | None:
    certain, unused = _judge(shared.double)
    found = certain[shared.reported :] + (unused if judged_unused else [])
    shared.reported = len(certain)
    if not found:
        return None
    return format_violations(found, header=_shared_header(shared, len(found)))


# --- fixtures broader than one test ------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> Generator[None, object, object]:
    """Keep the doubles a module-, class-, package- or session-scoped fixture makes apart.

    Such a double is shared by the tests that request the fixture, each using
    part of its material (a module-scoped FakeFetch whose pages the module's
    tests fetch between them), so the test during whose setup it happened to
    be made cannot be held to all of it. Its certain errors fail the test
    they happen in; its unused material is judged when the fixture is torn
    down, and only if every test that requested it ran in this process and
    passed, none of them opted out, and the fixture's module, class or
    package is not marked ``@pytest.mark.agentkit(verify=False)``.
    """
    if fixturedef.scope == "function":
        return (yield)
    label = f"the {fixturedef.scope}-scoped fixture {fixturedef.argname!r}"
    with collect_doubles(isolate=True, label=label) as made:
        result = yield
    session = request.config.stash.get(_SESSION, None)
    if made and session is not None:
        requesters = _fixture_requesters(session, fixturedef, request)
        group = [_Shared(double, f"made by {label}", requesters) for double in made]
        session.fixtures[id(fixturedef)] = (group, _options(request.node)["verify"])
        session.shared.extend(group)
    return result


def _fixture_requesters(
    session: _Session, fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> frozenset[str]:
    scope_node = request.node
    param_index = getattr(request, "param_index", None) if fixturedef.params else None
    found = set()
    for item in session.items.values():
        if fixturedef.argname not in getattr(item, "fixturenames", ()):
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = getattr(info, "name2fixturedefs", {}).get(fixturedef.argname, ())
        if defs and not any(d is fixturedef for d in defs):
            continue  # an override of the same name: another fixture
        if scope_node is not None and scope_node not in item.listchain():
            continue
        if param_index is not None:
            indices = getattr(getattr(item, "callspec", None), "indices", {})
            if indices.get(fixturedef.argname, param_index) != param_index:
                continue
        found.add(item.nodeid)
    current = session.current
    if current is not None and current.nodeid not in found:
        # Requested by name at run time (request.getfixturevalue): which other tests will
        # ask for it cannot be known, so it is judged on every test in its scope.
        found.update(
            item.nodeid
            for item in session.items.values()
            if scope_node is None or scope_node in item.listchain()
        )
    return frozenset(found)


def pytest_fixture_post_finalizer(
    fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
) -> None:
    __tracebackhide__ = True
    session = request.config.stash.get(_SESSION, None)
    if session is None:
        return
    entry = session.fixtures.pop(id(fixturedef), None)
    if entry is None:
        return
    group, verify = entry
    for shared in group:
        if shared in session.shared:
            session.shared.remove(shared)
    if not verify:
        return
    current = session.current
    outcomes = dict(session.finished)
    if current is not None:
        outcomes[current.nodeid] = current.passed and not current.xfail
    texts = []
    for shared in group:
        requesters = shared.requesters or frozenset()
        judged_unused = (
            all(nodeid in outcomes for nodeid in requesters)
            and all(outcomes[nodeid] for nodeid in requesters)
            and not (requesters & session.opted_out)
        )
        text = _judge_shared(shared, judged_unused=judged_unused)
        if text:
            texts.append(text)
    if texts:
        pytest.fail("\n\n".join(texts), pytrace=False)


# --- hypothesis: each example on its own ------------------------------------------------------


def _passed_in(double: object, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    return any(_holds(value, double) for value in (*args, *kwargs.values()))


def _judge_each_example(item: pytest.Item, state: _TestState) -> Callable[[], None]:
    """Wrap a hypothesis test's inner test so that each example is judged on its own.

    Doubles drawn for an example hypothesis then rejected (``assume``, a
    ``filter``) never reach the inner test and are dropped; those made or
    drawn for an example that ran are verified when it returns, and a
    violation fails that example -- so hypothesis shrinks it like any other.
    """
    test = getattr(item, "obj", None)
    handle: Any = getattr(test, "hypothesis", None)
    inner = getattr(handle, "inner_test", None)
    if not getattr(test, "is_hypothesis_test", False) or inner is None:
        return lambda: None
    bucket = state.doubles
    start = len(bucket)  # what function-scoped fixtures made: judged at teardown

    def drawn(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Verifiable]:
        made = bucket[start:]
        del bucket[start:]
        return [double for double in made if _passed_in(double, args, kwargs)]

    def judge(doubles: list[Verifiable]) -> None:
        found = [v for double in doubles for part in _judge(double) for v in part]
        if found:
            raise VerificationError(found)

    example: Callable[..., Any]
    if inspect.iscoroutinefunction(inner):

        async def example(*args: Any, **kwargs: Any) -> Any:
            mine = drawn(args, kwargs)
            with collect_doubles(isolate=True, label=f"an example of {item.nodeid}") as made:
                result = await inner(*args, **kwargs)
            judge([*mine, *made])
            return result

    else:

        def example(*args: Any, **kwargs: Any) -> Any:
            mine = drawn(args, kwargs)
            with collect_doubles(isolate=True, label=f"an example of {item.nodeid}") as made:
                result = inner(*args, **kwargs)
            judge([*mine, *made])
            return result

    handle.inner_test = functools.wraps(inner)(example)

    def restore() -> None:
        handle.inner_test = inner
        del bucket[start:]  # drawn for examples that were rejected before they ran

    return restore


# --- the end of the session -------------------------------------------------------------------


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_SESSION, None)
    if state is None:
        return
    # What is judged at the end of the session: doubles made by work that outlived its
    # test, or outside any test, and -- when the run stopped early (-x, an interrupt) --
    # the certain errors of the shared doubles whose tests never all ran.
    texts = _settle(state, end=True)
    workeroutput = getattr(session.config, "workeroutput", None)
    if isinstance(workeroutput, dict):
        # An xdist worker's exit status is not the run's: the controller reads this
        # (pytest_testnodedown) and fails the run with it.
        workeroutput[_WORKER_KEY] = texts
        return
    state.unreported.extend(texts)
    if state.unreported and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_WORKER_KEY = "agentkit_session_violations"


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On the xdist controller: take in what a worker judged at the end of its session."""
    state = node.config.stash.get(_SESSION, None)
    texts = getattr(node, "workeroutput", {}).get(_WORKER_KEY, ())
    if state is None:
        return
    worker = getattr(node, "workerinput", {}).get("workerid", "a worker")
    for text in texts:
        # Each worker imports the conftest: one double made there is judged by each.
        if not any(seen.endswith(text) for seen in state.unreported):
            state.unreported.append(f"[{worker}] {text}")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_SESSION, None)
    if state is None or not state.unreported:
        return
    terminalreporter.section("agentkit: session-level test-double violations", red=True)
    for text in state.unreported:
        terminalreporter.line(text)


@pytest.fixture
def allow_real_processes() -> Iterator[None]:
    """Let the real ``default_spawn`` start processes in this test (the plugin blocks them)."""
    with process_guard.allow_real_processes():
        yield
