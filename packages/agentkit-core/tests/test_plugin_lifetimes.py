"""The plugin judges every double whatever its lifetime, and a shared one only on what ran.

Each case is a user's test file run in a fresh in-process pytest session, in
both directions: the broken agent must fail (and be reported against the
right test, or the session), the correct test must pass untouched. The
classes are the ones the verification guide lists: doubles made at import
or collection time, by tasks and threads, inside hypothesis examples; shared
doubles under skip, -k, xfail, xdist and the opt-out marker; unittest
classes; fixtures of every scope; and a plugin that never breaks.
"""

from __future__ import annotations

import pytest

from tests.support import inner_session as inner

pytest_plugins = ["pytester"]

HEAD = """
import asyncio
import threading
import time
import pytest
from agentkit.core.types import Message
from agentkit.fakes.llm import FakeLLM, Turn

Q = [Message.user("q")]

def ask(llm, times=1):
    async def run():
        for _ in range(times):
            await llm.chat(messages=Q, model="m")
    asyncio.run(run())
"""


def _session_failed(result: pytest.RunResult, *needles: str, passed: int) -> None:
    """The run failed on a session-level report naming ``needles``; all ``passed`` tests passed."""
    __tracebackhide__ = True
    text = inner.assert_report(
        result, "session-level test-double violations", *needles, passed=passed
    )
    assert result.ret != 0, text


def _llm_misuse(
    test: str, kind: str, blamed: str, *, passed: int = 0, skipped: int = 0
) -> inner.Misuse:
    """A misuse of a ``FakeLLM.script``, reported at the teardown of the test ``blamed``."""
    says = (f"ERROR at teardown of {blamed}",)
    return inner.Misuse(test, kind, "FakeLLM.script", says, passed=passed, skipped=skipped)


def llm_fixture(scope: str, *, turns: int) -> str:
    """Inner source: a ``scope``-scoped fixture ``llm``, a script of ``turns`` turns."""
    return f"""
@pytest.fixture(scope="{scope}")
def llm():
    return FakeLLM.script([Turn("ok")] * {turns})
"""


# --- a misuse of each lifetime fails the test it belongs to, at that test's teardown -----------

SWALLOWED_MISS = """
LLM = FakeLLM.script([Turn("one")])

def test_loops_too_far():
    try:
        ask(LLM, times=2)
    except BaseException:
        pass

def test_other():
    {other}
"""

MISUSES = {
    "a_swallowed_miss_of_a_module_level_double_fails_the_test_it_happened_in": _llm_misuse(
        SWALLOWED_MISS.format(other='pytest.skip("not run: the miss is still certain")'),
        "script_exhausted",
        "test_loops_too_far",
        skipped=1,
    ),
    "a_double_made_by_a_task_belongs_to_the_test_that_created_the_task": _llm_misuse(
        """
async def test_task_makes_a_broken_double():
    async def work():
        FakeLLM.script([Turn("never asked")])
    await asyncio.create_task(work())

async def test_task_makes_a_used_double():
    async def work():
        llm = FakeLLM.script([Turn("x")])
        await llm.chat(messages=Q, model="m")
    await asyncio.gather(asyncio.create_task(work()))
""",
        "unused_turns",
        "test_task_makes_a_broken_double",
        passed=1,
    ),
    "a_double_made_by_a_joined_thread_belongs_to_its_test": _llm_misuse(
        """
def test_thread_makes_a_broken_double():
    worker = threading.Thread(target=lambda: FakeLLM.script([Turn("never")]))
    worker.start()
    worker.join()

def test_thread_makes_a_used_double():
    def work():
        ask(FakeLLM.script([Turn("x")]))
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
""",
        "unused_turns",
        "test_thread_makes_a_broken_double",
        passed=1,
    ),
    "a_certain_error_of_a_shared_double_is_reported_even_when_others_skip": _llm_misuse(
        llm_fixture("module", turns=1)
        + """
def test_swallows_the_miss(llm):
    try:
        ask(llm, 2)
    except BaseException:
        pass

def test_skipped(llm):
    pytest.skip("no")
""",
        "script_exhausted",
        "test_swallows_the_miss",
        skipped=1,
    ),
    "a_class_scoped_fixture_double_is_judged_on_its_class": _llm_misuse(
        llm_fixture("class", turns=2)
        + """
class TestAgent:
    def test_first(self, llm):
        ask(llm)

    def test_second(self, llm):
        ask(llm)

class TestBroken:
    def test_only(self, llm):
        ask(llm)
""",
        "unused_turns",
        "TestBroken.test_only",
        passed=2,
    ),
    "unittest_classes_are_verified_both_ways": _llm_misuse(
        """
import unittest

class TestAgent(unittest.TestCase):
    def setUp(self):
        self.llm = FakeLLM.script([Turn("one"), Turn("two")])

    def test_uses_all(self):
        ask(self.llm, 2)

    def test_stops_early(self):
        ask(self.llm, 1)

class TestShared(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.llm = FakeLLM.script([Turn("one"), Turn("two")])

    def test_a(self):
        ask(self.llm)

    def test_b(self):
        ask(self.llm)
""",
        "unused_turns",
        "TestAgent.test_stops_early",
        passed=3,
    ),
    "a_test_provoking_a_miss_in_pytest_raises_is_told_about_verify_false": inner.Misuse(
        """
from agentkit.core.verification.script import ScriptExhausted

async def test_exhaustion_on_purpose():
    llm = FakeLLM.script([Turn("one")])
    await llm.chat(messages=Q, model="m")
    with pytest.raises(ScriptExhausted):
        await llm.chat(messages=Q, model="m")
""",
        kind="script_exhausted",
        double="FakeLLM.script",
        says=(
            "this test expects an exception (pytest.raises",
            "build that double with verify=False",
        ),
    ),
}


