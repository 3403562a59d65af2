"""REJECTED by mypy: an LLM double whose ``stream`` is a plain generator.

``LLMPort.stream`` returns an ``AsyncIterator[Delta]``: callers ``async for``
over it. A sync generator of deltas looks alike and fails at the first
``async for`` -- exactly the slip the conformance check exists to catch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from agentkit.core.ports import LLMPort
from agentkit.core.types import ChatResponse, Delta, Message, ToolSchema


class SyncStreamLLM:
    async def chat(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> ChatResponse:
        return ChatResponse(content="hi")

    def stream(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> Iterator[Delta]:
        yield Delta(content="hi")


_llm: LLMPort = SyncStreamLLM()
