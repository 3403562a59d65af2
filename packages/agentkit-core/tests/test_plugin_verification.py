"""The plugin's teardown verification and its real-process guard, run as a user would.

Each case writes a user's test file and runs it in a fresh in-process pytest
session (``pytester``) through the shared helpers of
:mod:`agentkit.core.verification.pytest_plugin`: a broken test whose body passes
must fail at teardown, naming the double, where it was made, the violation
and the fix; a correct test must pass untouched.
"""

from __future__ import annotations

import re

import pytest

# Loaded here, before any pytester run: an in-process run restores sys.modules after
# itself, and a module first imported inside one would be imported afresh by the next,
# giving a second class object for the same error.
import agentkit.core.testing
import agentkit.fakes.llm.errors
from agentkit.core.verification import process_guard
from tests.support.inner_session import (
    Misuse,
    assert_passed_clean,
    assert_report,
    assert_verification_failed,
    clean_test,
    misuse_test,
    quiet_failure_test,
    run_inner,
)

pytest_plugins = ["pytester"]

HEAD = """
import pytest
from agentkit.core.request import ChatRequest
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.types import Message, ToolCall, ToolSchema
from agentkit.fakes.llm import FakeLLM, ScriptedAdapter, Turn, scripted_runtime
from agentkit.core.testing import ScriptExhausted, UnmatchedRequest

Q = [Message.user("q")]
SEARCH = ToolSchema("search")
PRICES = PriceTable({"m": ModelPrice(input=1.0, output=1.0)})
"""


# --- one pytester test per violation kind: the plugin fails a test that would pass ------


def test_unused_script_turns_fail_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_agent_stops_early():
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    assert (await llm.chat(messages=Q, model="m")).content == "one"
""",
    )
    text = assert_verification_failed(result, kind="unused_turns", double="FakeLLM.script")
    assert "1 of 2 scripted turns were never asked for" in text
    # The report may be printed twice (the ERRORS section and, on a wide or
    # non-tty terminal, the short summary); both must name the same line.
    (line,) = set(re.findall(r"test_inner\.py:(\d+)\n", text))
    source = (pytester.path / "test_inner.py").read_text().splitlines()
    assert "FakeLLM.script(" in source[int(line) - 1]  # the line that built the double


MISUSES = {
    "a_swallowed_script_exhausted": Misuse(
        """
async def test_agent_loops_but_catches_everything():
    llm = FakeLLM.script([Turn("one")])
    await llm.chat(messages=Q, model="m")
    try:
        await llm.chat(messages=Q, model="m")
    except BaseException:
        pass
""",
        kind="script_exhausted",
        double="FakeLLM.script",
    ),
    "a_swallowed_dict_miss": Misuse(
        """
async def test_prompt_typo():
    llm = FakeLLM({"weather": "sunny"})
    with pytest.raises(UnmatchedRequest):
        await llm.chat(messages=[Message.user("wether?")], model="m")
""",
        kind="unmatched_request",
        double="FakeLLM",
        says=("'wether?'",),
    ),
    "a_scripted_call_to_an_unoffered_tool": Misuse(
        """
async def test_misspelled_tool():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "serach", {})])])
    reply = await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert reply.tool_calls[0].name == "serach"  # delivered as scripted
""",
        kind="unoffered_tool",
        double="FakeLLM.script",
        says=("calls 'serach', but the request offered only ['search']",),
    ),
    "unused_adapter_turns": Misuse(
        """
async def test_runtime_stops_early():
    runtime = scripted_runtime([Turn("a"), Turn("b"), Turn("c")], PRICES)
    await runtime.chat(messages=Q, model="m")
""",
        kind="unused_turns",
        double="ScriptedAdapter",
        says=("2 of 3 scripted transport turns were never sent",),
    ),
    "an_adapter_call_to_an_unoffered_tool": Misuse(
        """
async def test_adapter_tool_typo():
    adapter = ScriptedAdapter([Turn(tool_calls=[ToolCall("c1", "serach", {})])])
    await adapter.send(ChatRequest(Q, "m", tools=[SEARCH]))
