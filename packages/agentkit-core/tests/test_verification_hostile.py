"""The plugin under doubles that misbehave: their verdict is still given, and the run goes on."""

from __future__ import annotations

import pytest

from agentkit.core.verification.pytest_plugin import _pytest_private
from tests.support.inner_session import INNER_INI, assert_report, run_inner

pytest_plugins = ["pytester"]

HEAD = """
import pytest
from agentkit.core.verification import VerifyingDouble, Violation

class Custom(VerifyingDouble):
    def __init__(self):
        self._init_verification(verify=True)
"""


def test_a_subclass_override_of_violations_is_what_the_plugin_reports(
    pytester: pytest.Pytester,
) -> None:
    source = (
        HEAD
        + """
class Strict(Custom):
    def violations(self):
        return [*super().violations(), self._violation("never_closed", "left open", "close it")]

def test_leaves_it_open():
    Strict()
"""
    )
    assert_report(
        run_inner(pytester, source), "never_closed: left open", "fix: close it", passed=1, errors=1
    )


@pytest.mark.parametrize(
    "raised",
    [
        "RuntimeError('boom')",
        "pytest.fail.Exception('failed inside')",
        "pytest.skip.Exception('skipped inside')",
        "SystemExit(3)",
        "__import__('agentkit.core.verification.script', fromlist=['x']).ScriptExhausted('out')",
    ],
)
def test_whatever_violations_raises_is_that_doubles_crash_never_an_internal_error(
    pytester: pytest.Pytester, raised: str
) -> None:
    source = (
        HEAD
        + f"""
class Broken(Custom):
    def violations(self):
        raise {raised}

def test_makes_it():
    Broken()

def test_innocent():
    pass
"""
    )
    result = run_inner(pytester, source)
    text = assert_report(result, "verification_crashed", passed=2, errors=1)
    assert "INTERNALERROR" not in text
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_huge_violation_text_is_cut_in_the_report_and_whole_in_violations(
    pytester: pytest.Pytester,
) -> None:
    source = (
        HEAD
        + """
HUGE = "x" * 10_000_000

class Loud(Custom):
    def _leftovers(self):
        return [self._violation("huge", HUGE, "say less")]

def test_makes_it():
    double = Loud()
    assert len(double.violations()[0].detail) == 10_000_000
"""
    )
    result = run_inner(pytester, source)
    text = assert_report(result, "huge: xxx", "more characters", passed=1, errors=1)
    assert len(text) < 100_000


def test_every_private_pytest_attribute_the_plugin_reads_still_exists() -> None:
    """A pytest release that moves one fails here, by name, not as a verdict silently lost."""
    import importlib

    for dotted, attribute in _pytest_private.REQUIRED:
        module, _, name = dotted.rpartition(".")
        owner = getattr(importlib.import_module(module), name)
        fields = getattr(owner, "__dataclass_fields__", {})
        assert attribute in fields or hasattr(owner, attribute), (
            f"pytest moved {dotted}.{attribute}: update agentkit.core.verification."
            "pytest_plugin._pytest_private"
        )


def test_parametrized_values_reads_what_pytest_handed_the_test(pytester: pytest.Pytester) -> None:
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        """
import pytest

@pytest.mark.parametrize("n", [7])
def test_x(n):
    pass
"""
    )
    items, _ = pytester.inline_genitems()
    assert dict(_pytest_private.parametrized_values(items[0])) == {"n": 7}


def test_requested_fixtures_reads_what_the_test_asks_for(pytester: pytest.Pytester) -> None:
    """A pytest that moved ``Function.fixturenames`` fails here (the reader would give ())."""
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        """
import pytest

@pytest.fixture
def inner():
    return 1

@pytest.fixture
def outer(inner):
    return inner

def test_x(outer, tmp_path):
    pass
"""
    )
    items, _ = pytester.inline_genitems()
    assert {"outer", "inner", "tmp_path"} <= set(_pytest_private.requested_fixtures(items[0]))
