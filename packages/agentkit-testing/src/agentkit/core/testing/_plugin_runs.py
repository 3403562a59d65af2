"""Running a small test file under the agentkit plugin, for the kit's own tests.

The plugin's promises -- a broken test fails at teardown with a message that
says what to fix, a correct one passes, an already-failing one gets no extra
noise -- can only be shown by running a user's test in a fresh pytest
session. Every package's tests that add a violation kind do that the same
way, so the way lives here, importable from any test in the workspace::

    pytest_plugins = ["pytester"]
    from agentkit.core.testing._plugin_runs import run_inner, assert_verification_failed

Internal (``_``): it is the kit's test tooling, not part of its API.
"""

from __future__ import annotations

import pytest

__all__ = ["INNER_INI", "assert_passed_clean", "assert_verification_failed", "run_inner"]

INNER_INI = """
[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""


def run_inner(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    """Write ``source`` as ``test_inner.py`` and run it in-process, in a fixed order."""
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=source)
    return pytester.runpytest("-p", "no:randomly", *args)


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
