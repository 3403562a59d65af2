"""Adding a stream of deltas up to one whole reply.

One function, shared by everything that offers ``chat`` on top of ``stream``
(the Invoker, FakeLLM), so that a whole reply and its stream can never
disagree about what the deltas mean: content concatenated, reasoning
concatenated apart from it, tool calls in order, usage added, the last
finish reason kept.
"""

from __future__ import annotations

from collections.abc import AsyncIterable

from agentkit.core.types import ChatResponse, Delta, ToolCall, Usage

__all__ = ["collect_response"]


async def collect_response(deltas: AsyncIterable[Delta], *, model: str) -> ChatResponse:
    """The :class:`ChatResponse` that ``deltas`` add up to (cost left at 0.0)."""
    parts: list[str] = []
    thoughts: list[str] = []
    tool_calls: tuple[ToolCall, ...] = ()
    usage = Usage()
    finish: str | None = None
    async for delta in deltas:
        if delta.content:
            parts.append(delta.content)
        if delta.reasoning:
            thoughts.append(delta.reasoning)
        if delta.tool_calls:
            tool_calls += delta.tool_calls
        if delta.usage is not None:
            usage = usage + delta.usage
        if delta.finish_reason is not None:
            finish = delta.finish_reason
    return ChatResponse(
        content="".join(parts),
        tool_calls=tool_calls,
        usage=usage,
        finish_reason=finish,
        model=model,
        reasoning="".join(thoughts),
    )
