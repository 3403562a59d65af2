"""FakeApi(upstream=...): each model call forwarded, relayed as it arrives, kept as an Exchange.

The provider is a second server on loopback: a FakeApi with its own script
(so what the client sees can be compared with what the provider said), or a
raw HTTP server writing a provider's bytes in awkward pieces and cutting
them off. Nothing leaves the machine.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest

from agentkit.core.errors import ArgumentValueError
from agentkit.core.types import ChatResponse, Message, ToolCall, Usage
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.api._read_answer import Wire, answer_reader
from agentkit.fakes.llm import FakeLLM, Turn

MODEL = "claude-sonnet-4-5"
UPSTREAM_KEY = "sk-ant-upstream-fake-key-for-forwarding"
CLIENT_KEY = "sk-ant-client-fake-key"


@pytest.fixture(autouse=True)
def provider_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", UPSTREAM_KEY)


@pytest.fixture
def provider() -> Iterator[FakeApi]:
    with FakeApi() as api:
        yield api


_CLIENTS: list[anthropic.Anthropic] = []


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while _CLIENTS:
        _CLIENTS.pop().close()


def sdk(base_url: str, **options: Any) -> anthropic.Anthropic:
    client = anthropic.Anthropic(base_url=base_url, api_key=CLIENT_KEY, max_retries=0, **options)
    _CLIENTS.append(client)
    return client


def ask(client: anthropic.Anthropic, text: str = "Weather in Paris?", **extra: Any) -> Any:
    return client.messages.create(
        model=MODEL, max_tokens=100, messages=[{"role": "user", "content": text}], **extra
    )


def stream_text(
    client: anthropic.Anthropic, text: str = "Hi", seen: list[str] | None = None, **extra: Any
) -> str:
    """The streamed answer's text, each piece also added to ``seen`` as it arrives."""
    pieces = [] if seen is None else seen
    messages: Any = [{"role": "user", "content": text}]
    with client.messages.stream(model=MODEL, max_tokens=100, messages=messages, **extra) as stream:
        pieces.extend(stream.text_stream)
    return "".join(pieces)


def test_a_plain_call_is_forwarded_and_kept_at_the_model_level(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([Turn("Sunny.", usage=Usage(12, 0, 0, 3))]))
    seen: list[Any] = []
    with FakeApi(upstream=provider.url, on_exchange=seen.append) as api:
        reply = ask(sdk(api.url))

    assert reply.content[0].text == "Sunny."
    (exchange,) = api.exchanges
    assert seen == [exchange]
    assert exchange.wire == "anthropic"
    assert exchange.stream is False
    assert list(exchange.request.messages) == [Message.user("Weather in Paris?")]
    assert exchange.request.max_tokens == 100
    assert isinstance(exchange.answer, ChatResponse)
    assert exchange.answer.content == "Sunny."
    assert exchange.answer.usage.input_tokens == 12
    # The provider got the key from the environment, not the client's.
    (sent,) = provider.requests
    assert sent.headers["x-api-key"] == UPSTREAM_KEY
    assert sent.json == api.requests[0].json
    client = api.requests[0].headers
    assert CLIENT_KEY in client.get("x-api-key", client.get("authorization", ""))
    assert "authorization" not in sent.headers
    assert api.violations() == []


def test_a_stream_is_relayed_and_read_with_its_tool_calls(provider: FakeApi) -> None:
    call = ToolCall("toolu_1", "get_weather", {"city": "Paris"})
    provider.serve(FakeLLM.script([Turn("Let me look.", tool_calls=[call])]))
    tool = {"name": "get_weather", "input_schema": {"type": "object"}}
    with (
        FakeApi(upstream=provider.url) as api,
        sdk(api.url).messages.stream(
            model=MODEL,
            max_tokens=100,
            tools=[tool],  # type: ignore[list-item]
            messages=[{"role": "user", "content": "Weather?"}],
        ) as stream,
    ):
        text = "".join(stream.text_stream)
        final = stream.get_final_message()

    assert text == "Let me look."
    assert [block.type for block in final.content] == ["text", "tool_use"]
    (exchange,) = api.exchanges
    assert exchange.stream is True
    assert isinstance(exchange.answer, ChatResponse)
    assert exchange.answer.tool_calls == (call,)
    assert exchange.answer.finish_reason == "tool_calls"
    assert [t.name for t in exchange.request.tools or ()] == ["get_weather"]


