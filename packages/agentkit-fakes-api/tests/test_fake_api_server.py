"""FakeApi as a server: lifecycle, raw request log, wire edge cases, strictness."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.request import ChatRequest
from agentkit.core.types import Delta, Message, ToolCall
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn
from tests.support.inner_session import (
    assert_passed_clean,
    assert_verification_failed,
    run_inner,
)

pytest_plugins = ["pytester"]

MESSAGE = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
KEY = {"x-api-key": "k", "content-type": "application/json"}


def post(
    api: FakeApi, path: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
    try:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection.request("POST", path, data, KEY if headers is None else headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def sse_events(raw: bytes) -> list[tuple[str | None, Any]]:
    events: list[tuple[str | None, Any]] = []
    for block in raw.decode().split("\n\n"):
        if not block.strip():
            continue
        name = None
        data = None
        for line in block.splitlines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:] if line[6:] == "[DONE]" else json.loads(line[6:])
        events.append((name, data))
    return events


# ------------------------------------------------------------------ lifecycle


def test_binds_loopback_on_an_ephemeral_port_and_leaves_nothing_behind() -> None:
    threads = set(threading.enumerate())
    api = FakeApi(FakeLLM("hi"))
    with api:
        assert api.url == f"http://127.0.0.1:{api.port}"
        assert api.openai_base_url == api.url + "/v1"
        assert post(api, "/v1/messages", MESSAGE)[0] == 200
        port = api.port
    assert not api.running
    assert set(threading.enumerate()) == threads
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port)):
        pass
    api.close()  # idempotent


def test_a_kept_alive_connection_is_closed_by_close() -> None:
    with FakeApi(FakeLLM("hi")) as api:
        connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
        connection.request("POST", "/v1/messages", json.dumps(MESSAGE).encode(), KEY)
        response = connection.getresponse()
        response.read()
        assert response.getheader("connection") is None  # kept alive for the next request
        connection.request("POST", "/v1/messages", json.dumps(MESSAGE).encode(), KEY)
        assert connection.getresponse().read()
    connection.close()


def test_it_cannot_start_twice_and_needs_to_run_for_a_port() -> None:
    api = FakeApi(FakeLLM("hi"))
    with pytest.raises(RuntimeError, match="not running"):
        _ = api.port
    with api, pytest.raises(RuntimeError, match="already running"):
        api.start()


def test_wrong_constructor_input_is_refused_naming_the_argument() -> None:
    with pytest.raises(ArgumentTypeError, match="llm"):
        FakeApi("not a model")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="require_key"):
        FakeApi(FakeLLM("x"), require_key="yes")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="side_requests"):
        FakeApi(side_requests="haiku")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="side_answer"):
        FakeApi(side_answer=42)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="status"):
        ApiError(200)
    with pytest.raises(ArgumentTypeError, match="retry_after"):
        ApiError(429, retry_after="soon")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="in_stream"):
        ApiError(429, in_stream=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="retries"):
        FakeApi(FakeLLM("x")).codex_args(retries=-1)
    with pytest.raises(ArgumentTypeError, match="retries"):
        FakeApi(FakeLLM("x")).codex_args(retries=1.5)  # type: ignore[arg-type]


def test_env_and_codex_args_point_clients_here() -> None:
    with FakeApi(FakeLLM("hi")) as api:
        env = api.env
        args = api.codex_args()
        assert env["ANTHROPIC_BASE_URL"] == api.anthropic_base_url == api.url
        assert env["OPENAI_BASE_URL"] == api.openai_base_url
        assert f'model_providers.agentkit_fake.base_url="{api.openai_base_url}"' in args
    assert env["ANTHROPIC_API_KEY"]
    assert env["OPENAI_API_KEY"]
    assert 'model_providers.agentkit_fake.env_key="AGENTKIT_FAKE_API_KEY"' in args
    assert "AGENTKIT_FAKE_API_KEY" in env


# ------------------------------------------------------------- request log


def test_every_raw_request_is_kept_with_headers_body_and_status() -> None:
    with FakeApi(FakeLLM("hi")) as api:
        post(api, "/v1/messages?beta=true", MESSAGE, {**KEY, "X-Custom": "yes"})
        post(api, "/v1/messages", MESSAGE, {"content-type": "application/json"})
    first, second = api.requests
    assert (first.method, first.path, first.route) == (
        "POST",
        "/v1/messages?beta=true",
        "/v1/messages",
    )
    assert first.headers["x-custom"] == "yes"
    assert first.json == MESSAGE
    assert first.status == 200
    assert second.status == 401  # no key, as the real API answers
    assert api.requests_to("/v1/messages") == [first, second]


def test_serve_swaps_the_brain_and_clears_the_log() -> None:
    with FakeApi(FakeLLM("one")) as api:
        post(api, "/v1/messages", MESSAGE)
        api.serve(FakeLLM("two"))
        assert api.requests == []
        _, _, body = post(api, "/v1/messages", MESSAGE)
    assert json.loads(body)["content"][0]["text"] == "two"


# -------------------------------------------------------------- wire shapes


def test_anthropic_stream_is_framed_as_the_api_frames_it() -> None:
    llm = FakeLLM.script([Turn("ab", tool_calls=[ToolCall("t1", "f", {"a": 1})])])
    body = {**MESSAGE, "stream": True, "tools": [{"name": "f", "input_schema": {"type": "object"}}]}
    with FakeApi(llm) as api:
        status, headers, raw = post(api, "/v1/messages", body)
    assert status == 200
    assert headers["content-type"].startswith("text/event-stream")
    assert headers["transfer-encoding"] == "chunked"
    events = sse_events(raw)
    names = [name for name, _ in events]
    assert names[:2] == ["message_start", "ping"]
    assert names[-2:] == ["message_delta", "message_stop"]
    assert all(data["type"] == name for name, data in events)
    starts = [d["content_block"]["type"] for n, d in events if n == "content_block_start"]
    assert starts == ["text", "tool_use"]
    partial = "".join(
        d["delta"]["partial_json"]
        for n, d in events
        if n == "content_block_delta" and d["delta"]["type"] == "input_json_delta"
    )
    assert json.loads(partial) == {"a": 1}
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"


def test_responses_events_are_numbered_and_end_completed() -> None:
    with FakeApi(FakeLLM("hi")) as api:
        _, _, raw = post(api, "/v1/responses", {"model": "m", "input": "x", "stream": True})
    events = sse_events(raw)
    assert [d["sequence_number"] for _, d in events] == list(range(len(events)))
    assert events[0][0] == "response.created"
    assert events[-1][0] == "response.completed"


def test_chat_stream_ends_with_done() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": True}
    with FakeApi(FakeLLM("hi")) as api:
        _, _, raw = post(api, "/v1/chat/completions", body, {**KEY, "authorization": "Bearer k"})
    events = sse_events(raw)
    assert all(name is None for name, _ in events)
    assert events[-1] == (None, "[DONE]")


def test_a_claude_style_request_becomes_the_kits_transcript() -> None:
    llm = FakeLLM("ok")
    body = {
        "model": "m",
        "max_tokens": 5,
        "system": [{"type": "text", "text": "A"}, {"type": "text", "text": "B"}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "run ls"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hm", "signature": "s"},
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [{"type": "text", "text": "a.txt"}],
                    },
                    {"type": "text", "text": "<reminder>"},
                ],
            },
        ],
    }
    with FakeApi(llm) as api:
        assert post(api, "/v1/messages", body)[0] == 200
    assert list(llm.calls[0].messages) == [
        Message.system("A\n\nB"),
        Message.user("run ls"),
        Message.assistant(tool_calls=(ToolCall("t1", "Bash", {"command": "ls"}),)),
        Message.tool("a.txt", tool_call_id="t1", name="Bash"),
        Message.user("<reminder>"),
    ]


def test_a_system_role_inside_messages_is_a_system_message_in_its_place() -> None:
    """claude on its default model sends a system-role message among the turns."""
    llm = FakeLLM("ok")
    body = {
        "model": "m",
        "max_tokens": 5,
        "system": "A",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "system", "content": [{"type": "text", "text": "be brief"}]},
        ],
    }
    with FakeApi(llm, verify=False) as api:
        assert post(api, "/v1/messages", body)[0] == 200
        refused = post(
            api, "/v1/messages", {**body, "messages": [{"role": "tool", "content": "x"}]}
        )
    assert list(llm.calls[0].messages) == [
        Message.system("A"),
        Message.user("hi"),
        Message.system("be brief"),
    ]
    assert refused[0] == 400
    assert b"'user', 'assistant' or 'system'" in refused[2]


def test_a_codex_style_request_becomes_the_kits_transcript() -> None:
    llm = FakeLLM("ok")
    body = {
        "model": "m",
        "instructions": "sys",
        "input": [
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "d"}],
            },
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "u"}]},
            {"type": "reasoning", "summary": []},
            {
                "type": "function_call",
                "call_id": "c1",
                "name": "exec_command",
                "arguments": '{"cmd":"ls"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": "a.txt"},
        ],
        "tools": [
            {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
            {"type": "web_search"},
        ],
    }
    with FakeApi(llm) as api:
        assert post(api, "/v1/responses", body)[0] == 200
    call = llm.calls[0]
    assert list(call.messages) == [
        Message.system("sys"),
        Message.system("d"),
        Message.user("u"),
        Message.assistant(tool_calls=(ToolCall("c1", "exec_command", {"cmd": "ls"}),)),
        Message.tool("a.txt", tool_call_id="c1", name="exec_command"),
    ]
    assert [t.name for t in list(call.tools or ()) or []] == ["exec_command", "web_search"]


# ------------------------------------------------------------ failures, strict


def test_a_port_failing_after_its_first_delta_cuts_the_stream() -> None:
    class Breaks:
        async def chat(self, **kwargs: Any) -> Any:
            raise NotImplementedError

        async def stream(self, **kwargs: Any) -> Any:
            yield Delta(content="partial ")
            raise BrokenStream()

    with FakeApi(Breaks()) as api:
        connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
        connection.request("POST", "/v1/messages", json.dumps({**MESSAGE, "stream": True}), KEY)
        response = connection.getresponse()
        assert response.status == 200
        with pytest.raises(http.client.IncompleteRead) as raised:
            response.read()
        connection.close()
    text = raised.value.partial.decode()
    assert '"text":"partial "' in text
    assert "message_stop" not in text
    assert api.violations() == []


def test_an_unscripted_exception_is_a_500_in_the_providers_shape() -> None:
    with FakeApi(FakeLLM("x", fail_times=1)) as api:
        status, headers, body = post(api, "/v1/responses", {"model": "m", "input": "x"})
    assert status == 500
    assert json.loads(body)["error"]["type"] == "server_error"
    assert headers["x-request-id"].startswith("req_")
    assert api.violations() == []


def test_api_error_headers_and_kind_reach_the_client() -> None:
    error = ApiError(429, "slow down", kind="rate_limit_error", retry_after=2, headers={"X-A": "b"})
    with FakeApi(FakeLLM("x", fail_times=1, fail_exc=error)) as api:
        status, headers, body = post(api, "/v1/messages", MESSAGE)
    assert status == 429
    assert (headers["retry-after"], headers["retry-after-ms"], headers["x-a"]) == ("2", "2000", "b")
    assert json.loads(body) == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "slow down"},
    }


def test_an_exhausted_script_is_answered_400_and_recorded() -> None:
    llm = FakeLLM.script([Turn("only")], verify=False)
    api = FakeApi(llm, verify=False)
    with api:
        assert post(api, "/v1/messages", MESSAGE)[0] == 200
        status, _, body = post(api, "/v1/messages", MESSAGE)
    assert status == 400
    assert "ScriptExhausted" in json.loads(body)["error"]["message"]
    (violation,) = api.violations()
    assert violation.kind == "unanswerable_request"
    assert "ScriptExhausted" in violation.detail


def test_unknown_routes_and_bad_bodies_are_recorded() -> None:
    api = FakeApi(FakeLLM("x"), verify=False)
    with api:
        assert post(api, "/v1/complete", MESSAGE)[0] == 404
        assert post(api, "/v1/messages", b"{not json")[0] == 400
        assert post(api, "/v1/messages", {"model": "m", "messages": []})[0] == 400  # no max_tokens
    kinds = [v.kind for v in api.violations()]
    assert kinds == ["unknown_route", "bad_request", "bad_request"]
    assert "max_tokens" in api.violations()[2].detail


# The brain below records its unoffered call as a verifying double would, and the plugin
# hears of it as it happens: this test is about the server's record, not the plugin's.
@pytest.mark.agentkit(verify=False)
def test_an_unoffered_tool_is_recorded_once() -> None:
    call = ToolCall("t1", "rm_rf", {})

    class Rogue:
        async def chat(self, **kwargs: Any) -> Any:
            raise NotImplementedError

        async def stream(self, **kwargs: Any) -> Any:
            yield Delta(tool_calls=(call,), finish_reason="tool_calls")

    api = FakeApi(Rogue(), verify=False)
    with api:
        post(api, "/v1/messages", MESSAGE)
    (violation,) = api.violations()
    assert violation.kind == "unoffered_tool"
    assert "rm_rf" in violation.detail
    # A verifying FakeLLM reports its own unoffered calls: the server does not repeat them.
    llm = FakeLLM.script([Turn(tool_calls=[call])], verify=False)
    llm._verify = True  # as a FakeLLM built with verify=True, without registering it here
    quiet = FakeApi(llm, verify=False)
    with quiet:
        post(quiet, "/v1/messages", MESSAGE)
    assert quiet.violations() == []
    # One built with verify=False calls the unknown tool on purpose: the server respects it.
    on_purpose = FakeLLM.script([Turn(tool_calls=[call])], verify=False)
    server = FakeApi(on_purpose)
    with server:
        post(server, "/v1/messages", MESSAGE)
    assert server.violations() == []


def test_a_request_before_a_brain_is_unanswerable() -> None:
    api = FakeApi(verify=False)
    with api:
        assert post(api, "/v1/messages", MESSAGE)[0] == 400
    assert [v.kind for v in api.violations()] == ["unanswerable_request"]


# ------------------------------------------------------------ under the plugin


INNER_HEAD = """
import http.client, json
from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

