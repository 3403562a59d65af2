"""FakeApi.transport(): the SDKs answered in-process, exactly as on loopback.

Each scenario runs twice -- once with the SDK pointed at the loopback server,
once with its HTTP client given ``api.transport()`` and no server started --
and what the test sees must be the same: the SDK's reply or its exception,
the request log, the violations. Every scenario also pins what that outcome
is, so two paths broken alike still fail.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anthropic
import httpx2
import openai
import pytest

from agentkit.core.request import ChatRequest
from agentkit.core.types import Delta, ToolCall
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn
from tests.support.fresh_python import fresh_python

MODEL = "gpt-5"
ASK: Any = [{"role": "user", "content": "Hi"}]
WIRES = ["loopback", "in-process"]


@contextmanager
def openai_client(api: FakeApi, wire: str) -> Iterator[openai.OpenAI]:
    if wire == "loopback":
        with api, openai.OpenAI(base_url=api.openai_base_url, api_key="k", max_retries=0) as c:
            yield c
        return
    client = httpx2.Client(transport=api.transport())
    with openai.OpenAI(api_key="k", max_retries=0, http_client=client) as c:
        yield c
    assert not api.running  # nothing was started: no port, no thread


@contextmanager
def anthropic_client(api: FakeApi, wire: str) -> Iterator[anthropic.Anthropic]:
    if wire == "loopback":
        with (
            api,
            anthropic.Anthropic(base_url=api.anthropic_base_url, api_key="k", max_retries=0) as c,
        ):
            yield c
        return
    client = httpx2.Client(transport=api.transport())
    with anthropic.Anthropic(api_key="k", max_retries=0, http_client=client) as c:
        yield c


Outcome = tuple[object, list[tuple[str, str, int, bool]], list[str]]


def outcome(api: FakeApi, act: Callable[[], object]) -> Outcome:
    """What a test sees: the reply (or the exception's type), the log, the violation kinds."""
    try:
        seen: object = act()
    except (openai.APIError, anthropic.APIError) as exc:
        seen = type(exc).__name__
    log = [(r.method, r.route, r.status, r.side) for r in api.requests]
    return seen, log, [v.kind for v in api.violations()]


def both(scenario: Callable[[FakeApi, str], Outcome]) -> Outcome:
    """The scenario's outcome, the same on loopback and in-process (else the test fails)."""
    loopback = scenario(FakeApi(llm=None, verify=False), "loopback")
    in_process = scenario(FakeApi(llm=None, verify=False), "in-process")
    assert in_process == loopback
    return in_process


CHAT = ("POST", "/v1/chat/completions")


def test_a_plain_chat_reply() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM("Hello."))
        with openai_client(api, wire) as sdk:
            return outcome(
                api,
                lambda: (
                    sdk.chat.completions.create(model=MODEL, messages=ASK)
                    .choices[0]
                    .message.content
                ),
            )

    assert both(scenario) == ("Hello.", [(*CHAT, 200, False)], [])


def test_a_streamed_tool_call_and_the_body_the_brain_saw() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "get_weather", {"city": "Oslo"})])])
        api.serve(llm)
        tool: Any = {"type": "function", "function": {"name": "get_weather", "parameters": {}}}
        with openai_client(api, wire) as sdk:

            def act() -> object:
                chunks = list(
                    sdk.chat.completions.create(
                        model=MODEL, messages=ASK, tools=[tool], stream=True
                    )
                )
                calls = [
                    c.choices[0].delta.tool_calls
                    for c in chunks
                    if c.choices and c.choices[0].delta.tool_calls
                ]
                name = calls[0][0].function.name if calls[0][0].function else None
                (sent,) = llm.calls
                return name, [t.name for t in sent.tools or ()], json.loads(api.requests[0].body)

            return outcome(api, act)

    seen, log, violations = both(scenario)
    assert seen == (
        "get_weather",
        ["get_weather"],
        {
            "model": MODEL,
            "messages": ASK,
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}],
            "stream": True,
        },
    )
    assert (log, violations) == ([(*CHAT, 200, False)], [])


def test_a_responses_stream_and_an_anthropic_stream() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM.script([Turn("one two three"), Turn("four five")]))

        def act() -> object:
            with (
                openai_client(api, wire) as sdk,
                sdk.responses.stream(model=MODEL, input="x") as stream,
            ):
                first = stream.get_final_response().output_text
            with (
                anthropic_client(api, wire) as claude,
                claude.messages.stream(model="claude", max_tokens=50, messages=ASK) as s,
            ):
                second = s.get_final_text()
            return first, second

        return outcome(api, act)

    assert both(scenario) == (
        ("one two three", "four five"),
        [("POST", "/v1/responses", 200, False), ("POST", "/v1/messages", 200, False)],
        [],
    )


