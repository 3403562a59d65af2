"""Positive typing cases checked by the root mypy run: what works at run time type-checks."""

from __future__ import annotations

from collections.abc import Sequence

from agentkit.core.request import ChatRequest
from agentkit.core.types import Message, ToolCall
from agentkit.fakes.llm import FakeLLM, Turn


def test_a_list_of_tool_calls_builds_a_turn() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    turn = Turn(tool_calls=[call])
    assert turn.tool_calls == (call,)


async def test_call_records_are_typed() -> None:
    llm = FakeLLM("ok")
    await llm.chat(messages=[Message.user("q")], model="m")
    record: ChatRequest = llm.calls[0]
    model: str = record.model
    messages: Sequence[Message] = record.messages
    assert (model, messages) == ("m", (Message.user("q"),))
