"""A provider error that arrives after content, as the provider sends it and as FakeApi replays it.

A real provider that fails mid-answer keeps the status 200 it already sent:
its stream shows the first words, then an error event (Anthropic ``error``,
a Chat ``data:`` line holding an ``error``, Responses ``response.failed``).
The answer reader reads that as ``ApiError(in_stream=True, partial=...)``
and FakeApi writes it back, so the official SDK on the other side sees the
same words and raises the same error on the replay as on the provider's
bytes, which a plain ``http.server`` serves here: Anthropic's
``APIStatusError``, OpenAI's ``APIError``, and for Responses the
``response.failed`` event and the stream helper's error on it. The error's
request id is left out of the comparison: it names the request, which a
replay never repeats.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest

from agentkit.core.errors import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import Delta, Message, ToolCall, Usage
from agentkit.fakes.api import (
    ApiError,
    BrokenStream,
    FakeApi,
    _anthropic,
    _openai_chat,
    _openai_responses,
)
from agentkit.fakes.api._call import PortCall, broken_after
from agentkit.fakes.api._read_answer import Wire, answer_reader
from agentkit.fakes.llm import FakeLLM

FIXTURES = Path(__file__).parent / "fixtures"
ASK = "What is the weather in Paris?"


@dataclass(frozen=True)
class Seen:
    """What a client saw of a stream that failed: its text, then the error it raised."""

    shown: tuple[str, ...]
    error: type[BaseException]
    message: str
    kind: object
    events: tuple[str, ...] = ()


def _plain(message: str) -> str:
    """The SDK's message without the request id (the provider's and FakeApi's differ)."""
    return re.sub(r"request_id: [^,)]*(, )?", "", message)


class _Provider(BaseHTTPRequestHandler):
    """Answers every POST with status 200 and the provider's bytes, as they are."""

    protocol_version = "HTTP/1.1"
    body = b""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", "0")))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reads the answers, not the server's log."""


@contextmanager
def provider(data: bytes) -> Iterator[str]:
    """A raw provider on loopback answering with ``data``; its base URL."""
    handler = type("Handler", (_Provider,), {"body": data})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def replay(error: ApiError) -> Iterator[str]:
    """FakeApi answering with the recorded error; its base URL."""
    with FakeApi(FakeLLM.script([error])) as api:
        yield api.url


def read(wire: Wire, data: bytes) -> ApiError:
    reader = answer_reader(wire, status=200, content_type="text/event-stream")
    reader.feed(data)
    got = reader.finish()
    assert isinstance(got, ApiError)
    return got


# ---------------------------------------------------------------- the clients


ANTHROPIC_ASK: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "messages": [{"role": "user", "content": ASK}],
    "stream": True,
}
CHAT_ASK: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": ASK}],
    "stream": True,
}


def anthropic_sync(base: str) -> Seen:
    events: list[Any] = []  # extend() keeps what the stream yielded before it raised
    with anthropic.Anthropic(base_url=base, api_key="k", max_retries=0) as client:
        try:
            events.extend(client.messages.create(**ANTHROPIC_ASK))
        except anthropic.APIError as exc:
            return _anthropic_seen(events, exc)
    raise AssertionError("the stream did not fail")


async def anthropic_async(base: str) -> Seen:
    events: list[Any] = []
    async with anthropic.AsyncAnthropic(base_url=base, api_key="k", max_retries=0) as client:
        try:
            async for event in await client.messages.create(**ANTHROPIC_ASK):
                events.append(event)
        except anthropic.APIError as exc:
            return _anthropic_seen(events, exc)
    raise AssertionError("the stream did not fail")


def _anthropic_seen(events: list[Any], exc: anthropic.APIError) -> Seen:
    shown = tuple(
        e.delta.text
        for e in events
        if e.type == "content_block_delta" and e.delta.type == "text_delta"
    )
    body = exc.body
    kind = body.get("error", {}).get("type") if isinstance(body, dict) else body
    return Seen(shown, type(exc), _plain(str(exc)), kind)


def chat_sync(base: str) -> Seen:
    chunks: list[Any] = []
    with openai.OpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0) as client:
        try:
            chunks.extend(client.chat.completions.create(**CHAT_ASK))
        except openai.APIError as exc:
            return _chat_seen(chunks, exc)
    raise AssertionError("the stream did not fail")


async def chat_async(base: str) -> Seen:
    chunks: list[Any] = []
    async with openai.AsyncOpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0) as client:
        try:
            async for chunk in await client.chat.completions.create(**CHAT_ASK):
                chunks.append(chunk)
        except openai.APIError as exc:
            return _chat_seen(chunks, exc)
    raise AssertionError("the stream did not fail")


def _chat_seen(chunks: list[Any], exc: openai.APIError) -> Seen:
    shown = tuple(
        c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content
    )
    return Seen(shown, type(exc), str(exc), (exc.type, exc.code))


