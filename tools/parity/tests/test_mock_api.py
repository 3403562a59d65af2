"""The loopback mock: what a client really receives over HTTP from each kind of reply."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from tools.parity import anthropic as an
from tools.parity import openai as oa
from tools.parity.mock_api import JsonReply, MockApi, Reply, Request, Sse


def _post(api: MockApi, path: str, body: object) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", api.port, timeout=5)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        headers = {k.lower(): v for k, v in response.getheaders()}
        return response.status, headers, response.read()
    finally:
        conn.close()


def _events(data: bytes) -> list[tuple[str, dict[str, object]]]:
    out = []
    for frame in data.decode().split("\n\n"):
        if not frame.strip():
            continue
        lines = dict(line.split(": ", 1) for line in frame.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


@pytest.fixture
def api() -> Iterator[MockApi]:
    with MockApi() as server:
        yield server


def test_it_listens_on_loopback_only(api: MockApi) -> None:
    assert api.url == f"http://127.0.0.1:{api.port}"
    assert api._server is not None
    assert api._server.server_address[0] == "127.0.0.1"


def test_an_unscripted_route_is_a_404_and_every_request_is_logged(api: MockApi) -> None:
    status, _, body = _post(api, "/v1/nothing?beta=true", {"x": 1})
    assert status == 404
    assert json.loads(body)["error"]["type"] == "not_found_error"
    assert [(r.method, r.route, r.body) for r in api.requests] == [
        ("POST", "/v1/nothing", {"x": 1})
    ]


def test_a_json_reply_carries_its_status_body_and_headers(api: MockApi) -> None:
    api.use(lambda r: an.error_reply(529, "overloaded_error", "Overloaded"))
    status, headers, body = _post(api, "/v1/messages", {"stream": True})
    assert status == 529
    assert headers["request-id"] == "req_parity_529"
    assert json.loads(body) == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
    }


def test_an_sse_reply_is_a_chunked_event_stream_in_order(api: MockApi) -> None:
    stream = an.message_stream(
        [an.Thinking("hmm"), an.Text("Hello, world"), an.ToolUse("toolu_1", "Bash", {"a": 1})],
        message_id="msg_1",
        model="m",
        output_tokens=9,
    )
    api.use(lambda r: stream)
    status, headers, body = _post(api, "/v1/messages", {})
    assert status == 200
    assert headers["content-type"] == "text/event-stream"
    assert headers["transfer-encoding"] == "chunked"
    events = _events(body)
    assert events == [(name, dict(data)) for name, data in stream.events]
    names = [name for name, _ in events]
    assert names[0] == "message_start"
    assert names[-2:] == ["message_delta", "message_stop"]


def test_a_broken_stream_is_an_error_for_the_client_not_a_short_answer(api: MockApi) -> None:
    api.use(lambda r: Sse((("a", {"n": 1}), ("b", {"n": 2}), ("c", {"n": 3})), break_after=1))
    conn = http.client.HTTPConnection("127.0.0.1", api.port, timeout=5)
    try:
        conn.request("POST", "/v1/responses", "{}")
        response = conn.getresponse()
        assert response.status == 200
        with pytest.raises(http.client.IncompleteRead) as caught:
            response.read()
        assert _events(caught.value.partial) == [("a", {"n": 1})]
    finally:
        conn.close()


def test_a_script_that_raises_is_a_500_and_a_recorded_failure(api: MockApi) -> None:
    def broken(request: Request) -> Reply:
        raise LookupError("no answer scripted")

    api.use(broken)
    status, _, _ = _post(api, "/v1/messages", {})
    assert status == 500
    assert len(api.failures) == 1
    assert "no answer scripted" in api.failures[0]


def test_use_swaps_the_script_and_clears_the_log(api: MockApi) -> None:
    api.use(lambda r: JsonReply(200, {"first": True}))
    _post(api, "/v1/a", {})
    api.use(lambda r: JsonReply(201, {"second": True}))
    status, _, body = _post(api, "/v1/b", {})
    assert (status, json.loads(body)) == (201, {"second": True})
    assert [r.route for r in api.requests] == ["/v1/b"]
    assert api.calls("/v1/b") == api.requests
    assert api.calls("/v1/a") == []


def test_a_stopped_server_refuses_connections_and_cannot_be_asked_its_port() -> None:
    api = MockApi().start()
    port = api.port
    api.stop()
    with pytest.raises(RuntimeError, match="not running"):
        api.port  # noqa: B018 - the property raises
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    with pytest.raises(ConnectionRefusedError):
        conn.request("GET", "/")
    conn.close()


def test_anthropic_deltas_reassemble_into_the_scripted_blocks() -> None:
    stream = an.message_stream(
        [an.Text("A longer answer, split."), an.ToolUse("toolu_9", "Read", {"path": "/x"})],
        message_id="msg_9",
        model="m",
    )
    text = "".join(
        str(d["delta"]["text"])
        for _, d in stream.events
        if d["type"] == "content_block_delta" and d["delta"]["type"] == "text_delta"
    )
    raw = "".join(
        str(d["delta"]["partial_json"])
        for _, d in stream.events
        if d["type"] == "content_block_delta" and d["delta"]["type"] == "input_json_delta"
    )
    assert text == "A longer answer, split."
    assert json.loads(raw) == {"path": "/x"}
    delta = next(d for _, d in stream.events if d["type"] == "message_delta")
    assert delta["delta"]["stop_reason"] == "tool_use"


def test_anthropic_request_readers_count_turns_and_find_tool_results() -> None:
    body = {
        "model": "claude-sonnet",
        "tools": [{"name": "Bash"}],
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "out"}],
            },
            {"role": "user", "content": [{"type": "text", "text": "again"}]},
        ],
    }
    request = Request("POST", "/v1/messages", {}, body)
    assert an.assistant_turns(request) == 1
    assert [b["content"] for b in an.tool_results(request)] == ["out"]
    assert an.user_texts(request) == ["hi", "again"]
    assert not an.is_auxiliary(request)
    assert an.is_auxiliary(Request("POST", "/v1/messages", {}, {"model": "claude-haiku"}))


def test_openai_stream_ends_in_completed_with_the_scripted_usage() -> None:
    stream = oa.response_stream(
        [oa.Reasoning("r"), oa.FunctionCall("call_1", "exec_command", {"cmd": "ls"})],
        response_id="resp_1",
        model="m",
        input_tokens=10,
        cached_tokens=4,
        output_tokens=3,
        reasoning_tokens=1,
    )
    names = [name for name, _ in stream.events]
    assert names[0] == "response.created"
    assert names[-1] == "response.completed"
    completed = stream.events[-1][1]["response"]
    assert completed["usage"] == {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 4},
        "output_tokens": 3,
        "output_tokens_details": {"reasoning_tokens": 1},
        "total_tokens": 13,
    }
    call = completed["output"][1]
    assert (call["type"], call["name"], json.loads(call["arguments"])) == (
        "function_call",
        "exec_command",
        {"cmd": "ls"},
    )
    failed = oa.response_failed(response_id="r", model="m", code="server_error", message="boom")
    assert [n for n, _ in failed.events] == ["response.created", "response.failed"]


def test_openai_function_outputs_are_read_from_the_request_input() -> None:
    request = Request(
        "POST",
        "/v1/responses",
        {},
        {"input": [{"type": "message"}, {"type": "function_call_output", "output": "hi\n"}]},
    )
    assert [o["output"] for o in oa.function_outputs(request)] == ["hi\n"]
    assert oa.function_outputs(Request("POST", "/v1/responses", {}, None)) == []
