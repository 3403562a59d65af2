"""The pytest base classes, run as a user runs them: a test file in a fresh pytest session.

What only a real session shows: that a module-level asyncio mark adds no
warning per check (under ``filterwarnings = error`` a warning is a failure),
that strict and auto mode both run the checks, that a failure reads as the
check, the rule and what happened without the suite's frames, that a
misspelt option fails loudly, and that a spawn raising after it started a
child fails its check instead of ending the session.
"""

from __future__ import annotations

import re

import pytest

from tests.support.inner_session import assert_report

pytest_plugins = ["pytester"]

INI = """
[pytest]
asyncio_mode = {mode}
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""


def run(pytester: pytest.Pytester, source: str, mode: str = "strict") -> pytest.RunResult:
    pytester.makeini(INI.format(mode=mode))
    pytester.makepyfile(test_user=source)
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")


PASSING = """
import pytest
from agentkit.core.testing.contracts import ClockPortContract, MeterContract
from agentkit.core.meters import UsageMeter
from agentkit.fakes.io import FakeClock

pytestmark = pytest.mark.asyncio


class TestMyClock(ClockPortContract):
    @pytest.fixture
    def make_port(self):
        return FakeClock


class TestMyMeter(MeterContract):
    @pytest.fixture
    def make_port(self):
        return UsageMeter
"""


@pytest.mark.parametrize("mode", ["strict", "auto"])
def test_a_module_level_asyncio_mark_adds_no_warning_in_either_mode(
    pytester: pytest.Pytester, mode: str
) -> None:
    result = run(pytester, PASSING, mode)
    result.assert_outcomes(passed=9, warnings=0)
    assert "PytestWarning" not in result.stdout.str()


def test_the_checks_run_in_strict_mode_without_any_mark(pytester: pytest.Pytester) -> None:
    result = run(pytester, PASSING.replace("pytestmark = pytest.mark.asyncio", ""))
    result.assert_outcomes(passed=9)


def test_a_failure_shows_the_check_the_rule_and_what_happened_and_no_kit_frames(
    pytester: pytest.Pytester,
) -> None:
    source = """
import pytest
from agentkit.core.testing.contracts import CheckpointerContract


class Aliasing:
    def __init__(self):
        self.states = {}

    async def save(self, key, state):
        self.states[key] = state

    async def load(self, key):
        return self.states.get(key)


class TestMine(CheckpointerContract):
    @pytest.fixture
    def make_port(self):
        return Aliasing
"""
    result = run(pytester, source)
    text = assert_report(
        result,
        "the_saved_state_cannot_be_changed_through_a_copy",
        "Changing the mapping given to save(), or the one load() returned",
        "changed by the caller",
        passed=4,
        failed=1,
    )
    assert "_suite.py" not in text
    assert "_base.py" not in text
    failure = text.split("= FAILURES =")[1].split("short test summary")[0]
    assert len(failure.strip().splitlines()) < 12, failure


def test_a_misspelt_option_fails_naming_it(pytester: pytest.Pytester) -> None:
    source = """
import pytest
from agentkit.core.testing.contracts import SearchPortContract
from agentkit.core.types import SearchHit
from agentkit.fakes.io import FakeSearch


class TestMine(SearchPortContract):
    contract_options = {"qeury": "agentkit"}

    @pytest.fixture
    def make_port(self):
        return lambda: FakeSearch([SearchHit("t", "https://example.test")])
"""
    result = run(pytester, source)
    assert_report(result, "contract_options['qeury']", "did you mean 'query'?", failed=4)


def test_a_spawn_raising_after_it_started_a_child_fails_its_checks_not_the_session(
    pytester: pytest.Pytester,
) -> None:
    source = """
import asyncio
import pytest
from agentkit.core.testing.contracts import SpawnPortContract


async def spawn(program, *args, **kw):
    await asyncio.create_subprocess_exec(program, *args, **kw)
    raise RuntimeError("lost the process object")


class TestMine(SpawnPortContract):
    @pytest.fixture
    def make_port(self):
        return lambda: spawn
"""
    result = run(pytester, source)
    text = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in text
    checks = len(re.findall(r"raised RuntimeError: lost the process object", text))
    result.assert_outcomes(failed=9)
    assert checks >= 9


SKIPPING = """
import pytest
from agentkit.core.testing.contracts import LLMPortContract
from agentkit.core.types import Message
from agentkit.fakes.llm import FakeLLM


def helper():
    return None


class TestMyModel(LLMPortContract):
    contract_options = {"messages": [Message("user", "ping")], "model": "m"}

    @pytest.fixture
    def make_port(self):
        return lambda: FakeLLM("pong", verify=False)
"""


@pytest.mark.parametrize("asyncio_plugin", ["loaded", "not loaded"])
def test_a_skipped_check_is_reported_at_the_users_class(
    pytester: pytest.Pytester, asyncio_plugin: str
) -> None:
    without = asyncio_plugin == "not loaded"
    pytester.makeini("[pytest]\nfilterwarnings = error\n" if without else INI.format(mode="strict"))
    pytester.makepyfile(test_user=SKIPPING)
    plugins = ["-p", "no:asyncio"] if without else []
    result = pytester.runpytest_subprocess(
        "-rs", "-p", "no:randomly", "-p", "no:cacheprovider", *plugins
    )
    text = result.stdout.str()
    result.assert_outcomes(passed=4, skipped=2)
    skips = [line for line in text.splitlines() if line.startswith("SKIPPED")]
    written = (pytester.path / "test_user.py").read_text().splitlines()
    class_line = written.index("class TestMyModel(LLMPortContract):") + 1
    for line in skips:
        assert f" test_user.py:{class_line}: " in line, skips
        assert "needs the option(s)" in line
    assert "unittest.py" not in text
    assert "_base.py" not in text