test_a_misuse_fails_the_test_it_belongs_to = inner.misuse_test(HEAD, MISUSES)


# --- import time and collection time ---------------------------------------------------------

MODULE_LEVEL = """
LLM = FakeLLM.script([Turn("one"), Turn("two")])

def test_first():
    ask(LLM)

def test_second():
    {second}
"""


def test_a_module_level_double_with_unused_turns_fails(pytester: pytest.Pytester) -> None:
    result = inner.run_inner(pytester, HEAD + MODULE_LEVEL.format(second="pass"))
    text = inner.assert_verification_failed(
        result, kind="unused_turns", double="FakeLLM.script", passed=1
    )
    assert "made at import or collection time (" in text
    assert "ERROR at teardown of test_second" in text  # the last test that requested it


test_a_module_level_double_used_by_its_tests_passes = inner.clean_test(
    HEAD, MODULE_LEVEL.format(second="ask(LLM)"), passed=2
)


def test_a_module_level_double_is_not_judged_when_a_test_is_deselected(
    pytester: pytest.Pytester,
) -> None:
    result = inner.run_inner(pytester, HEAD + MODULE_LEVEL.format(second="ask(LLM)"), "-k", "first")
    result.assert_outcomes(passed=1, deselected=1)
    assert "test-double violation" not in result.stdout.str()


def test_a_module_level_double_is_not_judged_when_a_test_is_skipped(
    pytester: pytest.Pytester,
) -> None:
    second = "pytest.skip('later')\n    ask(LLM)"
    result = inner.run_inner(pytester, HEAD + MODULE_LEVEL.format(second=second))
    result.assert_outcomes(passed=1, skipped=1)
    assert "test-double violation" not in result.stdout.str()


PARAMETRIZED = """
@pytest.mark.parametrize("llm, times", [
    (FakeLLM.script([Turn("a")]), 1),
    (FakeLLM.script([Turn("a"), Turn("b")]), {times}),
])
def test_agent(llm, times):
    ask(llm, times)
"""


def test_a_double_made_in_a_parametrize_list_is_judged_on_its_own_case(
    pytester: pytest.Pytester,
) -> None:
    result = inner.run_inner(pytester, HEAD + PARAMETRIZED.format(times=1))
    text = inner.assert_verification_failed(
        result, kind="unused_turns", double="FakeLLM.script", passed=1
    )
    assert "ERROR at teardown of test_agent[llm1-1]" in text
    assert "test_agent[llm0-1]" not in text.split("short test summary")[0].split("ERRORS")[1]


test_doubles_made_in_a_parametrize_list_used_up_pass = inner.clean_test(
    HEAD, PARAMETRIZED.format(times=2), passed=2
)


def test_a_double_made_at_import_time_in_a_helper_is_judged_when_the_last_test_ends(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        helper="""
from agentkit.fakes.llm import FakeLLM, Turn
LLM = FakeLLM.script([Turn("one"), Turn("never")])
"""
    )
    pytester.syspathinsert()
    result = inner.run_inner(
        pytester,
        HEAD + "from helper import LLM\n\ndef test_uses_it():\n    ask(LLM)\n",
    )
    inner.assert_report(
        result,
        "ERROR at teardown of test_uses_it",
        "made at import or collection time (",
        "helper.py:",
        "unused_turns",
        passed=1,
        errors=1,
    )


# --- tasks and threads -----------------------------------------------------------------------


