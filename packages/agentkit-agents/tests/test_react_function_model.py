"""FakeLLM as a function model, through the real ReactAgent, Invoker and RetryMiddleware.

A callable that returns a Turn decides the tool calls from the request; a
scripted exception is a provider failure at that turn, retried by the real
middleware; ``FakeLLM()`` exercises every offered tool and sums up.
"""

from __future__ import annotations

import json
from typing import Literal

from agentkit.agents.react import ReactAgent
from agentkit.agents.tools import tool
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.request import ChatRequest
from agentkit.core.types import ToolCall, Usage
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import FakeLLM, Turn

USAGE = Usage(input_tokens=10, output_tokens=5)


@tool
def lookup(word: str) -> str:
    """Look a word up."""
    return f"{word}: a thing that acts"


@tool
def forecast(city: str, days: int = 1, unit: Literal["C", "F"] = "C") -> str:
    """The forecast for a city."""
    return f"{city} {days}d sunny ({unit})"


async def test_a_callable_turn_decides_the_tool_calls_from_the_request() -> None:
    def model(request: ChatRequest) -> Turn:
        results = [m.content for m in request.messages if m.role == "tool"]
        if not results:
            word = (request.last_user_text or "").split()[-1]
            return Turn(tool_calls=[ToolCall("c1", "lookup", {"word": word})], usage=USAGE)
        return Turn(f"Found: {results[-1]}", usage=USAGE, finish_reason="stop")

    llm = FakeLLM(model)
    ctx = make_test_ctx(llm=llm)
    result = await ReactAgent([lookup], model="m").run(ctx, "Look up agent")

    assert result.stop_reason == "final"
    assert result.text == "Found: agent: a thing that acts"
    assert result.usage == USAGE + USAGE  # the Turn's usage is what the run is charged
    assert [m.role for m in result.messages] == ["user", "assistant", "tool", "assistant"]
    assert llm.violations() == []


async def test_a_scripted_provider_failure_at_turn_two_is_retried_by_the_real_middleware() -> None:
    clock = FakeClock()
    llm = FakeLLM.script(
        [
            Turn(tool_calls=[ToolCall("c1", "lookup", {"word": "agent"})]),
            ConnectionError("503 from the provider"),
            Turn("An agent acts."),
        ]
    )
    ctx = make_test_ctx(llm=llm, clock=clock, chat_middleware=[RetryMiddleware()])
    result = await ReactAgent([lookup], model="m").run(ctx, "Look up agent")

    assert result.text == "An agent acts."
    assert len(llm.calls) == 3  # turn 1, the failing call, and its retry
    assert llm.calls[1] == llm.calls[2]  # the retry re-sent the same request
    assert clock.sleeps == [RetryMiddleware().backoff(1)]
    assert llm.remaining == 0


async def test_fakellm_with_no_arguments_exercises_every_tool_once_then_sums_up() -> None:
    llm = FakeLLM()
    ctx = make_test_ctx(llm=llm)
    result = await ReactAgent([lookup, forecast], model="m").run(ctx, "Smoke test")

    assert result.stop_reason == "final"
    (asked,) = [m for m in result.messages if m.tool_calls]
    assert [call.name for call in asked.tool_calls] == ["lookup", "forecast"]
    summary = json.loads(result.text or "")
    assert list(summary) == ["lookup", "forecast"]
    assert summary["lookup"].endswith(": a thing that acts")  # the tool really ran
    assert " sunny " in summary["forecast"]
    assert llm.violations() == []  # the generated arguments fit the schemas


async def test_the_exercised_arguments_are_the_same_for_a_seed() -> None:
    async def arguments(seed: int) -> list[dict[str, object]]:
        llm = FakeLLM(seed=seed)
        result = await ReactAgent([lookup, forecast], model="m").run(
            make_test_ctx(llm=llm), "Smoke test"
        )
        (asked,) = [m for m in result.messages if m.tool_calls]
        return [dict(call.arguments) for call in asked.tool_calls]

    first = await arguments(7)
    assert first == await arguments(7)
    assert first[1]["unit"] in ("C", "F")
    assert first != await arguments(8)