def responses_sync(base: str) -> Seen:
    """The stream helper: its events (a ``response.failed``), then what it raises when asked
    for the response the stream never completed."""
    with (
        openai.OpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0) as client,
        client.responses.stream(model="gpt-5", input=ASK) as stream,
    ):
        events = list(stream)
        try:
            stream.get_final_response()
        except RuntimeError as exc:
            return _responses_seen(events, exc)
    raise AssertionError("the stream did not fail")


async def responses_async(base: str) -> Seen:
    async with (
        openai.AsyncOpenAI(base_url=f"{base}/v1", api_key="k", max_retries=0) as client,
        client.responses.stream(model="gpt-5", input=ASK) as stream,
    ):
        events = [event async for event in stream]
        try:
            await stream.get_final_response()
        except RuntimeError as exc:
            return _responses_seen(events, exc)
    raise AssertionError("the stream did not fail")


def _responses_seen(events: list[Any], exc: RuntimeError) -> Seen:
    failed = events[-1]
    assert failed.type == "response.failed"
    error = failed.response.error
    return Seen(
        tuple(e.delta for e in events if e.type == "response.output_text.delta"),
        type(exc),
        str(exc),
        (error.code, error.message),
        tuple(e.type for e in events),
    )


Client = Callable[[str], Seen | Awaitable[Seen]]

CASES: list[tuple[Wire, str, Client]] = [
    ("anthropic", "anthropic-overloaded-mid-stream.sse", anthropic_sync),
    ("anthropic", "anthropic-overloaded-mid-stream.sse", anthropic_async),
    ("openai_chat", "openai-chat-error-mid-stream.sse", chat_sync),
    ("openai_chat", "openai-chat-error-mid-stream.sse", chat_async),
    ("openai_responses", "openai-responses-failed-mid-stream.sse", responses_sync),
    ("openai_responses", "openai-responses-failed-mid-stream.sse", responses_async),
]


async def _seen(client: Client, base: str) -> Seen:
    seen = client(base)
    return await seen if isinstance(seen, Awaitable) else seen


@pytest.mark.parametrize(
    ("wire", "name", "client"), CASES, ids=[f"{c[0]}-{c[2].__name__}" for c in CASES]
)
async def test_the_sdk_sees_the_replayed_error_as_it_saw_the_provider_s(
    wire: Wire, name: str, client: Client
) -> None:
    data = (FIXTURES / name).read_bytes()
    with provider(data) as base:
        recorded = await _seen(client, base)
    error = read(wire, data)
    with replay(error) as base:
        replayed = await _seen(client, base)

    assert recorded.shown  # the words came before the error...
    assert replayed == recorded  # ...and the replay shows them, then raises the same error
    assert error.partial == tuple(Delta(content=text) for text in recorded.shown)


def test_the_anthropic_sdk_raises_its_status_error_for_an_overload_after_text() -> None:
    """What the comparison above stands on: the SDK's own error for the event, not a
    connection error (which a stream cut after the text would have been)."""
    with replay(
        ApiError(529, "Overloaded", in_stream=True, partial=[Delta(content="Hel")])
    ) as base:
        seen = anthropic_sync(base)
    assert seen.shown == ("Hel",)
    assert seen.error is anthropic.APIStatusError
    assert seen.message.startswith("Overloaded")
    assert seen.kind == "overloaded_error"


# ------------------------------------------------------- read -> replay -> read

CODECS = {
    "anthropic": _anthropic,
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
}
WIRES: list[Wire] = ["anthropic", "openai_chat", "openai_responses"]

SHOWN = {
    "reasoning and text": (
        Delta(reasoning="The user asks "),
        Delta(reasoning="for the weather."),
        Delta(content="The forecast"),
        Delta(content=" for Paris is"),
    ),
    "text": (Delta(content="Hel"),),
    "reasoning": (Delta(reasoning="Let me think"),),
    "nothing": (),
}


def _call() -> PortCall:
    return PortCall(
        messages=[Message.user(ASK)],
        model="model-x",
        tools=None,
        temperature=1.0,
        max_tokens=100,
        stream=True,
        include_usage=True,
    )


def _failed(wire: Wire, error: ApiError) -> bytes:
    shown = broken_after(error.partial, error)
    codec = CODECS[wire]
    return b"".join(codec.failed(_call(), "id1", error.status, error.kind, error.message, shown))


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("shown", list(SHOWN))
@pytest.mark.parametrize("status", [429, 500])
def test_an_error_after_what_the_stream_showed_reads_back_as_written(
    wire: Wire, shown: str, status: int
) -> None:
    written = ApiError(status, "try later", in_stream=True, partial=SHOWN[shown])
    data = _failed(wire, written)
    got = read(wire, data)
    assert (got.status, got.message, got.in_stream, got.partial) == (
        status,
        "try later",
        True,
        SHOWN[shown],
    )
    assert _failed(wire, got) == data  # written again, the same bytes
    if not SHOWN[shown]:  # failing at once is the stream it always was: opening, error event
        codec = CODECS[wire]
        assert data == b"".join(codec.failed(_call(), "id1", status, None, "try later"))


