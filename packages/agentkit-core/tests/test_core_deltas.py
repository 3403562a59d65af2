from __future__ import annotations

from collections.abc import AsyncIterator

from agentkit.core.deltas import collect_response
from agentkit.core.types import ChatResponse, Delta, ToolCall, Usage


async def _stream(*deltas: Delta) -> AsyncIterator[Delta]:
    for delta in deltas:
        yield delta


async def test_deltas_add_up_to_one_response() -> None:
    a, b = ToolCall("c1", "one"), ToolCall("c2", "two")
    response = await collect_response(
        _stream(
            Delta(content="Hel"),
            Delta(content="lo", tool_calls=(a,)),
            Delta(tool_calls=(b,), usage=Usage(input_tokens=3), finish_reason="length"),
            Delta(usage=Usage(output_tokens=2), finish_reason="tool_calls"),
        ),
        model="m",
    )
    assert response == ChatResponse(
        content="Hello",
        tool_calls=(a, b),
        usage=Usage(input_tokens=3, output_tokens=2),
        finish_reason="tool_calls",
        model="m",
        cost_usd=0.0,
    )


async def test_an_empty_stream_is_an_empty_response() -> None:
    assert await collect_response(_stream(), model="m") == ChatResponse(model="m")


async def test_reasoning_adds_up_apart_from_the_content() -> None:
    response = await collect_response(
        _stream(
            Delta(reasoning="Six times "),
            Delta(reasoning="seven."),
            Delta(content="42"),
            Delta(usage=Usage(output_tokens=3), finish_reason="stop"),
        ),
        model="m",
    )
    assert response.reasoning == "Six times seven."
    assert response.content == "42"