def test_a_scripted_status_is_the_sdks_own_exception() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM("never", fail_times=1, fail_exc=ApiError(429, "slow down")))
        with openai_client(api, wire) as sdk:
            return outcome(api, lambda: sdk.chat.completions.create(model=MODEL, messages=ASK))

    assert both(scenario) == ("RateLimitError", [(*CHAT, 429, False)], [])


@pytest.mark.parametrize(
    ("failure", "stream"),
    [
        (BrokenStream(), True),
        (BrokenStream(partial=[Delta(content="half an ")]), True),
        (BrokenStream(), False),  # a whole answer: the connection is dropped unanswered
    ],
)
def test_a_broken_stream_or_a_dropped_connection_is_a_connection_error(
    failure: BrokenStream, stream: bool
) -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM("whole", fail_times=1, fail_exc=failure))
        with openai_client(api, wire) as sdk:

            def act() -> object:
                if stream:
                    return list(sdk.chat.completions.create(model=MODEL, messages=ASK, stream=True))
                return sdk.chat.completions.create(model=MODEL, messages=ASK)

            return outcome(api, act)

    assert both(scenario) == (
        "APIConnectionError",
        [(*CHAT, 200 if stream else 0, False)],
        [],
    )


def test_a_request_nothing_can_answer_is_a_400_and_a_violation() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM.script([], verify=False))
        with openai_client(api, wire) as sdk:
            return outcome(api, lambda: sdk.chat.completions.create(model=MODEL, messages=ASK))

    assert both(scenario) == ("BadRequestError", [(*CHAT, 400, False)], ["unanswerable_request"])


def test_an_unknown_route_is_a_404_and_a_violation() -> None:
    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM("unused"))
        with openai_client(api, wire) as sdk:
            return outcome(api, lambda: sdk.models.list())

    assert both(scenario) == (
        "NotFoundError",
        [("GET", "/v1/models", 404, False)],
        ["unknown_route"],
    )


def test_no_key_is_the_providers_401() -> None:
    api = FakeApi(FakeLLM("unused"))
    with httpx2.Client(transport=api.transport(), base_url="https://api.anthropic.com") as http:
        reply = http.post("/v1/messages", json={"model": "m", "max_tokens": 5, "messages": ASK})
    assert reply.status_code == 401
    assert reply.json()["type"] == "error"
    assert reply.headers["request-id"].startswith("req_")


def test_a_gzip_body_is_decoded_as_the_server_decodes_it() -> None:
    llm = FakeLLM("unzipped")
    api = FakeApi(llm)
    body = gzip.compress(json.dumps({"model": "m", "messages": ASK}).encode())
    headers = {"authorization": "Bearer k", "content-encoding": "gzip"}
    with httpx2.Client(transport=api.transport(), base_url="https://x") as http:
        reply = http.post("/v1/chat/completions", content=body, headers=headers)
    assert reply.json()["choices"][0]["message"]["content"] == "unzipped"
    assert json.loads(api.requests[0].body) == {"model": "m", "messages": ASK}


async def test_the_async_clients_answer_on_the_tests_own_loop() -> None:
    answered_on: list[tuple[threading.Thread, asyncio.AbstractEventLoop]] = []

    def answer(request: ChatRequest) -> str:
        answered_on.append((threading.current_thread(), asyncio.get_running_loop()))
        return f"async {request.model}"

    api = FakeApi(FakeLLM(answer))
    async with openai.AsyncOpenAI(
        api_key="k", max_retries=0, http_client=httpx2.AsyncClient(transport=api.transport())
    ) as sdk:
        reply = await sdk.responses.create(model=MODEL, input="x")
    async with anthropic.AsyncAnthropic(
        api_key="k", max_retries=0, http_client=httpx2.AsyncClient(transport=api.transport())
    ) as claude:
        message = await claude.messages.create(model="claude", max_tokens=50, messages=ASK)
    assert reply.output_text == f"async {MODEL}"
    assert message.content[0].type == "text"
    assert message.content[0].text == "async claude"
    here = (threading.current_thread(), asyncio.get_running_loop())
    assert answered_on == [here, here]
    assert not api.running


async def test_a_sync_client_inside_a_running_loop_is_answered_too() -> None:
    api = FakeApi(FakeLLM("from a sync client"))
    with openai.OpenAI(
        api_key="k", max_retries=0, http_client=httpx2.Client(transport=api.transport())
    ) as sdk:
        reply = sdk.chat.completions.create(model=MODEL, messages=ASK)
    assert reply.choices[0].message.content == "from a sync client"
    assert asyncio.get_running_loop().is_running()


