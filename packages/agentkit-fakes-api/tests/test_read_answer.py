"""The answer reader: a provider's HTTP answer read back into the kit's types.

(a) Round trip: every kind of answer FakeApi writes, on each API, reads
back as what was written -- fed whole, split at every byte, byte by byte.
(b) Real provider byte streams (fixtures/): CRLF line ends, comments,
pings, multi-line data, event types and fields this reader does not know.
(c) Errors: error statuses with retry-after, an error event in a stream,
a stream cut short, JSON that does not parse.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentkit.core.errors import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import ChatResponse, Delta, Message, ToolCall, Usage
from agentkit.fakes.api import (
    ApiError,
    BrokenStream,
    FakeApi,
    _anthropic,
    _openai_chat,
    _openai_responses,
)
from agentkit.fakes.api._call import Collected, PortCall, json_text
from agentkit.fakes.api._read_answer import Wire, answer_reader
from agentkit.fakes.api._reading import UnreadableAnswer
from agentkit.fakes.llm import FakeLLM, Turn

FIXTURES = Path(__file__).parent / "fixtures"
SSE = "text/event-stream"
JSON = "application/json"

CODECS: dict[Wire, ModuleType] = {
    "anthropic": _anthropic,
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
}
WIRES = list(CODECS)


def read(
    wire: Wire,
    chunks: Iterable[bytes],
    *,
    status: int = 200,
    content_type: str = SSE,
    headers: dict[str, str] | None = None,
) -> ChatResponse | ApiError | BrokenStream:
    reader = answer_reader(wire, status=status, content_type=content_type, headers=headers)
    for chunk in chunks:
        reader.feed(chunk)
    return reader.finish()


def call(stream: bool = True, custom: frozenset[str] = frozenset()) -> PortCall:
    return PortCall(
        messages=[Message.user("hi")],
        model="model-x",
        tools=None,
        temperature=1.0,
        max_tokens=100,
        stream=stream,
        include_usage=True,
        custom_tools=custom,
    )


def usage(wire: Wire) -> Usage:
    """A usage every figure of which the wire carries (Anthropic reports no reasoning count;
    OpenAI no cache writes, which it counts as input)."""
    if wire == "anthropic":
        return Usage(input_tokens=12, cached_input_tokens=30, cache_write_tokens=4, output_tokens=9)
    return Usage(input_tokens=12, cached_input_tokens=30, output_tokens=9, reasoning_tokens=3)


ARGS = {"path": "a/b.txt", "lines": [1, 2], "note": "naïve “quotes” 🙂", "deep": {"x": None}}

ANSWERS: dict[str, Collected] = {
    "text": Collected(pieces=["Hel", "lo, ", "world"]),
    "reasoning then text": Collected(thoughts=["Let me ", "think."], pieces=["Done."]),
    "one tool call": Collected(tool_calls=(ToolCall("call_1", "read_file", ARGS),)),
    "text and two tool calls": Collected(
        pieces=["Reading both."],
        tool_calls=(ToolCall("call_1", "read_file", ARGS), ToolCall("call_2", "noargs", {})),
    ),
    "reasoning and a tool call": Collected(
        thoughts=["I need the file."], tool_calls=(ToolCall("call_9", "read_file", ARGS),)
    ),
    "an empty answer": Collected(),
    "cut for length": Collected(pieces=["Once upon"], finish_reason="length"),
    "unicode and newlines": Collected(pieces=["line 1\nline 2\r\n", "tab\t", "é🙂\u2028"]),
}


def expected(wire: Wire, reply: Collected) -> ChatResponse:
    return ChatResponse(
        content=reply.content,
        tool_calls=reply.tool_calls,
        usage=reply.usage,
        finish_reason=reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop"),
        model="model-x",
        reasoning=reply.reasoning,
    )


def with_usage(wire: Wire, reply: Collected) -> Collected:
    return Collected(
        pieces=list(reply.pieces),
        thoughts=list(reply.thoughts),
        tool_calls=reply.tool_calls,
        usage=usage(wire),
        finish_reason=reply.finish_reason,
    )


def streamed(wire: Wire, reply: Collected) -> bytes:
    return b"".join(CODECS[wire].stream(call(), reply, "id1"))


# ------------------------------------------------------------------ (a) round trip

ROUND_TRIP_WIRES = WIRES


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
@pytest.mark.parametrize("name", list(ANSWERS))
def test_a_streamed_answer_reads_back_as_written(wire: Wire, name: str) -> None:
    reply = with_usage(wire, ANSWERS[name])
    assert read(wire, [streamed(wire, reply)]) == expected(wire, reply)


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
@pytest.mark.parametrize("name", list(ANSWERS))
def test_a_whole_answer_reads_back_as_written(wire: Wire, name: str) -> None:
    reply = with_usage(wire, ANSWERS[name])
    body = json_text(CODECS[wire].reply_body(call(False), reply, "id1")).encode()
    assert read(wire, [body], content_type=JSON) == expected(wire, reply)


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
def test_a_stream_split_at_every_byte_reads_the_same(wire: Wire) -> None:
    reply = with_usage(
        wire,
        Collected(
            thoughts=["Hm é🙂"],
            pieces=["Hi", "\n"],
            tool_calls=(ToolCall("c1", "f", {"a": "ü"}), ToolCall("c2", "g", {})),
        ),
    )
    data = streamed(wire, reply)
    want = expected(wire, reply)
    for at in range(len(data) + 1):
        assert read(wire, [data[:at], data[at:]]) == want, f"split at byte {at}"
    assert read(wire, [data[i : i + 1] for i in range(len(data))]) == want
    crlf = data.replace(b"\n", b"\r\n")
    assert read(wire, [crlf[i : i + 1] for i in range(len(crlf))]) == want
    cr = data.replace(b"\n", b"\r")
    assert read(wire, [cr[i : i + 1] for i in range(len(cr))]) == want


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        ("anthropic", "stop_sequence"),
        ("anthropic", "refusal"),
        ("anthropic", "pause_turn"),
        ("openai_chat", "content_filter"),
        ("openai_responses", "content_filter"),
    ],
)
def test_a_provider_s_own_finish_reason_reads_back(wire: Wire, reason: str) -> None:
    reply = with_usage(wire, Collected(pieces=["Sorry"], finish_reason=reason))
    body = json_text(CODECS[wire].reply_body(call(False), reply, "id1")).encode()
    assert read(wire, [streamed(wire, reply)]) == expected(wire, reply)
    assert read(wire, [body], content_type=JSON) == expected(wire, reply)


TEXT = st.text(st.characters(codec="utf-8"), max_size=12)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
CALLS = st.lists(
    st.builds(
        ToolCall,
        st.text("abcdefXYZ_0123456789", min_size=1, max_size=10),
        st.text("abcdefgh_", min_size=1, max_size=10),
        st.dictionaries(TEXT, JSON_VALUES, max_size=4),
    ),
    max_size=3,
).map(tuple)


@pytest.mark.parametrize("wire", WIRES)
@settings(max_examples=40, deadline=None)
@given(
    pieces=st.lists(TEXT.filter(bool), max_size=4),
    thoughts=st.lists(TEXT.filter(bool), max_size=3),
    calls=CALLS,
    cuts=st.lists(st.integers(min_value=0), max_size=6),
)
def test_any_answer_split_anywhere_reads_back_as_written(
    wire: Wire, pieces: list[str], thoughts: list[str], calls: tuple[ToolCall, ...], cuts: list[int]
) -> None:
    reply = with_usage(wire, Collected(pieces=pieces, thoughts=thoughts, tool_calls=calls))
    data = streamed(wire, reply)
    at = sorted({cut % (len(data) + 1) for cut in cuts})
    chunks = [data[a:b] for a, b in zip([0, *at], [*at, len(data)], strict=True)]
    assert b"".join(chunks) == data
    assert read(wire, chunks) == expected(wire, reply)


def test_codex_s_custom_and_namespaced_tool_calls_read_back_under_the_kit_s_names() -> None:
    """A ``custom_tool_call`` carries free-form input (the kit's ``{"input": ...}``); a call of a
    tool offered inside a ``namespace`` names the two apart, and reads back under the flat name."""
    port = dataclasses.replace(
        call(custom=frozenset({"apply_patch"})),
        namespaced={"mcp__files__read": ("mcp__files", "read")},
    )
    reply = with_usage(
        "openai_responses",
        Collected(
            tool_calls=(
                ToolCall("call_a", "apply_patch", {"input": "*** Begin Patch\n*** End Patch"}),
                ToolCall("call_b", "mcp__files__read", {"path": "x"}),
            )
        ),
    )
    data = b"".join(_openai_responses.stream(port, reply, "id1"))
    assert b'"namespace":"mcp__files"' in data
    assert b'"type":"custom_tool_call"' in data
    assert read("openai_responses", [data]) == expected("openai_responses", reply)


def broken(wire: Wire, reply: Collected) -> Collected:
    reply.broken = BrokenStream("cut")
    return reply


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
def test_a_cut_stream_is_a_broken_stream_with_what_it_showed(wire: Wire) -> None:
    reply = broken(wire, Collected(thoughts=["Hmm, ", "yes."], pieces=["The ", "answer"]))
    got = read(wire, [streamed(wire, reply)])
    assert isinstance(got, BrokenStream)
    assert got.partial == (
        Delta(reasoning="Hmm, "),
        Delta(reasoning="yes."),
        Delta(content="The "),
        Delta(content="answer"),
    )
    # Replayed, the partial deltas are the same bytes again.
    replay = Collected(thoughts=["Hmm, ", "yes."], pieces=["The ", "answer"], broken=got)
    assert streamed(wire, replay) == streamed(wire, reply)


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
@pytest.mark.parametrize(("status", "kind"), [(529, None), (429, None), (500, "api_error")])
def test_an_error_event_before_content_reads_back_as_in_stream(
    wire: Wire, status: int, kind: str | None
) -> None:
    data = b"".join(CODECS[wire].failed(call(), "id1", status, kind, "try later"))
    got = read(wire, [data])
    assert isinstance(got, ApiError)
    assert (got.in_stream, got.message) == (True, "try later")
    again = b"".join(CODECS[wire].failed(call(), "id1", got.status, got.kind, got.message))
    assert again == data


@pytest.mark.parametrize("wire", ROUND_TRIP_WIRES)
@pytest.mark.parametrize("status", [400, 401, 404, 429, 500, 529])
def test_an_error_body_reads_back_as_the_api_error(wire: Wire, status: int) -> None:
    body = json_text(CODECS[wire].error_body(status, None, "no")).encode()
    got = read(wire, [body], status=status, content_type=JSON)
    assert isinstance(got, ApiError)
    assert (got.status, got.message, got.in_stream) == (status, "no", False)
    assert CODECS[wire].error_body(got.status, got.kind, got.message) == CODECS[wire].error_body(
        status, None, "no"
    )


# A FakeLLM script served by the real FakeApi, read back off the socket: what a recording made in
# front of FakeApi would hold is the script it served.

ROUTES: dict[Wire, tuple[str, dict[str, Any]]] = {
    "anthropic": (
        "/v1/messages",
        {
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "read_file", "input_schema": {"type": "object"}}],
        },
    ),
    "openai_chat": (
        "/v1/chat/completions",
        {
            "messages": [{"role": "user", "content": "hi"}],
            "stream_options": {"include_usage": True},
            "tools": [{"type": "function", "function": {"name": "read_file"}}],
        },
    ),
    "openai_responses": (
        "/v1/responses",
        {"input": "hi", "tools": [{"type": "function", "name": "read_file"}]},
    ),
}


def served(api: FakeApi, wire: Wire, stream: bool) -> ChatResponse | ApiError | BrokenStream:
    path, body = ROUTES[wire]
    url = f"http://127.0.0.1:{api.port}{path}"
    with (
        httpx.Client(timeout=10) as client,
        client.stream(
            "POST", url, json={**body, "model": "model-x", "stream": stream}, headers=KEYS
        ) as answer,
    ):
        reader = answer_reader(
            wire,
            status=answer.status_code,
            content_type=answer.headers.get("content-type", ""),
            headers=answer.headers,
        )
        try:
            for chunk in answer.iter_raw():
                reader.feed(chunk)
        except httpx.HTTPError:
            pass  # a cut connection: the reader says what it had
        return reader.finish()


KEYS = {"x-api-key": "k", "authorization": "Bearer k"}


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_a_script_served_by_fake_api_reads_back_as_the_script(wire: Wire, stream: bool) -> None:
    spent = usage(wire)
    turns: list[Turn | BaseException] = [
        Turn("Hello there, world", reasoning="Greeting first.", usage=spent),
        Turn(tool_calls=[ToolCall("call_7", "read_file", ARGS)], usage=spent),
        Turn("Cut", usage=spent, finish_reason="length"),
        ApiError(429, "slow down", retry_after=2),
    ]
    with FakeApi(FakeLLM.script(turns)) as api:
        answers = [served(api, wire, stream) for _ in turns]
    first, second, third, error = answers
    assert first == ChatResponse(
        "Hello there, world",
        usage=spent,
        finish_reason="stop",
        model="model-x",
        reasoning="Greeting first.",
    )
    assert second == ChatResponse(
        tool_calls=(ToolCall("call_7", "read_file", ARGS),),
        usage=spent,
        finish_reason="tool_calls",
        model="model-x",
    )
    assert third == ChatResponse("Cut", usage=spent, finish_reason="length", model="model-x")
    assert isinstance(error, ApiError)
    assert (error.status, error.message, error.retry_after) == (429, "slow down", 2.0)


@pytest.mark.parametrize("wire", WIRES)
def test_fake_api_s_stream_failures_read_back_as_the_failures_it_served(wire: Wire) -> None:
    turns: list[Turn | BaseException] = [
        ApiError(529, "Overloaded", in_stream=True),
        BrokenStream(partial=[Delta(reasoning="Hm."), Delta(content="Half")]),
        BrokenStream(),
    ]
    with FakeApi(FakeLLM.script(turns)) as api:
        overloaded, half, nothing = [served(api, wire, True) for _ in turns]
    assert isinstance(overloaded, ApiError)
    assert (overloaded.in_stream, overloaded.message) == (True, "Overloaded")
    assert isinstance(half, BrokenStream)
    assert half.partial == (Delta(reasoning="Hm."), Delta(content="Half"))
    assert isinstance(nothing, BrokenStream)
    assert nothing.partial == ()


# ------------------------------------------------------- (b) real provider byte streams


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def in_pieces(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


REAL: dict[str, tuple[Wire, ChatResponse]] = {
    "anthropic-thinking-text-tool-use.sse": (
        "anthropic",
        ChatResponse(
            content="Let me check the weather in Paris.",
            tool_calls=(
                ToolCall(
                    "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                    "get_weather",
                    {"location": "Paris, FR", "unit": "celsius"},
                ),
            ),
            usage=Usage(input_tokens=472, cached_input_tokens=2048, output_tokens=89),
            finish_reason="tool_calls",
            model="claude-sonnet-4-5-20250929",
            reasoning="The user wants the weather in Paris; I should call get_weather.",
        ),
    ),
    "anthropic-server-tools-and-unknown-events.sse": (
        "anthropic",
        ChatResponse(
            content="It is sunny in Paris.",
            usage=Usage(
                input_tokens=480, cached_input_tokens=2048, cache_write_tokens=16, output_tokens=41
            ),
            finish_reason="stop",
            model="claude-sonnet-4-5-20250929",
        ),
    ),
    "openai-chat-parallel-tool-calls.sse": (
        "openai_chat",
        ChatResponse(
            tool_calls=(
                ToolCall("call_DdmO9pD3xa9XTPNJ32zg2hcA", "get_weather", {"location": "Paris"}),
                ToolCall("call_ABCDEFG1234567", "get_time", {"tz": "Europe/Paris"}),
            ),
            usage=Usage(input_tokens=18, cached_input_tokens=64, output_tokens=40),
            finish_reason="tool_calls",
            model="gpt-4o-2024-08-06",
        ),
    ),
    "openai-chat-text-crlf.sse": (
        "openai_chat",
        ChatResponse(content="Bonjour ! Ça va ?", finish_reason="stop", model="gpt-4o-2024-08-06"),
    ),
    "openai-responses-reasoning-text-function-call.sse": (
        "openai_responses",
        ChatResponse(
            content="Checking Paris.",
            tool_calls=(
                ToolCall(
                    "call_Lw5VGiJNsFC9ooPz8UtIJ5wX", "get_weather", {"location": "Paris, France"}
                ),
            ),
            usage=Usage(
                input_tokens=51, cached_input_tokens=1024, output_tokens=150, reasoning_tokens=128
            ),
            finish_reason="tool_calls",
            model="gpt-5-2025-08-07",
            reasoning="**Checking the weather**\n\nThe user asks about Paris.\n\n**Calling the tool**",
        ),
    ),
    "openai-responses-incomplete.sse": (
        "openai_responses",
        ChatResponse(
            content="Once upon a",
            usage=Usage(input_tokens=20, output_tokens=16),
            finish_reason="length",
            model="gpt-5-2025-08-07",
        ),
    ),
}


@pytest.mark.parametrize("name", list(REAL))
@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
def test_a_real_provider_stream_reads_as_its_answer(name: str, size: int) -> None:
    wire, want = REAL[name]
    assert read(wire, in_pieces(fixture(name), size)) == want


WHOLE: dict[str, tuple[Wire, ChatResponse]] = {
    "anthropic-message.json": (
        "anthropic",
        ChatResponse(
            content="I'll read both files.",
            tool_calls=(
                ToolCall("toolu_01A09q90qw90lq917835lq9", "read_file", {"path": "a.txt"}),
                ToolCall("toolu_01B09q90qw90lq917835lq9", "read_file", {"path": "b.txt"}),
            ),
            usage=Usage(input_tokens=2095, cache_write_tokens=1024, output_tokens=503),
            finish_reason="tool_calls",
            model="claude-sonnet-4-5-20250929",
            reasoning="Two files to read.",
        ),
    ),
    "openai-chat-completion.json": (
        "openai_chat",
        ChatResponse(
            tool_calls=(ToolCall("call_12345xyz", "get_weather", {"location": "Paris, France"}),),
            usage=Usage(input_tokens=93, cached_input_tokens=1024, output_tokens=46),
            finish_reason="tool_calls",
            model="gpt-4.1-2025-04-14",
        ),
    ),
    "openai-responses.json": REAL["openai-responses-reasoning-text-function-call.sse"],
}


@pytest.mark.parametrize("name", list(WHOLE))
def test_a_real_provider_body_reads_as_its_answer(name: str) -> None:
    wire, want = WHOLE[name]
    assert read(wire, in_pieces(fixture(name), 5), content_type="application/json") == want


# ------------------------------------------------------------------------ (c) errors


def test_a_429_keeps_the_retry_after_and_the_should_retry_the_sdks_obey() -> None:
    got = read(
        "anthropic",
        [fixture("anthropic-429.json")],
        status=429,
        content_type=JSON,
        headers={"Retry-After": "7", "x-should-retry": "true", "request-id": "req_1"},
    )
    assert isinstance(got, ApiError)
    assert (got.status, got.kind, got.retry_after, dict(got.headers)) == (
        429,
        "rate_limit_error",
        7.0,
        {"x-should-retry": "true"},
    )
    assert got.message.startswith("This request would exceed the rate limit")


def test_retry_after_ms_wins_and_an_http_date_is_left_out() -> None:
    body = fixture("openai-429.json")
    precise = read(
        "openai_chat",
        [body],
        status=429,
        content_type=JSON,
        headers={"retry-after": "2", "retry-after-ms": "1500"},
    )
    dated = read(
        "openai_chat",
        [body],
        status=429,
        content_type=JSON,
        headers={"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"},
    )
    assert isinstance(precise, ApiError)
    assert isinstance(dated, ApiError)
    assert (precise.retry_after, precise.kind) == (1.5, "tokens")
    assert dated.retry_after is None


@pytest.mark.parametrize(
    ("wire", "name", "status", "kind"),
    [
        ("anthropic", "anthropic-529.json", 529, "overloaded_error"),
        ("anthropic", "anthropic-400.json", 400, "invalid_request_error"),
        ("openai_responses", "openai-400.json", 400, "invalid_request_error"),
    ],
)
def test_an_error_status_is_the_api_error(wire: Wire, name: str, status: int, kind: str) -> None:
    got = read(wire, in_pieces(fixture(name), 3), status=status, content_type=JSON)
    assert isinstance(got, ApiError)
    assert (got.status, got.kind, got.retry_after, got.in_stream) == (status, kind, None, False)
    assert got.message == json.loads(fixture(name))["error"]["message"]


def test_a_should_retry_header_is_kept_only_as_the_sdks_read_it() -> None:
    """``x-should-retry`` is ``true`` or ``false``; anything else is no instruction to keep."""
    got = [
        read(
            "anthropic",
            [fixture("anthropic-529.json")],
            status=529,
            content_type=JSON,
            headers={"X-Should-Retry": value},
        )
        for value in ("False", "maybe\u00e9")
    ]
    assert [dict(g.headers) for g in got if isinstance(g, ApiError)] == [
        {"x-should-retry": "false"},
        {},
    ]


def test_an_error_page_that_is_not_the_api_s_keeps_its_text() -> None:
    got = read(
        "openai_chat", [b"<html>502 Bad Gateway</html>"], status=502, content_type="text/html"
    )
    assert isinstance(got, ApiError)
    assert (got.status, got.message, got.kind) == (502, "<html>502 Bad Gateway</html>", None)


@pytest.mark.parametrize(
    ("wire", "name", "status", "kind"),
    [
        ("anthropic", "anthropic-overloaded-before-content.sse", 529, "overloaded_error"),
        ("openai_responses", "openai-responses-failed.sse", 429, "rate_limit_exceeded"),
    ],
)
def test_an_error_event_before_any_content_is_an_in_stream_api_error(
    wire: Wire, name: str, status: int, kind: str
) -> None:
    got = read(wire, in_pieces(fixture(name), 11))
    assert isinstance(got, ApiError)
    assert (got.status, got.kind, got.in_stream) == (status, kind, True)


@pytest.mark.parametrize(
    ("wire", "name", "kind", "partial"),
    [
        (
            "anthropic",
            "anthropic-overloaded-mid-stream.sse",
            "overloaded_error",
            (Delta(content="Here is the first"), Delta(content=" part")),
        ),
        (
            "openai_chat",
            "openai-chat-error-mid-stream.sse",
            "server_error",
            (Delta(content="Partial"),),
        ),
        (
            "openai_responses",
            "openai-responses-error-event-mid-stream.sse",
            "server_error",
            (Delta(content="Half an ans"),),
        ),
        (
            "openai_responses",
            "openai-responses-failed-mid-stream.sse",
            "server_error",
            (Delta(content="The forecast for"), Delta(content=" Paris is")),
        ),
    ],
)
def test_an_error_event_after_content_is_an_in_stream_api_error_after_it(
    wire: Wire, name: str, kind: str, partial: tuple[Delta, ...]
) -> None:
    got = read(wire, in_pieces(fixture(name), 13))
    assert isinstance(got, ApiError)
    assert (got.kind, got.in_stream, got.partial) == (kind, True, partial)
    assert got.status == (529 if wire == "anthropic" else 500)
    assert f'"message":"{got.message}"' in fixture(name).decode()


def test_a_stream_cut_inside_an_event_is_broken_after_what_it_showed() -> None:
    got = read("anthropic", [fixture("anthropic-cut-in-tool-input.sse")])
    assert isinstance(got, BrokenStream)
    assert got.partial == (
        Delta(reasoning="The user wants the weather in Paris;"),
        Delta(reasoning=" I should call get_weather."),
        Delta(content="Let me check "),
        Delta(content="the weather in Paris."),
    )


def test_the_event_stream_framing_a_client_must_cope_with() -> None:
    """A byte-order mark, ``data:`` without its space, ``id:``/``retry:`` fields, an event with
    no data, a lone ``\\r`` line end last: the standard's rules, not FakeApi's habits."""
    text = b'{"model":"m","choices":[{"index":0,"delta":{"content":"ok"}}]}'
    data = (
        b"\xef\xbb\xbfretry: 3000\nid: 1\nevent: nothing\n\n"
        + b"data:"
        + text
        + b"\r\rdata: [DONE]\r\r"
    )
    for size in (1, 2, len(data)):
        got = read("openai_chat", in_pieces(data, size))
        assert got == ChatResponse("ok", model="m"), f"pieces of {size}"


def test_an_empty_error_body_still_says_what_happened() -> None:
    got = read("anthropic", [], status=503, content_type="text/plain")
    assert isinstance(got, ApiError)
    assert (got.status, got.message, got.kind) == (
        503,
        "the provider's error 503 said no message",
        None,
    )


@pytest.mark.parametrize("wire", WIRES)
def test_a_stream_that_ends_before_any_event_is_broken(wire: Wire) -> None:
    got = read(wire, [b": keep-alive\n\n"])
    assert isinstance(got, BrokenStream)
    assert got.partial == ()
    assert "before its first event" in str(got)


def test_a_chat_stream_without_done_is_broken_even_after_its_finish_reason() -> None:
    data = fixture("openai-chat-text-crlf.sse").replace(b"data: [DONE]\r\n\r\n", b"")
    got = read("openai_chat", [data])
    assert isinstance(got, BrokenStream)
    assert got.partial == (Delta(content="Bonjour"), Delta(content=" ! Ça va ?"))


@pytest.mark.parametrize(
    ("content_type", "data", "where"),
    [
        (SSE, b'event: message_start\ndata: {"type": "message_start", "message": {\n\n', "event 1"),
        (SSE, b"data: {nope}\n\n", "event 1"),
        (JSON, b'{"id": "msg", "content": [}', "body"),
        (SSE, b"event: ping\ndata: \xff\xfe\n\n", "event 1"),
    ],
)
def test_malformed_json_is_a_typed_error_naming_where(
    content_type: str, data: bytes, where: str
) -> None:
    reader = answer_reader("anthropic", status=200, content_type=content_type)
    reader.feed(data)  # feeding never raises: a forwarding proxy keeps forwarding
    with pytest.raises(UnreadableAnswer) as raised:
        reader.finish()
    assert raised.value.wire == "Anthropic Messages"
    assert raised.value.where.startswith(where)


def test_a_tool_input_that_is_not_json_is_refused() -> None:
    data = fixture("anthropic-thinking-text-tool-use.sse").replace(
        b'"partial_json":": \\"celsius\\"}"', b'"partial_json":": celsius}"'
    )
    with pytest.raises(UnreadableAnswer, match=r"tool input.*not JSON"):
        read("anthropic", [data])


def test_chat_tool_calls_without_an_index_are_told_apart_by_their_ids() -> None:
    """Some OpenAI-compatible servers send each tool call whole and leave out ``index``."""
    head = {"id": "c", "model": "m", "object": "chat.completion.chunk"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return f"data: {json_text({**head, 'choices': [choice]})}\n\n".encode()

    def piece(ident: str | None, name: str | None, arguments: str) -> dict[str, Any]:
        function = {"arguments": arguments} | ({"name": name} if name else {})
        return {"tool_calls": [{"function": function} | ({"id": ident} if ident else {})]}

    data = b"".join(
        [
            chunk(piece("call_1", "f", '{"a":')),
            chunk(piece(None, None, " 1}")),
            chunk(piece("call_2", "g", "{}")),
            chunk({}, "tool_calls"),
            b"data: [DONE]\n\n",
        ]
    )
    got = read("openai_chat", [data])
    assert isinstance(got, ChatResponse)
    assert got.tool_calls == (ToolCall("call_1", "f", {"a": 1}), ToolCall("call_2", "g", {}))


def test_json_nested_too_deep_is_refused_not_a_crash() -> None:
    data = b"data: " + b"[" * 100_000 + b"]" * 100_000 + b"\n\n"
    with pytest.raises(UnreadableAnswer, match="nested too deep"):
        read("openai_chat", [data])


def test_a_chat_tool_call_never_named_is_refused() -> None:
    data = fixture("openai-chat-parallel-tool-calls.sse").replace(b'"name":"get_time",', b"")
    with pytest.raises(UnreadableAnswer, match=r"tool_calls\.1"):
        read("openai_chat", [data])


def test_a_whole_body_cut_short_is_a_broken_stream_and_an_empty_one_too() -> None:
    body = fixture("anthropic-message.json")
    cut = read("anthropic", [body[: len(body) // 2]], content_type=JSON)
    empty = read("anthropic", [], content_type=JSON)
    assert isinstance(cut, BrokenStream)
    assert isinstance(empty, BrokenStream)
    assert cut.partial == empty.partial == ()


@pytest.mark.parametrize(
    ("wire", "name", "ident"),
    [
        ("anthropic", "anthropic-thinking-text-tool-use.sse", "msg_01HCxWnVf3oGkbm6TQjJbXtw"),
        ("anthropic", "anthropic-message.json", "msg_013Zva2CMHLNnXjNJJKqJ2EF"),
        ("openai_chat", "openai-chat-text-crlf.sse", "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG"),
        ("openai_chat", "openai-chat-completion.json", "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT"),
        (
            "openai_responses",
            "openai-responses-reasoning-text-function-call.sse",
            "resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b",
        ),
        (
            "openai_responses",
            "openai-responses.json",
            "resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b",
        ),
    ],
)
def test_the_answer_s_id_is_the_provider_s(wire: Wire, name: str, ident: str) -> None:
    data = fixture(name)
    streamed = name.endswith(".sse")
    reader = answer_reader(wire, status=200, content_type=SSE if streamed else JSON)
    assert reader.answer_id is None
    reader.feed(data[: len(data) // 2])
    assert reader.answer_id == (ident if streamed else None)  # a stream names it at once
    reader.feed(data[len(data) // 2 :])
    assert isinstance(reader.finish(), ChatResponse)
    assert reader.answer_id == ident


def test_an_error_answer_has_no_id() -> None:
    reader = answer_reader("openai_responses", status=400, content_type=JSON)
    reader.feed(fixture("openai-400.json"))
    assert isinstance(reader.finish(), ApiError)
    assert reader.answer_id is None


def test_finish_gives_the_same_outcome_again_and_feeding_after_it_is_refused() -> None:
    reader = answer_reader("openai_chat", status=200, content_type=SSE)
    reader.feed(fixture("openai-chat-text-crlf.sse"))
    assert reader.finish() is reader.finish()
    with pytest.raises(RuntimeError, match="after finish"):
        reader.feed(b"data: [DONE]\n\n")


def test_what_follows_the_terminal_event_is_no_part_of_the_answer() -> None:
    data = fixture("openai-chat-text-crlf.sse") + b"data: {not json\n\n"
    got = read("openai_chat", [data])
    assert isinstance(got, ChatResponse)
    assert got.content == "Bonjour ! Ça va ?"


def test_a_wrong_wire_or_status_is_refused_at_once() -> None:
    with pytest.raises(ArgumentValueError, match="wire"):
        answer_reader("gemini", status=200, content_type=SSE)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="status"):
        answer_reader("anthropic", status=True, content_type=SSE)
    with pytest.raises(ArgumentValueError, match="status"):
        answer_reader("anthropic", status=600, content_type=SSE)
    with pytest.raises(ArgumentTypeError, match="content_type"):
        answer_reader("anthropic", status=200, content_type=None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="chunk"):
        answer_reader("anthropic", status=200, content_type=SSE).feed("text")  # type: ignore[arg-type]
    reader = answer_reader("anthropic", status=302, content_type=JSON)
    with pytest.raises(UnreadableAnswer, match="neither an answer nor an error"):
        reader.finish()
