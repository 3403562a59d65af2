"""The Responses API's ``namespace`` tools: how codex offers an MCP server's tools.

codex offers each MCP server as one ``namespace`` tool (``mcp__<server>``
holding ``<tool>``) and runs a model's call only when the ``function_call``
names the namespace and the inner tool apart; a flat ``mcp__<server>__<tool>``
is refused. FakeApi offers the script each inner tool under that flat name,
and sends a scripted call of it back as the namespace and the inner name.
"""

from __future__ import annotations

import http.client
import json
from typing import Any

from agentkit.core.types import ToolCall
from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

FORECAST = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [
    {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
    {
        "type": "namespace",
        "name": "mcp__weather",
        "description": "Tools in the mcp__weather namespace.",
        "tools": [{"type": "function", "name": "forecast", "parameters": FORECAST}],
    },
]


def respond(api: FakeApi, body: dict[str, Any]) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
    try:
        headers = {"authorization": "Bearer k", "content-type": "application/json"}
        connection.request("POST", "/v1/responses", json.dumps(body).encode(), headers)
        response = connection.getresponse()
        assert response.status == 200
        return json.loads(response.read())
    finally:
        connection.close()


def test_a_namespace_tool_is_offered_flat_and_called_by_namespace_and_inner_name() -> None:
    llm = FakeLLM.script(
        [
            Turn(tool_calls=[ToolCall("call_1", "mcp__weather__forecast", {"city": "Oslo"})]),
            Turn("21 degrees."),
        ]
    )
    with FakeApi(llm) as api:
        first = respond(api, {"model": "gpt-5", "input": "Weather?", "tools": TOOLS})
        (item,) = first["output"]
        assert (item["type"], item["namespace"], item["name"]) == (
            "function_call",
            "mcp__weather",
            "forecast",
        )
        assert json.loads(item["arguments"]) == {"city": "Oslo"}
        follow_up = [
            {"type": "message", "role": "user", "content": "Weather?"},
            {**item, "status": "completed"},
            {"type": "function_call_output", "call_id": "call_1", "output": '{"temp": 21}'},
        ]
        respond(api, {"model": "gpt-5", "input": follow_up, "tools": TOOLS})
    offered = [(t.name, dict(t.parameters)) for t in llm.calls[0].tools or ()]
    assert offered == [
        ("exec_command", {"type": "object"}),
        ("mcp__weather__forecast", FORECAST),
    ]
    call, result = list(llm.calls[1].messages)[-2:]
    assert call.tool_calls == (ToolCall("call_1", "mcp__weather__forecast", {"city": "Oslo"}),)
    assert (result.role, result.name, result.content) == (
        "tool",
        "mcp__weather__forecast",
        '{"temp": 21}',
    )


def test_a_plain_function_call_carries_no_namespace() -> None:
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("call_1", "exec_command", {"cmd": "ls"})])])
    with FakeApi(llm) as api:
        (item,) = respond(api, {"model": "gpt-5", "input": "List.", "tools": TOOLS})["output"]
    assert "namespace" not in item
    assert item["name"] == "exec_command"
