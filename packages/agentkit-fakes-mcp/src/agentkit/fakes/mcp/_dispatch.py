"""Answer one HTTP exchange of streamable HTTP: route, session, JSON-RPC, then the method.

Kept apart from :mod:`agentkit.fakes.mcp.server` so the double's surface
(declare, start, read the records) reads on its own, and this module holds
the protocol's order of checks: the path, the ``Origin`` (a browser page must
not reach a loopback server), the HTTP method, the JSON, the session, the
message, the method. Each refusal is the answer the protocol names, and each
is kept in the server's records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agentkit.core.schema import schema_errors
from agentkit.core.types import ToolCall
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.mcp import _protocol as p
from agentkit.fakes.mcp._http import Exchange, Reply
from agentkit.fakes.mcp._run import run_answer
from agentkit.fakes.mcp.records import McpRequest
from agentkit.fakes.mcp.tool import McpTool, McpToolError

if TYPE_CHECKING:
    from agentkit.fakes.mcp.server import FakeMcpServer

__all__ = ["answer", "internal_error"]

_SESSION = "mcp-session-id"
_VERSION = "mcp-protocol-version"
_NO_SESSION_NEEDED = frozenset({"initialize", "server/discover"})
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def _json(status: int, body: Any, headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    return Reply(status, json.dumps(body, ensure_ascii=False).encode(), headers)


def internal_error(exc: Exception) -> Reply:
    return _json(500, p.error(None, p.INTERNAL_ERROR, f"Internal error: {exc!r}"))


def answer(server: FakeMcpServer, exchange: Exchange) -> Reply:
    session = exchange.headers.get(_SESSION)
    if exchange.path.split("?", 1)[0] != server.path:
        server._record_violation(
            "unknown_route",
            f"{exchange.method} {exchange.path}: the server serves MCP on {server.path} only",
            f"point the client at {server.url}",
        )
        return Reply(404)
    origin = exchange.headers.get("origin")
    if origin and urlsplit(origin).hostname not in _LOOPBACK:
        return _json(403, p.error(None, p.INVALID_REQUEST, f"Origin {origin!r} is not allowed"))
    if exchange.method == "DELETE":
        return Reply(200 if session is not None and server._end_session(session) else 404)
    if exchange.method != "POST":
        # No server-initiated stream (GET): the protocol's answer is 405.
        return Reply(405, headers=(("Allow", "POST, DELETE"),))
    try:
        message = json.loads(exchange.body)
    except ValueError as exc:
        server._keep(McpRequest("", {}, None, session, p.PARSE_ERROR))
        server._record_violation(
            "bad_request", f"a body that is not JSON: {exc}", "send JSON-RPC 2.0 messages"
        )
        return _json(400, p.error(None, p.PARSE_ERROR, f"Parse error: {exc}"))
    if isinstance(message, list):
        return _batch(server, message, session, exchange)
    return _single(server, message, session, exchange)


def _batch(
    server: FakeMcpServer, messages: list[Any], session: str | None, exchange: Exchange
) -> Reply:
    if not messages:
        status, body, _ = _refused(server, None, session, "an empty batch")
        return _json(status, body)
    answers: list[Any] = []
    for message in messages:
        reply = _message(server, message, session, exchange)
        if reply is not None:
            answers.append(reply[1])
    return _json(200, answers) if answers else Reply(202)


def _single(server: FakeMcpServer, message: Any, session: str | None, exchange: Exchange) -> Reply:
    reply = _message(server, message, session, exchange)
    if reply is None:
        return Reply(202)
    status, body, headers = reply
    return _json(status, body, headers)


_Answer = tuple[int, dict[str, Any], tuple[tuple[str, str], ...]]


def _refused(server: FakeMcpServer, ident: Any, session: str | None, why: str) -> _Answer:
    """A message that is not JSON-RPC 2.0: HTTP 400, ``-32600``, a ``bad_request``."""
    server._keep(McpRequest("", {}, None, session, p.INVALID_REQUEST))
    server._record_violation(
        "bad_request", f"not a JSON-RPC 2.0 message: {why}", "send JSON-RPC 2.0 messages"
    )
    return 400, p.error(ident, p.INVALID_REQUEST, f"Invalid Request: {why}"), ()


def _message(
    server: FakeMcpServer, message: Any, session: str | None, exchange: Exchange
) -> _Answer | None:
    """The answer to one message: ``(status, body, headers)``, or None for one that gets none."""
    if not isinstance(message, dict):
        return _refused(server, None, session, "a message must be a JSON object")
    if "method" not in message and ("result" in message or "error" in message):
        return None  # a client's answer to a server request: the double sends none
    ident = message.get("id")
    notification = "id" not in message
    if message.get("jsonrpc") != "2.0":
        return _refused(server, ident, session, 'the "jsonrpc" member must be "2.0"')
    method = message.get("method")
    if not isinstance(method, str):
        return _refused(server, ident, session, 'the "method" member must be a string')
    if not notification and (isinstance(ident, bool) or not isinstance(ident, str | int)):
        return _refused(server, None, session, 'the "id" member must be a string or an integer')
    params = message.get("params", {})
    rpc = _Rpc(server, method, params if isinstance(params, dict) else {}, ident, session)
    if not isinstance(params, dict):
        return rpc.error(p.INVALID_PARAMS, '"params" must be an object')
    if method not in _NO_SESSION_NEEDED:
        refused = _session_refused(rpc, exchange)
        if refused is not None:
            return None if notification else refused
    if notification:
        server._keep(McpRequest(method, params, None, session))
        return None
    return _request(rpc, exchange)


@dataclass(frozen=True, slots=True)
class _Rpc:
    """One JSON-RPC request being answered: each answer is kept in the server's records."""

    server: FakeMcpServer
    method: str
    params: dict[str, Any]
    ident: Any
    session: str | None

    def violation(self, kind: str, detail: str, fix: str) -> None:
        self.server._record_violation(kind, detail, fix)

    def error(self, code: int, message: str, *, status: int = 200, data: Any = None) -> _Answer:
        self.server._keep(McpRequest(self.method, self.params, self.ident, self.session, code))
        return status, p.error(self.ident, code, message, data), ()

    def result(self, body: dict[str, Any], *headers: tuple[str, str]) -> _Answer:
        self.server._keep(McpRequest(self.method, self.params, self.ident, self.session))
        return 200, p.result(self.ident, body), headers


