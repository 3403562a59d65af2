"""FakeApi under hostile clients and brains: malformed HTTP, old clients, closing under load,
a brain that blocks, a reply nothing can encode, error headers HTTP cannot carry."""

from __future__ import annotations

import gc
import json
import logging
import socket
import threading
import warnings
from collections.abc import AsyncGenerator, Iterator

import openai
import pytest

from agentkit.core._internal.arguments import ArgumentValueError
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.types import Delta, ToolCall
from agentkit.fakes.api import ApiError, FakeApi
from agentkit.fakes.api import server as server_module
from agentkit.fakes.llm import FakeLLM, Turn

MESSAGE = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}


def exchange(api: FakeApi, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection; everything the server sends until it closes."""
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as raw:
        raw.sendall(data)
        received = b""
        while chunk := raw.recv(65536):
            received += chunk
    return received


def request_bytes(body: bytes, *head: str, line: str = "POST /v1/messages HTTP/1.1") -> bytes:
    headers = [line, "x-api-key: k", "content-type: application/json", *head]
    if not any(h.lower().startswith(("content-length", "transfer-encoding")) for h in head):
        headers.append(f"content-length: {len(body)}")
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + body


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def kinds(api: FakeApi) -> list[str]:
    return [v.kind for v in api.violations()]


# ------------------------------------------------------------- malformed HTTP

DEEP = b"[" * 100_000 + b"]" * 100_000

MALFORMED = {
    "JSON nested 100k deep": (request_bytes(DEEP, "connection: close"), 400),
    "a non-numeric Content-Length": (
        b"POST /v1/messages HTTP/1.1\r\nx-api-key: k\r\ncontent-length: x\r\n\r\n",
        400,
    ),
    "a negative Content-Length": (
        b"POST /v1/messages HTTP/1.1\r\nx-api-key: k\r\ncontent-length: -5\r\n\r\n",
        400,
    ),
    "a 64 KiB header line": (request_bytes(b"{}", "x-long: " + "a" * 65536), 431),
    "a bad chunk size": (
        request_bytes(b"zz\r\n{}\r\n0\r\n\r\n", "transfer-encoding: chunked"),
        400,
    ),
    "a chunk size int() would take": (
        request_bytes(b"0x2\r\n{}\r\n0\r\n\r\n", "transfer-encoding: chunked"),
        400,
    ),
    "a broken request line": (b"NOT HTTP\r\n\r\n", 400),
    "a request line with no version": (b"POST /v1/messages\r\n\r\n", 400),
    "a header line with no colon": (request_bytes(b"{}", "no colon here"), 400),
    "an HTTP version the server does not speak": (
        request_bytes(b"{}", line="POST /v1/messages HTTP/2.0"),
        505,
    ),
    "an Expect the server cannot meet": (request_bytes(b"{}", "expect: 200-ok"), 417),
    "a body over the API's size limit": (
        request_bytes(b"", "expect: 100-continue", "content-length: 40000000"),
        413,
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_http_is_answered_logged_and_recorded(case: str) -> None:
    data, status = MALFORMED[case]
    with FakeApi(FakeLLM("still here"), verify=False) as api:
        response = exchange(api, data)
        assert status_of(response) == status
        head, _, body = response.partition(b"\r\n\r\n")
        assert b"connection: close" in head  # the framing is lost: no second request on it
        assert json.loads(body)["type"] == "error"  # the Anthropic error shape
        (logged,) = api.requests
        assert logged.status == status
        assert kinds(api) == ["bad_request"]
        # ...and the server serves on.
        again = request_bytes(json.dumps(MESSAGE).encode(), "connection: close")
        assert status_of(exchange(api, again)) == 200


def test_an_oversized_body_sent_whole_is_read_then_refused_413() -> None:
    with FakeApi(FakeLLM("unused"), verify=False) as api:
        big = b" " * (32 * 1024 * 1024 + 1)
        response = exchange(api, request_bytes(big, "connection: close"))
    assert status_of(response) == 413
    body = json.loads(response.partition(b"\r\n\r\n")[2])
    assert body["error"]["type"] == "request_too_large"
    assert kinds(api) == ["bad_request"]


# ------------------------------------------------------- old and careful clients


def test_an_http_1_0_client_gets_no_chunks_and_a_closed_connection() -> None:
    streamed = json.dumps({**MESSAGE, "stream": True}).encode()
    with FakeApi(FakeLLM(lambda request: "Hello.")) as api:
        plain = exchange(
            api, request_bytes(json.dumps(MESSAGE).encode(), line="POST /v1/messages HTTP/1.0")
        )
        stream = exchange(api, request_bytes(streamed, line="POST /v1/messages HTTP/1.0"))
    plain_head, _, plain_body = plain.partition(b"\r\n\r\n")
    assert b"connection: close" in plain_head
    assert json.loads(plain_body)["content"][0]["text"] == "Hello."
    head, _, body = stream.partition(b"\r\n\r\n")
    assert status_of(stream) == 200
    assert b"chunked" not in head
    assert b"connection: close" in head
    assert body.startswith(b"event: message_start\n")  # the events themselves, no chunk sizes
    assert body.endswith(b'event: message_stop\ndata: {"type":"message_stop"}\n\n')


def test_expect_100_continue_gets_its_100_before_the_body_is_sent() -> None:
    body = json.dumps(MESSAGE).encode()
    with (
        FakeApi(FakeLLM("Hello.")) as api,
        socket.create_connection(("127.0.0.1", api.port), timeout=10) as raw,
    ):
        raw.sendall(request_bytes(body, "expect: 100-continue", "connection: close")[: -len(body)])
        assert raw.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        raw.sendall(body)
        received = b""
        while chunk := raw.recv(65536):
            received += chunk
    assert status_of(received) == 200
    assert b"Hello." in received


# ------------------------------------------------------------------ closing


def test_connections_accepted_while_close_runs_are_closed_not_left_to_gc(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, logger="asyncio")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(40):
            api = FakeApi(FakeLLM("x")).start()
            sockets = [socket.create_connection(("127.0.0.1", api.port)) for _ in range(3)]
            api.close()
            for raw in sockets:
                raw.settimeout(10)
                assert raw.recv(10) == b""  # the server closed it
                raw.close()
        gc.collect()
    assert [str(w.message) for w in caught] == []
    assert [r.getMessage() for r in caplog.records] == []


class Blocking(ChatModel):
    """A brain that blocks the server's loop until ``release`` is set (time.sleep-like)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        self.entered.set()
        self.release.wait(30)
        yield Delta(content="late", finish_reason="stop")


@pytest.fixture
def server_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    for thread in set(threading.enumerate()) - before:
        thread.join(30)


def test_a_blocking_brain_bounds_close_and_is_reported(
    monkeypatch: pytest.MonkeyPatch, server_threads: None
) -> None:
    monkeypatch.setattr(server_module, "CLOSE_TIMEOUT", 0.2)
    brain = Blocking()
    api = FakeApi(brain, verify=False).start()
    client = threading.Thread(
        target=lambda: exchange(api, request_bytes(json.dumps(MESSAGE).encode()))
    )
    client.start()
    assert brain.entered.wait(10)
    api.close()  # returns, though the brain still blocks the loop
    brain.release.set()
    client.join(30)
    (violation,) = api.violations()
    assert violation.kind == "blocked_brain"
    assert "POST /v1/messages" in violation.detail
    assert "Blocking" in violation.detail


# ------------------------------------------------------ replies nothing can send


class NotDeltas(ChatModel):
    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        yield "a bare string"  # type: ignore[misc]


UNSENDABLE = {
    "a lone surrogate in the text": lambda: FakeLLM.script([Turn("bad \ud800 text")], verify=False),
    "bytes in tool-call arguments": lambda: FakeLLM.script(
        [Turn(tool_calls=[ToolCall("call_1", "t", {"data": b"raw"})])], verify=False
    ),
    "a port yielding something else than a Delta": NotDeltas,
}


@pytest.mark.parametrize("case", list(UNSENDABLE))
@pytest.mark.parametrize("streamed", [False, True])
def test_a_reply_that_cannot_be_sent_is_a_500_logged_and_recorded(
    case: str, streamed: bool
) -> None:
    with (
        FakeApi(UNSENDABLE[case](), verify=False) as api,
        openai.OpenAI(base_url=api.openai_base_url, api_key="k", max_retries=0) as client,
        pytest.raises(openai.InternalServerError, match="could not send the model's reply"),
    ):
        tools = [{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}]
        client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "hi"}],
            tools=tools,  # type: ignore[arg-type]
            stream=streamed,
        )
    assert [r.status for r in api.requests] == [500]
    assert kinds(api) == ["bad_reply"]


# ------------------------------------------------------------ error headers


@pytest.mark.parametrize(
    "headers",
    [
        {"x-note": "caf\u00e9 \u20ac"},  # beyond Latin-1
        {"x-note": "a\r\nset-cookie: injected=1"},  # CR/LF: a header of its own
        {"x-note": "a\nb"},
        {"x note": "1"},  # a space in the name
        {"x-note:": "1"},
        {"Content-Length": "0"},  # the server's own framing: a scripted one cuts the body
        {"transfer-encoding": "chunked"},
        {"connection": "keep-alive"},
    ],
)
def test_api_error_refuses_headers_http_cannot_carry(headers: dict[str, str]) -> None:
    with pytest.raises(ArgumentValueError, match="headers"):
        ApiError(429, headers=headers)


def test_api_error_latin_1_headers_reach_the_client() -> None:
    llm = FakeLLM("x", fail_times=1, fail_exc=ApiError(429, headers={"x-note": "caf\u00e9"}))
    with FakeApi(llm) as api:
        response = exchange(api, request_bytes(json.dumps(MESSAGE).encode(), "connection: close"))
    assert status_of(response) == 429
    assert "x-note: caf\u00e9".encode("latin-1") in response
