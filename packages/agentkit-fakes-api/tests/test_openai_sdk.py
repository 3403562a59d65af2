"""The official openai SDK against FakeApi: Chat Completions and Responses, its own errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

MODEL = "gpt-5"
PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}}
CHAT_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "description": "The weather.", "parameters": PARAMETERS},
}
RESPONSES_TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "The weather.",
    "parameters": PARAMETERS,
}
# The kit's usage is cache-exclusive; OpenAI reports input INCLUSIVE of cached input.
USAGE = Usage(input_tokens=20, cached_input_tokens=6, output_tokens=9, reasoning_tokens=2)


@pytest.fixture
def sdk(fake_api: FakeApi) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=fake_api.openai_base_url, api_key="k", max_retries=0) as c:
        yield c


# ------------------------------------------------------------ chat completions


def test_chat_plain_text_with_usage(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    llm = FakeLLM.script([Turn("Hello.", usage=USAGE)])
    fake_api.serve(llm)

    reply = sdk.chat.completions.create(
        model=MODEL,
        temperature=0.3,
        max_completion_tokens=50,
        messages=[
            {"role": "developer", "content": "Be brief."},
            {"role": "user", "content": "Say hello"},
        ],
    )

    choice = reply.choices[0]
    assert choice.message.content == "Hello."
    assert choice.finish_reason == "stop"
    assert reply.usage is not None
    assert reply.usage.prompt_tokens == 26
    assert reply.usage.completion_tokens == 9
    assert reply.usage.total_tokens == 35
    assert reply.usage.prompt_tokens_details is not None
    assert reply.usage.prompt_tokens_details.cached_tokens == 6
    assert reply.usage.completion_tokens_details is not None
    assert reply.usage.completion_tokens_details.reasoning_tokens == 2
    (call,) = llm.calls
    assert list(call.messages) == [Message.system("Be brief."), Message.user("Say hello")]
    assert (call.model, call.temperature, call.max_tokens) == (MODEL, 0.3, 50)


def test_chat_streamed_text_and_the_usage_chunk(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM.script([Turn("one two three four five six", usage=USAGE)]))

    chunks = list(
        sdk.chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": "count"}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )

    text = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert len(text) > 1
    assert "".join(text) == "one two three four five six"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.prompt_tokens == 26


@pytest.mark.parametrize("streamed", [False, True])
def test_chat_tool_round_trip(fake_api: FakeApi, sdk: openai.OpenAI, streamed: bool) -> None:
    llm = FakeLLM.script(
        [
            Turn(tool_calls=[ToolCall("call_1", "get_weather", {"city": "Oslo"})]),
            Turn("Sunny."),
        ]
    )
    fake_api.serve(llm)
    ask = [{"role": "user", "content": "Weather?"}]

    first: openai.types.chat.ChatCompletion
    if streamed:
        with sdk.chat.completions.stream(
            model=MODEL,
            messages=ask,  # type: ignore[arg-type]
            tools=[CHAT_TOOL],  # type: ignore[list-item]
        ) as stream:
            first = stream.get_final_completion()
    else:
        first = sdk.chat.completions.create(
            model=MODEL,
            messages=ask,  # type: ignore[arg-type]
            tools=[CHAT_TOOL],  # type: ignore[list-item]
        )
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    (wire_call,) = choice.message.tool_calls or []
    assert wire_call.type == "function"
    assert wire_call.id == "call_1"
    assert wire_call.function.name == "get_weather"
    assert json.loads(wire_call.function.arguments) == {"city": "Oslo"}

    second = sdk.chat.completions.create(
        model=MODEL,
        tools=[CHAT_TOOL],  # type: ignore[list-item]
        messages=[
            *ask,  # type: ignore[list-item]
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
    )
    assert second.choices[0].message.content == "Sunny."
    first_call, second_call = llm.calls
    assert list(first_call.tools or ()) == [ToolSchema("get_weather", "The weather.", PARAMETERS)]
    assert list(second_call.messages)[1:] == [
        Message.assistant(tool_calls=(ToolCall("call_1", "get_weather", {"city": "Oslo"}),)),
        Message.tool("sunny", tool_call_id="call_1", name="get_weather"),
    ]


STATUSES = [
    (400, openai.BadRequestError),
    (401, openai.AuthenticationError),
    (403, openai.PermissionDeniedError),
    (404, openai.NotFoundError),
    (429, openai.RateLimitError),
    (500, openai.InternalServerError),
    (529, openai.InternalServerError),
]


@pytest.mark.parametrize(("status", "error"), STATUSES)
def test_chat_each_scripted_status_is_the_sdks_own_exception(
    fake_api: FakeApi, sdk: openai.OpenAI, status: int, error: type[Exception]
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(status, "scripted")))

    with pytest.raises(error) as raised:
        sdk.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "x"}])

    assert isinstance(raised.value, openai.APIStatusError)
    assert raised.value.status_code == status
    assert raised.value.message.endswith("scripted")


def test_chat_the_sdk_retries_a_429(fake_api: FakeApi) -> None:
    llm = FakeLLM.script([Turn("ok")], fail_times=1, fail_exc=ApiError(429, retry_after=0.001))
    fake_api.serve(llm)
    with openai.OpenAI(base_url=fake_api.openai_base_url, api_key="k", max_retries=1) as sdk:
        reply = sdk.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "x"}]
        )
    assert reply.choices[0].message.content == "ok"
    assert len(llm.calls) == 2
    assert [r.status for r in fake_api.requests] == [429, 200]


def test_chat_a_broken_stream_is_a_connection_error(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=BrokenStream()))
    stream = sdk.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "x"}], stream=True
    )
    with pytest.raises(openai.APIConnectionError):
        list(stream)


def test_chat_an_in_stream_error_is_an_sdk_api_error(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(500, "boom", in_stream=True)))
    stream = sdk.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "x"}], stream=True
    )
    with pytest.raises(openai.APIError, match="boom"):
        list(stream)


# ------------------------------------------------------------------- responses


def test_responses_plain_text_with_usage(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    llm = FakeLLM.script([Turn("Hello.", usage=USAGE)])
    fake_api.serve(llm)

    reply = sdk.responses.create(
        model=MODEL, instructions="Be brief.", input="Say hello", max_output_tokens=40
    )

    assert reply.output_text == "Hello."
    assert reply.status == "completed"
    assert reply.usage is not None
    assert reply.usage.input_tokens == 26
    assert reply.usage.input_tokens_details.cached_tokens == 6
    assert reply.usage.output_tokens == 9
    assert reply.usage.output_tokens_details.reasoning_tokens == 2
    assert reply.usage.total_tokens == 35
    (call,) = llm.calls
    assert list(call.messages) == [Message.system("Be brief."), Message.user("Say hello")]
    assert call.max_tokens == 40


def test_responses_streamed_events_add_up(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM.script([Turn("one two three four five six", usage=USAGE)]))

    with sdk.responses.stream(model=MODEL, input="count") as stream:
        deltas = [e.delta for e in stream if e.type == "response.output_text.delta"]
        final = stream.get_final_response()

    assert len(deltas) > 1
    assert "".join(deltas) == final.output_text == "one two three four five six"
    assert final.usage is not None
    assert final.usage.input_tokens == 26


@pytest.mark.parametrize("streamed", [False, True])
def test_responses_function_call_round_trip(
    fake_api: FakeApi, sdk: openai.OpenAI, streamed: bool
) -> None:
    llm = FakeLLM.script(
        [
            Turn(tool_calls=[ToolCall("call_1", "get_weather", {"city": "Oslo"})]),
            Turn("Sunny."),
        ]
    )
    fake_api.serve(llm)

    first: openai.types.responses.Response
    if streamed:
        with sdk.responses.stream(
            model=MODEL,
            input="Weather?",
            tools=[RESPONSES_TOOL],  # type: ignore[list-item]
        ) as stream:
            first = stream.get_final_response()
    else:
        first = sdk.responses.create(
            model=MODEL,
            input="Weather?",
            tools=[RESPONSES_TOOL],  # type: ignore[list-item]
        )
    (item,) = first.output
    assert item.type == "function_call"
    assert (item.call_id, item.name) == ("call_1", "get_weather")
    assert json.loads(item.arguments) == {"city": "Oslo"}

    second = sdk.responses.create(
        model=MODEL,
        tools=[RESPONSES_TOOL],  # type: ignore[list-item]
        input=[
            {"role": "user", "content": "Weather?"},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": item.arguments,
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
    )
    assert second.output_text == "Sunny."
    first_call, second_call = llm.calls
    assert list(first_call.tools or ()) == [ToolSchema("get_weather", "The weather.", PARAMETERS)]
    assert list(second_call.messages) == [
        Message.user("Weather?"),
        Message.assistant(tool_calls=(ToolCall("call_1", "get_weather", {"city": "Oslo"}),)),
        Message.tool("sunny", tool_call_id="call_1", name="get_weather"),
    ]


@pytest.mark.parametrize(("status", "error"), STATUSES)
def test_responses_each_scripted_status_is_the_sdks_own_exception(
    fake_api: FakeApi, sdk: openai.OpenAI, status: int, error: type[Exception]
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(status, "scripted")))

    with pytest.raises(error) as raised, sdk.responses.stream(model=MODEL, input="x") as stream:
        stream.get_final_response()

    assert isinstance(raised.value, openai.APIStatusError)
    assert raised.value.status_code == status


def test_responses_a_broken_stream_is_a_connection_error(
    fake_api: FakeApi, sdk: openai.OpenAI
) -> None:
    llm = FakeLLM.script([Turn("whole")], fail_times=1, fail_exc=BrokenStream())
    fake_api.serve(llm)
    with (
        pytest.raises(openai.APIConnectionError),
        sdk.responses.stream(model=MODEL, input="x") as stream,
    ):
        stream.get_final_response()
    # The failure consumed no turn: the next request gets it.
    assert sdk.responses.create(model=MODEL, input="again").output_text == "whole"


def test_responses_an_in_stream_rate_limit_is_response_failed(
    fake_api: FakeApi, sdk: openai.OpenAI
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(429, "slow", in_stream=True)))
    events = list(sdk.responses.create(model=MODEL, input="x", stream=True))
    assert [e.type for e in events] == [
        "response.created",
        "response.in_progress",
        "response.failed",
    ]
    failed = events[-1]
    assert failed.type == "response.failed"
    assert failed.response.status == "failed"
    assert failed.response.error is not None
    assert (failed.response.error.code, failed.response.error.message) == (
        "rate_limit_exceeded",
        "slow",
    )


async def test_the_async_client(fake_api: FakeApi) -> None:
    fake_api.serve(FakeLLM("async hello"))
    async with openai.AsyncOpenAI(
        base_url=fake_api.openai_base_url, api_key="k", max_retries=0
    ) as sdk:
        reply = await sdk.responses.create(model=MODEL, input="x")
        chat = await sdk.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "x"}]
        )
    assert reply.output_text == "async hello"
    assert chat.choices[0].message.content == "async hello"


@pytest.mark.parametrize("streamed", [True, False])
def test_responses_reasoning_is_a_reasoning_item_before_the_message(
    fake_api: FakeApi, sdk: openai.OpenAI, streamed: bool
) -> None:
    llm = FakeLLM.script([Turn("The answer is 42.", reasoning="Six times seven.")])
    fake_api.serve(llm)

    reply: openai.types.responses.Response
    if streamed:
        with sdk.responses.stream(model=MODEL, input="Think, then answer.") as stream:
            summary = "".join(
                e.delta for e in stream if e.type == "response.reasoning_summary_text.delta"
            )
            reply = stream.get_final_response()
        assert summary == "Six times seven."
    else:
        reply = sdk.responses.create(model=MODEL, input="Think, then answer.")

    reasoning, message = reply.output
    assert reasoning.type == "reasoning"
    assert [part.text for part in reasoning.summary] == ["Six times seven."]
    assert message.type == "message"
    assert reply.output_text == "The answer is 42."


@pytest.mark.parametrize("streamed", [True, False])
def test_chat_reasoning_is_reasoning_content_beside_the_answer(
    fake_api: FakeApi, sdk: openai.OpenAI, streamed: bool
) -> None:
    fake_api.serve(FakeLLM.script([Turn("The answer is 42.", reasoning="Six times seven.")]))
    messages: list[Any] = [{"role": "user", "content": "Think, then answer."}]

    if streamed:
        chunks = list(sdk.chat.completions.create(model=MODEL, messages=messages, stream=True))
        deltas = [c.choices[0].delta for c in chunks if c.choices]
        reasoning = "".join((d.model_extra or {}).get("reasoning_content", "") for d in deltas)
        content = "".join(d.content or "" for d in deltas)
    else:
        message = sdk.chat.completions.create(model=MODEL, messages=messages).choices[0].message
        reasoning = (message.model_extra or {})["reasoning_content"]
        content = message.content or ""

    assert reasoning == "Six times seven."
    assert content == "The answer is 42."  # never mixed into the answer


def test_responses_a_stream_broken_after_its_reasoning(
    fake_api: FakeApi, sdk: openai.OpenAI
) -> None:
    fake_api.serve(FakeLLM.script([BrokenStream(partial=[Delta(reasoning="**Starting**")])]))
    done: list[str] = []

    with (
        pytest.raises(openai.APIConnectionError),
        sdk.responses.stream(model=MODEL, input="x") as stream,
    ):
        for event in stream:
            if event.type == "response.output_item.done":
                done.append(event.item.type)
            assert event.type != "response.output_item.added" or event.item.type == "reasoning"

    assert done == ["reasoning"]  # no message item was opened: nothing of it was sent
