"""The plugin's state for one pytest session, and the hooks that start and end each owner.

One :class:`VerificationPlugin` is registered per session (per xdist
worker). Its hooks do three things only: start an owner when pytest starts
a test, a fixture or a collection step (so every double made then is that
owner's), end it when pytest ends it, and give the verdict of what the
owner held to the report pytest is writing at that moment.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Generator
from contextlib import ExitStack
from typing import Any

import pytest

from agentkit.core._internal.failures import hide_kit_frames, is_kit_failure
from agentkit.core.verification import process_guard
from agentkit.core.verification._double import left_process
from agentkit.core.verification._ownership import (
    carry_into_threads,
    current_owner,
    runner_frames,
    running,
    started_threads,
)
from agentkit.core.verification._records import Violation
from agentkit.core.verification.pytest_plugin._integrations import (
    WORKER_KEY,
    holds,
    judge_each_example,
    worker_output,
)
from agentkit.core.verification.pytest_plugin._owners import (
    CollectOwner,
    FixtureOwner,
    SessionOwner,
    Shared,
    TestOwner,
)
from agentkit.core.verification.pytest_plugin._pytest_private import (
    RUNNER_MODULES,
    parametrized_values,
    requested_fixtures,
)
from agentkit.core.verification.pytest_plugin._reports import (
    fail,
    format_violations,
    judge,
    site_of,
)

__all__ = ["OPT_IN", "VerificationPlugin", "marker_options"]

OPT_IN = (
    "the agentkit pytest plugin blocks real processes in tests; pass a fake spawn "
    "(spawn=FakeClaudeCli(...) / FakeCodexCli(...)), or let this test start real processes "
    "with @pytest.mark.agentkit(real_processes=True) or the allow_real_processes fixture"
)

_MARKER_OPTIONS = {"verify": True, "real_processes": False}
_OWNER = pytest.StashKey[TestOwner]()
_STACK = pytest.StashKey[ExitStack]()


def marker_options(node: pytest.Item | pytest.Collector) -> dict[str, bool]:
    """The ``agentkit`` marker's options for ``node``; the closest marker wins per option."""
    __tracebackhide__ = True
    options = dict(_MARKER_OPTIONS)
    takes = ", ".join(k + "=" for k in _MARKER_OPTIONS)
    for marker in reversed(list(node.iter_markers("agentkit"))):
        if marker.args:
            raise pytest.UsageError(
                f"{node.nodeid}: @pytest.mark.agentkit takes keywords only ({takes}), "
                f"got {marker.args!r}"
            )
        for key, value in marker.kwargs.items():
            if key not in _MARKER_OPTIONS:
                raise pytest.UsageError(
                    f"{node.nodeid}: @pytest.mark.agentkit has no option {key!r}; it takes {takes}"
                )
            if not isinstance(value, bool):
                raise pytest.UsageError(
                    f"{node.nodeid}: @pytest.mark.agentkit({key}=...) must be a bool, got {value!r}"
                )
            options[key] = value
    return options


def _expects_raise(item: pytest.Item) -> bool:
    code = getattr(getattr(item, "obj", None), "__code__", None)
    names = getattr(code, "co_names", ())
    return "raises" in names or "assertRaises" in names or "RaisesGroup" in names


