"""FakeLLM.stream: small content chunks, then exactly one terminal delta; chat is its sum."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import pytest

from agentkit.core.invoker import Invoker
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import ChatResponse, Delta, Message, ToolCall, Usage
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm._reply import CHUNK_PATTERN, chunk

# These tests exercise the raw doubles: exhaustion, misses and tool calls without tools
# are what they assert on. Strict verification is tested in test_fake_llm_verification.py.
pytestmark = pytest.mark.agentkit(verify=False)

MODEL = "fake-model"
MESSAGES = [Message.user("go")]


async def drain(stream: AsyncIterator[Delta]) -> list[Delta]:
    return [delta async for delta in stream]


async def test_content_streams_in_small_chunks_then_one_terminal_delta() -> None:
    text = "The quick brown fox jumps over the lazy dog, twice."
    deltas = await drain(FakeLLM(text).stream(messages=MESSAGES, model=MODEL))
    *content, terminal = deltas
    assert len(content) > 5
    assert "".join(d.content for d in content) == text
    assert all(0 < len(d.content) <= 16 for d in content)
    for d in content:  # content deltas carry content only
        assert (d.tool_calls, d.usage, d.finish_reason) == ((), None, None)
    assert terminal.content == ""
    assert terminal.finish_reason == "stop"
    assert terminal.usage is not None
    assert terminal.tool_calls == ()


async def test_chunks_are_word_like_with_the_leading_space_attached() -> None:
    deltas = await drain(FakeLLM("a fairly long answer").stream(messages=MESSAGES, model=MODEL))
    assert [d.content for d in deltas[:-1]] == ["a", " fairly", " long", " answer"]


async def test_a_long_word_is_still_cut_into_small_chunks() -> None:
    blob = '{"key":"' + "v" * 100 + '"}'
    deltas = await drain(FakeLLM(blob).stream(messages=MESSAGES, model=MODEL))
    assert len(deltas) - 1 == -(-len(blob) // 8)
    assert "".join(d.content for d in deltas) == blob


async def test_empty_content_streams_only_the_terminal_delta() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    llm = FakeLLM.script([Turn(tool_calls=(call,))])
    deltas = await drain(llm.stream(messages=MESSAGES, model=MODEL))
    assert len(deltas) == 1
    (terminal,) = deltas
    assert terminal.tool_calls == (call,)
    assert terminal.finish_reason == "tool_calls"


async def test_tool_calls_ride_on_the_terminal_delta_only() -> None:
    calls = (ToolCall("c1", "a", {"x": 1}), ToolCall("c2", "b"))
    usage = Usage(input_tokens=3, output_tokens=4)
    llm = FakeLLM.script([Turn("let me look that up", tool_calls=calls, usage=usage)])
    deltas = await drain(llm.stream(messages=MESSAGES, model=MODEL))
    assert [d for d in deltas if d.tool_calls] == [deltas[-1]]
    assert [d for d in deltas if d.usage is not None] == [deltas[-1]]
    assert [d for d in deltas if d.finish_reason is not None] == [deltas[-1]]
    assert deltas[-1] == Delta(tool_calls=calls, usage=usage, finish_reason="tool_calls")


def test_chunks_always_concatenate_back_to_the_text() -> None:
    rng = random.Random(20240611)
    alphabet = "ab \n\t{}\"'é漢 "
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        pieces = re.findall(CHUNK_PATTERN, text)
        assert "".join(pieces) == text
        assert all(0 < len(p) <= 16 for p in pieces)


async def test_the_deltas_of_a_reply_are_precomputed_and_shared() -> None:
    # Nothing is allocated per chunk: a repeated reply streams the same Delta objects.
    llm = FakeLLM("several words of reply text")
    first = await drain(llm.stream(messages=MESSAGES, model=MODEL))
    second = await drain(llm.stream(messages=MESSAGES, model=MODEL))
    assert len(first) == len(second) > 2
    assert all(a is b for a, b in zip(first[:-1], second[:-1], strict=True))
    assert chunk("several words of reply text") == tuple(first[:-1])


async def test_chat_is_the_stream_collected() -> None:
    calls = (ToolCall("c1", "a", {"x": 1}),)
    turns = [Turn("hello there, world"), Turn("tool time", tool_calls=calls), Turn("")]
    streaming, chatting = FakeLLM.script(turns), FakeLLM.script(turns)
    for _ in turns:
        deltas = await drain(streaming.stream(messages=MESSAGES, model=MODEL))
        response = await chatting.chat(messages=MESSAGES, model=MODEL)
        terminal = deltas[-1]
        assert terminal.usage is not None
        assert response == ChatResponse(
            content="".join(d.content for d in deltas),
            tool_calls=terminal.tool_calls,
            usage=terminal.usage,
            finish_reason=terminal.finish_reason,
            model=MODEL,
        )


async def test_through_the_invoker_the_run_is_charged_once_per_call() -> None:
    usage = Usage(input_tokens=10, output_tokens=5)
    llm = FakeLLM("a reply of several chunks", usage=usage)
    invoker = Invoker(llm)
    ctx = RunContext(services=Services(invoker=invoker))
    request = ChatRequest(messages=MESSAGES, model=MODEL)
    deltas = await drain(invoker.stream(ctx, request))
    assert len(deltas) > 2
    await invoker.chat(ctx, request)
    assert ctx.ledger.calls == 2
    assert ctx.ledger.usage == usage + usage


@pytest.mark.parametrize("text", ["", "x", "two words", " leading", "trailing  ", "a\nb\n"])
async def test_edge_texts_round_trip_through_chat(text: str) -> None:
    response = await FakeLLM(text).chat(messages=MESSAGES, model=MODEL)
    assert response.content == text
    assert response.finish_reason == "stop"


async def test_a_turns_reasoning_is_one_delta_before_the_content() -> None:
    llm = FakeLLM.script([Turn("The answer is 42.", reasoning="Six times seven.")])
    first, *rest = await drain(llm.stream(messages=MESSAGES, model=MODEL))
    assert first == Delta(reasoning="Six times seven.")
    assert "".join(d.content for d in rest) == "The answer is 42."
    assert all(not d.reasoning for d in rest)
    usage = rest[-1].usage
    assert usage is not None
    # Counted inside the output, as providers count reasoning: 17 + 16 characters.
    assert (usage.output_tokens, usage.reasoning_tokens) == ((17 + 16 + 3) // 4, 4)


async def test_chat_keeps_the_reasoning_apart_from_the_answer() -> None:
    llm = FakeLLM.script([Turn("42", reasoning="Six times seven.")])
    response = await llm.chat(messages=MESSAGES, model=MODEL)
    assert (response.content, response.reasoning) == ("42", "Six times seven.")
