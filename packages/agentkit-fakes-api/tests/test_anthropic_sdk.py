"""The official anthropic SDK against FakeApi: its own parsers, accumulators and errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import anthropic
import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

MODEL = "claude-sonnet-4-5"
WEATHER = {
    "name": "get_weather",
    "description": "The weather in a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


@pytest.fixture
def sdk(fake_api: FakeApi) -> Iterator[anthropic.Anthropic]:
    with anthropic.Anthropic(base_url=fake_api.anthropic_base_url, api_key="k", max_retries=0) as c:
        yield c


def test_plain_text_with_usage(fake_api: FakeApi, sdk: anthropic.Anthropic) -> None:
    usage = Usage(input_tokens=11, cached_input_tokens=5, cache_write_tokens=3, output_tokens=7)
    llm = FakeLLM.script([Turn("Hello from the script.", usage=usage)])
    fake_api.serve(llm)

    reply = sdk.messages.create(
        model=MODEL,
        max_tokens=200,
        extra_body={"temperature": 0.2},  # sent as the API field; this SDK has no keyword for it
        system="Be brief.",
        messages=[{"role": "user", "content": "Say hello"}],
    )

    assert [block.type for block in reply.content] == ["text"]
    assert reply.content[0].text == "Hello from the script."  # type: ignore[union-attr]
    assert reply.stop_reason == "end_turn"
    assert reply.model == MODEL
    assert reply.usage.input_tokens == 11
    assert reply.usage.cache_read_input_tokens == 5
    assert reply.usage.cache_creation_input_tokens == 3
    assert reply.usage.output_tokens == 7
    (call,) = llm.calls
    assert list(call.messages) == [Message.system("Be brief."), Message.user("Say hello")]
    assert call.model == MODEL
    assert call.max_tokens == 200
    assert call.temperature == 0.2


def test_streamed_text_arrives_delta_by_delta(fake_api: FakeApi, sdk: anthropic.Anthropic) -> None:
    llm = FakeLLM.script([Turn("one two three four five six", usage=Usage(9, 0, 0, 4))])
    fake_api.serve(llm)

    with sdk.messages.stream(
        model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "count"}]
    ) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()

    assert len(pieces) > 1  # FakeLLM's content deltas stay separate events
    assert "".join(pieces) == "one two three four five six"
    assert final.stop_reason == "end_turn"
    assert (final.usage.input_tokens, final.usage.output_tokens) == (9, 4)


@pytest.mark.parametrize("streamed", [False, True])
def test_a_tool_round_trip_in_both_directions(
    fake_api: FakeApi, sdk: anthropic.Anthropic, streamed: bool
) -> None:
    llm = FakeLLM.script(
        [
            Turn("Let me look.", tool_calls=[ToolCall("toolu_1", "get_weather", {"city": "Oslo"})]),
            Turn("It is sunny in Oslo."),
        ]
    )
    fake_api.serve(llm)
    ask = [{"role": "user", "content": "Weather in Oslo?"}]

    first: anthropic.types.Message
    if streamed:
        with sdk.messages.stream(
            model=MODEL,
            max_tokens=100,
            tools=[WEATHER],  # type: ignore[list-item]
            messages=ask,  # type: ignore[arg-type]
        ) as stream:
            first = stream.get_final_message()
    else:
        first = sdk.messages.create(
            model=MODEL,
            max_tokens=100,
            tools=[WEATHER],  # type: ignore[list-item]
            messages=ask,  # type: ignore[arg-type]
        )
    assert first.stop_reason == "tool_use"
    text, use = first.content
    assert text.type == "text"
    assert text.text == "Let me look."
    assert use.type == "tool_use"
    assert (use.id, use.name, use.input) == ("toolu_1", "get_weather", {"city": "Oslo"})

    second = sdk.messages.create(
        model=MODEL,
        max_tokens=100,
        tools=[WEATHER],  # type: ignore[list-item]
        messages=[
            *ask,  # type: ignore[list-item]
            {"role": "assistant", "content": first.content},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}],
            },
        ],
    )
    assert second.content[0].text == "It is sunny in Oslo."  # type: ignore[union-attr]

    first_call, second_call = llm.calls
    assert list(first_call.tools or ()) == [
        ToolSchema("get_weather", "The weather in a city.", WEATHER["input_schema"])  # type: ignore[arg-type]
    ]
    assert list(second_call.messages) == [
        Message.user("Weather in Oslo?"),
        Message.assistant(
            "Let me look.", tool_calls=(ToolCall("toolu_1", "get_weather", {"city": "Oslo"}),)
        ),
        Message.tool("sunny", tool_call_id="toolu_1", name="get_weather"),
    ]


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, anthropic.BadRequestError),
        (401, anthropic.AuthenticationError),
        (403, anthropic.PermissionDeniedError),
        (404, anthropic.NotFoundError),
        (429, anthropic.RateLimitError),
        (500, anthropic.InternalServerError),
        (529, anthropic.OverloadedError),
    ],
)
@pytest.mark.parametrize("streamed", [False, True])
def test_each_scripted_status_is_the_sdks_own_exception(
    fake_api: FakeApi, sdk: anthropic.Anthropic, status: int, error: type[Exception], streamed: bool
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(status, "scripted")))

    with pytest.raises(error) as raised:
        if streamed:
            with sdk.messages.stream(
                model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
            ) as stream:
                stream.get_final_message()
        else:
            sdk.messages.create(
                model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
            )

    assert isinstance(raised.value, anthropic.APIStatusError)
    assert raised.value.status_code == status
    body = raised.value.body
    assert isinstance(body, dict)
    assert body["type"] == "error"
    assert body["error"]["message"] == "scripted"


def test_the_sdk_retries_a_529_and_the_retry_is_in_the_call_log(fake_api: FakeApi) -> None:
    llm = FakeLLM.script(
        [Turn("after the retry")], fail_times=1, fail_exc=ApiError(529, retry_after=0.001)
    )
    fake_api.serve(llm)

    with anthropic.Anthropic(
        base_url=fake_api.anthropic_base_url, api_key="k", max_retries=1
    ) as sdk:
        reply = sdk.messages.create(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
        )

    assert reply.content[0].text == "after the retry"  # type: ignore[union-attr]
    assert len(llm.calls) == 2
    assert llm.failures == 1
    first, second = fake_api.requests
    assert (first.status, second.status) == (529, 200)
    assert second.headers["x-stainless-retry-count"] == "1"


def test_an_in_stream_overload_is_an_sdk_status_error(
    fake_api: FakeApi, sdk: anthropic.Anthropic
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(529, "busy", in_stream=True)))

    with (
        pytest.raises(anthropic.APIStatusError) as raised,
        sdk.messages.stream(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
        ) as stream,
    ):
        stream.get_final_message()

    assert raised.value.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "busy"},
    }
    assert fake_api.requests[0].status == 200  # the error came inside the stream


def test_a_stream_broken_mid_way_is_a_connection_error(
    fake_api: FakeApi, sdk: anthropic.Anthropic
) -> None:
    fake_api.serve(FakeLLM("never", fail_times=1, fail_exc=BrokenStream()))

    with (
        pytest.raises(anthropic.APIConnectionError),
        sdk.messages.stream(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
        ) as stream,
    ):
        stream.get_final_message()


def test_count_tokens_is_the_input_the_reply_then_reports(
    fake_api: FakeApi, sdk: anthropic.Anthropic
) -> None:
    fake_api.serve(FakeLLM("An answer."))
    request: dict[str, Any] = {
        "model": MODEL,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "x" * 40}],
        "tools": [WEATHER],
    }
    counted = sdk.messages.count_tokens(**request)
    reply = sdk.messages.create(max_tokens=10, **request)

    assert counted.input_tokens == (len("Be brief.") + 40 + 3) // 4  # four characters a token
    assert reply.usage.input_tokens == counted.input_tokens  # one estimate, in one place
    assert [r.route for r in fake_api.requests] == ["/v1/messages/count_tokens", "/v1/messages"]


async def test_the_async_client_streams_too(fake_api: FakeApi) -> None:
    fake_api.serve(FakeLLM("async hello"))
    async with (
        anthropic.AsyncAnthropic(
            base_url=fake_api.anthropic_base_url, api_key="k", max_retries=0
        ) as sdk,
        sdk.messages.stream(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
        ) as stream,
    ):
        final = await stream.get_final_message()
    assert final.content[0].text == "async hello"  # type: ignore[union-attr]


@pytest.mark.parametrize("streamed", [True, False])
def test_reasoning_is_a_thinking_block_before_the_text(
    fake_api: FakeApi, sdk: anthropic.Anthropic, streamed: bool
) -> None:
    llm = FakeLLM.script([Turn("The answer is 42.", reasoning="Six times seven.")])
    fake_api.serve(llm)
    request = {
        "model": MODEL,
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Think, then answer."}],
    }

    if streamed:
        with sdk.messages.stream(**request) as stream:  # type: ignore[arg-type]
            kinds = [event.type for event in stream]
            reply = stream.get_final_message()
        assert "thinking" in kinds  # the SDK's own event for a thinking_delta
    else:
        reply = sdk.messages.create(**request)  # type: ignore[call-overload]

    thinking, text = reply.content
    assert thinking.type == "thinking"
    assert thinking.thinking == "Six times seven."
    assert thinking.signature  # a client keeps it to send the block back
    assert text.type == "text"
    assert text.text == "The answer is 42."


def test_a_stream_broken_after_partial_deltas_shows_them_first(
    fake_api: FakeApi, sdk: anthropic.Anthropic
) -> None:
    partial = [Delta(reasoning="Hmm."), Delta(content="The answer is")]
    fake_api.serve(FakeLLM.script([BrokenStream(partial=partial)]))
    seen: list[str] = []

    with (
        pytest.raises(anthropic.APIConnectionError),
        sdk.messages.stream(
            model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}]
        ) as stream,
    ):
        for event in stream:
            if event.type == "thinking":
                seen.append(f"thinking:{event.thinking}")
            elif event.type == "text":
                seen.append(f"text:{event.text}")

    assert seen == ["thinking:Hmm.", "text:The answer is"]


def test_broken_stream_refuses_a_partial_that_is_not_deltas() -> None:
    with pytest.raises(ArgumentTypeError, match=r"BrokenStream: partial\[0\] must be a Delta"):
        BrokenStream(partial=cast(Any, ["text"]))