class VerificationPlugin:
    """Strict verification for one session: every double judged when its owner ends."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.session = SessionOwner()
        self.stack = ExitStack()
        self.stack.enter_context(running(self.session))
        self.stack.enter_context(runner_frames(RUNNER_MODULES))
        carry_into_threads()
        self.items: dict[str, pytest.Item] = {}
        """Every test a collector found, before -k, -m, --lf or another plugin dropped it."""
        self.collected = False
        self.made_at_collection: list[Shared] = []
        self.shared: list[Shared] = []
        """Collection-time doubles not judged yet."""
        self.waiting: dict[str, list[Shared]] = {}
        self.fixtures: dict[int, FixtureOwner] = {}
        self.outcomes: dict[str, tuple[int, bool]] = {}
        """Per test that ended, its last attempt: when it started (:attr:`started`), and whether
        its body ran and passed with verification on."""
        self.started = 0
        """How many test runs have started: a shared double born later was not seen by the earlier."""
        self.bodies = 0
        self.current: TestOwner | None = None
        self.given: dict[int, Violation] = {}
        """Every violation a verdict gave, by id (kept alive so no id is reused)."""
        self.carried: dict[int, tuple[pytest.TestReport, list[Violation]]] = {}
        self.again: dict[str, list[Violation]] = {}
        self.finalized: list[Violation] = []
        self.unreported: list[str] = []

    def close(self) -> None:
        self.stack.close()
        self.session.ended = True

    # --- verdicts -----------------------------------------------------------------------------

    def _new(self, found: list[Violation]) -> list[Violation]:
        """The violations of ``found`` no verdict gave yet, each once; now given."""
        fresh: list[Violation] = []
        for violation in found:
            if id(violation) not in self.given:
                self.given[id(violation)] = violation
                fresh.append(violation)
        return fresh

    def _ran(self, tests: frozenset[str] | None, *, since: int = 0) -> bool:
        """Every test of ``tests`` (None: of the session) ran its body and passed, here.

        Counted are the tests' last attempts started at ``since`` or later: a
        fixture made again for a rerun was never shown to the tests that ran
        before it.
        """
        if self.bodies == 0:
            return False
        names = self.items if tests is None else tests
        outcomes = self.outcomes
        for name in names:
            started, ok = outcomes.get(name, (-1, False))
            if not ok or started < since:
                return False
        return True

    def _judge_shared(self, shared: Shared, *, unused: bool) -> tuple[str, list[Violation]] | None:
        """The report of a shared double's new violations, and those violations; None: none."""
        found = self._new(judge(shared.double, unused=unused))
        if not found:
            return None
        count = len(found)
        if shared.tests is None:
            judged = "judged at the end of the session"
        else:
            judged = f"shared by {len(shared.tests)} test(s), judged once they had all run"
        header = (
            f"agentkit: {count} test-double violation{'' if count == 1 else 's'} of a double "
            f"{shared.origin}, {judged}:"
        )
        return format_violations(found, header=header), found

    # --- collection ---------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_make_collect_report(
        self, collector: pytest.Collector
    ) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
        """Own what importing a module (or conftest) and building its tests makes.

        The innermost wrapper: it sees every test the collector found before
        another plugin drops some (``--lf`` drops from a module's list, not
        through ``-k``'s deselection); such a test still counts as one a
        shared double is judged on -- it did not run, so the double's unused
        material is not judged.
        """
        where = collector.nodeid or str(getattr(collector, "path", collector.name))
        owner = CollectOwner(where, self.session)
        try:
            with running(owner):
                report = yield
        finally:
            owner.ended = True
        if report.outcome == "passed":
            # Skipped or failed (a module-level importorskip): its tests never exist, and
            # neither does a claim about what they would have used.
            self.adopt_collected(owner)
        if not self.collected:
            for node in report.result or ():
                if isinstance(node, pytest.Item):
                    self.items.setdefault(node.nodeid, node)
        return report

    def adopt_collected(self, owner: CollectOwner) -> None:
        """Take the doubles a collection step made, to be tied to tests once all are known."""
        self.made_at_collection += [
            Shared(double, f"made at import or collection time ({site_of(double)})", None)
            for double in owner.doubles
        ]

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        for item in items:
            self.items.setdefault(item.nodeid, item)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = True
        for item in session.items:
            self.items.setdefault(item.nodeid, item)
        made, self.made_at_collection = self.made_at_collection, []
        if not made:
            return
        wanted = frozenset(id(shared.double) for shared in made)
        given: dict[int, set[str]] = {}
        for item in self.items.values():
            for value in parametrized_values(item).values():
                for key in holds(value, wanted):
                    given.setdefault(key, set()).add(item.nodeid)
        for shared in made:
            tests = given.get(id(shared.double))
            if tests is not None:
                shared.tests = frozenset(tests)
                shared.left = set(tests)
                for name in tests:
                    self.waiting.setdefault(name, []).append(shared)
            self.shared.append(shared)

    # --- each test ----------------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        options = marker_options(item)
        owner = TestOwner(
            item,
            self.session,
            verify=options["verify"],
            xfail=item.get_closest_marker("xfail") is not None,
            expects_raise=_expects_raise(item),
        )
        self.started += 1
        owner.started = self.started
        stack = ExitStack()
        item.stash[_OWNER] = owner
        item.stash[_STACK] = stack
        self.current = owner
        stack.enter_context(running(owner))
        stack.callback(setattr, owner, "ended", True)
        if options["real_processes"]:
            # An allow rather than no block, so it also holds inside an enclosing block
            # (a pytester run inside a test that blocks).
            stack.enter_context(process_guard.allow_real_processes())
        else:
            stack.enter_context(process_guard.block_real_processes(OPT_IN))
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        owner = item.stash.get(_OWNER, None)
        if owner is None or not owner.verify:
            return (yield)
        restore = judge_each_example(item, owner.doubles)
        try:
            result = yield
        finally:
            restore()
        if owner.xfail:
            # Judged now, in the call: a violation of an xfail test is its expected failure,
            # and a strict xfail whose only failure is a violation is not an XPASS.
            own, others = self._own(owner, unused=True)
            found = self._new(own + others)
            if found:
                owner.passed = False
                pytest.fail(
                    format_violations(found, expects_raise=owner.expects_raise), pytrace=False
                )
        return result

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_teardown(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, None, None]:
        try:
            return (yield)
        finally:
            stack = item.stash.get(_STACK, None)
            if stack is not None:
                del item.stash[_STACK]
                stack.close()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        if call.excinfo is not None and is_kit_failure(call.excinfo.value):
            # Before the report is drawn: the kit's frames leave the traceback it is drawn from.
            hide_kit_frames(call.excinfo.value)
            call.excinfo.traceback = type(call.excinfo.traceback)(call.excinfo.tb)
        report = yield
        owner = item.stash.get(_OWNER, None)
        if owner is None:
            return report
        try:
            self._after(owner, call.when, report)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # the plugin must never end the run with INTERNALERROR
            fail(
                report,
                "agentkit: the verification itself failed:\n"
                + "".join(traceback.format_exception(type(error), error, error.__traceback__)),
            )
        return report

    def _own(self, owner: TestOwner, *, unused: bool) -> tuple[list[Violation], list[Violation]]:
        """What the test's own doubles say, and the other doubles' errors witnessed meanwhile."""
        own = [v for double in owner.doubles for v in judge(double, unused=unused)]
        mine = {id(v) for v in own}
        others = [v for v in owner.witnessed if id(v) not in mine]
        owner.witnessed = []
        return own, others

    def _after(self, owner: TestOwner, when: str, report: pytest.TestReport) -> None:
        if when != "teardown":
            if not report.passed or hasattr(report, "wasxfail"):
                # Failed, errored, skipped or xfail: its own outcome is the news.
                owner.passed = False
            elif when == "call":
                owner.body = True
                self.bodies += 1
            return
        item = owner.item
        del item.stash[_OWNER]
        self.current = None
        # A teardown failed only by a fixture's verdict (ours) is no failure of the test's own.
        clean = owner.passed and (report.passed or bool(self.finalized))
        own, others = self._own(owner, unused=owner.body)
        others = self._new(others + self.again.pop(item.nodeid, []))
        own = self._new(own)
        # What a rerun of this test must be told again: not its own doubles, made anew.
        foreign, self.finalized = [*self.finalized], []
        if (own or others) and clean and owner.verify and not owner.xfail:
            fail(report, format_violations(own + others, expects_raise=owner.expects_raise))
            foreign += others
        self._note_copies(owner, report)
        self.outcomes[item.nodeid] = (
            owner.started,
            clean and owner.body and owner.verify and not owner.xfail,
        )
        texts = []
        for shared, unused in self._ready(item.nodeid):
            verdict = self._judge_shared(shared, unused=unused)
            if verdict is not None:
                texts.append(verdict[0])
                foreign += verdict[1]
        if texts:
            fail(report, "\n\n".join(texts))
        if foreign:
            self.carried[id(report)] = (report, foreign)

    def _ready(self, nodeid: str) -> list[tuple[Shared, bool]]:
        """The shared doubles to judge now that ``nodeid`` ended, each with its ``unused`` flag.

        Those whose tests have all ended; and at the last test of the session,
        those any test may use -- judged at a test a reader can open, rather
        than in the summary.
        """
        ready = []
        for shared in self.waiting.pop(nodeid, ()):
            shared.left.discard(nodeid)
            if not shared.left and shared in self.shared:
                ready.append(shared)
        if self.collected and len(self.outcomes) >= len(self.items):
            ready += [s for s in self.shared if s.tests is None]
        for shared in ready:
            self.shared.remove(shared)
        return [(shared, self._ran(shared.tests)) for shared in ready]

    def _note_copies(self, owner: TestOwner, report: pytest.TestReport) -> None:
        left = [(d, where) for d in owner.doubles if (where := left_process(d)) is not None]
        if left:
            report.sections.append(
                (
                    "agentkit",
                    "\n".join(
                        f"{site_of(d)}: a copy of this double left at {where} (pickled for "
                        "another process, or deep-copied); its use there cannot be seen, so "
                        "its unused material was not judged -- verify the copy where it is "
                        "used (assert_complete())"
                        for d, where in left
                    ),
                )
            )

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A report pytest-rerunfailures marked ``rerun`` gives its violations to the next attempt."""
        entry = self.carried.pop(id(report), None)
        outcome: str = report.outcome  # "rerun" is the rerun plugin's, beyond pytest's Literal
        if entry is None or outcome != "rerun":
            return
        _, violations = entry
        for violation in violations:
            self.given.pop(id(violation), None)
        self.again.setdefault(report.nodeid, []).extend(violations)

    # --- fixtures broader than one test -------------------------------------------------------

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_fixture_setup(
        self, fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
    ) -> Generator[None, object, object]:
        """Run the fixture as an owner: of a broader scope it keeps its doubles until finalized."""
        scope = fixturedef.scope
        test = self.current
        if scope == "function":
            # Its doubles are its test's (they end together): it only names itself.
            if test is None:
                return (yield)
            named, test.fixture = test.fixture, fixturedef.argname
            try:
                return (yield)
            finally:
                test.fixture = named
        verify = marker_options(request.node)["verify"]
        owner = FixtureOwner(fixturedef.argname, scope, current_owner(), verify=verify)
        owner.born = self.started
        owner.dynamic = test is not None and fixturedef.argname not in requested_fixtures(test.item)
        self.fixtures[id(fixturedef)] = owner
        with running(owner):
            return (yield)

    def pytest_fixture_post_finalizer(
        self, fixturedef: pytest.FixtureDef[object], request: pytest.FixtureRequest
    ) -> None:
        """Judge a broader fixture's doubles on the tests in its scope that request it."""
        __tracebackhide__ = True
        owner = self.fixtures.pop(id(fixturedef), None)
        if owner is None:
            return
        owner.ended = True
        if not owner.doubles or not owner.verify:
            return
        tests = self._fixture_tests(owner, request)
        current = self.current
        if current is not None:  # finalized in this test's teardown: its body is over
            self.outcomes[current.item.nodeid] = (
                current.started,
                current.passed and current.body and current.verify and not current.xfail,
            )
        unused = self._ran(tests, since=owner.born)
        found = self._new([v for double in owner.doubles for v in judge(double, unused=unused)])
        if not found:
            return
        count = len(found)
        text = format_violations(
            found,
            header=(
                f"agentkit: {count} test-double violation{'' if count == 1 else 's'} of a double "
                f"made by {owner.label}, shared by {len(tests)} test(s), judged once they had "
                "all run:"
            ),
        )
        if current is None:  # torn down at the end of the session, outside any test
            self.unreported.append(text)
            return
        self.finalized += found
        pytest.fail(text, pytrace=False)

    def _fixture_tests(self, owner: FixtureOwner, request: pytest.FixtureRequest) -> frozenset[str]:
        """The tests in the fixture's scope that request it (every one, if asked for by name)."""
        scope_node = request.node
        param = getattr(request, "param", _NO_PARAM)
        found = set()
        for name, item in self.items.items():
            if scope_node is not None and scope_node not in item.listchain():
                continue
            if not owner.dynamic:
                if owner.argname not in requested_fixtures(item):
                    continue
                if param is not _NO_PARAM:
                    value = parametrized_values(item).get(owner.argname, param)
                    if value is not param and not _same(value, param):
                        continue
            found.add(name)
        return frozenset(found)

    # --- the end of the session ---------------------------------------------------------------

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        # Python waits for non-daemon threads before it exits: so does the verdict.
        me = threading.current_thread()
        for thread in started_threads(self.session):
            if not thread.daemon and thread is not me:
                thread.join()
        texts = self._settle()
        output = worker_output(session.config)
        if output is not None:
            # An xdist worker's exit status is not the run's: the controller reads this
            # (pytest_testnodedown) and fails the run with it.
            output[WORKER_KEY] = texts
            return
        self.unreported += texts
        if self.unreported and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _settle(self) -> list[str]:
        """Judge what is left: collection-time doubles, work that outlived its test, the rest."""
        left = [(shared, self._ran(shared.tests)) for shared in self.shared]
        for double, started_by in self.session.late:
            test = started_by.item.nodeid if isinstance(started_by, TestOwner) else None
            origin = (
                f"made by work started in {started_by.label} after it had ended ({site_of(double)})"
            )
            tests = frozenset({test}) if test is not None else None
            left.append((Shared(double, origin, None), self._ran(tests)))
        for double in self.session.doubles:
            origin = f"made outside any test ({site_of(double)})"
            left.append((Shared(double, origin, None), self._ran(None)))
        for owner in self.fixtures.values():
            origin = f"made by {owner.label}, never finalized"
            left += [(Shared(double, origin, None), False) for double in owner.doubles]
        self.shared, self.session.late, self.session.doubles = [], [], []
        texts = [
            verdict[0]
            for shared, unused in left
            if (verdict := self._judge_shared(shared, unused=unused)) is not None
        ]
        found = self._new(self.session.witnessed)
        self.session.witnessed = []
        if found:
            header = "agentkit: test-double violations that happened while no test ran:"
            texts.append(format_violations(found, header=header))
        return texts

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """On the xdist controller: take in what a worker judged at the end of its session."""
        texts = getattr(node, "workeroutput", {}).get(WORKER_KEY, ())
        worker = getattr(node, "workerinput", {}).get("workerid", "a worker")
        for text in texts:
            # Each worker imports the conftest: one double made there is judged by each.
            if not any(seen.endswith(text) for seen in self.unreported):
                self.unreported.append(f"[{worker}] {text}")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.unreported:
            return
        terminalreporter.section("agentkit: session-level test-double violations", red=True)
        for text in self.unreported:
            terminalreporter.line(text)


_NO_PARAM = object()


def _same(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False
