"""The plugin's verdict on FakeLLM's provider-like checks, in both directions.

Must fail: a scripted call with arguments its tool's schema refuses, a loop
that swallows the refusal of a request with an unanswered tool call, a broken
responses callable hidden by gather, an exhausted script hidden by a timeout.
Must pass: the same tests written correctly, including a call cancelled in its
delay whose turn the script accounts for.
"""

from __future__ import annotations

import pytest

# Loaded before any pytester run (see agentkit-core's test_plugin_verification).
import agentkit.core.testing
import agentkit.fakes.llm.errors  # noqa: F401
from tests.support.inner_session import (
    Misuse,
    assert_passed_clean,
    misuse_test,
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


MISUSES = {
    "scripted_arguments_the_schema_refuses": Misuse(
        """
async def test_bad_arguments():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "weather", {"town": "Oslo"})])])
    reply = await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert reply.tool_calls[0].name == "weather"
""",
        kind="invalid_tool_arguments",
        double="FakeLLM.script",
        says=("missing required argument 'city'",),
    ),
    "a_swallowed_refusal_of_an_unanswered_tool_call": Misuse(
        """
async def test_forgotten_result():
    llm = FakeLLM("Sunny.")
    assert await loop(llm, ToolCall("c1", "weather", {"city": "Oslo"})) == "gave up"
""",
        kind="unanswered_tool_call",
        double="FakeLLM",
        says=("'c1' (weather)",),
    ),
    "a_broken_rule_hidden_by_gather": Misuse(
        """
async def test_hidden_rule_error():
    llm = FakeLLM(lambda request: request.messages[5].content)  # IndexError
    results = await asyncio.gather(llm.chat(messages=Q, model="m"), return_exceptions=True)
    assert len(results) == 1
""",
        kind="rule_error",
        double="FakeLLM",
        says=("IndexError",),
    ),
    "an_exhausted_call_hidden_by_a_timeout": Misuse(
        """
async def test_timed_out():
    llm = FakeLLM.script([Turn("only")], delay=0.05)
    assert (await llm.chat(messages=Q, model="m")).content == "only"
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
""",
        kind="script_exhausted",
        double="FakeLLM.script",
    ),
}

CORRECT = {
    "scripted_arguments_that_fit": """
async def test_good_arguments():
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "weather", {"city": "Oslo"})])])
    reply = await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert reply.tool_calls[0].arguments == {"city": "Oslo"}
""",
    "an_answered_tool_call": """
async def test_result_given():
    llm = FakeLLM("Sunny.")
    call = ToolCall("c1", "weather", {"city": "Oslo"})
    transcript = [*Q, Message.assistant(tool_calls=(call,)), Message.tool("sun", tool_call_id="c1")]
    assert (await llm.chat(messages=transcript, model="m", tools=[WEATHER])).content == "Sunny."
""",
    "a_working_rule_under_gather": """
async def test_rule_ok():
    llm = FakeLLM(lambda request: request.messages[0].content.upper())
    results = await asyncio.gather(llm.chat(messages=Q, model="m"), return_exceptions=True)
    assert results[0].content == "WEATHER?"
""",
    "a_cancelled_call_whose_turn_the_script_counts": """
async def test_timeout_then_retry():
    llm = FakeLLM.script([Turn("too slow"), Turn("in time")], delay=0.05)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
    assert (await llm.chat(messages=Q, model="m")).content == "in time"
    assert len(llm.calls) == 2
""",
}


test_a_misuse_fails_the_test = misuse_test(HEAD, MISUSES)


@pytest.mark.parametrize("name", CORRECT)
def test_the_same_test_written_correctly_passes(pytester: pytest.Pytester, name: str) -> None:
    assert_passed_clean(run_inner(pytester, HEAD + CORRECT[name]))