""",
        kind="unoffered_tool",
        double="ScriptedAdapter",
    ),
    "a_swallowed_adapter_exhaustion": Misuse(
        """
async def test_retry_fired_twice():
    adapter = ScriptedAdapter([])
    with pytest.raises(ScriptExhausted):
        await adapter.send(ChatRequest(Q, "m"))
""",
        kind="script_exhausted",
        double="ScriptedAdapter",
    ),
    "every_violation_of_a_test_is_in_one_message": Misuse(
        """
async def test_two_broken_doubles():
    FakeLLM.script([Turn("never")])
    ScriptedAdapter([Turn("never")])
""",
        kind="unused_turns",
        double="ScriptedAdapter",
        says=("2 test-double violations", "FakeLLM.script created at"),
    ),
    "a_double_built_in_a_fixture": Misuse(
        """
@pytest.fixture
def llm():
    return FakeLLM.script([Turn("one"), Turn("two")])

async def test_uses_fixture(llm):
    await llm.chat(messages=Q, model="m")
""",
        kind="unused_turns",
        double="FakeLLM.script",
    ),
}


test_a_misuse_fails_the_test = misuse_test(HEAD, MISUSES)


# --- correct tests pass untouched ---------------------------------------------------------


SHARED = """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("one"), Turn("two")])


async def test_first(llm):
    assert (await llm.chat(messages=Q, model="m")).content == "one"


async def test_second(llm):
    {second}
"""


def test_a_module_scoped_double_is_shared_by_its_tests(pytester: pytest.Pytester) -> None:
    # Made during test_first's setup, but half its script is test_second's: holding
    # test_first to all of it would fail a correct module.
    second = 'assert (await llm.chat(messages=Q, model="m")).content == "two"'
    result = run_inner(pytester, HEAD + SHARED.format(second=second))
    assert_passed_clean(result, passed=2)


def test_a_module_scoped_double_is_verified_when_its_fixture_is_torn_down(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(pytester, HEAD + SHARED.format(second="pass"))
    text = assert_verification_failed(
        result, kind="unused_turns", double="FakeLLM.script", passed=1
    )
    assert "ERROR at teardown of test_second" in text
    assert "made by the module-scoped fixture 'llm'" in text


test_a_module_scoped_double_is_not_reported_after_a_failure = quiet_failure_test(
    HEAD, SHARED.format(second="assert False"), passed=1, failed=1
)


def test_a_module_marker_opts_a_module_scoped_double_out(pytester: pytest.Pytester) -> None:
    marked = HEAD + "pytestmark = pytest.mark.agentkit(verify=False)\n"
    result = run_inner(pytester, marked + SHARED.format(second="pass"))
    assert_passed_clean(result, passed=2)


def test_the_errors_are_loaded() -> None:
    assert agentkit.core.testing.UnmatchedRequest is agentkit.fakes.llm.errors.UnmatchedRequest


test_correct_tests_pass = clean_test(
    HEAD,
    """
async def test_consumed_script():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "search", {})]), Turn("done")])
    await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert (await llm.chat(messages=Q, model="m", tools=[SEARCH])).content == "done"

async def test_exhaustion_raised_to_the_test_is_still_news_but_repeat_last_has_no_leftovers():
    llm = FakeLLM.script([Turn("a"), Turn("b")], repeat_last=True)
    await llm.chat(messages=Q, model="m")

async def test_single_answer_forms_have_nothing_left_over():
    FakeLLM("x")
    await FakeLLM({"q": "a"}).chat(messages=Q, model="m")
    FakeLLM(lambda request: "x")

async def test_consumed_runtime():
    runtime = scripted_runtime([Turn("a")], PRICES)
    await runtime.chat(messages=Q, model="m")
    ScriptedAdapter([Turn("b")], repeat_last=True)
