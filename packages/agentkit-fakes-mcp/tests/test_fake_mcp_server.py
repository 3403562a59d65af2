"""FakeMcpServer on the wire: the handshake, the answers, bad input, and strictness."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import ToolCall
from agentkit.core.verification import VerificationError
from agentkit.fakes.mcp import FakeMcpServer, McpRequest, McpTool, McpToolError
from tests.support.inner_session import assert_passed_clean, assert_verification_failed, run_inner

pytest_plugins = ["pytester"]

ADD_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


class Wire:
    """Posts raw JSON-RPC to a running FakeMcpServer, keeping the session it is given."""

    def __init__(self, server: FakeMcpServer) -> None:
        self.server = server
        self.session: str | None = None
        self._next = 0

    def http(
        self,
        method: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
        path: str | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            sent = {
                "content-type": "application/json",
                "accept": "application/json, text/event-stream",
            }
            if self.session is not None:
                sent["mcp-session-id"] = self.session
            sent.update(headers or {})
            connection.request(method, path or self.server.path, body, sent)
            response = connection.getresponse()
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()

    def post(self, message: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        raw = message if isinstance(message, bytes) else json.dumps(message).encode()
        status, got, body = self.http("POST", raw, headers)
        if "mcp-session-id" in got:
            self.session = got["mcp-session-id"]
        return status, json.loads(body) if body else None

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """The JSON-RPC response object of one request (asserting HTTP 200)."""
        self._next += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            message["params"] = params
        status, body = self.post(message)
        assert status == 200, (status, body)
        return body

    def initialize(self, version: str = "2025-06-18") -> Any:
        body = self.request(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        )
        status, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert status == 202
        return body["result"]

    def call(self, tool: str, arguments: Any = None) -> Any:
        params: dict[str, Any] = {"name": tool}
        if arguments is not None:
            params["arguments"] = arguments
        return self.request("tools/call", params)


def kinds(server: FakeMcpServer) -> list[str]:
    return [violation.kind for violation in server.violations()]


def text_of(response: Any) -> str:
    return str(response["result"]["content"][0]["text"])


# ------------------------------------------------------------------ handshake


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_initialize_answers_the_clients_revision_and_opens_a_session(version: str) -> None:
    with FakeMcpServer([McpTool("t", answer="x")], name="srv", version="2.0") as server:
        wire = Wire(server)
        result = wire.initialize(version)
        assert result["protocolVersion"] == version
        assert result["capabilities"] == {"tools": {"listChanged": False}}
        assert result["serverInfo"] == {"name": "srv", "version": "2.0"}
        assert wire.session
        assert server.connected
    assert server.violations() == []


def test_an_unknown_revision_is_answered_with_the_latest() -> None:
    with FakeMcpServer(verify=False) as server:
        assert Wire(server).initialize("1999-01-01")["protocolVersion"] == "2025-11-25"


def test_the_session_less_era_probe_is_told_to_fall_back_to_initialize() -> None:
    with FakeMcpServer(expect_connection=False) as server:
        wire = Wire(server)
        body = wire.request("server/discover", {})
        assert body["error"]["code"] == -32022
        assert body["error"]["data"]["supported"] == [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
        ]
    assert server.violations() == []


def test_tools_list_shows_each_declared_schema() -> None:
    tools = [
        McpTool("add", answer=0, description="Add two ints.", schema=ADD_SCHEMA),
        McpTool("info", answer={}, output_schema={"type": "object"}),
    ]
    with FakeMcpServer(tools) as server:
        wire = Wire(server)
        wire.initialize()
        listed = wire.request("tools/list")["result"]["tools"]
    assert listed == [
        {"name": "add", "description": "Add two ints.", "inputSchema": ADD_SCHEMA},
        {"name": "info", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}},
    ]
    assert [r.method for r in server.requests] == [
        "initialize",
        "notifications/initialized",
        "tools/list",
    ]


def test_instructions_are_sent_when_given() -> None:
    with FakeMcpServer(instructions="Use add for sums.") as server:
        assert Wire(server).initialize()["instructions"] == "Use add for sums."


# -------------------------------------------------------------------- answers


def test_a_fixed_str_mapping_and_number_become_text_and_structured_content() -> None:
    tools = [
        McpTool("s", answer="sunny"),
        McpTool("m", answer={"temp": 21}),
        McpTool("n", answer=[1, 2]),
    ]
    with FakeMcpServer(tools) as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.call("s")["result"] == {
            "content": [{"type": "text", "text": "sunny"}],
            "isError": False,
        }
        assert wire.call("m")["result"] == {
            "content": [{"type": "text", "text": '{"temp": 21}'}],
            "isError": False,
            "structuredContent": {"temp": 21},
        }
        assert text_of(wire.call("n")) == "[1, 2]"
    assert server.violations() == []


def test_a_callable_answer_sync_or_async_gets_the_arguments() -> None:
    async def later(arguments: dict[str, Any]) -> str:
        await asyncio.sleep(0)
        return f"hello {arguments['who']}"

    tools = [
        McpTool("add", answer=lambda a: a["a"] + a["b"], schema=ADD_SCHEMA),
        McpTool("greet", answer=later),
    ]
    with FakeMcpServer(tools) as server:
        wire = Wire(server)
        wire.initialize()
        assert text_of(wire.call("add", {"a": 2, "b": 3})) == "5"
        assert text_of(wire.call("greet", {"who": "ada"})) == "hello ada"
    assert server.calls == [
        ToolCall("2", "add", {"a": 2, "b": 3}),
        ToolCall("3", "greet", {"who": "ada"}),
    ]
    assert server.calls_to("add") == [{"a": 2, "b": 3}]


def test_a_script_answers_in_order_and_a_call_past_it_is_an_error_and_a_violation() -> None:
    tool = McpTool("next", script=["one", lambda a: "two", McpToolError("three failed")])
    with FakeMcpServer([tool], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        assert text_of(wire.call("next")) == "one"
        assert text_of(wire.call("next")) == "two"
        third = wire.call("next")["result"]
        assert third == {"content": [{"type": "text", "text": "three failed"}], "isError": True}
        assert wire.call("next")["error"]["code"] == -32603
    assert kinds(server) == ["script_exhausted"]


def test_scripted_answers_never_asked_for_are_reported() -> None:
    with FakeMcpServer([McpTool("next", script=["one", "two"])], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        wire.call("next")
    assert kinds(server) == ["unused_answers"]
    assert "1 scripted answer" in server.violations()[0].detail


def test_mcp_tool_error_returned_or_raised_is_an_is_error_result_and_no_violation() -> None:
    def refuse(arguments: dict[str, Any]) -> str:
        raise McpToolError("city not found")

    tools = [McpTool("fixed", answer=McpToolError("down")), McpTool("raised", answer=refuse)]
    with FakeMcpServer(tools) as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.call("fixed")["result"]["isError"] is True
        raised = wire.call("raised")["result"]
        assert raised == {"content": [{"type": "text", "text": "city not found"}], "isError": True}
    assert server.violations() == []


def test_any_other_exception_is_answered_as_a_tool_error_and_recorded() -> None:
    def broken(arguments: dict[str, Any]) -> str:
        return arguments["missing"]  # type: ignore[no-any-return]

    with FakeMcpServer([McpTool("broken", answer=broken)], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        result = wire.call("broken")["result"]
    assert result["isError"] is True
    assert "KeyError" in result["content"][0]["text"]
    assert kinds(server) == ["answer_raised"]


def test_an_answer_json_cannot_carry_or_the_output_schema_refuses_is_an_internal_error() -> None:
    tools = [
        McpTool("obj", answer=object()),
        McpTool(
            "shaped",
            answer={"temp": "hot"},
            output_schema={"type": "object", "properties": {"temp": {"type": "number"}}},
        ),
    ]
    with FakeMcpServer(tools, verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.call("obj")["error"]["code"] == -32603
        assert wire.call("shaped")["error"]["code"] == -32603
    assert kinds(server) == ["bad_answer", "bad_answer"]


# ------------------------------------------------------------ strict checks


def test_an_undeclared_tool_is_invalid_params_logged_and_a_violation() -> None:
    with FakeMcpServer([McpTool("add", answer=0)], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        body = wire.call("delete_everything", {"really": True})
    assert body["error"]["code"] == -32602
    assert "delete_everything" in body["error"]["message"]
    assert server.calls == [ToolCall("2", "delete_everything", {"really": True})]
    assert kinds(server) == ["undeclared_tool"]
    assert "'add'" in server.violations()[0].detail


def test_arguments_the_schema_refuses_are_an_is_error_result_and_a_violation() -> None:
    with FakeMcpServer([McpTool("add", answer=0, schema=ADD_SCHEMA)], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        result = wire.call("add", {"a": "2"})["result"]
    assert result["isError"] is True
    assert "Invalid arguments for tool add" in result["content"][0]["text"]
    assert kinds(server) == ["bad_arguments"]
    assert "'b'" in server.violations()[0].detail


def test_arguments_that_are_not_an_object_are_invalid_params() -> None:
    with FakeMcpServer([McpTool("add", answer=0)], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.call("add", [1, 2])["error"]["code"] == -32602
    assert kinds(server) == ["bad_arguments"]


def test_a_server_no_client_connected_to_is_a_violation() -> None:
    server = FakeMcpServer([McpTool("add", answer=0)], verify=False)
    with server:
        pass
    assert kinds(server) == ["never_connected"]
    assert FakeMcpServer(expect_connection=False, verify=False).violations() == []


def test_expected_calls_not_met_is_a_violation() -> None:
    tools = [
        McpTool("once", answer=1, expected_calls=1),
        McpTool("never", answer=1, expected_calls=0),
    ]
    with FakeMcpServer(tools, verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        wire.call("never")
    assert kinds(server) == ["expectation_unmet", "expectation_unmet"]
    assert "expected 1 call(s), got 0" in server.violations()[0].detail
    with pytest.raises(VerificationError, match="expectation_unmet"):
        server.assert_complete()


# ---------------------------------------------------------------- bad input


def test_a_body_that_is_not_json_is_a_parse_error_and_the_server_serves_on() -> None:
    with FakeMcpServer([McpTool("t", answer="ok")], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        status, body = wire.post(b"{not json")
        assert status == 400
        assert body["error"]["code"] == -32700
        assert body["id"] is None
        assert text_of(wire.call("t")) == "ok"
    assert kinds(server) == ["bad_request"]


@pytest.mark.parametrize(
    "message",
    [
        [],
        "a string",
        {"id": 1, "method": "ping"},
        {"jsonrpc": "1.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "method": 7},
        {"jsonrpc": "2.0", "id": True, "method": "ping"},
        {"jsonrpc": "2.0", "id": [1], "method": "ping"},
    ],
)
def test_a_message_that_is_not_json_rpc_is_an_invalid_request(message: Any) -> None:
    with FakeMcpServer(verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        status, body = wire.post(message)
        assert status == 400
        assert body["error"]["code"] == -32600
        assert wire.request("ping")["result"] == {}
    assert kinds(server) == ["bad_request"]


def test_params_that_are_not_an_object_are_invalid_params() -> None:
    with FakeMcpServer(verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        status, body = wire.post({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": [1]})
    assert (status, body["error"]["code"], body["id"]) == (200, -32602, 9)


def test_an_unknown_method_is_method_not_found_and_a_violation() -> None:
    with FakeMcpServer(verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        body = wire.request("resources/list")
        assert body["error"]["code"] == -32601
        assert wire.request("ping")["result"] == {}
    assert kinds(server) == ["unknown_method"]
    assert server.requests[-2] == McpRequest("resources/list", {}, 2, wire.session, -32601)


def test_an_unknown_notification_is_accepted_silently() -> None:
    with FakeMcpServer() as server:
        wire = Wire(server)
        wire.initialize()
        status, body = wire.post({"jsonrpc": "2.0", "method": "notifications/whatever"})
    assert (status, body) == (202, None)
    assert server.requests[-1].notification
    assert server.violations() == []


def test_a_batch_is_answered_with_an_array_of_the_requests_answers() -> None:
    with FakeMcpServer([McpTool("t", answer="ok")]) as server:
        wire = Wire(server)
        wire.initialize()
        status, body = wire.post(
            [
                {"jsonrpc": "2.0", "id": "a", "method": "ping"},
                {"jsonrpc": "2.0", "method": "notifications/progress"},
                {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "t"}},
            ]
        )
    assert status == 200
    assert [answer["id"] for answer in body] == ["a", "b"]
    assert body[1]["result"]["content"][0]["text"] == "ok"


def test_a_tool_that_hangs_past_its_timeout_is_an_internal_error_and_the_server_serves_on() -> None:
    release = threading.Event()

    def hang(arguments: dict[str, Any]) -> str:
        release.wait(30)
        return "late"

    tools = [McpTool("hang", answer=hang, timeout=0.2), McpTool("quick", answer="ok")]
    with FakeMcpServer(tools, verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        body = wire.call("hang")
        assert body["error"]["code"] == -32603
        assert "timed out" in body["error"]["message"]
        assert text_of(wire.call("quick")) == "ok"
        release.set()
    assert kinds(server) == ["tool_timeout"]


def test_a_slow_tool_holds_up_its_own_request_only() -> None:
    release = threading.Event()
    tools = [
        McpTool("slow", answer=lambda a: "done" if release.wait(10) else "never"),
        McpTool("quick", answer="ok"),
    ]
    with FakeMcpServer(tools) as server:
        wire = Wire(server)
        wire.initialize()
        slow: list[Any] = []
        worker = threading.Thread(target=lambda: slow.append(wire.call("slow")))
        worker.start()
        assert text_of(wire.call("quick")) == "ok"
        release.set()
        worker.join()
    assert text_of(slow[0]) == "done"


# ----------------------------------------------------------- HTTP and sessions


def test_a_request_without_a_session_is_answered_as_a_sessionless_server_would() -> None:
    with FakeMcpServer([McpTool("t", answer="ok")], verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        wire.session = None
        assert text_of(wire.call("t")) == "ok"
        assert wire.request("nope")["error"]["code"] == -32601
    assert [v.kind for v in server.violations()] == ["unknown_method"]


def test_an_ended_session_is_a_404_so_the_client_initializes_again() -> None:
    with FakeMcpServer() as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.http("DELETE")[0] == 200
        status, _ = wire.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert status == 404
        assert wire.http("DELETE")[0] == 404
        wire.initialize()
        assert wire.request("tools/list")["result"] == {"tools": []}
    assert server.violations() == []


def test_an_unsupported_protocol_version_header_is_a_400() -> None:
    with FakeMcpServer(verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        status, _ = wire.post(
            {"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"mcp-protocol-version": "1.0"}
        )
    assert status == 400
    assert kinds(server) == ["bad_request"]


def test_get_is_405_another_path_404_and_a_foreign_origin_403() -> None:
    with FakeMcpServer(verify=False) as server:
        wire = Wire(server)
        wire.initialize()
        assert wire.http("GET")[0] == 405
        assert wire.http("POST", b"{}", path="/other")[0] == 404
        status, _, _ = wire.http("POST", b"{}", {"origin": "https://evil.example"})
        assert status == 403
        status, _, _ = wire.http(
            "POST",
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode(),
            {"origin": "http://localhost:3000"},
        )
        assert status == 200
    assert kinds(server) == ["unknown_route"]


def test_an_unreadable_content_length_is_a_400_and_the_server_serves_on() -> None:
    with FakeMcpServer() as server:
        wire = Wire(server)
        wire.initialize()
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n")
            assert raw.recv(100).startswith(b"HTTP/1.1 400")
        assert wire.request("ping")["result"] == {}


def test_a_chunked_body_is_read_whole() -> None:
    with FakeMcpServer([McpTool("t", answer="ok")]) as server:
        wire = Wire(server)
        wire.initialize()
        body = json.dumps(
            {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "t"}}
        )
        half = len(body) // 2
        chunks = "".join(f"{len(part):x}\r\n{part}\r\n" for part in (body[:half], body[half:]))
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.putrequest("POST", "/mcp")
        for name, value in (("content-type", "application/json"), ("transfer-encoding", "chunked")):
            connection.putheader(name, value)
        connection.putheader("mcp-session-id", wire.session or "")
        connection.endheaders((chunks + "0\r\n\r\n").encode())
        answer = json.loads(connection.getresponse().read())
        connection.close()
    assert text_of(answer) == "ok"


def test_a_fault_of_the_double_itself_is_a_500_and_a_violation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import agentkit.fakes.mcp._dispatch as dispatch

    def broken(server: FakeMcpServer, exchange: Any) -> Any:
        raise RuntimeError("a bug")

    with FakeMcpServer(expect_connection=False, verify=False) as server:
        monkeypatch.setattr(dispatch, "answer", broken)
        status, body = Wire(server).post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert (status, body["error"]["code"]) == (500, -32603)
    assert kinds(server) == ["server_error"]


def test_close_ends_open_keep_alive_connections() -> None:
    server = FakeMcpServer(expect_connection=False).start()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/mcp")
    assert connection.getresponse().read() == b""
    server.close()
    server.close()  # idempotent
    assert not server.running
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.url
    connection.close()


# -------------------------------------------------------------- at the door


@pytest.mark.parametrize(
    ("build", "error", "argument"),
    [
        (lambda: McpTool(""), ArgumentValueError, "name"),
        (lambda: McpTool("t"), ArgumentTypeError, "answer"),
        (lambda: McpTool("t", answer=1, script=[1]), ArgumentValueError, "script"),
        (lambda: McpTool("t", script="abc"), ArgumentTypeError, "script"),
        (lambda: McpTool("t", answer=1, schema={"type": "array"}), ArgumentValueError, "schema"),
        (lambda: McpTool("t", answer=1, schema=[]), ArgumentTypeError, "schema"),  # type: ignore[arg-type]
        (lambda: McpTool("t", answer=1, timeout=0), ArgumentValueError, "timeout"),
        (lambda: McpTool("t", answer=1, expected_calls=-1), ArgumentValueError, "expected_calls"),
        (lambda: FakeMcpServer("t"), ArgumentTypeError, "tools"),  # type: ignore[arg-type]
        (lambda: FakeMcpServer([object()]), ArgumentTypeError, "tools[0]"),  # type: ignore[list-item]
        (
            lambda: FakeMcpServer([McpTool("t", answer=1), McpTool("t", answer=2)]),
            ArgumentValueError,
            "tools[1]",
        ),
        (lambda: FakeMcpServer(timeout=-1), ArgumentValueError, "timeout"),
        (lambda: FakeMcpServer(path="mcp"), ArgumentValueError, "path"),
        (lambda: FakeMcpServer(name=""), ArgumentValueError, "name"),
        (lambda: FakeMcpServer(verify=1), ArgumentTypeError, "verify"),  # type: ignore[arg-type]
    ],
)
def test_wrong_constructor_input_is_refused_naming_the_argument(
    build: Any, error: type[Exception], argument: str
) -> None:
    with pytest.raises(error) as raised:
        build()
    assert raised.value.argument == argument  # type: ignore[attr-defined]


def test_starting_twice_is_refused() -> None:
    with (
        FakeMcpServer(expect_connection=False) as server,
        pytest.raises(RuntimeError, match="already running"),
    ):
        server.start()


# ------------------------------------------------------- under the pytest plugin

INNER_HEAD = """
import http.client, json
from agentkit.fakes.mcp import FakeMcpServer, McpTool