def test_a_double_made_by_a_thread_after_its_test_ended_is_never_blamed_on_another(
    pytester: pytest.Pytester,
) -> None:
    source = """
started = threading.Event()
made = threading.Event()

def test_starts_work_and_returns():
    def work():
        started.wait()
        FakeLLM.script([Turn("late")])
        made.set()
    threading.Thread(target=work).start()

def test_innocent_while_the_thread_runs():
    started.set()
    assert made.wait(5)
"""
    result = inner.run_inner(pytester, HEAD + source)
    _session_failed(
        result,
        "made by work started in the test test_inner.py::test_starts_work_and_returns",
        passed=2,
    )


# --- hypothesis: each example on its own -------------------------------------------------------

HYPOTHESIS = """
from hypothesis import assume, given, settings, strategies as st

@settings(max_examples=25, database=None, deadline=None)
@given(st.integers(min_value=0, max_value=5))
def test_examples(n):
    llm = FakeLLM.script([Turn(str(i)) for i in range(n)])
    assume(n % 2 == 0)
    ask(llm, {times})
"""


test_hypothesis_rejected_examples_leave_no_violation = inner.clean_test(
    HEAD, HYPOTHESIS.format(times="n")
)


def test_hypothesis_an_example_that_leaves_turns_fails(pytester: pytest.Pytester) -> None:
    result = inner.run_inner(pytester, HEAD + HYPOTHESIS.format(times="min(n, 1)"))
    inner.assert_report(result, "unused_turns", "VerificationError", failed=1)


def test_hypothesis_doubles_drawn_for_filtered_examples_are_dropped(
    pytester: pytest.Pytester,
) -> None:
    source = """
from hypothesis import given, settings, strategies as st

scripts = st.integers(min_value=1, max_value=4).map(
    lambda n: FakeLLM.script([Turn(str(i)) for i in range(n)])
)

@settings(max_examples=20, database=None, deadline=None)
@given(scripts.filter(lambda llm: llm.remaining == 2))
def test_two_turn_scripts(llm):
    ask(llm, 2)
"""
    result = inner.run_inner(pytester, HEAD + source)
    inner.assert_passed_clean(result)


# --- shared doubles: judged only on what ran ------------------------------------------------------

SHARED = (
    llm_fixture("{scope}", turns=2)
    + """
{marks}
def test_first(llm):
    ask(llm)

{marks}
def test_second(llm):
    {second}
"""
)


@pytest.mark.parametrize("scope", ["module", "session", "package"])
def test_a_shared_fixture_double_with_unused_turns_fails(
    pytester: pytest.Pytester, scope: str
) -> None:
    result = inner.run_inner(pytester, HEAD + SHARED.format(scope=scope, marks="", second="pass"))
    text = inner.assert_verification_failed(
        result, kind="unused_turns", double="FakeLLM.script", passed=1
    )
    assert f"made by the {scope}-scoped fixture 'llm'" in text


@pytest.mark.parametrize(
    ("args", "second", "outcomes"),
    [
        (("-k", "first"), "ask(llm)", {"passed": 1, "deselected": 1}),
        ((), "pytest.skip('no')", {"passed": 1, "skipped": 1}),
        ((), "pytest.xfail('known bug')", {"passed": 1, "xfailed": 1}),
    ],
    ids=["deselected", "skipped", "xfail"],
)
def test_a_shared_double_is_not_judged_on_tests_that_did_not_run_or_pass(
    pytester: pytest.Pytester, args: tuple[str, ...], second: str, outcomes: dict[str, int]
) -> None:
    result = inner.run_inner(
        pytester, HEAD + SHARED.format(scope="module", marks="", second=second), *args
    )
    result.assert_outcomes(**outcomes)
    assert "test-double violation" not in result.stdout.str()


def test_the_opt_out_marker_on_its_tests_reaches_a_shared_double(
    pytester: pytest.Pytester,
) -> None:
    marks = "@pytest.mark.agentkit(verify=False)"
    result = inner.run_inner(
        pytester, HEAD + SHARED.format(scope="session", marks=marks, second="pass")
    )
    inner.assert_passed_clean(result, passed=2)


def test_a_shared_double_under_xdist_is_judged_per_worker(pytester: pytest.Pytester) -> None:
    # Each worker runs one of the two tests: neither may report the other's turn as unused.
    source = HEAD + SHARED.format(scope="session", marks="", second="ask(llm)")
    result = inner.run_inner(pytester, source, "-n", "2", "-p", "xdist")
    result.assert_outcomes(passed=2)
    assert "test-double violation" not in result.stdout.str()


# --- xfail ------------------------------------------------------------------------------------------


