"""What a real provider refuses or a real model cannot send: FakeLLM refuses or records it.

Scripted tool calls are checked against the offered tool's schema; a request
with an unanswered tool call is refused; a broken responses callable is
recorded like a miss; a call cancelled in its delay has had its turn.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from agentkit.core.request import ChatRequest
from agentkit.core.types import Message, ToolCall, ToolSchema
from agentkit.fakes.llm import FakeLLM, ScriptedAdapter, Turn
from agentkit.fakes.llm.errors import RefusedRequest, ResponseRuleError

LEFT_BROKEN = pytest.mark.agentkit(verify=False)  # the plugin's view is in agentkit-testing
WEATHER = ToolSchema(
    "weather",
    "Current weather for a city.",
    {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)
Q = [Message.user("Weather in Oslo?")]


def kinds(double: FakeLLM | ScriptedAdapter) -> list[str]:
    return [violation.kind for violation in double.violations()]


def answered(call: ToolCall, result: str = "sunny") -> list[Message]:
    return [*Q, Message.assistant(tool_calls=(call,)), Message.tool(result, tool_call_id=call.id)]


# ----------------------------------------------------------- scripted tool arguments


async def test_arguments_that_fit_the_schema_are_no_violation() -> None:
    call = ToolCall("c1", "weather", {"city": "Oslo", "days": 2})
    llm = FakeLLM.script([Turn(tool_calls=[call]), Turn("Sunny.")])
    await llm.chat(messages=Q, model="m", tools=[WEATHER])
    await llm.chat(messages=answered(call), model="m", tools=[WEATHER])
    assert llm.violations() == []


@LEFT_BROKEN
async def test_arguments_that_break_the_schema_are_a_violation_naming_argument_and_schema() -> None:
    bad = ToolCall("c1", "weather", {"days": "two", "colour": "red"})
    llm = FakeLLM.script([Turn(tool_calls=[bad])])
    reply = await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert reply.tool_calls == (bad,)  # delivered as scripted: a real model can send it
    (violation,) = llm.violations()
    assert violation.kind == "invalid_tool_arguments"
    assert "scripted turn 1 calls 'weather' (id 'c1')" in violation.detail
    assert "missing required argument 'city'" in violation.detail
    assert "days: expected integer, got string" in violation.detail
    assert "unexpected argument 'colour'" in violation.detail
    assert '"required": ["city"]' in violation.detail  # the schema it was held to
    assert "verify=False" in violation.fix


@LEFT_BROKEN
async def test_the_adapter_checks_scripted_arguments_too() -> None:
    adapter = ScriptedAdapter([Turn(tool_calls=[ToolCall("c1", "weather", {})])])
    await adapter.send(ChatRequest(Q, "m", tools=[WEATHER]))
    assert kinds(adapter) == ["invalid_tool_arguments"]


@LEFT_BROKEN
async def test_a_callable_turn_is_checked_like_a_scripted_one() -> None:
    llm = FakeLLM(lambda request: Turn(tool_calls=[ToolCall("c1", "weather", {"city": 1})]))
    await llm.chat(messages=Q, model="m", tools=[WEATHER])
    assert kinds(llm) == ["invalid_tool_arguments"]
    assert "the callable's turn at call 1 calls 'weather'" in llm.violations()[0].detail


# ----------------------------------------------------------- unanswered tool calls


@LEFT_BROKEN
async def test_a_request_with_an_unanswered_tool_call_is_refused_and_recorded() -> None:
    call = ToolCall("c1", "weather", {"city": "Oslo"})
    llm = FakeLLM.script([Turn("Sunny.")])
    transcript = [*Q, Message.assistant(tool_calls=(call,))]  # the tool result was never added
    with pytest.raises(RefusedRequest, match=r"'c1' \(weather\).*HTTP 400") as info:
        await llm.chat(messages=transcript, model="m", tools=[WEATHER])
    assert isinstance(info.value, Exception)  # a provider error, met where the real one is
    assert info.value.unanswered == (call,)
    assert kinds(llm) == ["unanswered_tool_call", "unused_turns"]  # refused: no turn consumed
    assert len(llm.calls) == 1
    assert "Message.tool(" in llm.violations()[0].fix


@LEFT_BROKEN
async def test_a_swallowed_refusal_is_still_recorded() -> None:
    llm = FakeLLM("x")
    call = ToolCall("c1", "weather", {"city": "Oslo"})
    with contextlib.suppress(Exception):  # a loop that carries on
        await llm.chat(messages=[*Q, Message.assistant(tool_calls=(call,))], model="m")
    assert kinds(llm) == ["unanswered_tool_call"]


@LEFT_BROKEN
async def test_a_result_after_the_next_message_comes_too_late() -> None:
    call = ToolCall("c1", "weather", {"city": "Oslo"})
    transcript = [
        *Q,
        Message.assistant(tool_calls=(call,)),
        Message.user("and tomorrow?"),
        Message.tool("sunny", tool_call_id="c1"),
    ]
    with pytest.raises(RefusedRequest):
        await FakeLLM("x").chat(messages=transcript, model="m")


async def test_every_call_of_a_parallel_turn_needs_its_result() -> None:
    a = ToolCall("a", "weather", {"city": "Oslo"})
    b = ToolCall("b", "weather", {"city": "Rome"})
    head = [*Q, Message.assistant(tool_calls=(a, b)), Message.tool("x", tool_call_id="b")]
    llm = FakeLLM("ok", verify=False)
    with pytest.raises(RefusedRequest) as info:
        await llm.chat(messages=head, model="m")
    assert info.value.unanswered == (a,)
    whole = [*head, Message.tool("y", tool_call_id="a")]
    assert (await llm.chat(messages=whole, model="m")).content == "ok"


# ----------------------------------------------------------- a broken responses callable


@LEFT_BROKEN
async def test_an_error_in_the_callable_is_recorded_even_when_gather_hides_it() -> None:
    def rule(request: ChatRequest) -> str:
        raise LookupError("no answer")

    llm = FakeLLM(rule)
    results = await asyncio.gather(llm.chat(messages=Q, model="m"), return_exceptions=True)
    assert isinstance(results[0], ResponseRuleError)
    (violation,) = llm.violations()
    assert violation.kind == "rule_error"
    assert "raised LookupError: no answer" in violation.detail


# ----------------------------------------------------------- cancelled during the delay


async def test_a_call_cancelled_in_its_delay_has_consumed_its_turn() -> None:
    llm = FakeLLM.script([Turn("first"), Turn("second")], delay=0.05)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
    assert (len(llm.calls), llm.remaining) == (1, 1)  # the log and the script agree
    reply = await llm.chat(messages=Q, model="m")
    assert reply.content == "second"
    assert llm.violations() == []


@LEFT_BROKEN
async def test_an_exhausted_call_cancelled_in_its_delay_is_still_a_violation() -> None:
    llm = FakeLLM.script([], delay=0.05)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(llm.chat(messages=Q, model="m"), timeout=0.001)
    assert kinds(llm) == ["script_exhausted"]
