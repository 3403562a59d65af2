"""What the real APIs hold a request to, held by FakeApi too: stored Responses, real
credentials, required fields, the size limit, and a refused transcript's 400."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import anthropic
import openai
import pytest
from openai.types.responses import ResponseFunctionToolCall
from openai.types.responses.response_input_param import FunctionCallOutput

from agentkit.core.types import Message, ToolCall
from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

REAL_ANTHROPIC = "sk-ant-api03-" + "Xk7_9bQz-2Lm" * 8 + "AA"
REAL_OPENAI = "sk-proj-" + "T9xQ2mZ7_pLk" * 12
ASK: list[Any] = [{"role": "user", "content": "Hi"}]
WEATHER = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}}


def sent_key(headers: Mapping[str, str]) -> str:
    """The key as the client sent it: ``x-api-key``, or the ``Authorization`` bearer (the
    anthropic SDK has sent either, by version)."""
    return headers.get("x-api-key") or headers["authorization"].removeprefix("Bearer ")


def openai_client(api: FakeApi) -> openai.OpenAI:
    return openai.OpenAI(base_url=api.openai_base_url, api_key="k", max_retries=0)


def anthropic_client(api: FakeApi, key: str | None = "k") -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=api.anthropic_base_url, api_key=key, max_retries=0)


# ------------------------------------------------------------ stored Responses


def test_previous_response_id_puts_the_earlier_turns_before_the_new_input() -> None:
    llm = FakeLLM.script([Turn("Hello."), Turn("Still here.")])
    with FakeApi(llm) as api, openai_client(api) as client:
        first = client.responses.create(model="gpt-5", instructions="Be brief.", input="Hi")
        second = client.responses.create(
            model="gpt-5",
            instructions="Be kind.",
            input="And then?",
            previous_response_id=first.id,
        )
    assert second.output_text == "Still here."
    assert second.previous_response_id == first.id
    # The earlier input and output come first; the earlier instructions are not carried over.
    assert list(llm.calls[1].messages) == [
        Message.system("Be kind."),
        Message.user("Hi"),
        Message.assistant("Hello."),
        Message.user("And then?"),
    ]


def test_a_tool_loop_chained_by_id_sends_only_the_tool_output() -> None:
    call = ToolCall("call_1", "get_weather", {"city": "Oslo"})
    llm = FakeLLM.script([Turn(tool_calls=[call]), Turn("Sunny in Oslo.")])
    with FakeApi(llm) as api, openai_client(api) as client:
        first = client.responses.create(
            model="gpt-5",
            input="Weather in Oslo?",
            tools=[WEATHER],  # type: ignore[list-item]
        )
        (item,) = first.output
        assert isinstance(item, ResponseFunctionToolCall)
        output: FunctionCallOutput = {
            "type": "function_call_output",
            "call_id": item.call_id,
            "output": "sunny",
        }
        with client.responses.stream(
            model="gpt-5",
            input=[output],
            tools=[WEATHER],  # type: ignore[list-item]
            previous_response_id=first.id,
        ) as stream:
            final = stream.get_final_response()
    assert final.output_text == "Sunny in Oslo."
    assert llm.calls[1].messages[-2:] == (
        Message.assistant("", tool_calls=(call,)),
        Message.tool("sunny", tool_call_id="call_1", name="get_weather"),
    )


def test_an_unknown_previous_response_is_refused_as_the_api_refuses_it() -> None:
    llm = FakeLLM.script([Turn("Served on.")])
    with (
        FakeApi(llm, verify=False) as api,
        openai_client(api) as client,
    ):
        with pytest.raises(openai.BadRequestError) as raised:
            client.responses.create(model="gpt-5", input="Hi", previous_response_id="resp_nope")
        assert client.responses.create(model="gpt-5", input="Hi").output_text == "Served on."
    assert raised.value.status_code == 400
    assert raised.value.body == {
        "message": "Previous response with id 'resp_nope' not found.",
        "type": "invalid_request_error",
        "param": "previous_response_id",
        "code": "previous_response_not_found",
    }
    assert [v.kind for v in api.violations()] == ["bad_request"]


def test_a_response_made_with_store_false_cannot_be_chained() -> None:
    llm = FakeLLM.script([Turn("Not kept.")])
    with (
        FakeApi(llm, verify=False) as api,
        openai_client(api) as client,
    ):
        first = client.responses.create(model="gpt-5", input="Hi", store=False)
        assert first.to_dict()["store"] is False
        with pytest.raises(openai.BadRequestError, match="not found"):
            client.responses.create(model="gpt-5", input="More", previous_response_id=first.id)


def test_serve_forgets_the_stored_responses_of_the_last_test() -> None:
    with FakeApi(FakeLLM("one"), verify=False) as api, openai_client(api) as client:
        first = client.responses.create(model="gpt-5", input="Hi")
        api.serve(FakeLLM("two"))
        with pytest.raises(openai.BadRequestError, match="not found"):
            client.responses.create(model="gpt-5", input="Hi", previous_response_id=first.id)


# --------------------------------------------------------- real credentials


def test_a_real_key_from_the_environment_is_a_violation_and_is_masked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", REAL_ANTHROPIC)
    with FakeApi(FakeLLM("Hello."), verify=False) as api, anthropic_client(api, None) as client:
        reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=10, messages=ASK)
    assert reply.content[0].type == "text"  # served: the finding is the test's, not the client's
    (request,) = api.requests
    assert sent_key(request.headers) == "[REDACTED]"
    assert REAL_ANTHROPIC not in repr(api.requests)
    (violation,) = api.violations()
    assert violation.kind == "real_credential"
    assert "a real credential reached the fake" in violation.detail
    assert "read it from your environment" in violation.detail
    assert "Anthropic API key in " in violation.detail
    assert REAL_ANTHROPIC not in violation.detail


def test_a_real_openai_key_in_the_bearer_header_is_masked_there() -> None:
    with (
        FakeApi(FakeLLM("Hello."), verify=False) as api,
        openai.OpenAI(base_url=api.openai_base_url, api_key=REAL_OPENAI) as client,
    ):
        client.chat.completions.create(model="gpt-5", messages=ASK)
    assert api.requests[0].headers["authorization"] == "Bearer [REDACTED]"
    assert [v.kind for v in api.violations()] == ["real_credential"]


@pytest.mark.parametrize(
    "key",
    ["k", "any", "sk-ant-fake-api-key-not-a-secret", "sk-test-1234567890abcdefgh", "test-key"],
)
def test_made_up_keys_and_the_fixtures_own_are_no_finding(key: str) -> None:
    with FakeApi(FakeLLM("Hello.")) as api, anthropic_client(api, key) as client:
        client.messages.create(model="claude-sonnet-4-5", max_tokens=10, messages=ASK)
        assert sent_key(api.requests[0].headers) == key
        assert api.violations() == []
        assert "fake" in api.env["ANTHROPIC_API_KEY"]
        assert "fake" in api.env["OPENAI_API_KEY"]


# ------------------------------------------------------- the APIs' own checks


def _messages(api: FakeApi, **body: Any) -> None:
    with anthropic_client(api) as client:
        client.messages.create(**{"model": "claude-sonnet-4-5", "max_tokens": 10, **body})


def _chat(api: FakeApi, **body: Any) -> None:
    with openai_client(api) as client:
        client.chat.completions.create(**{"model": "gpt-5", **body})


def _responses(api: FakeApi, **body: Any) -> None:
    with openai_client(api) as client:
        client.responses.create(**{"model": "gpt-5", **body})


REFUSED: dict[str, tuple[Any, dict[str, Any], str]] = {
    "Anthropic: no messages": (_messages, {"messages": []}, "at least one message"),
    "Anthropic: a message without content": (
        _messages,
        {"messages": [{"role": "user"}]},
        "messages.0.content: Field required",
    ),
    "Anthropic: a message with empty content": (
        _messages,
        {"messages": [{"role": "user", "content": []}]},
        "non-empty content",
    ),
    "Anthropic: a tool without its input_schema": (
        _messages,
        {"messages": ASK, "tools": [{"name": "t"}]},
        "tools.0.custom.input_schema: Field required",
    ),
    "Chat: no messages": (_chat, {"messages": []}, "too short"),
    "Chat: a user message without content": (
        _chat,
        {"messages": [{"role": "user"}]},
        "Missing required parameter: 'messages[0].content'",
    ),
    "Chat: an assistant message with neither content nor tool calls": (
        _chat,
        {"messages": [*ASK, {"role": "assistant"}]},
        "Missing required parameter: 'messages[1].content'",
    ),
    "Responses: a message item without content": (
        _responses,
        {"input": [{"type": "message", "role": "user"}]},
        "Missing required parameter: 'input[0].content'",
    ),
    "Responses: a tool output without its output": (
        _responses,
        {"input": [{"type": "function_call_output", "call_id": "c"}]},
        "Missing required parameter: 'input[0].output'",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_request_the_real_api_refuses_is_its_400_and_the_server_serves_on(case: str) -> None:
    send, body, message = REFUSED[case]
    error = anthropic.BadRequestError if send is _messages else openai.BadRequestError
    with FakeApi(FakeLLM("Served on."), verify=False) as api:
        with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
            send(api, **body)
        ok = {"messages": ASK} if send is not _responses else {"input": "Hi"}
        send(api, **ok)
    assert [r.status for r in api.requests] == [400, 200]
    assert [v.kind for v in api.violations()] == ["bad_request"]


def test_a_body_over_the_size_limit_is_413_in_the_providers_shape() -> None:
    huge = [{"role": "user", "content": "x" * (32 * 1024 * 1024)}]
    with (
        FakeApi(FakeLLM("unused"), verify=False) as api,
        pytest.raises(anthropic.APIStatusError) as raised,
    ):
        _messages(api, messages=huge)
    assert raised.value.status_code == 413
    assert raised.value.body == {
        "type": "error",
        "error": {"type": "request_too_large", "message": raised.value.body["error"]["message"]},  # type: ignore[index]
    }
    assert [r.status for r in api.requests] == [413]
    assert api.requests[0].body == b""  # refused before it was kept


def test_a_tool_call_without_its_result_is_the_providers_400_not_a_500() -> None:
    call = ToolCall("toolu_1", "get_weather", {"city": "Oslo"})
    llm = FakeLLM.script([Turn(tool_calls=[call])], verify=False)
    tools = [{"name": "get_weather", "input_schema": {"type": "object"}}]
    with (
        FakeApi(llm) as api,
        anthropic.Anthropic(base_url=api.anthropic_base_url, api_key="k") as client,
    ):
        first = client.messages.create(
            model="claude-sonnet-4-5",
            max_tokens=10,
            messages=ASK,
            tools=tools,  # type: ignore[arg-type]
        )
        forgot = [
            *ASK,
            {"role": "assistant", "content": first.content},
            {"role": "user", "content": "And?"},
        ]
        with pytest.raises(anthropic.BadRequestError, match="no tool-result message"):
            client.messages.create(
                model="claude-sonnet-4-5",
                max_tokens=10,
                messages=forgot,
                tools=tools,  # type: ignore[arg-type]
            )
    assert [r.status for r in api.requests] == [200, 400]  # a 400 is not retried
    body = json.loads(api.requests[1].body)
    assert body["messages"][-1]["content"] == "And?"
    assert [v.kind for v in llm.violations()] == ["unanswered_tool_call"]


def test_a_real_key_in_the_query_string_is_masked_in_the_path_too() -> None:
    with (
        FakeApi(FakeLLM("Hello."), verify=False) as api,
        anthropic.Anthropic(
            base_url=api.anthropic_base_url,
            api_key="k",
            default_query={"key": REAL_ANTHROPIC},
            max_retries=0,
        ) as client,
    ):
        client.messages.create(model="claude-sonnet-4-5", max_tokens=10, messages=ASK)
    (request,) = api.requests
    assert request.path == "/v1/messages?key=[REDACTED]"
    assert request.route == "/v1/messages"
    (violation,) = api.violations()
    assert "Anthropic API key in the query string" in violation.detail
    assert REAL_ANTHROPIC not in violation.detail