def _session_refused(rpc: _Rpc, exchange: Exchange) -> _Answer | None:
    """A session the server does not know is refused; a request with none is answered, as a
    server without sessions would (whether a client initialized is ``never_connected``'s
    question)."""
    if rpc.session is not None and not rpc.server._session_known(rpc.session):
        # An ended or unknown session: 404 tells the client to initialize again.
        return rpc.error(p.INVALID_REQUEST, "Session not found", status=404)
    version = exchange.headers.get(_VERSION)
    if version is not None and version not in p.HANDSHAKE_REVISIONS:
        rpc.violation(
            "bad_request",
            f"MCP-Protocol-Version {version!r} on {rpc.method!r} is no revision a session has",
            f"send one of {', '.join(p.HANDSHAKE_REVISIONS)}",
        )
        message = f"Bad Request: unsupported MCP-Protocol-Version {version!r}"
        return rpc.error(p.INVALID_REQUEST, message, status=400)
    return None


def _request(rpc: _Rpc, exchange: Exchange) -> _Answer:
    server, method = rpc.server, rpc.method
    if method == "initialize":
        server._mark_initialized()
        body: dict[str, Any] = {
            "protocolVersion": p.negotiate(rpc.params.get("protocolVersion")),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": dict(server._server_info()),
        }
        if server.instructions is not None:
            body["instructions"] = server.instructions
        return rpc.result(body, ("Mcp-Session-Id", server._open_session()))
    if method == "server/discover":
        supported = {"supported": list(p.HANDSHAKE_REVISIONS)}
        return rpc.error(
            p.UNSUPPORTED_PROTOCOL_VERSION,
            "this server speaks the initialize handshake only",
            data={**supported, "requested": exchange.headers.get(_VERSION, "")},
        )
    if method == "ping":
        return rpc.result({})
    if method == "tools/list":
        return rpc.result({"tools": [tool.listing() for tool in server.tools]})
    if method == "tools/call":
        return _call(rpc)
    rpc.violation(
        "unknown_method",
        f"{method!r}: the server offers initialize, ping, tools/list and tools/call",
        "call only what the server's capabilities announce",
    )
    return rpc.error(p.METHOD_NOT_FOUND, f"Method not found: {method}")


