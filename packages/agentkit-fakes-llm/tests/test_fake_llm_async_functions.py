"""FakeLLM(function) with an async function, and with a streaming one (FunctionModel's
``function`` and ``stream_function``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from agentkit.core.invoker import Invoker
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm.errors import ResponseRuleError

Q = [Message.user("go")]
SEARCH = ToolSchema(
    "search",
    parameters={"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
)


def kinds(llm: FakeLLM) -> list[str]:
    return [violation.kind for violation in llm.violations()]


# ----------------------------------------------------------- an async def function model


async def test_an_async_function_is_awaited_and_its_answer_given() -> None:
    async def model(request: ChatRequest) -> str:
        await asyncio.sleep(0)
        return f"async saw {request.last_user_text}"

    reply = await FakeLLM(model).chat(messages=Q, model="m")
    assert reply.content == "async saw go"


async def test_an_async_function_may_return_a_turn_with_tool_calls() -> None:
    async def model(request: ChatRequest) -> Turn:
        return Turn(tool_calls=[ToolCall("c1", "search", {"q": "x"})])

    llm = FakeLLM(model)
    reply = await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert reply.tool_calls == (ToolCall("c1", "search", {"q": "x"}),)
    assert reply.finish_reason == "tool_calls"
    assert llm.violations() == []


@pytest.mark.agentkit(verify=False)
async def test_what_an_async_function_raises_is_a_recorded_rule_error_not_retried() -> None:
    async def model(request: ChatRequest) -> str:
        raise LookupError("bug in the test")

    llm = FakeLLM(model)
    invoker = Invoker(llm, chat_middleware=[RetryMiddleware()])
    ctx = RunContext(services=Services(invoker=invoker))
    with pytest.raises(ResponseRuleError, match="raised LookupError: bug in the test"):
        await invoker.chat(ctx, ChatRequest(messages=tuple(Q), model="m"))
    assert len(llm.calls) == 1  # a bug in the test is not a provider fault to retry
    assert kinds(llm) == ["rule_error"]


@pytest.mark.agentkit(verify=False)
async def test_an_async_function_returning_the_wrong_type_is_a_rule_error() -> None:
    async def model(request: ChatRequest) -> Any:
        return 42

    llm = FakeLLM(model)
    with pytest.raises(ResponseRuleError, match="got int"):
        await llm.chat(messages=Q, model="m")
    assert kinds(llm) == ["rule_error"]


# ----------------------------------------------------------- a streaming function model


async def test_a_streaming_function_streams_its_pieces_as_they_come() -> None:
    async def model(request: ChatRequest) -> AsyncIterator[str | ToolCall]:
        yield "Hel"
        yield "lo, "
        yield ToolCall("c1", "search", {"q": "hello"})
        yield "world"

    llm = FakeLLM(model)
    deltas = [d async for d in llm.stream(messages=Q, model="m", tools=[SEARCH])]
    assert [d.content for d in deltas[:-1]] == ["Hel", "lo, ", "world"]
    terminal = deltas[-1]
    assert terminal.tool_calls == (ToolCall("c1", "search", {"q": "hello"}),)
    assert terminal.finish_reason == "tool_calls"
    assert terminal.usage is not None
    assert terminal.usage.output_tokens > 0
    reply = await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert reply.content == "Hello, world"
    assert llm.violations() == []


async def test_a_consumer_sees_each_piece_before_the_function_yields_the_next() -> None:
    seen: list[str] = []

    async def model(request: ChatRequest) -> AsyncIterator[str]:
        for word in ("one ", "two"):
            seen.append(f"yield {word.strip()}")
            yield word

    async for delta in FakeLLM(model).stream(messages=Q, model="m"):
        if delta.content:
            seen.append(f"got {delta.content.strip()}")
    assert seen == ["yield one", "got one", "yield two", "got two"]


@pytest.mark.agentkit(verify=False)
async def test_a_streamed_tool_call_is_checked_against_the_offered_tools() -> None:
    async def model(request: ChatRequest) -> AsyncIterator[ToolCall]:
        yield ToolCall("c1", "serach", {"q": "typo"})

    llm = FakeLLM(model)
    await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert kinds(llm) == ["unoffered_tool"]
    assert "the callable's stream at call 1" in llm.violations()[0].detail


@pytest.mark.agentkit(verify=False)
async def test_a_streaming_function_that_raises_mid_stream_is_a_recorded_rule_error() -> None:
    async def model(request: ChatRequest) -> AsyncIterator[str]:
        yield "partial "
        raise KeyError("oops")

    llm = FakeLLM(model)
    got: list[Delta] = []
    with pytest.raises(ResponseRuleError, match="streaming callable raised KeyError"):
        async for delta in llm.stream(messages=Q, model="m"):
            got.append(delta)
    assert [d.content for d in got] == ["partial "]  # it failed where it failed
    assert kinds(llm) == ["rule_error"]


@pytest.mark.agentkit(verify=False)
async def test_a_streaming_function_yielding_another_type_is_a_rule_error() -> None:
    async def model(request: ChatRequest) -> AsyncIterator[Any]:
        yield {"content": "not a piece"}

    llm = FakeLLM(cast(Any, model))
    with pytest.raises(ResponseRuleError, match=r"must yield str .* got dict"):
        await llm.chat(messages=Q, model="m")
    assert kinds(llm) == ["rule_error"]