MESSAGE = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}

def ask(api):
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
    connection.request("POST", "/v1/messages", json.dumps(MESSAGE), {"x-api-key": "k"})
    status = connection.getresponse().status
    connection.close()
    return status
"""


def test_a_swallowed_unanswerable_request_fails_the_test_at_teardown(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(
        pytester,
        INNER_HEAD
        + """
def test_client_retries_past_the_script(fake_api):
    fake_api.serve(FakeLLM.script([Turn("one")], verify=False))
    assert [ask(fake_api), ask(fake_api)] == [200, 400]  # the client carried on
""",
    )
    text = assert_verification_failed(result, kind="unanswerable_request", double="FakeApi")
    assert "ScriptExhausted" in text


def test_a_correct_test_with_the_fixture_passes_clean(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        INNER_HEAD
        + """
def test_one_turn(fake_api):
    fake_api.serve(FakeLLM.script([Turn("one")]))
    assert ask(fake_api) == 200

def test_shared(fake_api_session):
    fake_api_session.serve(FakeLLM("hi"))
    assert ask(fake_api_session) == 200
""",
    )
    assert_passed_clean(result, passed=2)


# ---------------------------------------------------------------- robustness


def test_concurrent_clients_each_get_their_own_turn() -> None:
    turns = [Turn(f"answer {n}") for n in range(8)]
    llm = FakeLLM.script(turns)
    with FakeApi(llm) as api:
        results: list[str] = []

        def one() -> None:
            _, _, body = post(api, "/v1/messages", MESSAGE)
            results.append(json.loads(body)["content"][0]["text"])

        threads = [threading.Thread(target=one) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(results) == sorted(f"answer {n}" for n in range(8))
    assert llm.remaining == 0


# ------------------------------------------------------------- side requests


def test_claudes_reachability_probe_is_answered_and_kept_as_a_side_request() -> None:
    llm = FakeLLM.script([Turn("The answer.")])
    with FakeApi(llm) as api:
        connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
        connection.request("HEAD", "/api/hello")  # no key: claude's probe sends none
        response = connection.getresponse()
        assert (response.status, response.read()) == (200, b"")
        connection.close()
        assert post(api, "/v1/messages", MESSAGE)[0] == 200
    assert [(r.method, r.route, r.status, r.side) for r in api.requests] == [
        ("HEAD", "/api/hello", 200, True),
        ("POST", "/v1/messages", 200, False),
    ]
    assert api.violations() == []
    assert len(llm.calls) == 1  # the probe was no turn of the script


def test_side_requests_are_answered_apart_from_the_script() -> None:
    llm = FakeLLM.script([Turn("The main answer.")])
    api = FakeApi(llm, side_requests=lambda request: "haiku" in request.model)
    title = {**MESSAGE, "model": "claude-haiku-4-5", "system": "Write a title."}
    with api:
        side_status, _, side_body = post(api, "/v1/messages", title)
        main_status, _, main_body = post(api, "/v1/messages", MESSAGE)
        count_status = post(api, "/v1/messages/count_tokens", MESSAGE)[0]
    assert (side_status, main_status, count_status) == (200, 200, 200)
    assert json.loads(side_body)["content"] == [{"type": "text", "text": "OK."}]
    assert json.loads(main_body)["content"] == [{"type": "text", "text": "The main answer."}]
    assert [(r.route, r.side) for r in api.requests] == [
        ("/v1/messages", True),
        ("/v1/messages", False),
        ("/v1/messages/count_tokens", True),
    ]
    assert [call.model for call in llm.calls] == ["m"]  # the script saw only its own turn
    assert api.violations() == []


def test_a_side_answer_may_be_any_port_and_streams_like_the_main_one() -> None:
    side = FakeLLM("A short title")
    api = FakeApi(FakeLLM("unused"), side_requests=lambda r: r.tools is None, side_answer=side)
    with api:
        status, _, raw = post(api, "/v1/messages", {**MESSAGE, "stream": True})
    texts = [d["delta"]["text"] for n, d in sse_events(raw) if n == "content_block_delta"]
    assert status == 200
    assert "".join(texts) == "A short title"
    assert len(side.calls) == 1


def test_a_side_answer_calling_a_tool_is_no_violation_of_the_server() -> None:
    call = ToolCall("t1", "not_offered", {})
    side = FakeLLM(lambda r: Turn(tool_calls=[call]), verify=False)
    api = FakeApi(FakeLLM("unused"), side_requests=lambda r: True, side_answer=side)
    with api:
        assert post(api, "/v1/messages", MESSAGE)[0] == 200
    assert api.violations() == []


def test_a_side_predicate_that_raises_is_recorded_and_the_brain_answers() -> None:
    llm = FakeLLM("the brain")

    def broken(request: ChatRequest) -> bool:
        raise KeyError("model")

    api = FakeApi(llm, side_requests=broken, verify=False)
    with api:
        assert post(api, "/v1/messages", MESSAGE)[0] == 200
    assert [v.kind for v in api.violations()] == ["side_rule_error"]
    assert "KeyError" in api.violations()[0].detail
    assert len(llm.calls) == 1
