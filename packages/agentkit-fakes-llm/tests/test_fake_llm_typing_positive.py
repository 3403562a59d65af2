"""Positive typing cases checked by the root mypy run: what works at run time type-checks."""

from __future__ import annotations

from agentkit.core.types import Message, ToolCall
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm.records import LLMCall


def test_a_list_of_tool_calls_builds_a_turn() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    turn = Turn(tool_calls=[call])
    assert turn.tool_calls == (call,)


async def test_call_records_are_typed() -> None:
    llm = FakeLLM("ok")
    await llm.chat(messages=[Message.user("q")], model="m")
    record: LLMCall = llm.calls[0]
    model: str = record["model"]
    messages: list[Message] = record["messages"]
    assert (model, messages) == ("m", [Message.user("q")])