def _call(rpc: _Rpc) -> _Answer:
    name = rpc.params.get("name")
    arguments = rpc.params.get("arguments", {})
    if not isinstance(name, str) or not isinstance(arguments, dict):
        rpc.violation(
            "bad_arguments",
            f"tools/call with name {name!r} and arguments {arguments!r}",
            "send a tool name and an object of arguments",
        )
        return rpc.error(
            p.INVALID_PARAMS, "tools/call needs a string name and an object of arguments"
        )
    rpc.server._keep_call(ToolCall(str(rpc.ident), name, arguments))
    tool = rpc.server._tool(name)
    if tool is None:
        declared = ", ".join(repr(t.name) for t in rpc.server.tools) or "none"
        rpc.violation(
            "undeclared_tool",
            f"tools/call of {name!r}, a tool the server does not declare (declared: {declared})",
            f"declare McpTool({name!r}, ...) or find why the agent called it",
        )
        return rpc.error(p.INVALID_PARAMS, f"Unknown tool: {name}")
    errors = schema_errors(tool.schema, arguments)
    if errors:
        rpc.violation(
            "bad_arguments",
            f"tool {name!r} called with {arguments!r}: {'; '.join(errors)}",
            "fix the call's arguments (the model's, or the script's) or the tool's schema",
        )
        text = f"Invalid arguments for tool {name}: {'; '.join(errors)}"
        return rpc.result(p.tool_result(text, is_error=True))
    return _run(rpc, tool, arguments)


def _run(rpc: _Rpc, tool: McpTool, arguments: dict[str, Any]) -> _Answer:
    if tool.script is not None:
        try:
            value = rpc.server._next_scripted(tool.name)
        except ScriptExhausted as exc:
            rpc.violation(
                "script_exhausted",
                f"tool {tool.name!r}: {exc}",
                "script one answer per call, or find why the agent called it again",
            )
            return rpc.error(p.INTERNAL_ERROR, f"tool {tool.name} has no answer left")
    else:
        value = tool.answer
    if callable(value) and not isinstance(value, McpToolError):
        timeout = tool.timeout if tool.timeout is not None else rpc.server.timeout
        try:
            value = run_answer(value, arguments, timeout)
        except McpToolError as failure:
            value = failure
        except TimeoutError:
            rpc.violation(
                "tool_timeout",
                f"tool {tool.name!r} did not answer within {timeout:g} s",
                "make the answer return, or raise the tool's timeout",
            )
            return rpc.error(p.INTERNAL_ERROR, f"tool {tool.name} timed out after {timeout:g} s")
        except Exception as exc:
            rpc.violation(
                "answer_raised",
                f"tool {tool.name!r}'s answer raised {type(exc).__name__}: {exc}",
                "fix the answer, or raise McpToolError for a failure the test means",
            )
            value = McpToolError(f"{type(exc).__name__}: {exc}")
    return _result(rpc, tool, value)


def _result(rpc: _Rpc, tool: McpTool, value: Any) -> _Answer:
    if isinstance(value, McpToolError):
        return rpc.result(p.tool_result(value.message, is_error=True))
    try:
        out = p.tool_result(value)
    except (TypeError, ValueError) as exc:
        rpc.violation(
            "bad_answer",
            f"tool {tool.name!r} answered {value!r}, which JSON cannot carry: {exc}",
            "answer with a str, a mapping or another JSON value",
        )
        return rpc.error(p.INTERNAL_ERROR, f"tool {tool.name} gave an answer JSON cannot carry")
    errors = (
        []
        if tool.output_schema is None
        else schema_errors(tool.output_schema, out.get("structuredContent"))
    )
    if errors:
        rpc.violation(
            "bad_answer",
            f"tool {tool.name!r} answered {value!r}: {'; '.join(errors)}",
            "make the answer fit the tool's output_schema",
        )
        return rpc.error(
            p.INTERNAL_ERROR, f"tool {tool.name}'s answer does not fit its output schema"
        )
    return rpc.result(out)