def rpc(server, session, method, params, ident=1):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"content-type": "application/json"}
    if session:
        headers["mcp-session-id"] = session
    body = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
    connection.request("POST", "/mcp", json.dumps(body).encode(), headers)
    response = connection.getresponse()
    got = response.getheader("mcp-session-id"), json.loads(response.read())
    connection.close()
    return got

def initialize(server):
    return rpc(server, None, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})[0]
"""


def test_a_client_calling_an_undeclared_tool_fails_the_test_at_teardown(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(
        pytester,
        INNER_HEAD
        + """
def test_agent(self=None):
    with FakeMcpServer([McpTool("add", answer=0)]) as server:
        session = initialize(server)
        _, body = rpc(server, session, "tools/call", {"name": "rm", "arguments": {}}, 2)
        assert body["error"]["code"] == -32602  # the client was told, and carried on
""",
    )
    assert_verification_failed(result, kind="undeclared_tool", double="FakeMcpServer")


def test_a_server_never_connected_fails_the_test_and_a_used_one_passes(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(
        pytester,
        INNER_HEAD
        + """
def test_never():
    with FakeMcpServer([McpTool("add", answer=0)]):
        pass
""",
    )
    assert_verification_failed(result, kind="never_connected", double="FakeMcpServer")
    clean = run_inner(
        pytester,
        INNER_HEAD
        + """
def test_used():
    with FakeMcpServer([McpTool("add", answer=5)]) as server:
        session = initialize(server)
        _, body = rpc(server, session, "tools/call", {"name": "add", "arguments": {}}, 2)
        assert body["result"]["content"][0]["text"] == "5"
""",
    )
    assert_passed_clean(clean)
