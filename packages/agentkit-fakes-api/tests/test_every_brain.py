"""FakeLLM in every form is a brain: the wire sees what the in-process agent would."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from agentkit.core.request import ChatRequest
from agentkit.core.types import ToolCall
from agentkit.fakes.api import ApiError, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

MODEL = "gpt-5"


@pytest.fixture
def sdk(fake_api: FakeApi) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=fake_api.openai_base_url, api_key="k", max_retries=0) as client:
        yield client


def ask(sdk: openai.OpenAI, text: str) -> str:
    reply = sdk.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": text}])
    return reply.choices[0].message.content or ""


def test_a_dict_picks_by_the_last_user_message(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM({"weather": "sunny", "time": "noon"}))
    assert ask(sdk, "what time is it") == "noon"
    assert ask(sdk, "the weather?") == "sunny"


def test_a_dict_miss_is_a_400_and_a_violation(sdk: openai.OpenAI) -> None:
    llm = FakeLLM({"weather": "sunny"}, verify=False)
    with (
        FakeApi(llm, verify=False) as api,
        openai.OpenAI(base_url=api.openai_base_url, api_key="k", max_retries=0) as client,
        pytest.raises(openai.BadRequestError, match="UnmatchedRequest"),
    ):
        ask(client, "something else")
    (violation,) = api.violations()
    assert violation.kind == "unanswerable_request"


def test_a_callable_decides_from_the_request(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    def rule(request: ChatRequest) -> str | Turn:
        if request.tools:
            return Turn(tool_calls=[ToolCall("c1", request.tools[0].name, {})])
        return f"you said {request.last_user_text}"

    fake_api.serve(FakeLLM(rule))
    assert ask(sdk, "hello") == "you said hello"
    called = sdk.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "use it"}],
        tools=[{"type": "function", "function": {"name": "probe", "parameters": {}}}],
    )
    (call,) = called.choices[0].message.tool_calls or []
    assert call.type == "function"
    assert call.function.name == "probe"


def test_a_script_item_may_be_the_provider_error(fake_api: FakeApi) -> None:
    llm = FakeLLM.script([ApiError(503, retry_after=0.001), Turn("second time lucky")])
    fake_api.serve(llm)
    with openai.OpenAI(base_url=fake_api.openai_base_url, api_key="k", max_retries=1) as client:
        assert ask(client, "x") == "second time lucky"
    assert [r.status for r in fake_api.requests] == [503, 200]


def test_the_no_argument_fakellm_exercises_the_offered_tools(
    fake_api: FakeApi, sdk: openai.OpenAI
) -> None:
    fake_api.serve(FakeLLM())
    schema: dict[str, object] = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    }
    reply = sdk.responses.create(
        model=MODEL,
        input="x",
        tools=[{"type": "function", "name": "get_weather", "parameters": schema, "strict": True}],
    )
    (item,) = reply.output
    assert item.type == "function_call"
    assert item.name == "get_weather"
    assert isinstance(json.loads(item.arguments)["city"], str)


def test_a_finish_for_length_is_each_apis_own(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    fake_api.serve(FakeLLM(lambda request: Turn("cut", finish_reason="length")))
    chat = sdk.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "x"}])
    assert chat.choices[0].finish_reason == "length"
    response = sdk.responses.create(model=MODEL, input="x")
    assert response.status == "incomplete"
    assert response.incomplete_details is not None
    assert response.incomplete_details.reason == "max_output_tokens"


def test_response_format_reaches_the_brain(fake_api: FakeApi, sdk: openai.OpenAI) -> None:
    llm = FakeLLM('{"a": 1}')
    fake_api.serve(llm)
    fmt: Any = {"type": "json_schema", "name": "out", "schema": {"type": "object"}}
    sdk.responses.create(model=MODEL, input="x", text={"format": fmt})
    sdk.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "x"}],
        response_format={"type": "json_object"},
    )
    first, second = llm.calls
    assert dict(first.response_format or {}) == fmt
    assert dict(second.response_format or {}) == {"type": "json_object"}


def test_a_gzipped_body_is_read_and_kept_decoded(fake_api: FakeApi) -> None:
    import http.client

    llm = FakeLLM("ok")
    fake_api.serve(llm)
    body = json.dumps({"model": "m", "input": "zipped"}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", fake_api.port, timeout=10)
    connection.request(
        "POST",
        "/v1/responses",
        gzip.compress(body),
        {"authorization": "Bearer k", "content-encoding": "gzip"},
    )
    assert connection.getresponse().status == 200
    connection.close()
    assert fake_api.requests[0].body == body
    assert llm.calls[0].last_user_text == "zipped"


def test_a_value_the_kit_refuses_is_a_bad_request(sdk: openai.OpenAI) -> None:
    with (
        FakeApi(FakeLLM("x"), verify=False) as api,
        openai.OpenAI(base_url=api.openai_base_url, api_key="k", max_retries=0) as client,
        pytest.raises(openai.BadRequestError, match="max_tokens"),
    ):
        client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "x"}], max_completion_tokens=0
        )
    assert [v.kind for v in api.violations()] == ["bad_request"]
