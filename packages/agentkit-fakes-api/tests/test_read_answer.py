"""The answer reader: a provider's HTTP answer read back into the kit's types.

(a) Round trip: every kind of answer FakeApi writes, on each API, reads
back as what was written -- fed whole, split at every byte, byte by byte.
(b) Real provider byte streams (fixtures/): CRLF line ends, comments,
pings, multi-line data, event types and fields this reader does not know.
(c) Errors: error statuses with retry-after, an error event in a stream,
a stream cut short, JSON that does not parse.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import pytest

from agentkit.core.types import ChatResponse, Delta, Message, ToolCall, Usage
from agentkit.fakes.api import ApiError, BrokenStream, _anthropic, _openai_chat, _openai_responses
from agentkit.fakes.api._call import Collected, PortCall, json_text
from agentkit.fakes.api._read_answer import Wire, answer_reader

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

ROUND_TRIP_WIRES = ["anthropic"]


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
    reply = with_usage(wire, ANSWERS["text and two tool calls"])
    reply.thoughts = ["Thinking é🙂"]
    data = streamed(wire, reply)
    want = expected(wire, reply)
    for at in range(len(data) + 1):
        assert read(wire, [data[:at], data[at:]]) == want, f"split at byte {at}"
    assert read(wire, [data[i : i + 1] for i in range(len(data))]) == want
    crlf = data.replace(b"\n", b"\r\n")
    assert read(wire, [crlf[i : i + 1] for i in range(len(crlf))]) == want
    cr = data.replace(b"\n", b"\r")
    assert read(wire, [cr[i : i + 1] for i in range(len(cr))]) == want


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
