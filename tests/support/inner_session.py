"""Running a user's test file in a fresh pytest session, for the kit's own tests.

The plugins' promises (a broken test fails at teardown saying what to fix, a
correct one passes, a failing one gets no extra noise) can only be shown in a
session of their own. Every package's tests that add a violation kind do it
the same way::

    pytest_plugins = ["pytester"]
    from tests.support.inner_session import run_inner, assert_verification_failed

These are the repository's test support, not part of any package: a user's
project never sees them. The repository's root ``conftest.py`` loads this
module as a plugin of the kit's own sessions, for its hook: it keeps the
in-process runs on one set of class objects (see :func:`preload_agentkit`),
for the kit's tests alone.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass

import pytest

from agentkit.core.verification.pytest_plugin._pytest_private import requested_fixtures

__all__ = [
    "INNER_INI",
    "Misuse",
    "assert_passed_clean",
    "assert_report",
    "assert_verification_failed",
    "clean_test",
    "misuse_test",
    "preload_agentkit",
    "pytest_runtest_setup",
    "quiet_failure_test",
    "run_inner",
]

INNER_INI = """
[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    if "pytester" in requested_fixtures(item):
        # Before the pytester fixture snapshots sys.modules.
        preload_agentkit()
    return (yield)


def preload_agentkit() -> None:
    """Import every installed ``agentkit.core`` / ``agentkit.fakes`` module once.

    An in-process pytester run restores ``sys.modules`` after itself, so a
    module first imported inside one run is imported afresh by the next: two
    class objects for one ``PriceTable``, and a type check that refuses the
    very class the inner test passed. Loading the whole namespace before the
    ``pytester`` fixture takes its snapshot keeps every run on the same
    objects, whatever order the tests run in.
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


def assert_report(result: pytest.RunResult, *says: str, **outcomes: int) -> str:
    """The run ended with exactly ``outcomes`` and its report holds each of ``says``.

    Returns the text of the report, for asserts on what it must not hold.
    """
    __tracebackhide__ = True
    result.assert_outcomes(**outcomes)
    text = result.stdout.str()
    for needle in says:
        assert needle in text, text
    return text


def assert_verification_failed(
    result: pytest.RunResult,
    *says: str,
    kind: str,
    double: str,
    passed: int = 0,
    errors: int = 1,
    skipped: int = 0,
) -> str:
    """The inner test body passed and the plugin failed it at teardown for ``kind``.

    Returns the text of the report, for further asserts. The message must name
    the double, where it was created (``test_inner.py:<line>``), the
    violation kind and a fix, and hold each of ``says``.
    """
    __tracebackhide__ = True
    return assert_report(
        result,
        "ERROR at teardown of",
        "test-double violation",
        f"{double} created at ",
        "test_inner.py:",
        f"{kind}: ",
        "fix: ",
        *says,
        passed=passed + errors,
        errors=errors,
        skipped=skipped,
    )


@dataclass(frozen=True)
class Misuse:
    """A user's test whose body passes though a double was misused, and what its teardown says.

    ``test`` is the test's source, written after the file's shared head;
    ``kind`` and ``double`` the violation and the double the report names;
    ``says`` more text the report must hold (the entry, the call, the hint,
    the test blamed); ``passed`` and ``skipped`` count the file's other tests.
    """

    test: str
    kind: str
    double: str
    says: tuple[str, ...] = ()
    passed: int = 0
    skipped: int = 0


def misuse_test(head: str, misuses: Mapping[str, Misuse]) -> Callable[..., None]:
    """A test with one case per misuse: ``head`` and its test run, and fail at teardown as it says.

    Bound to a ``test_*`` name of the module (``test_misuses = misuse_test(HEAD, MISUSES)``),
    so each case is reported under its key.
    """

    @pytest.mark.parametrize("name", list(misuses))
    def test(pytester: pytest.Pytester, name: str) -> None:
        __tracebackhide__ = True
        misuse = misuses[name]
        assert_verification_failed(
            run_inner(pytester, head + misuse.test),
            *misuse.says,
            kind=misuse.kind,
            double=misuse.double,
            passed=misuse.passed,
            skipped=misuse.skipped,
        )

    return test


def assert_passed_clean(result: pytest.RunResult, *, passed: int = 1) -> None:
    """Every inner test passed and nothing was said about doubles."""
    __tracebackhide__ = True
    result.assert_outcomes(passed=passed)
    assert "test-double violation" not in result.stdout.str()


def clean_test(head: str, source: str, *, passed: int = 1) -> Callable[[pytest.Pytester], None]:
    """A test: ``head`` and ``source`` run, all ``passed`` tests pass, nothing said about doubles.

    Bound to a ``test_*`` name of the module, like :func:`misuse_test`.
    """

    def test(pytester: pytest.Pytester) -> None:
        __tracebackhide__ = True
        assert_passed_clean(run_inner(pytester, head + source), passed=passed)

    return test


def quiet_failure_test(
    head: str, source: str, *says: str, **outcomes: int
) -> Callable[[pytest.Pytester], None]:
    """A test: ``head`` and ``source`` fail on their own, and the plugin adds no word to that.

    The run ends with exactly ``outcomes``, its report holds each of ``says``,
    and neither a violation nor a teardown error is reported on top.
    """

    def test(pytester: pytest.Pytester) -> None:
        __tracebackhide__ = True
        text = assert_report(run_inner(pytester, head + source), *says, **outcomes)
        assert "test-double violation" not in text, text
        assert "ERROR at teardown" not in text, text

    return test