def test_a_provider_error_reaches_the_client_and_is_kept(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([ApiError(529, "Overloaded", retry_after=0)]))
    with FakeApi(upstream=provider.url) as api, pytest.raises(anthropic.APIStatusError) as caught:
        ask(sdk(api.url))

    assert caught.value.status_code == 529
    (exchange,) = api.exchanges
    assert isinstance(exchange.answer, ApiError)
    assert (exchange.answer.status, exchange.answer.message) == (529, "Overloaded")
    assert exchange.answer.kind == "overloaded_error"


def test_a_stream_the_provider_breaks_is_broken_for_the_client(provider: FakeApi) -> None:
    from agentkit.core.types import Delta

    broken = BrokenStream(partial=[Delta(content="It is ")])
    provider.serve(FakeLLM.script([broken]))
    with FakeApi(upstream=provider.url) as api, pytest.raises(anthropic.APIConnectionError):
        stream_text(sdk(api.url))

    (exchange,) = api.exchanges
    assert isinstance(exchange.answer, BrokenStream)
    assert "".join(d.content for d in exchange.answer.partial) == "It is "


def test_forwarding_through_the_in_process_transport(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([Turn("one"), Turn("two words here")]))
    api = FakeApi(upstream=provider.url)
    with httpx2.Client(transport=api.transport()) as http:
        client = sdk("https://nowhere.invalid", http_client=http)
        assert ask(client).content[0].text == "one"
        assert stream_text(client, "Again") == "two words here"
    assert [e.stream for e in api.exchanges] == [False, True]
    assert api.violations() == []


async def test_forwarding_through_the_async_in_process_transport(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([Turn("streamed from afar")]))
    api = FakeApi(upstream=provider.url)
    async with (
        httpx2.AsyncClient(transport=api.transport()) as http,
        anthropic.AsyncAnthropic(
            base_url="https://nowhere.invalid", api_key=CLIENT_KEY, http_client=http
        ) as client,
        client.messages.stream(
            model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "Hi"}]
        ) as stream,
    ):
        text = "".join([piece async for piece in stream.text_stream])
    assert text == "streamed from afar"
    assert len(api.exchanges) == 1