def test_a_violation_in_an_xfail_test_is_its_expected_failure(pytester: pytest.Pytester) -> None:
    source = """
@pytest.mark.xfail(reason="the agent stops early: known bug")
def test_known_bug():
    ask(FakeLLM.script([Turn("one"), Turn("two")]))

@pytest.mark.xfail(strict=True, reason="the agent stops early: known bug")
def test_known_bug_strict():
    ask(FakeLLM.script([Turn("one"), Turn("two")]))
"""
    result = inner.run_inner(pytester, HEAD + source)
    result.assert_outcomes(xfailed=2)
    assert "ERROR" not in result.stdout.str()


def test_a_strict_xfail_with_no_violation_fails_as_pytest_says(pytester: pytest.Pytester) -> None:
    source = """
@pytest.mark.xfail(strict=True, reason="expected to break")
def test_works_after_all():
    ask(FakeLLM.script([Turn("one")]))
"""
    result = inner.run_inner(pytester, HEAD + source)
    result.assert_outcomes(failed=1)
    assert "XPASS(strict)" in result.stdout.str()


# --- the plugin never breaks --------------------------------------------------------------------


def test_a_double_whose_violations_raise_is_that_tests_error(pytester: pytest.Pytester) -> None:
    source = """
from agentkit.core.verification import VerifyingDouble

class Broken(VerifyingDouble):
    def __init__(self):
        self._init_verification(verify=True)

    def _leftovers(self):
        raise RuntimeError("my double is buggy")

def test_uses_a_buggy_double():
    Broken()

def test_overwrites_an_attribute():
    llm = FakeLLM.script([Turn("x")])
    ask(llm)
    llm._recorded = None

def test_after():
    pass
"""
    result = inner.run_inner(pytester, HEAD + source)
    result.assert_outcomes(passed=3, errors=2)
    text = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in text
    assert "verification_crashed" in text
    assert "my double is buggy" in text


def test_ten_thousand_violations_give_a_bounded_report(pytester: pytest.Pytester) -> None:
    source = """
from agentkit.core.testing import UnmatchedRequest

def test_misses_in_a_loop():
    llm = FakeLLM({"known": "answer"})
    async def run():
        for i in range(10_000):
            try:
                await llm.chat(messages=[Message.user(f"q{i}")], model="m")
            except UnmatchedRequest:
                pass
    asyncio.run(run())
"""
    result = inner.run_inner(pytester, HEAD + source)
    text = inner.assert_verification_failed(result, kind="unmatched_request", double="FakeLLM")
    assert "... and 9980 more violations (10000 in all)" in text
    assert len(text.splitlines()) < 300


def test_work_submitted_to_a_pool_started_by_another_test_belongs_to_its_submitter(
    pytester: pytest.Pytester,
) -> None:
    # The pool's thread is started by the first test; the second test's work runs on it.
    source = """
from concurrent.futures import ThreadPoolExecutor

POOL = ThreadPoolExecutor(max_workers=1)

def test_starts_the_pool():
    assert POOL.submit(lambda: 1).result() == 1

def test_submits_broken_work():
    POOL.submit(lambda: FakeLLM.script([Turn("never")])).result()
"""
    result = inner.run_inner(pytester, HEAD + source)
    text = inner.assert_verification_failed(
        result, kind="unused_turns", double="FakeLLM.script", passed=1
    )
    assert "ERROR at teardown of test_submits_broken_work" in text
    assert "session-level" not in text


def test_a_module_level_double_is_not_judged_when_a_test_is_deselected_by_marker(
    pytester: pytest.Pytester,
) -> None:
    source = """
LLM = FakeLLM.script([Turn("one"), Turn("two")])

@pytest.mark.fast
def test_first():
    ask(LLM)

def test_second():
    ask(LLM)
"""
    pytester.makeconftest(
        "def pytest_configure(config):\n"
        "    config.addinivalue_line('markers', 'fast: a fast test')\n"
    )
    result = inner.run_inner(pytester, HEAD + source, "-m", "fast")
    result.assert_outcomes(passed=1, deselected=1)
    assert "test-double violation" not in result.stdout.str()


def test_a_module_level_double_under_xdist_is_judged_per_worker(
    pytester: pytest.Pytester,
) -> None:
    result = inner.run_inner(
        pytester, HEAD + MODULE_LEVEL.format(second="ask(LLM)"), "-n", "2", "-p", "xdist"
    )
    result.assert_outcomes(passed=2)
    assert "test-double violation" not in result.stdout.str()


def test_a_certain_error_of_a_shared_double_fails_under_xdist(pytester: pytest.Pytester) -> None:
    source = SWALLOWED_MISS.format(other="pass")
    result = inner.run_inner(pytester, HEAD + source, "-n", "2", "-p", "xdist")
    result.assert_outcomes(passed=2, errors=1)
    assert "script_exhausted" in result.stdout.str()