""",
    passed=4,
)


# --- no noise on a test that already failed; opt-outs --------------------------------------


test_a_failing_test_gets_no_verification_noise = quiet_failure_test(
    HEAD,
    """
async def test_fails_for_its_own_reason():
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    await llm.chat(messages=Q, model="m")
    assert 1 == 2, "the real failure"

def test_skipped():
    FakeLLM.script([Turn("never")])
    pytest.skip("not today")

@pytest.fixture
def broken():
    FakeLLM.script([Turn("never")])
    raise RuntimeError("fixture broke")

def test_setup_error(broken):
    pass
""",
    "the real failure",
    "fixture broke",
    failed=1,
    skipped=1,
    errors=1,
)


def test_the_marker_skips_verification_for_one_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
@pytest.mark.agentkit(verify=False)
def test_leaves_turns_on_purpose():
    FakeLLM.script([Turn("never")])

def test_still_verified():
    FakeLLM.script([Turn("never")])
""",
    )
    assert_verification_failed(result, kind="unused_turns", double="FakeLLM.script", passed=1)
    assert "test_still_verified" in result.stdout.str()
    assert "ERROR at teardown of test_leaves_turns_on_purpose" not in result.stdout.str()


def test_a_module_marker_is_overridden_by_the_closest_one(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
pytestmark = pytest.mark.agentkit(verify=False)

def test_off_by_module():
    FakeLLM.script([Turn("never")])

@pytest.mark.agentkit(verify=True)
def test_back_on():
    FakeLLM.script([Turn("never")])
""",
    )
    assert_verification_failed(result, kind="unused_turns", double="FakeLLM.script", passed=1)


test_verify_false_on_a_double_opts_out_that_double_only = clean_test(
    HEAD,
    """
async def test_unknown_tool_on_purpose():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "nope", {})])], verify=False)
    await llm.chat(messages=Q, model="m", tools=[SEARCH])
    scripted_runtime([Turn("never")], PRICES, verify=False)
    ScriptedAdapter([Turn("never")], verify=False)
""",
)


def test_a_marker_with_an_unknown_option_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        """
import pytest

@pytest.mark.agentkit(verfy=False)
def test_typo():
    pass
""",
    )
    assert result.ret != 0
    assert "has no option 'verfy'" in result.stdout.str() + result.stderr.str()


# The inner session has no plugin, hence no isolation: its double would be reported to
# this outer test, which is not what is under test here.
@pytest.mark.agentkit(verify=False)
def test_without_the_plugin_nothing_is_verified(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD + "\ndef test_leftovers():\n    FakeLLM.script([Turn('never')])\n",
        "-p",
        "no:agentkit",
    )
    assert_passed_clean(result)


# --- real processes ----------------------------------------------------------------------

GUARD = """
import pytest
from agentkit.core.verification.process_guard import ensure_real_process_allowed, RealProcessBlocked
"""


def test_real_processes_are_blocked_naming_the_opt_ins(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        GUARD
        + """
def test_spawns():
    ensure_real_process_allowed(["claude", "-p"])
""",
    )
    assert_report(
        result,
        "RealProcessBlocked",
        "refusing to start the real process 'claude'",
        "@pytest.mark.agentkit(real_processes=True)",
        "allow_real_processes fixture",
        failed=1,
    )


test_the_marker_and_the_fixture_allow_real_processes = clean_test(
    GUARD,
    """
@pytest.mark.agentkit(real_processes=True)
def test_marked():
    ensure_real_process_allowed(["claude"])

def test_fixture(allow_real_processes):
    ensure_real_process_allowed(["codex"])

def test_next_test_is_blocked_again():
    with pytest.raises(RealProcessBlocked):
        ensure_real_process_allowed(["codex"])
""",
    passed=3,
)


def test_this_session_blocks_real_processes_too() -> None:
    assert process_guard.real_processes_blocked()


def test_the_allow_fixture_lifts_the_block(allow_real_processes: None) -> None:
    assert not process_guard.real_processes_blocked()
    process_guard.ensure_real_process_allowed(["true"])
