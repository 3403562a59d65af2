"""The stdio launcher: JSON-RPC lines on stdin, to the double over HTTP, answers on stdout."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from agentkit.fakes.mcp import FakeMcpServer, McpTool
from agentkit.fakes.mcp.stdio import bridge, main

HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}


def lines(*messages: object) -> io.BytesIO:
    return io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages) + b"not json\n\n")


def test_each_line_is_answered_in_order_in_one_session_and_notifications_get_none() -> None:
    out = io.BytesIO()
    with FakeMcpServer([McpTool("t", answer="ok")], verify=False) as server:
        bridge(
            server.url,
            lines(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t"}},
            ),
            out,
        )
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, None]
    assert answers[1]["result"]["content"][0]["text"] == "ok"
    assert answers[2]["error"]["code"] == -32700  # the line that was not JSON: the double's answer
    sessions = {r.session for r in server.requests if r.method != "initialize" and r.method}
    assert len(sessions) == 1
    assert None not in sessions
    assert [v.kind for v in server.violations()] == ["bad_request"]


def test_a_bad_command_line_and_a_gone_double_exit_non_zero() -> None:
    assert main([]) == 2
    gone = FakeMcpServer(expect_connection=False).start()
    url = gone.url
    gone.close()
    done = subprocess.run(
        [sys.executable, "-m", "agentkit.fakes.mcp.stdio", url],
        input=b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n',
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert b"is gone" in done.stderr
