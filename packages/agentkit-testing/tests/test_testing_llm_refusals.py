"""The plugin's verdict on FakeLLM's provider-like checks, in both directions.

Must fail: a scripted call with arguments its tool's schema refuses, a loop
that swallows the refusal of a request with an unanswered tool call, a broken
responses callable hidden by gather, an exhausted script hidden by a timeout.
Must pass: the same tests written correctly, including a call cancelled in its
delay whose turn the script accounts for.
"""

from __future__ import annotations

import pytest

# Loaded before any pytester run (see test_testing_plugin_verification).
import agentkit.core.testing
import agentkit.fakes.llm.errors  # noqa: F401
from tests.support.inner_session import (
    assert_passed_clean,
    assert_verification_failed,
    run_inner,
)

pytest_plugins = ["pytester"]

HEAD = """
import asyncio
import pytest
from agentkit.core.types import Message, ToolCall, ToolSchema
from agentkit.fakes.llm import FakeLLM, Turn

WEATHER = ToolSchema("weather", parameters={
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
})
Q = [Message.user("Weather?")]


async def loop(llm, first_call):
    # a tool loop that forgets the tool result, and swallows whatever the model raises
    transcript = [*Q, Message.assistant(tool_calls=(first_call,))]
    try:
        return (await llm.chat(messages=transcript, model="m", tools=[WEATHER])).content
    except Exception:
        return "gave up"
"""


def test_scripted_arguments_the_schema_refuses_fail_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_bad_arguments():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "weather", {"town": "Oslo"})])])
    reply = await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert reply.tool_calls[0].name == "weather"
""",
    )
    text = assert_verification_failed(
        result, kind="invalid_tool_arguments", double="FakeLLM.script"
    )
    assert "missing required argument 'city'" in text


def test_scripted_arguments_that_fit_pass(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_good_arguments():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "weather", {"city": "Oslo"})])])
    reply = await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert reply.tool_calls[0].arguments == {"city": "Oslo"}
""",
    )
    assert_passed_clean(result)


def test_a_swallowed_refusal_of_an_unanswered_tool_call_fails_the_test(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_forgotten_result():
    llm = FakeLLM("Sunny.")
    assert await loop(llm, ToolCall("c1", "weather", {"city": "Oslo"})) == "gave up"
""",
    )
    text = assert_verification_failed(result, kind="unanswered_tool_call", double="FakeLLM")
    assert "'c1' (weather)" in text


def test_an_answered_tool_call_passes(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_result_given():
    llm = FakeLLM("Sunny.")
    call = ToolCall("c1", "weather", {"city": "Oslo"})
    transcript = [*Q, Message.assistant(tool_calls=(call,)), Message.tool("sun", tool_call_id="c1")]
    assert (await llm.chat(messages=transcript, model="m", tools=[WEATHER])).content == "Sunny."
""",
    )
    assert_passed_clean(result)


def test_a_broken_rule_hidden_by_gather_fails_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_hidden_rule_error():
    llm = FakeLLM(lambda request: request.messages[5].content)  # IndexError
    results = await asyncio.gather(llm.chat(messages=Q, model="m"), return_exceptions=True)
    assert len(results) == 1
""",
    )
    text = assert_verification_failed(result, kind="rule_error", double="FakeLLM")
    assert "IndexError" in text


def test_a_working_rule_under_gather_passes(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_rule_ok():
    llm = FakeLLM(lambda request: request.messages[0].content.upper())
    results = await asyncio.gather(llm.chat(messages=Q, model="m"), return_exceptions=True)
    assert results[0].content == "WEATHER?"
""",
    )
    assert_passed_clean(result)


def test_an_exhausted_call_hidden_by_a_timeout_fails_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_timed_out():
    llm = FakeLLM.script([Turn("only")], delay=0.05)
    assert (await llm.chat(messages=Q, model="m")).content == "only"
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
""",
    )
    assert_verification_failed(result, kind="script_exhausted", double="FakeLLM.script")


def test_a_cancelled_call_whose_turn_the_script_counts_passes(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_timeout_then_retry():
    llm = FakeLLM.script([Turn("too slow"), Turn("in time")], delay=0.05)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
    assert (await llm.chat(messages=Q, model="m")).content == "in time"
    assert len(llm.calls) == 2
""",
    )
    assert_passed_clean(result)