ROUTES: dict[Wire, tuple[str, dict[str, Any]]] = {
    "anthropic": (
        "/v1/messages",
        {"max_tokens": 100, "messages": [{"role": "user", "content": ASK}]},
    ),
    "openai_chat": ("/v1/chat/completions", {"messages": [{"role": "user", "content": ASK}]}),
    "openai_responses": ("/v1/responses", {"input": ASK}),
}


def _stream_of(api: FakeApi, wire: Wire) -> bytes:
    """The bytes of FakeApi's streamed answer to a request on ``wire``."""
    path, body = ROUTES[wire]
    answer = httpx.post(
        f"{api.url}{path}",
        json={**body, "model": "model-x", "stream": True},
        headers={"x-api-key": "k", "authorization": "Bearer k"},
        timeout=10,
    )
    assert answer.status_code == 200
    return answer.content


@pytest.mark.parametrize(
    ("wire", "name"),
    [
        ("anthropic", "anthropic-overloaded-mid-stream.sse"),
        ("openai_chat", "openai-chat-error-mid-stream.sse"),
        ("openai_responses", "openai-responses-failed-mid-stream.sse"),
        ("openai_responses", "openai-responses-error-event-mid-stream.sse"),
    ],
)
def test_a_provider_s_error_after_content_replayed_by_fake_api_reads_back_the_same(
    wire: Wire, name: str
) -> None:
    recorded = read(wire, (FIXTURES / name).read_bytes())
    with FakeApi(FakeLLM.script([recorded])) as api:
        again = read(wire, _stream_of(api, wire))
        assert api.violations() == []
    assert recorded.partial  # content came before the error
    assert (again.status, again.kind, again.message, again.in_stream, again.partial) == (
        recorded.status,
        recorded.kind,
        recorded.message,
        True,
        recorded.partial,
    )


class _FailsAfterDeltas:
    """A port that streams some deltas, then raises an in-stream error."""

    def __init__(self, error: ApiError, deltas: tuple[Delta, ...]) -> None:
        self.error = error
        self.deltas = deltas

    async def chat(self, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def stream(self, **kwargs: Any) -> Any:
        for delta in self.deltas:
            yield delta
        raise self.error


@pytest.mark.parametrize("wire", WIRES)
def test_a_port_raising_an_in_stream_error_after_deltas_is_served_as_the_scripted_one(
    wire: Wire,
) -> None:
    deltas = SHOWN["reasoning and text"]
    with FakeApi(
        FakeLLM.script([ApiError(529, "Overloaded", in_stream=True, partial=deltas)])
    ) as api:
        scripted = _stream_of(api, wire)
    with FakeApi(_FailsAfterDeltas(ApiError(529, "Overloaded", in_stream=True), deltas)) as api:
        raised = _stream_of(api, wire)
    assert raised == scripted
    assert read(wire, raised).partial == deltas


def test_a_plain_request_gets_the_error_status_and_none_of_the_partial() -> None:
    error = ApiError(529, "Overloaded", in_stream=True, partial=[Delta(content="Hel")])
    with FakeApi(FakeLLM.script([error])) as api:
        answer = httpx.post(
            f"{api.url}/v1/messages",
            json={"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": ASK}]},
            headers={"x-api-key": "k"},
            timeout=10,
        )
    assert answer.status_code == 529
    assert answer.json()["error"] == {"type": "overloaded_error", "message": "Overloaded"}


# ------------------------------------------------------------------ at the door


@pytest.mark.parametrize("make", [ApiError, BrokenStream])
def test_partial_must_be_deltas_of_content_or_reasoning(make: type[Exception]) -> None:
    name = make.__name__

    def build(partial: Any) -> Exception:
        if make is ApiError:
            return ApiError(529, in_stream=True, partial=partial)
        return BrokenStream(partial=partial)

    with pytest.raises(ArgumentTypeError, match=rf"{name}: partial\[1\] must be a Delta"):
        build([Delta(content="a"), "b"])
    with pytest.raises(ArgumentTypeError, match=rf"{name}: partial must be an iterable"):
        build(7)
    for carrying in (
        Delta(tool_calls=(ToolCall("c1", "f", {}),)),
        Delta(content="a", usage=Usage(output_tokens=1)),
        Delta(content="a", finish_reason="stop"),
    ):
        with pytest.raises(
            ArgumentValueError,
            match=rf"{name}: partial\[0\] must be a Delta of content or reasoning only",
        ):
            build([carrying])
    assert build(iter([Delta(content="a")])).partial == (Delta(content="a"),)  # type: ignore[attr-defined]


def test_partial_is_refused_on_an_error_status() -> None:
    with pytest.raises(
        ArgumentValueError, match=r"ApiError: partial must be empty unless in_stream=True"
    ):
        ApiError(529, partial=[Delta(content="Hel")])
    assert ApiError(529).partial == ()
    assert ApiError(529, partial=[]).partial == ()