def test_a_brain_that_awaits_the_loop_is_answered_on_the_sync_path() -> None:
    api = FakeApi(FakeLLM("slow", delay=0.001))
    with openai.OpenAI(
        api_key="k", max_retries=0, http_client=httpx2.Client(transport=api.transport())
    ) as sdk:
        reply = sdk.chat.completions.create(model=MODEL, messages=ASK)
    assert reply.choices[0].message.content == "slow"


def test_old_httpx_clients_get_old_httpx_responses() -> None:
    httpx = pytest.importorskip("httpx")  # the frameworks group brings it (langchain, litellm)
    api = FakeApi(FakeLLM("old client"))
    with httpx.Client(transport=api.transport(), base_url="https://api.openai.com/v1") as http:
        reply = http.post(
            "/chat/completions",
            json={"model": "m", "messages": ASK},
            headers={"authorization": "Bearer k"},
        )
    assert type(reply) is httpx.Response
    assert reply.json()["choices"][0]["message"]["content"] == "old client"


def test_a_transport_never_closed_leaves_no_open_loop_behind() -> None:
    api = FakeApi(FakeLLM("hi"))
    transport = api.transport()
    client = httpx2.Client(transport=transport, base_url="https://x")
    client.post("/v1/responses", json={"model": "m", "input": "x"}, headers={"x-api-key": "k"})
    loops = list(transport._loops)
    assert len(loops) == 1
    assert not loops[0].is_closed()
    del client, transport
    gc.collect()  # a ResourceWarning for an unclosed loop would fail here (filterwarnings=error)
    assert loops[0].is_closed()


def test_closing_the_client_closes_the_transports_loops_and_not_the_api() -> None:
    api = FakeApi(FakeLLM("hi"))
    transport = api.transport()
    with httpx2.Client(transport=transport, base_url="https://x") as client:
        client.post("/v1/responses", json={"model": "m", "input": "x"}, headers={"x-api-key": "k"})
        (loop,) = transport._loops
    assert loop.is_closed()
    assert len(api.requests) == 1


def test_making_a_transport_loads_no_http_library() -> None:
    # Duck-typed: the transport builds its responses with the classes of the library the
    # request came from, so agentkit-fakes-api needs neither httpx nor httpx2.
    loaded = fresh_python(
        "import sys\n"
        "from agentkit.fakes.api import FakeApi\n"
        "FakeApi().transport()\n"
        "print(sorted(m for m in ('httpx', 'httpx2', 'httpcore', 'httpcore2') if m in sys.modules))"
    )
    assert loaded == "[]"


class _Unchecked:
    """A brain that does not verify itself: the server checks its tool calls."""

    def __init__(self) -> None:
        self._llm = FakeLLM(lambda _: Turn(tool_calls=[ToolCall("c1", "rm_rf", {})]), verify=False)

    async def chat(self, **kwargs: Any) -> Any:
        return await self._llm.chat(**kwargs)

    def stream(self, **kwargs: Any) -> Any:
        return self._llm.stream(**kwargs)


def test_a_new_brain_is_checked_as_what_it_is() -> None:
    api = FakeApi(FakeLLM("verified by itself"), verify=False)  # its finding is the point
    body = {"model": "m", "messages": ASK}
    with httpx2.Client(transport=api.transport(), base_url="https://x") as http:
        http.post("/v1/chat/completions", json=body, headers={"authorization": "Bearer k"})
        api.serve(_Unchecked())
        http.post("/v1/chat/completions", json=body, headers={"authorization": "Bearer k"})
    assert [v.kind for v in api.violations()] == ["unoffered_tool"]


def test_a_body_over_the_apis_limit_is_refused_413_unread() -> None:
    huge: Any = [{"role": "user", "content": "x" * (32 * 1024 * 1024)}]

    def scenario(api: FakeApi, wire: str) -> Outcome:
        api.serve(FakeLLM("unused"))
        with anthropic_client(api, wire) as claude:

            def act() -> object:
                return claude.messages.create(model="claude", max_tokens=5, messages=huge)

            seen = outcome(api, act)
        assert api.requests[0].body == b""  # refused before it was kept
        return seen

    seen, log, violations = both(scenario)
    assert (seen, log) == ("ContentTooLargeError", [("POST", "/v1/messages", 413, False)])
    assert violations == ["bad_request"]  # recorded like any request the server refuses