def test_no_key_in_the_environment_is_a_401_and_a_violation(
    provider: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    provider.serve(FakeLLM.script([Turn("never")], verify=False))
    with (
        FakeApi(upstream=provider.url, verify=False) as api,
        pytest.raises(anthropic.AuthenticationError),
    ):
        ask(sdk(api.url))
    assert provider.requests == []
    (violation,) = api.violations()
    assert violation.kind == "upstream_key_missing"
    assert "ANTHROPIC_API_KEY" in violation.detail


def test_an_unreachable_provider_is_a_502_and_a_violation() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with (
        FakeApi(upstream=f"http://127.0.0.1:{port}", verify=False) as api,
        pytest.raises(anthropic.APIStatusError) as caught,
    ):
        ask(sdk(api.url))
    assert caught.value.status_code == 502
    assert [v.kind for v in api.violations()] == ["upstream_unreachable"]


def test_the_upstream_key_is_kept_nowhere(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([ApiError(401, "invalid x-api-key")]))
    with (
        FakeApi(upstream=provider.url, verify=False) as api,
        pytest.raises(anthropic.AuthenticationError),
    ):
        ask(sdk(api.url))
    kept = repr(api.requests) + repr(api.exchanges) + repr(api.violations()) + repr(api)
    assert UPSTREAM_KEY not in kept


@pytest.mark.parametrize(
    "url", ["ftp://api.example.com", "api.anthropic.com", "https://", "https://h/?q=1", ""]
)
def test_a_bad_upstream_is_refused_at_the_door(url: str) -> None:
    with pytest.raises(ArgumentValueError, match="upstream"):
        FakeApi(upstream=url)


def test_a_brain_and_an_upstream_need_forward_when() -> None:
    with pytest.raises(ArgumentValueError, match="forward_when"):
        FakeApi(FakeLLM("hi", verify=False), upstream="https://api.anthropic.com")
    with pytest.raises(ArgumentValueError, match="forward_when"):
        FakeApi(forward_when=lambda request: True)


def test_forward_when_picks_what_the_provider_answers(provider: FakeApi) -> None:
    provider.serve(FakeLLM.script([Turn("from the provider")]))
    local = FakeLLM.script([Turn("from the brain")])
    with FakeApi(
        local, upstream=provider.url, forward_when=lambda r: r.last_user_text == "far"
    ) as api:
        client = sdk(api.url)
        assert ask(client, "near").content[0].text == "from the brain"
        assert ask(client, "far").content[0].text == "from the provider"
    assert len(api.exchanges) == 1


# --------------------------------------------------------- a raw provider


class RawProvider:
    """An HTTP server writing fixed answer bytes in the pieces given, then maybe cutting off."""

    def __init__(
        self,
        pieces: list[bytes],
        *,
        cut: bool = False,
        status: int = 200,
        content_type: str = "text/event-stream",
    ) -> None:
        self.pieces, self.cut, self.status, self.content_type = pieces, cut, status, content_type
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._server.getsockname()[1]}"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        connection, _ = self._server.accept()
        with connection:
            data = b""
            while b"\r\n\r\n" not in data:
                data += connection.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(
                next(
                    line.split(b":")[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
            )
            while len(body) < length:
                body += connection.recv(65536)
            connection.sendall(
                f"HTTP/1.1 {self.status} X\r\ncontent-type: {self.content_type}\r\n"
                "request-id: req_upstream\r\ntransfer-encoding: chunked\r\n\r\n".encode()
            )
            for piece in self.pieces:
                connection.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            if not self.cut:
                connection.sendall(b"0\r\n\r\n")

    def close(self) -> None:
        self._thread.join(5)
        self._server.close()


def anthropic_stream(text: str) -> bytes:
    """An Anthropic Messages event stream, as the provider writes it (CRLF, a ping)."""
    events = [
        (
            "message_start",
            '{"type":"message_start","message":{"id":"msg_1","type":"message",'
            '"role":"assistant","model":"' + MODEL + '","content":[],"stop_reason":null,'
            '"usage":{"input_tokens":9,"output_tokens":1}}}',
        ),
        ("ping", '{"type": "ping"}'),
        (
            "content_block_start",
            '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
        ),
    ]
    for word in text.split(" "):
        events.append(
            (
                "content_block_delta",
                '{"type":"content_block_delta","index":0,'
                '"delta":{"type":"text_delta","text":"' + word + ' "}}',
            )
        )
    events += [
        ("content_block_stop", '{"type":"content_block_stop","index":0}'),
        (
            "message_delta",
            '{"type":"message_delta","delta":{"stop_reason":"end_turn"},'
            '"usage":{"output_tokens":5}}',
        ),
        ("message_stop", '{"type":"message_stop"}'),
    ]
    return b"".join(f"event: {n}\r\ndata: {d}\r\n\r\n".encode() for n, d in events)


def split(data: bytes, sizes: tuple[int, ...]) -> list[bytes]:
    out, at, index = [], 0, 0
    while at < len(data):
        size = sizes[index % len(sizes)]
        out.append(data[at : at + size])
        at += size
        index += 1
    return out


@pytest.mark.parametrize("sizes", [(1,), (3, 7), (13, 2, 5), (1 << 16,)])
def test_a_real_stream_split_anywhere_is_relayed_whole(sizes: tuple[int, ...]) -> None:
    raw = anthropic_stream("It is sunny in Paris")
    provider = RawProvider(split(raw, sizes))
    try:
        with (
            FakeApi(upstream=provider.url) as api,
            sdk(api.url).messages.stream(
                model=MODEL, max_tokens=100, messages=[{"role": "user", "content": "Hi"}]
            ) as stream,
        ):
            text = "".join(stream.text_stream)
    finally:
        provider.close()
    assert text == "It is sunny in Paris "
    (exchange,) = api.exchanges
    assert isinstance(exchange.answer, ChatResponse)
    assert exchange.answer.content == "It is sunny in Paris "
    assert exchange.answer.usage.input_tokens == 9


def test_a_real_stream_cut_mid_event_breaks_the_clients_too() -> None:
    raw = anthropic_stream("It is sunny in Paris")
    cut_at = raw.index(b"Paris")
    provider = RawProvider(split(raw[:cut_at], (5,)), cut=True)
    seen: list[str] = []
    try:
        with FakeApi(upstream=provider.url) as api, pytest.raises(anthropic.APIConnectionError):
            stream_text(sdk(api.url), seen=seen)
    finally:
        provider.close()
    assert "".join(seen) == "It is sunny in "
    (exchange,) = api.exchanges
    assert isinstance(exchange.answer, BrokenStream)
    assert "".join(d.content for d in exchange.answer.partial) == "It is sunny in "


def test_an_error_event_mid_stream_is_kept_as_the_providers_error() -> None:
    raw = anthropic_stream("Hello")
    head = raw[: raw.index(b"event: content_block_start")]
    error = (
        b'event: error\r\ndata: {"type":"error","error":{"type":"overloaded_error",'
        b'"message":"Overloaded"}}\r\n\r\n'
    )
    provider = RawProvider(split(head + error, (4, 9)))
    try:
        with FakeApi(upstream=provider.url) as api, pytest.raises(anthropic.APIStatusError):
            stream_text(sdk(api.url))
    finally:
        provider.close()
    (exchange,) = api.exchanges
    assert isinstance(exchange.answer, ApiError)
    assert exchange.answer.kind == "overloaded_error"
    assert exchange.answer.in_stream


FIXTURES = Path(__file__).parent / "fixtures"
BODIES: dict[str, tuple[str, dict[str, Any]]] = {
    "anthropic": (
        "/v1/messages",
        {"max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}]},
    ),
    "openai-chat": ("/v1/chat/completions", {"messages": [{"role": "user", "content": "Hi"}]}),
    "openai-responses": ("/v1/responses", {"input": "Hi"}),
    "openai": ("/v1/chat/completions", {"messages": [{"role": "user", "content": "Hi"}]}),
}
WIRE_OF: dict[str, Wire] = {
    "/v1/messages": "anthropic",
    "/v1/chat/completions": "openai_chat",
    "/v1/responses": "openai_responses",
}


def _route(name: str) -> tuple[str, dict[str, Any]]:
    for prefix in ("openai-responses", "openai-chat", "anthropic", "openai"):
        if name.startswith(prefix):
            return BODIES[prefix]
    raise AssertionError(name)


@pytest.mark.parametrize(
    "fixture", sorted(p.name for p in FIXTURES.iterdir() if p.suffix in (".sse", ".json"))
)
@pytest.mark.parametrize("sizes", [(1, 6), (97,)])
def test_every_real_answer_is_relayed_byte_for_byte_and_read_as_the_reader_reads_it(
    fixture: str, sizes: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-upstream-fake-openai-key")
    raw = (FIXTURES / fixture).read_bytes()
    streamed = fixture.endswith(".sse")
    status = int(m[1]) if (m := re.search(r"-(\d{3})\.json$", fixture)) else 200
    content_type = "text/event-stream" if streamed else "application/json"
    route, body = _route(fixture)
    wire = WIRE_OF[route]
    provider = RawProvider(split(raw, sizes), status=status, content_type=content_type)
    try:
        with FakeApi(upstream=provider.url, verify=False) as api, httpx2.Client() as http:
            answer = http.post(
                api.url + route,
                json={"model": "m", "stream": streamed, **body},
                headers={"x-api-key": "fake", "authorization": "Bearer fake"},
            )
    finally:
        provider.close()
    assert answer.status_code == status
    assert answer.content == raw  # relayed as it came
    assert answer.headers["request-id"] == "req_upstream"
    reader = answer_reader(wire, status=status, content_type=content_type)
    reader.feed(raw)
    expected = reader.finish()
    (exchange,) = api.exchanges
    assert exchange.wire == wire
    assert exchange.stream is streamed
    assert type(exchange.answer) is type(expected)
    if isinstance(expected, ChatResponse):
        assert exchange.answer == expected
    else:
        assert str(exchange.answer) == str(expected)
    assert api.violations() == []
