"""FakeMcpServer: a strict MCP server double, served over streamable HTTP on loopback."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_bool,
    check_number,
    check_str,
    check_type,
    check_values,
)
from agentkit.core.types import ToolCall
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.core.verification.script import ScriptCursor
from agentkit.fakes.mcp.records import McpRequest
from agentkit.fakes.mcp.tool import McpTool

if TYPE_CHECKING:
    from agentkit.fakes.mcp._http import Exchange, Reply, Transport
    from agentkit.fakes.mcp.stdio import StdioServer

__all__ = ["FakeMcpServer"]


class FakeMcpServer(VerifyingDouble):
    """A strict MCP server double on ``http://127.0.0.1:<port>/mcp`` (streamable HTTP).

    Declare its ``tools`` (:class:`~agentkit.fakes.mcp.McpTool`: a name, the
    JSON schema of the arguments, and the answers), start it
    (``with FakeMcpServer(tools) as server:``), and point a client at
    :attr:`url` -- an MCP SDK client, or a real agent CLI through
    :mod:`agentkit.fakes.mcp.clients` -- or, for a client that starts its
    servers as commands, give it :meth:`stdio`. It answers ``initialize`` (the
    revisions 2024-11-05 to 2025-11-25, the client's own when it sends one of
    them), ``ping``, ``tools/list`` and ``tools/call``; each session gets its
    ``Mcp-Session-Id`` (a request with an unknown one is a 404, so the client
    initializes again; one with none is answered, as a server without
    sessions answers it).

    Records: :attr:`requests` (every JSON-RPC message, :class:`McpRequest`),
    :attr:`calls` (every ``tools/call`` as the kit's
    :class:`~agentkit.core.types.ToolCall`, the JSON-RPC id as its id) and
    :meth:`calls_to` (the arguments one tool was called with).

    Bad input is answered as JSON-RPC says, and the server serves on: a body
    that is not JSON ``-32700`` (HTTP 400), a message that is not a JSON-RPC
    request ``-32600`` (HTTP 400), an unknown method ``-32601``, a call to a
    tool not declared ``-32602``; a tool whose callable answer outlives its
    ``timeout`` ``-32603``.

    Strict (:mod:`agentkit.core.verification`): recorded, and raised by
    :meth:`assert_complete` / the pytest plugin at teardown, are a call to an
    undeclared tool (``undeclared_tool``), arguments the tool's schema
    refuses (``bad_arguments``; the client gets an ``isError`` result naming
    the errors, as a model would), a callable answer that raised anything
    but :class:`~agentkit.fakes.mcp.McpToolError` (``answer_raised``) or
    outlived its timeout (``tool_timeout``), an answer JSON cannot carry or
    its ``output_schema`` refuses (``bad_answer``), a call past the end of a
    script (``script_exhausted``), malformed JSON-RPC (``bad_request``), an
    unknown method (``unknown_method``), a request to another path
    (``unknown_route``), a failure of the
    double itself (``server_error``, answered 500); and at the end,
    a server no client ever initialized (``never_connected``; pass
    ``expect_connection=False`` for a test that proves a client does NOT
    connect), a tool called another number of times than its
    ``expected_calls`` (``expectation_unmet``), scripted answers never given
    (``unused_answers``). ``verify=False`` opts the server out.
    """

    def __init__(
        self,
        tools: Iterable[McpTool] = (),
        *,
        name: str = "agentkit-fake-mcp",
        version: str = "0.1.0",
        instructions: str | None = None,
        timeout: float = 30.0,
        path: str = "/mcp",
        expect_connection: bool = True,
        verify: bool = True,
    ) -> None:
        declared = check_values(tools, "FakeMcpServer", "tools", "a list of McpTool")
        self._tools: dict[str, McpTool] = {}
        for index, tool in enumerate(declared):
            check_type(tool, McpTool, "FakeMcpServer", f"tools[{index}]", "an McpTool")
            if tool.name in self._tools:
                raise ArgumentValueError(
                    "FakeMcpServer",
                    f"tools[{index}]",
                    "a tool whose name no other tool has",
                    tool.name,
                    "declare each tool once",
                )
            self._tools[tool.name] = tool
        self.name = check_str(name, "FakeMcpServer", "name", empty=False)
        self.version = check_str(version, "FakeMcpServer", "version", empty=False)
        if instructions is not None:
            check_str(instructions, "FakeMcpServer", "instructions")
        self.instructions = instructions
        self.timeout = check_number(timeout, "FakeMcpServer", "timeout")
        if self.timeout <= 0:
            raise ArgumentValueError("FakeMcpServer", "timeout", "a number of seconds > 0", timeout)
        check_str(path, "FakeMcpServer", "path")
        if not path.startswith("/"):
            raise ArgumentValueError("FakeMcpServer", "path", "a path starting with '/'", path)
        self.path = path
        self.expect_connection = check_bool(expect_connection, "FakeMcpServer", "expect_connection")
        self._scripts = {
            tool.name: ScriptCursor(tool.script, what="answer", where="McpTool")
            for tool in declared
            if tool.script is not None
        }
        self._lock = threading.Lock()
        self._requests: list[McpRequest] = []
        self._calls: list[ToolCall] = []
        self._sessions: set[str] = set()
        self._initialized = 0
        self._transport: Transport | None = None
        self._init_verification(verify=verify, name="FakeMcpServer")

    # ----------------------------------------------------------- lifecycle

    def start(self) -> Self:
        """Bind 127.0.0.1 on an ephemeral port and serve from threads of its own."""
        if self._transport is not None:
            raise RuntimeError("this FakeMcpServer is already running")
        from agentkit.fakes.mcp._http import Transport

        self._transport = Transport(self._answer, name=f"FakeMcpServer-{self.name}")
        return self

    def close(self) -> None:
        """Stop serving: the listening socket and every connection closed. Idempotent."""
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._transport is not None

    @property
    def port(self) -> int:
        if self._transport is None:
            raise RuntimeError(
                "FakeMcpServer is not running: use `with FakeMcpServer(...) as server:`"
            )
        return self._transport.port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/mcp``: what a client's MCP configuration names."""
        return f"http://127.0.0.1:{self.port}{self.path}"

    def stdio(self) -> StdioServer:
        """The command that reaches this running double over stdio, for a client configured
        with a command: the launcher :mod:`agentkit.fakes.mcp.stdio`, run by this interpreter."""
        import sys

        from agentkit.fakes.mcp.stdio import StdioServer

        return StdioServer(sys.executable, ("-m", "agentkit.fakes.mcp.stdio", self.url))

    # ------------------------------------------------------------- records

    @property
    def tools(self) -> tuple[McpTool, ...]:
        return tuple(self._tools.values())

    @property
    def requests(self) -> list[McpRequest]:
        """Every JSON-RPC message so far, in the order they were read (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def calls(self) -> list[ToolCall]:
        """Every ``tools/call`` so far -- undeclared tools too -- in order (a copy)."""
        with self._lock:
            return list(self._calls)

    def calls_to(self, tool: str) -> list[dict[str, Any]]:
        """The arguments of every call to ``tool``, in order, as plain dicts."""
        check_str(tool, "FakeMcpServer.calls_to", "tool")
        return [dict(call.arguments) for call in self.calls if call.name == tool]

    @property
    def connected(self) -> bool:
        """Whether a client has completed ``initialize``."""
        with self._lock:
            return self._initialized > 0

    # -------------------------------------------------------- verification

    def _leftovers(self) -> list[Violation]:
        found: list[Violation] = []
        if self.expect_connection and not self.connected:
            found.append(
                self._violation(
                    "never_connected",
                    "no client ever initialized a session with this server",
                    "check the client's MCP configuration points at server.url and that the "
                    "client reached the point of connecting (or pass expect_connection=False)",
                )
            )
        for tool in self._tools.values():
            count = len(self.calls_to(tool.name))
            if tool.expected_calls is not None and count != tool.expected_calls:
                found.append(
                    self._violation(
                        "expectation_unmet",
                        f"tool {tool.name!r} was expected {tool.expected_calls} call(s), got {count}",
                        "check what the agent was told to do, or the tool's expected_calls",
                    )
                )
        for name, cursor in self._scripts.items():
            if cursor.remaining:
                found.append(
                    self._violation(
                        "unused_answers",
                        f"tool {name!r} has {cursor.remaining} scripted answer(s) never asked for",
                        "the agent called the tool fewer times than the script claims; "
                        "shorten the script or find why the calls did not come",
                    )
                )
        return found

    # ------------------------------------------------------ for the wire

    def _answer(self, exchange: Exchange) -> Reply:
        from agentkit.fakes.mcp._dispatch import answer, internal_error

        try:
            return answer(self, exchange)
        except Exception as exc:  # the double's own fault: answered, and failing the test
            self._record_violation(
                "server_error",
                f"the double failed on {exchange.method} {exchange.path}: {exc!r}",
                "a bug in FakeMcpServer; report it with this request",
            )
            return internal_error(exc)

    def _keep(self, record: McpRequest) -> None:
        with self._lock:
            self._requests.append(record)

    def _keep_call(self, call: ToolCall) -> None:
        with self._lock:
            self._calls.append(call)

    def _open_session(self) -> str:
        import uuid

        session = uuid.uuid4().hex
        with self._lock:
            self._sessions.add(session)
        return session

    def _session_known(self, session: str) -> bool:
        with self._lock:
            return session in self._sessions

    def _end_session(self, session: str) -> bool:
        with self._lock:
            if session in self._sessions:
                self._sessions.discard(session)
                return True
            return False

    def _mark_initialized(self) -> None:
        with self._lock:
            self._initialized += 1

    def _next_scripted(self, tool: str) -> Any:
        with self._lock:
            return self._scripts[tool].next()

    def _tool(self, name: str) -> McpTool | None:
        return self._tools.get(name)

    def _server_info(self) -> Mapping[str, Any]:
        return {"name": self.name, "version": self.version}
